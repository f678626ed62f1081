// The popup: the host's state first (connected and its version, or the commands that install
// it), then this page's (its mode as one control: off, hide noise, reader; how many parts are
// hidden; what the site's template learned and the user's corrections there), saving and the
// library, and the keyboard shortcuts as the browser holds them (commands.getAll: the user's own
// bindings). Keyboard alone: Tab between the controls, the arrow keys within the modes.
"use strict";
const { api, openShortcutSettings } = globalThis.pagesieve.platform;
const $ = (id) => document.getElementById(id);

const INSTALL_COMMAND = "pagesieve install-host";
// States of the personal model the popup tells the user about (docs/protocol.md, "ping").
const NOTEWORTHY = ["rebuilding", "rebuilt", "failed", "outdated"];
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// What needs the host, and the command that installs it (the background's answer names it).
function showInstall(answer) {
  $("version").textContent = api.runtime.getManifest().version;
  $("installCommand").textContent = (answer && answer.install) || INSTALL_COMMAND;
  $("install").style.display = "block";
}

function showHost(kind, text) {
  $("host").querySelector(".dot").className = "dot " + kind;
  $("hostText").textContent = text;
}

async function currentTab() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab;
}

function siteOf(url) {
  try { return new URL(url).hostname.replace(/^www\./, ""); } catch (e) { return ""; }
}

// The site line: how many pages of the site its template learned from.
function showSite(site, pages) {
  if (!site) return;
  $("site").hidden = false;
  $("site").textContent = pages ? `Site template of ${site}: learned from ${plural(pages, "page", "pages")}.`
    : `Nothing learned of ${site} yet: its template grows as you read it.`;
}

// The corrections line: how many apply on the site and, when the host said, how far the widest
// of them reaches among the site's pages seen (the "reach" of the labels reply).
function showCorrections(site, count, reach) {
  let text = count
    ? `${plural(count, "correction", "corrections")} of yours ${count === 1 ? "applies" : "apply"} on ${site}.`
    : "Something wrong? Right-click it: Hide this, or Keep this.";
  if (count && reach) {
    const pages = reach.pages - (reach.stays_off || 0);  // a "hide" stays off the pages where its kind held the article
    text += pages > 1 ? ` ${count === 1 ? "It reaches" : "The widest reaches"} ${pages} of the ${reach.site_pages} pages seen.`
      : ` ${count === 1 ? "It reaches" : "Each reaches"} the page it was made on only.`;
  }
  $("fixes").textContent = text;
}

function checkMode(mode) {
  const input = $(mode === "hide" || mode === "reader" ? mode : "off");
  input.checked = true;
}

// The modes: a choice runs at once; a choice made while one runs (arrow keys over the group)
// waits, and the last one wins. A run that fails (rejects) leaves the controls working.
let running = null;
let wanted = null;
async function choose(mode) {
  wanted = mode;
  if (running) return;
  try {
    while (wanted) {
      const next = wanted;
      wanted = null;
      running = run(next);
      await running;
    }
  } finally {
    running = null;
  }
}

async function run(mode) {
  const tab = await currentTab();
  $("status").textContent = mode === "off" ? "Putting the page back…" : "Reading the page…";
  let answer;
  try {
    answer = await api.tabs.sendMessage(tab.id, { type: "pagesieve.run", mode });
  } catch (e) {
    answer = { ok: false, error: "this page cannot be cleaned (reload it, or it is a browser page)" };
  }
  if (answer && answer.ok && answer.withoutHost) {
    $("status").textContent = "The reader view opened in a new tab, without the host (Mozilla's Readability).";
    checkMode("off");
    showInstall({ install: INSTALL_COMMAND });
  } else if (answer && answer.ok) {
    $("status").textContent = mode === "off" ? "The page is as it was."
      : mode === "reader" ? `Reader view on: ${plural(answer.words, "word", "words")} of article.`
        : `${plural(answer.hidden, "part", "parts")} hidden, ${plural(answer.words, "word", "words")} left.`;
    setShowHidden(mode === "hide" && answer.hidden > 0, false);
    if (answer.site) {
      showSite(answer.site, answer.sitePages);
      if (answer.corrections !== undefined) showCorrections(answer.site, answer.corrections);
    }
  } else {
    $("status").textContent = (answer && answer.error) || "no answer";
    if (answer && answer.hostMissing) showInstall(answer);
  }
}

// "Show hidden": enabled when parts of the page are hidden; pressed while they are shown.
function setShowHidden(enabled, pressed) {
  $("showHidden").disabled = !enabled;
  $("showHidden").setAttribute("aria-pressed", String(pressed));
  $("showHidden").textContent = pressed ? "Hide them again" : "Show hidden";
}

