// An article over several pages in the reader view (issue 53): page 1 shows at once; its
// following pages are fetched here, one at a time, with the page's own credentials, from the
// page's own origin only, each once, at most MAX_PAGES in all, and cleaned by the host
// ("follow", docs/protocol.md) with the site's templates; each is shown as it arrives
// (reader.js addPage). It stops at the article's last page, at a loop, at a page that is not the
// same article, at a page that fails (named in the reader), or when the reader is closed.
// Adds `pages` to globalThis.pagesieve.content.
"use strict";
(function () {
  const ps = globalThis.pagesieve.content;
  const MAX_PAGES = 10;                      // host: pagination.MAX_PAGES
  const MAX_PAGE_BYTES = 8 * 1024 * 1024;    // host: follow.MAX_PAGE_BYTES
  const PAGE_TIMEOUT_MS = 20000;             // one page's fetch

  // The address without its fragment: the same page whatever the anchor.
  const clean = (url) => { const u = new URL(url, location.href); u.hash = ""; return u.href; };

  // A fetch made as the page makes it: Firefox's content scripts fetch with the extension's own
  // principal unless they use the page's `content.fetch` (MDN, "Content script environment"),
  // whose options are cloned into the page's scope. Elsewhere `content` may be an element named
  // "content" (a window's named property): it has no fetch.
  const pageFetch = (typeof content === "object" && content && typeof content.fetch === "function")
    ? (url, init) => content.fetch(url, typeof cloneInto === "function" ? cloneInto(init, content) : init)
    : (url, init) => fetch(url, init);

  // The page at url: {url: where it ended after redirects, data: its bytes as base64}; throws
  // an Error saying why it cannot be read. The time limit races the fetch (no AbortSignal,
  // which Firefox's page-side fetch would not take from the content script's scope).
  async function fetchPage(url) {
    let timer;
    const late = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${PAGE_TIMEOUT_MS / 1000} s`)), PAGE_TIMEOUT_MS);
    });
    const read = (async () => {
      let response;
      try {
        response = await pageFetch(url, { credentials: "include", redirect: "follow" });
      } catch (error) {
        throw new Error("it cannot be reached");
      }
      if (!response.ok) throw new Error(`the server answered ${response.status}`);
      if (!/html/i.test(response.headers.get("content-type") || "")) throw new Error("it is not an HTML page");
      const blob = await response.blob();
      if (blob.size > MAX_PAGE_BYTES) throw new Error(`it is over ${MAX_PAGE_BYTES / 1048576} MiB`);
      return { url: response.url || url, data: await ps.base64Of(blob) };
    })();
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  // The site's single-page or print version of the article (the host found its link on page 1):
  // read instead of the pages when it is the same article and holds more text than page 1.
  // True when the reader now shows it; false (nothing changed) otherwise, whatever went wrong.
  async function wholeVersion(url, article, seen) {
    try {
      if (new URL(url).origin !== location.origin) return false;
      const page = await fetchPage(url);
      const answer = await ps.ask("follow", { url: clean(page.url), data: page.data, title: article.title || "", seen, earlier: [] });
      if (ps.failure(answer)) return false;
      const reply = answer.reply;
      if (!reply.same_article || (reply.article.text || "").length <= (article.text || "").length) return false;
      return ps.reader.replaceBody(reply.article);
    } catch (error) {
      return false;
    }
  }

  // Follow the article whose page 1 the reader shows (`article`: the "clean" reply's article,
  // with next_page). Resolves to {pages, stopped}; stopped is "single-page-version", "last-page", "limit", "loop",
  // "another-origin", "not-the-same-article", "failed" or "closed".
  async function follow(article) {
    const open = ps.reader.open();
    const stillOpen = () => open !== null && ps.reader.open() === open;
    const seen = [clean(location.href)];
    const texts = [article.text || ""];
    let next = article.next_page || {};
    let k = 1;
    const done = (stopped) => { if (stillOpen()) ps.reader.pagesDone(stopped); return { pages: k, stopped }; };
    if (next.single_page && await wholeVersion(next.single_page, article, seen)) return done("single-page-version");
    while (next.url) {
      if (!stillOpen()) return { pages: k, stopped: "closed" };
      if (k >= MAX_PAGES) return done("limit");
      const url = clean(next.url);
      if (new URL(url).origin !== location.origin) return done("another-origin");
      if (seen.includes(url)) return done("loop");
      let page;
      try {
        page = await fetchPage(url);
      } catch (error) {
        ps.reader.pageFailed(k + 1, url, String(error.message || error));
        return done("failed");
      }
      const final = clean(page.url);
      if (seen.includes(final)) return done("loop");  // redirected back to a page read before
      if (new URL(final).origin !== location.origin) return done("another-origin");
      seen.push(url);
      if (final !== url) seen.push(final);
      const answer = await ps.ask("follow", { url: final, data: page.data, title: article.title || "", seen, earlier: texts });
      const failed = ps.failure(answer);
      if (failed) {
        ps.reader.pageFailed(k + 1, url, failed.error);
        return done("failed");
      }
      const reply = answer.reply;
      if (!reply.same_article) return done("not-the-same-article");
      if (!stillOpen() || !ps.reader.addPage(k + 1, reply.article)) return { pages: k, stopped: "closed" };
      k += 1;
      texts.push(reply.article.text || "");
      next = reply.next_page || {};
    }
    return done("last-page");
  }

  ps.pages = { follow };
})();
