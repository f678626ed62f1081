"use strict";
const api = globalThis.pagesieve.platform.api;
const $ = (id) => document.getElementById(id);

const INSTALL_COMMAND = "pagesieve install-host";
// States of the personal model the popup tells the user about (docs/protocol.md, "ping").
const NOTEWORTHY = ["rebuilding", "rebuilt", "failed", "outdated"];

// What needs the host, and the command that installs it (the background's answer names it).
function showInstall(answer) {
  $("version").textContent = api.runtime.getManifest().version;
  $("installCommand").textContent = (answer && answer.install) || INSTALL_COMMAND;
  $("install").style.display = "block";
}

async function currentTab() {
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab;
}

function siteOf(url) {
  try { return new URL(url).hostname.replace(/^www\./, ""); } catch (e) { return ""; }
}

async function run(mode) {
  const tab = await currentTab();
  $("status").textContent = "…";
  let answer;
  try {
    answer = await api.tabs.sendMessage(tab.id, { type: "pagesieve.run", mode });
  } catch (e) {
    answer = { ok: false, error: "this page cannot be cleaned (reload it, or it is a browser page)" };
  }
  if (answer && answer.ok && answer.withoutHost) {
    $("status").textContent = "The reader view opened in a new tab, without the host (Mozilla's Readability).";
    showInstall({ install: INSTALL_COMMAND });
  } else if (answer && answer.ok) {
    $("status").textContent = mode === "off" ? "Page restored." : `${answer.hidden} part(s) hidden, ${answer.words} words left.`;
    setShowHidden(mode !== "off" && answer.hidden > 0, false);
    if (answer.site) {
      const fixes = answer.corrections ? ` ${answer.corrections} correction(s) of yours apply.` : "";
      $("site").textContent = `${answer.sitePages || 0} page(s) of ${answer.site} learned.${fixes}`;
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

async function init() {
  for (const mode of ["hide", "reader", "off"]) $(mode).addEventListener("click", () => run(mode));
  $("save").addEventListener("click", save);
  $("showHidden").addEventListener("click", toggleShowHidden);
  $("library").addEventListener("click", openLibrary);
  const tab = await currentTab();
  const site = siteOf(tab && tab.url);
  try {
    const state = await api.tabs.sendMessage(tab.id, { type: "pagesieve.state" });
    if (state && state.ok) setShowHidden(state.hidden > 0, state.showing);
  } catch (e) { /* no content script in this tab (a browser page) */ }
  const { auto = {}, corrected = {} } = await api.storage.local.get(["auto", "corrected"]);
  $("auto").value = auto[site] || "";
  $("fixes").textContent = corrected[site]
    ? `${corrected[site]} correction(s) of yours apply on ${site}.`
    : "Something wrong? Right-click it: Hide this, or Keep this.";
  $("auto").addEventListener("change", async () => {
    const { auto = {} } = await api.storage.local.get("auto");
    if ($("auto").value) auto[site] = $("auto").value; else delete auto[site];
    await api.storage.local.set({ auto });
  });
  const status = await api.runtime.sendMessage({ type: "pagesieve.status" });
  if (!status || !status.ok) {
    $("status").textContent = (status && status.error) || "the host does not answer";
    if (status && status.hostMissing) showInstall(status);
  } else if (status.personal && NOTEWORTHY.includes(status.personal.state)) {
    $("status").textContent = status.personal.message;  // the personal model's rebuild after an upgrade
  }
}
init();
