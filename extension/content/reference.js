// Cold start (opt-in, options page): which link of this page the extension fetches as the
// reference page of a site it has learned nothing of. The rule of reference_link in
// host/pagesieve/templates/cold_start.py, written again for the browser (a browser test checks
// that the two agree on real pages): among links of the page's origin to another path (compared
// by path segments) that does not name a file, the one with the highest URL similarity (seed 004
// §2.2 d: equal leading path segments over the larger number of segments); ties go to the first
// in document order; the fragment is dropped.
"use strict";
(function () {
  const NOT_A_PAGE = new RegExp("\\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|ogg|oga|ogv|webm|wav|flac|avi|mov|wmv|" +
    "zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|apk|deb|rpm|iso|epub|mobi|docx?|xlsx?|pptx?|odt|ods|odp|csv|" +
    "json|xml|rss|atom|css|js|woff2?|ttf|eot|txt)$", "i");
  const segments = (path) => path.split("/").filter(Boolean);

  // pageUrl: the page's absolute URL; hrefs: the links' href values in document order, relative
  // ones resolved against pageUrl. Returns the absolute URL to fetch, or null.
  globalThis.pagesieveReferenceLink = function (pageUrl, hrefs) {
    let base;
    try { base = new URL(pageUrl); } catch (e) { return null; }
    if (base.protocol !== "http:" && base.protocol !== "https:") return null;
    const own = segments(base.pathname);
    let best = null;
    let bestScore = -1;
    for (const raw of hrefs) {
      const href = (raw || "").trim();
      if (!href || href.startsWith("#")) continue;
      let url;
      try { url = new URL(href, pageUrl); } catch (e) { continue; }
      if (url.protocol !== base.protocol || url.host !== base.host) continue;
      const path = segments(url.pathname);
      if ((path.length === own.length && path.every((s, i) => s === own[i])) || NOT_A_PAGE.test(url.pathname)) continue;
      let common = 0;
      while (common < path.length && common < own.length && path[common] === own[common]) common++;
      const score = common / Math.max(path.length, own.length);
      if (score > bestScore) {
        url.hash = "";
        best = url.href;
        bestScore = score;
      }
    }
    return best;
  };
})();
