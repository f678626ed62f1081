// Background: one persistent native-messaging port to the pagesieve host (docs/protocol.md).
// Requests carry ids; replies are matched by id, chunked replies reassembled; a request that
// gets no answer in time fails; when the host exits, pending requests fail and the next request
// starts a new host.
"use strict";
const api = globalThis.browser ?? globalThis.chrome;
const HOST = "org.pagesieve.host";
const TIMEOUT_MS = 60000;
// The one command that registers the host, once the pagesieve program is installed (pipx install
// of the wheel, README "Installing"); the popup shows it with what needs the host.
const INSTALL_COMMAND = "pagesieve install-host";

let port = null;
let lastError = null;
let nextId = 1;
const pending = new Map();   // id -> {resolve, reject, timer}
const chunks = new Map();    // id -> array of data strings

function connect() {
  port = api.runtime.connectNative(HOST);
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener((p) => {
    const err = (p && p.error && p.error.message) || (api.runtime.lastError && api.runtime.lastError.message) || "the host exited";
    lastError = err;
    port = null;
    for (const [, waiter] of pending) { clearTimeout(waiter.timer); waiter.reject(new Error(err)); }
    pending.clear();
    chunks.clear();
  });
}

function onMessage(message) {
  if (message && message.type === "chunk") {
    const parts = chunks.get(message.id) || new Array(message.count);
    parts[message.index] = message.data;
    chunks.set(message.id, parts);
    if (parts.filter((x) => x !== undefined).length < message.count) return;
    chunks.delete(message.id);
    message = JSON.parse(parts.join(""));
  }
  const waiter = message && pending.get(message.id);
  if (!waiter) return;
  pending.delete(message.id);
  clearTimeout(waiter.timer);
  waiter.resolve(message);
}

function request(type, fields) {
  if (!port) connect();
  const id = "r" + nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { pending.delete(id); reject(new Error("the host did not answer in time")); }, TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    try {
      port.postMessage({ v: 1, id, type, ...fields });
    } catch (e) {
      clearTimeout(timer);
      pending.delete(id);
      port = null;
      reject(e);
    }
  });
}

// A message that needs no answer: the parts of a streamed snapshot, sent with "ack": false. The
// host answers only a part it refuses; that reply has no waiter and is dropped by onMessage (the
// request that completes the stream gets the same error).
function post(type, fields) {
  if (!port) connect();
  try {
    port.postMessage({ v: 1, id: "n" + nextId++, type, ...fields });
  } catch (e) {
    port = null;  // the request that completes the stream fails, and is sent whole
  }
}

function hostMissing(message) {
  return /not found|not installed|no such native application|specified native messaging host/i.test(message || "");
}

// A request of a content script, answered with {ok: true, reply} or {ok: false, error, ...}.
function forward(sender, name, fields, answer) {
  if (sender.tab && sender.tab.incognito && (name === "learn" || name === "label" || fields.learn)) fields.private = true;
  request(name, fields).then(
    (reply) => answer({ ok: true, reply }),
    (error) => answer({ ok: false, error: String(error.message || error), hostMissing: hostMissing(error.message), install: INSTALL_COMMAND }),
  );
}

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "pagesieve.host") return false;
  forward(sender, message.request, message.fields || {}, sendResponse);
  return true;
});

// A snapshot streamed by a content script (docs/protocol.md, "Streaming a snapshot"): each
// {type: "part", markup, boxes, fonts} goes on to the host at once as a "part" of this connection's stream,
// then {type: "request", request, fields} completes it; the answer comes back on the port.
// Stream names stay unique when the worker restarts (its counter starts again from 1).
const STREAM_PREFIX = "s" + Date.now().toString(36) + "-";
let nextStream = 1;
api.runtime.onConnect.addListener((client) => {
  if (client.name !== "pagesieve.stream") return;
  const stream = STREAM_PREFIX + nextStream++;
  let seq = 0;
  client.onMessage.addListener((message) => {
    if (!message) return;
    if (message.type === "part") {
      post("part", { stream, seq: seq++, ack: false, markup: message.markup, boxes: message.boxes, fonts: message.fonts });
    } else if (message.type === "request") {
      const fields = message.fields || {};
      if (seq) fields.stream = stream;
      forward(client.sender || {}, message.request, fields, (answer) => {
        try { client.postMessage(answer); } catch (e) { /* the tab went away */ }
      });
    }
  });
});

