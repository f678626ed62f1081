// The context menu (save, "Hide this", "Keep this", undo) and the keyboard shortcuts (manifest
// "commands"). Both act through the content script of the tab, which holds the page; a short
// badge on the button tells how it went, since neither a menu nor a shortcut has a place to show
// text.

const SAVE_MENU = "pagesieve-save";
const HIDE_MENU = "pagesieve-hide";
const KEEP_MENU = "pagesieve-keep";
const UNDO_MENU = "pagesieve-undo";

// api: the browser's extension API (platform.api); showBadge(tab, ok, title): how a menu or a
// shortcut went, on the button (toolbar.js flash). Registers the menu and the shortcut
// listeners; returns {onMenuClick, onCommand}, which the browser tests call directly.
export function setUpMenus(api, showBadge) {
  api.runtime.onInstalled.addListener(() => {
    api.contextMenus.create({ id: SAVE_MENU, title: "Save clean article (pagesieve)", contexts: ["page", "selection", "link", "image"] });
    api.contextMenus.create({ id: HIDE_MENU, title: "Hide this (noise)", contexts: ["all"] });
    api.contextMenus.create({ id: KEEP_MENU, title: "Keep this (content)", contexts: ["all"] });
    api.contextMenus.create({ id: UNDO_MENU, title: "Undo last correction", contexts: ["all"] });
  });

  // The content script saves (it holds the page and fetches the images).
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

  // "Hide this" / "Keep this" start the content script's picker on the right-clicked block;
  // "Undo last correction" removes the newest correction of the site.
  async function onMenuClick(info, tab) {
    if (!tab || tab.id === undefined) return { ok: false, error: "no tab" };
    if (info.menuItemId === SAVE_MENU) return saveTab(tab);
    if (info.menuItemId !== UNDO_MENU && info.menuItemId !== HIDE_MENU && info.menuItemId !== KEEP_MENU) return { ok: false, error: "unknown menu item" };
    const message = info.menuItemId === UNDO_MENU ? { type: "pagesieve.undo" }
      : { type: "pagesieve.pick", label: info.menuItemId === HIDE_MENU ? "noise" : "content" };
    try {
      return await api.tabs.sendMessage(tab.id, message, { frameId: info.frameId || 0 });
    } catch (e) {
      return { ok: false, error: "this page cannot be corrected (reload it, or it is a browser page)" };
    }
  }

  // The reader view and hiding toggle, as the popup's buttons do; a failure shows on the badge.
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

  api.contextMenus.onClicked.addListener((info, tab) => { onMenuClick(info, tab); });
  api.commands.onCommand.addListener((command, tab) => { onCommand(command, tab); });
  return { onMenuClick, onCommand };
}
