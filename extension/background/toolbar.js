// The toolbar button shows each tab's state, as uBlock Origin's does: its icon (off, noise
// hidden, reader view: PNGs rendered by the build from icons/pagesieve.svg) and, while the noise
// is hidden, the number of hidden parts as its badge. The content script reports its page's
// state after every change (channel "pageState", content/clean.js); a page that loads anew is
// off. A shortcut's or a menu's outcome shows on the badge for a moment (flash), then the
// page's state again.

export const ICONS = {
  off: { 16: "/icons/off-16.png", 32: "/icons/off-32.png" },
  hide: { 16: "/icons/hide-16.png", 32: "/icons/hide-32.png" },
  reader: { 16: "/icons/reader-16.png", 32: "/icons/reader-32.png" },
};

const BADGE_COLOR = "#0f766e";  // the icon's own teal, with white text: contrast 5.5:1
const FLASH_MS = 4000;          // how long a shortcut's ✓ or ! shows: long enough to be seen

// The button's look for a page state {mode, hidden}: the icon's state, the badge, the tooltip.
export function look(state) {
  const hidden = state && Number.isInteger(state.hidden) ? state.hidden : 0;
  const mode = state && state.mode;
  if (mode === "reader") return { icon: "reader", badge: "", title: "pagesieve: reader view" };
  if ((mode === "hide" || mode === "corrections") && hidden > 0) {
    return { icon: "hide", badge: hidden > 999 ? "999+" : String(hidden), title: `pagesieve: ${hidden} part${hidden === 1 ? "" : "s"} of this page hidden` };
  }
  return { icon: "off", badge: "", title: "pagesieve" };
}

// api: platform.api; channels: the background's named channels. Defines "pageState" (a content
// script's report) and "toolbar" (what the button of a tab shows: the browser tests ask it).
// Returns {flash(tab, ok, title)}.
export function setUpToolbar(api, channels) {
  const states = new Map();  // tab id -> {mode, hidden}
  const shown = new Map();   // tab id -> the look last set, once the browser took it

  async function show(tabId) {
    const wanted = look(states.get(tabId));
    await api.action.setIcon({ tabId, path: ICONS[wanted.icon] });
    await api.action.setBadgeBackgroundColor({ tabId, color: BADGE_COLOR });
    if (api.action.setBadgeTextColor) await api.action.setBadgeTextColor({ tabId, color: "#ffffff" });
    await api.action.setBadgeText({ tabId, text: wanted.badge });
    await api.action.setTitle({ tabId, title: wanted.title });
    shown.set(tabId, wanted);
    return wanted;
  }

  channels.define("pageState", (message, sender) => {
    const tab = sender && sender.tab;
    if (!tab || tab.id === undefined || (sender.frameId || 0) !== 0) return { ok: false, error: "not a tab's page" };
    states.set(tab.id, { mode: String(message.mode || "off"), hidden: Number(message.hidden) || 0 });
    return show(tab.id).then((wanted) => ({ ok: true, ...wanted }), (error) => ({ ok: false, error: String(error.message || error) }));
  });

  channels.define("toolbar", async (message) => {
    const tabId = message.tabId;
    return { ok: true, ...(shown.get(tabId) || look(undefined)), badgeText: await api.action.getBadgeText({ tabId }), tooltip: await api.action.getTitle({ tabId }) };
  });

  // a page loading anew starts off (its content script reports once it cleans it)
  api.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status !== "loading" || !states.has(tabId)) return;
    states.delete(tabId);
    show(tabId).catch(() => {});
  });
  api.tabs.onRemoved.addListener((tabId) => { states.delete(tabId); shown.delete(tabId); });

  // A shortcut's or a menu's outcome: ✓ or ! on the badge and the reason in the tooltip, then
  // the page's own state again.
  async function flash(tab, ok, title) {
    await api.action.setBadgeBackgroundColor({ tabId: tab.id, color: ok ? "#2e7d32" : "#c62828" });
    await api.action.setBadgeText({ tabId: tab.id, text: ok ? "✓" : "!" });
    await api.action.setTitle({ tabId: tab.id, title });
    setTimeout(() => show(tab.id).catch(() => {}), FLASH_MS);
  }

  return { flash };
}
