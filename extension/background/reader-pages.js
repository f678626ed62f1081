// The reader view without the host. When the host cannot be reached, the content script hands
// over the page's markup; it is kept here (and in storage.session, which outlives a restart of
// the worker, where there is room) and shown by pages/reader.html?id=ID, the extension's own page,
// in a tab beside the page's.

const KEPT = 8;  // pages kept in memory: the reader tabs a user opens in one sitting

// api: platform.api; prefix: unique to this run of the background (ids stay unique across
// restarts of the worker); install: the command that installs the host, shown on the page.
// Defines the channels "readerWithoutHost" (a content script's page -> a new reader tab) and
// "readerPage" (the reader page asks for its page) on `channels`.
export function setUpReaderPages(api, channels, prefix, install) {
  const pages = new Map();  // id -> {html, url, title, install}
  let next = 1;

  async function keep(page) {
    const id = prefix + "p" + next++;
    pages.set(id, page);
    while (pages.size > KEPT) pages.delete(pages.keys().next().value);
    try {
      if (api.storage.session) await api.storage.session.set({ ["reader:" + id]: page });
    } catch (e) { /* over the session quota: kept in memory alone */ }
    return id;
  }

  channels.define("readerWithoutHost", async (message, sender) => {
    const page = { html: String(message.html || ""), url: String(message.url || ""), title: String(message.title || ""), install };
    const id = await keep(page);
    const tab = sender.tab || {};
    const url = api.runtime.getURL("pages/reader.html") + "?id=" + encodeURIComponent(id);
    const where = tab.id !== undefined ? { index: tab.index + 1, openerTabId: tab.id, windowId: tab.windowId } : {};
    await api.tabs.create({ url, ...where });
    return { ok: true, url };
  });

  channels.define("readerPage", (message) => {
    const kept = pages.get(message.id);
    if (kept) return { ok: true, ...kept };
    const key = "reader:" + message.id;
    if (!api.storage.session) return { ok: false, error: "gone" };
    return api.storage.session.get(key).then((stored) => (stored[key] ? { ok: true, ...stored[key] } : { ok: false, error: "gone" }));
  });
}
