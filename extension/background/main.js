// The background: the port to the pagesieve host and the named channels of the extension's
// messages. An ES module: Chromium runs it as the service worker, Firefox as the event page's
// script (manifest "background", "type": "module"; tools/build_extension.py gives each browser
// its key). Files: port.js (the native port), requests.js (the host requests a script may
// send), menus.js (context menu, shortcuts), reader-pages.js (the reader without the host),
// toolbar.js (the button's icon and badge: each tab's state).
import "../platform.js";
import "../channels.js";
import { HOST, createHostPort } from "./port.js";
import { prepare } from "./requests.js";
import { setUpMenus } from "./menus.js";
import { setUpReaderPages } from "./reader-pages.js";
import { setUpToolbar } from "./toolbar.js";
import { snippets as consentSnippets } from "../vendor/autoconsent/snippets.js";

const { platform, createChannels } = globalThis.pagesieve;
const api = platform.api;

// The one command that registers the host, once the pagesieve program is installed (pipx install
// of the wheel, README "Installing"); the popup shows it with what needs the host.
const INSTALL_COMMAND = "pagesieve install-host";

// The host's port. Test hook: the browser tests wrap pagesieveHost.request (to see what is sent)
// and pagesieveHost.post (to lose a stream's parts), so both are called through this object.
const host = createHostPort({ connect: () => api.runtime.connectNative(HOST), closedWhy: platform.disconnectError });
globalThis.pagesieveHost = host;

const failed = (error) => ({
  ok: false, error: String(error.message || error), hostMissing: platform.hostMissing(error.message), install: INSTALL_COMMAND,
});

// A host request of one of the extension's scripts, answered with {ok: true, reply} or
// {ok: false, error, hostMissing, install}.
async function forward(sender, name, fields) {
  const prepared = prepare(name, fields, sender, api.runtime.getURL(""));
  if (prepared.error) return { ok: false, error: prepared.error };
  try {
    return { ok: true, reply: await host.request(name, prepared.fields) };
  } catch (error) {
    return failed(error);
  }
}

const channels = createChannels();
channels.define("host", (message, sender) => forward(sender, message.request, message.fields || {}));

// The popup's host and site lines: {ok: true, version, personal} (ping; personal: what the host
// says of the personal model, e.g. its rebuild after an upgrade, docs/protocol.md "ping"), and with {url} of a web page
// what the host holds of its site: {site, pages} (history: the pages its template learned from)
// and {corrections, reach} (labels: the user's active corrections there, and the widest reach
// of them: {pages, site_pages}); or why the host cannot be
// reached ({ok: false, error, hostMissing, install}).
channels.define("status", async (message) => {
  let pong;
  try {
    pong = await host.request("ping", {});
  } catch (error) {
    return { ...failed(error), hostMissing: platform.hostMissing(error.message) || platform.hostMissing(host.lastError()) };
  }
  const status = { ok: true, version: pong.version, ...(pong.personal ? { personal: pong.personal } : {}) };
  if (typeof message.url !== "string" || !/^https?:/.test(message.url)) return status;
  try {
    const history = await host.request("history", { url: message.url });
    if (!history.ok || !history.site) return status;
    const labels = await host.request("labels", { site: history.site });
    if (!labels.ok) return { ...status, site: history.site, pages: history.pages };
    // how far the site's corrections reach: the widest of them, among the site's pages seen
    // the pages a correction reaches: those holding its kind of block, less those it stays off
    const reached = (reach) => reach.pages - (reach.stays_off || 0);
    const widest = labels.labels.reduce((best, lab) => (lab.reach && (!best || reached(lab.reach) > reached(best)) ? lab.reach : best), null);
    return { ...status, site: history.site, pages: history.pages, corrections: labels.sites[history.site] || 0, reach: widest };
  } catch (error) {
    return status;  // the host answered the ping: what it holds of the site is left out
  }
});