async function toggleShowHidden() {
  const tab = await currentTab();
  const on = $("showHidden").getAttribute("aria-pressed") !== "true";
  let answer;
  try {
    answer = await api.tabs.sendMessage(tab.id, { type: "pagesieve.showHidden", on });
  } catch (e) {
    answer = { ok: false, error: "this page cannot be shown (reload it)" };
  }
  if (answer && answer.ok) {
    setShowHidden(true, on);
    $("status").textContent = on ? `${answer.shown} hidden part(s) outlined, each with its reason (Tab on the page walks them).` : "Hidden again.";
  } else {
    $("status").textContent = (answer && answer.error) || "no answer";
  }
}

async function save() {
  const tab = await currentTab();
  $("status").textContent = "Saving…";
  let answer;
  try {
    const tags = $("tags").value.split(",").map((t) => t.trim()).filter(Boolean);
    answer = await api.tabs.sendMessage(tab.id, { type: "pagesieve.save", tags });
  } catch (e) {
    answer = { ok: false, error: "this page cannot be saved (reload it, or it is a browser page)" };
  }
  if (answer && answer.ok) {
    $("status").textContent = `${answer.updated ? "Updated" : "Saved"} “${answer.title}”: ${answer.markdown}`;
  } else {
    $("status").textContent = (answer && answer.error) || "no answer";
    if (answer && answer.hostMissing) showInstall(answer);
  }
}

async function openLibrary() {
  const answer = await api.runtime.sendMessage({ type: "pagesieve.library" });
  $("status").textContent = answer && answer.ok ? "The library opens in its own window." : (answer && answer.error) || "no answer";
  if (answer && answer.hostMissing) showInstall(answer);
}

// The shortcuts as the browser holds them: the defaults of the manifest, or the user's own.
async function showShortcuts() {
  const list = $("shortcuts");
  list.textContent = "";
  const commands = (await api.commands.getAll()).filter((c) => c.description);
  for (const command of commands) {
    const dt = document.createElement("dt");
    dt.textContent = command.description;
    const dd = document.createElement("dd");
    dd.dataset.command = command.name;
    if (command.shortcut) {
      const kbd = document.createElement("kbd");
      kbd.textContent = command.shortcut;
      dd.append(kbd);
    } else {
      dd.textContent = "not set";
      dd.className = "muted";
    }
    list.append(dt, dd);
  }
}

async function init() {
  for (const input of document.querySelectorAll("#modes input")) input.addEventListener("change", () => { if (input.checked) choose(input.value); });
  $("save").addEventListener("click", save);
  $("showHidden").addEventListener("click", toggleShowHidden);
  $("library").addEventListener("click", openLibrary);
  $("changeShortcuts").addEventListener("click", () => { openShortcutSettings().catch(() => {}); });
  showShortcuts().catch(() => {});
  const tab = await currentTab();
  const site = siteOf(tab && tab.url);
  checkMode("off");
  try {
    const state = await api.tabs.sendMessage(tab.id, { type: "pagesieve.state" });
    if (state && state.ok) {
      checkMode(state.mode);
      setShowHidden(state.hidden > 0 && state.mode !== "reader", state.showing);
      if (state.mode === "hide") $("status").textContent = `${plural(state.hidden, "part", "parts")} of this page hidden.`;
      else if (state.mode === "reader") $("status").textContent = "Reader view on.";
      else if (state.hidden > 0) $("status").textContent = `${plural(state.hidden, "part", "parts")} hidden by your corrections.`;
    }
  } catch (e) {
    // no content script in this tab: a browser page, or one opened before the extension
    for (const input of document.querySelectorAll("#modes input")) input.disabled = true;
    $("status").textContent = "pagesieve cannot work on this page (a browser page, or reload it).";
  }
  const { auto = {}, corrected = {} } = await api.storage.local.get(["auto", "corrected"]);
  $("auto").value = auto[site] || "";
  showCorrections(site, corrected[site]);
  $("auto").addEventListener("change", async () => {
    const { auto = {} } = await api.storage.local.get("auto");
    if ($("auto").value) auto[site] = $("auto").value; else delete auto[site];
    await api.storage.local.set({ auto });
  });
  const status = await api.runtime.sendMessage({ type: "pagesieve.status", url: tab && tab.url });
  if (status && status.ok) {
    showHost("ok", `Host connected · ${status.version}`);
    if (status.site) showSite(status.site, status.pages);
    if (status.site && status.corrections !== undefined) showCorrections(status.site, status.corrections, status.reach);
    if (status.personal && NOTEWORTHY.includes(status.personal.state)) {
      $("status").textContent = status.personal.message;  // the personal model's rebuild after an upgrade
    }
  } else {
    showHost("bad", status && status.hostMissing ? "Host not installed" : "Host not answering");
    $("status").textContent = (status && status.error) || "the host does not answer";
    if (status && status.hostMissing) showInstall(status);
  }
  document.documentElement.dataset.ready = "1";  // for the browser tests
}
init();