// status for the popup
api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "pagesieve.status") return false;
  request("ping", {}).then(
    (reply) => sendResponse({ ok: true, version: reply.version }),
    (error) => sendResponse({ ok: false, error: String(error.message || error), hostMissing: hostMissing(error.message) || hostMissing(lastError), install: INSTALL_COMMAND }),
  );
  return true;
});

// ---------------------------------------------------------------- save: menu and shortcut

const SAVE_MENU = "pagesieve-save";
const HIDE_MENU = "pagesieve-hide";
const KEEP_MENU = "pagesieve-keep";
const UNDO_MENU = "pagesieve-undo";

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({ id: SAVE_MENU, title: "Save clean article (pagesieve)", contexts: ["page", "selection", "link", "image"] });
  api.contextMenus.create({ id: HIDE_MENU, title: "Hide this (noise)", contexts: ["all"] });
  api.contextMenus.create({ id: KEEP_MENU, title: "Keep this (content)", contexts: ["all"] });
  api.contextMenus.create({ id: UNDO_MENU, title: "Undo last correction", contexts: ["all"] });
});

// The content script saves (it holds the page and fetches the images); a short badge tells
// how it went, since neither a menu nor a shortcut has a place to show text.
async function saveTab(tab) {
  if (!tab || tab.id === undefined) return;
  let result;
  try {
    result = await api.tabs.sendMessage(tab.id, { type: "pagesieve.save" });
  } catch (e) {
    result = { ok: false, error: "this page cannot be saved (reload it, or it is a browser page)" };
  }
  const ok = Boolean(result && result.ok);
  await showBadge(tab, ok, ok ? `pagesieve: saved “${result.title}”` : `pagesieve: not saved: ${(result && result.error) || "no answer"}`);
}

// The button's badge for 4 s (✓ or !) and its tooltip: where a shortcut or a menu tells how it went.
async function showBadge(tab, ok, title) {
  await api.action.setBadgeBackgroundColor({ tabId: tab.id, color: ok ? "#2e7d32" : "#c62828" });
  await api.action.setBadgeText({ tabId: tab.id, text: ok ? "✓" : "!" });
  await api.action.setTitle({ tabId: tab.id, title });
  setTimeout(() => api.action.setBadgeText({ tabId: tab.id, text: "" }).catch(() => {}), 4000);
}

// "Hide this" / "Keep this" start the content script's picker on the right-clicked block;
// "Undo last correction" removes the newest correction of the site.
async function onMenuClick(info, tab) {
  if (!tab || tab.id === undefined) return { ok: false, error: "no tab" };
  if (info.menuItemId === SAVE_MENU) return saveTab(tab);
  const message = info.menuItemId === UNDO_MENU ? { type: "pagesieve.undo" }
    : { type: "pagesieve.pick", label: info.menuItemId === HIDE_MENU ? "noise" : "content" };
  if (info.menuItemId !== UNDO_MENU && info.menuItemId !== HIDE_MENU && info.menuItemId !== KEEP_MENU) return { ok: false, error: "unknown menu item" };
  try {
    return await api.tabs.sendMessage(tab.id, message, { frameId: info.frameId || 0 });
  } catch (e) {
    return { ok: false, error: "this page cannot be corrected (reload it, or it is a browser page)" };
  }
}
globalThis.pagesieveMenuClick = onMenuClick;  // the browser tests click the menu through this

api.contextMenus.onClicked.addListener((info, tab) => { onMenuClick(info, tab); });