// The popup's "Open library": a window of its own, started by the host.
channels.define("library", async () => {
  const { libraryFolder = "" } = await api.storage.local.get("libraryFolder");
  try {
    const reply = await host.request("library", libraryFolder ? { folder: libraryFolder } : {});
    return reply.ok ? { ok: true } : { ok: false, error: reply.error.message };
  } catch (error) {
    return failed(error);
  }
});

// A browser test's request to open the options page (content/clean.js, "pagesieve:test-open-options"):
// Firefox 153's WebDriver BiDi may not navigate to an extension page, so the extension opens it.
// Honoured only in a development install (a temporary add-on, an unpacked extension); a user's
// installed extension ignores it. The options page is opened once per background lifetime.
let testOptionsOpened = false;
channels.define("testOpenOptions", () => {
  if (testOptionsOpened) return undefined;
  api.management.getSelf().then((self) => {
    if (self.installType !== "development" || testOptionsOpened) return undefined;
    testOptionsOpened = true;
    return api.runtime.openOptionsPage();
  }).catch(() => { testOptionsOpened = false; });
  return undefined;
});

// Consent pop-ups (content/consent.js): the bundled autoconsent library and its rules are put
// into the asking page's content-script world only when they are needed (a click on hide or
// reader, or a page load with the option on), not into every page (400 KB).
channels.define("loadAutoconsent", async (message, sender) => {
  if (!sender.tab) return { ok: false, error: "not asked from a page" };
  try {
    await api.scripting.executeScript({
      target: { tabId: sender.tab.id, frameIds: [sender.frameId || 0] }, files: ["vendor/autoconsent/autoconsent.js"],
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error.message || error) };
  }
});

// A rule of autoconsent that asks the page's consent manager script itself (window.Cookiebot
// ...): the snippet named snippetId, one of the bundled library's own, is run in the page's world
// (never code sent as text). Answers {ok: true, result: boolean}; any failure {ok: false, error}.
channels.define("autoconsentEval", async (message, sender) => {
  const snippet = Object.hasOwn(consentSnippets, message.snippetId) ? consentSnippets[message.snippetId] : null;
  if (!sender.tab || !snippet) return { ok: false, error: "no such snippet" };
  try {
    const [done] = await api.scripting.executeScript({
      target: { tabId: sender.tab.id, frameIds: [sender.frameId || 0] }, world: "MAIN", func: snippet,
    });
    return { ok: true, result: Boolean(done && done.result) };
  } catch (error) {
    return { ok: false, error: String(error.message || error) };
  }
});

// Stream and reader-page ids stay unique when the worker restarts (its counters start again).
const RUN_PREFIX = "s" + Date.now().toString(36) + "-";
setUpReaderPages(api, channels, RUN_PREFIX, INSTALL_COMMAND);
api.runtime.onMessage.addListener(channels.listener);

// A snapshot streamed by a content script (docs/protocol.md, "Streaming a snapshot"): each
// {type: "part", markup, boxes, fonts} goes on to the host at once as a "part" of this
// connection's stream, then {type: "request", request, fields} completes it; the answer comes
// back on the connection.
let nextStream = 1;
api.runtime.onConnect.addListener((client) => {
  if (client.name !== "pagesieve.stream") return;
  const stream = RUN_PREFIX + nextStream++;
  let seq = 0;
  client.onMessage.addListener((message) => {
    if (!message) return;
    if (message.type === "part") {
      host.post("part", { stream, seq: seq++, ack: false, markup: message.markup, boxes: message.boxes, fonts: message.fonts });
    } else if (message.type === "request") {
      const fields = message.fields || {};
      if (seq) fields.stream = stream;
      forward(client.sender || {}, message.request, fields).then((answer) => {
        try { client.postMessage(answer); } catch (e) { /* the tab went away */ }
      });
    }
  });
});

// the browser tests click the menu and press the shortcuts through these
const toolbar = setUpToolbar(api, channels);
const { onMenuClick, onCommand } = setUpMenus(api, toolbar.flash);
globalThis.pagesieveMenuClick = onMenuClick;
globalThis.pagesieveCommand = onCommand;