// Keyboard shortcuts (manifest "commands"): the reader view and hiding toggle, as the popup's
// buttons do; a failure shows on the button's badge, as a shortcut save does.
async function onCommand(command, tab) {
  if (!tab) [tab] = await api.tabs.query({ active: true, currentWindow: true });
  if (!tab || tab.id === undefined) return { ok: false, error: "no tab" };
  if (command === "save-article") return saveTab(tab);
  const mode = { "toggle-reader": "reader", "toggle-hide": "hide" }[command];
  if (!mode) return { ok: false, error: "unknown command" };
  let result;
  try {
    result = await api.tabs.sendMessage(tab.id, { type: "pagesieve.toggle", mode });
  } catch (e) {
    result = { ok: false, error: "this page cannot be cleaned (reload it, or it is a browser page)" };
  }
  if (!result || !result.ok) await showBadge(tab, false, `pagesieve: ${(result && result.error) || "no answer"}`);
  return result;
}
globalThis.pagesieveCommand = onCommand;  // the browser tests press the shortcuts through this

api.commands.onCommand.addListener((command, tab) => { onCommand(command, tab); });

// the popup's "Open library": a window of its own, started by the host
api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "pagesieve.library") return false;
  api.storage.local.get("libraryFolder").then(({ libraryFolder = "" }) => request("library", libraryFolder ? { folder: libraryFolder } : {})).then(
    (reply) => sendResponse(reply.ok ? { ok: true } : { ok: false, error: reply.error.message }),
    (error) => sendResponse({ ok: false, error: String(error.message || error), hostMissing: hostMissing(error.message), install: INSTALL_COMMAND }),
  );
  return true;
});

// A browser test's request to open the options page (content.js, "pagesieve:test-open-options"):
// Firefox 153's WebDriver BiDi may not navigate to an extension page, so the extension opens it.
// Honoured only in a development install (a temporary add-on, an unpacked extension); a user's
// installed extension ignores it. The options page is opened once per background lifetime.
let testOptionsOpened = false;
api.runtime.onMessage.addListener((message) => {
  if (!message || message.type !== "pagesieve.testOpenOptions" || testOptionsOpened) return false;
  api.management.getSelf().then((self) => {
    if (self.installType !== "development" || testOptionsOpened) return;
    testOptionsOpened = true;
    return api.runtime.openOptionsPage();
  }).catch(() => { testOptionsOpened = false; });
  return false;
});

// ---------------------------------------------------------------- reader view without the host
// When the host cannot be reached, the content script hands over the page's markup; it is kept
// here (and in storage.session, which outlives a restart of the worker, where there is room) and
// shown by reader.html?id=ID, the extension's own page, in a tab beside the page's.
const readerPages = new Map();  // id -> {html, url, title, install}
const READER_PAGES_KEPT = 8;
let nextReaderPage = 1;

async function keepReaderPage(page) {
  const id = STREAM_PREFIX + "p" + nextReaderPage++;
  readerPages.set(id, page);
  while (readerPages.size > READER_PAGES_KEPT) readerPages.delete(readerPages.keys().next().value);
  try {
    if (api.storage.session) await api.storage.session.set({ ["reader:" + id]: page });
  } catch (e) { /* over the session quota: kept in memory alone */ }
  return id;
}

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "pagesieve.readerWithoutHost") return false;
  const page = { html: String(message.html || ""), url: String(message.url || ""), title: String(message.title || ""), install: INSTALL_COMMAND };
  keepReaderPage(page).then((id) => {
    const tab = sender.tab || {};
    const url = api.runtime.getURL("reader.html") + "?id=" + encodeURIComponent(id);
    const where = tab.id !== undefined ? { index: tab.index + 1, openerTabId: tab.id, windowId: tab.windowId } : {};
    return api.tabs.create({ url, ...where }).then(() => sendResponse({ ok: true, url }));
  }).catch((error) => sendResponse({ ok: false, error: String(error.message || error) }));
  return true;
});

api.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || message.type !== "pagesieve.readerPage") return false;
  const key = "reader:" + message.id;
  const kept = readerPages.get(message.id);
  if (kept) { sendResponse({ ok: true, ...kept }); return false; }
  (api.storage.session ? api.storage.session.get(key) : Promise.resolve({})).then(
    (stored) => sendResponse(stored[key] ? { ok: true, ...stored[key] } : { ok: false, error: "gone" }),
    (error) => sendResponse({ ok: false, error: String(error.message || error) }),
  );
  return true;
});
