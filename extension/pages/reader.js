// The reader view without the host: a page of the extension that shows the article of a page,
// found by Mozilla's Readability (../vendor/readability/), when the pagesieve host cannot be reached.
// The content script sends the page's markup to the background, which keeps it and opens this page
// as pages/reader.html?id=ID. Here the markup is parsed inert (DOMParser: no script of the page runs, nothing
// loads), Readability finds the article, and the article is copied in through an allow-list of
// elements and attributes: no script, no event handler, no style, no javascript: link reaches this
// page (which the extension's content security policy forbids as well).
"use strict";
(function () {
  const api = globalThis.pagesieve.platform.api;
  const $ = (id) => document.getElementById(id);

  // What may come through from the page (elements not listed are dropped, their text kept when
  // they are only wrappers); everything else is left out with its content.
  const KEEP = new Set(("a abbr b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div dl dt em " +
    "figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p picture pre q s samp section small source " +
    "span strong sub summary sup table tbody td tfoot th thead time tr u ul var article aside header footer main").split(" "));
  const DROP = new Set("script style noscript template iframe frame frameset object embed applet form input button select textarea link meta base svg math canvas audio video".split(" "));
  const ATTRIBUTES = new Set("href src srcset alt title width height colspan rowspan lang dir id datetime cite start reversed type".split(" "));
  const URL_ATTRIBUTES = new Set(["href", "src", "cite"]);

  function safeUrl(value, base) {
    try {
      const url = new URL(value, base);
      return /^(https?|data|mailto):$/.test(url.protocol) && !(url.protocol === "data:" && !/^data:image\//i.test(value)) ? url.href : null;
    } catch (e) {
      return null;
    }
  }

  // A copy of node's children made of this document's elements, allowed ones only.
  function copyInto(target, node, base) {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        target.append(document.createTextNode(child.data));
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        const tag = child.localName;
        if (DROP.has(tag)) continue;
        if (!KEEP.has(tag)) { copyInto(target, child, base); continue; }
        const el = document.createElement(tag);
        for (const { name, value } of child.attributes) {
          if (!ATTRIBUTES.has(name)) continue;
          if (URL_ATTRIBUTES.has(name)) {
            if (name === "href" && value.startsWith("#")) { el.setAttribute(name, value); continue; }
            const url = safeUrl(value, base);
            if (url) el.setAttribute(name, url);
          } else if (name === "srcset") {
            const parts = value.split(",").map((p) => p.trim().split(/\s+/)).filter((p) => safeUrl(p[0], base));
            if (parts.length) el.setAttribute(name, parts.map((p) => [safeUrl(p[0], base), ...p.slice(1)].join(" ")).join(", "));
          } else {
            el.setAttribute(name, value);
          }
        }
        if (tag === "a" && el.hasAttribute("href") && !el.getAttribute("href").startsWith("#")) el.rel = "noopener noreferrer";
        copyInto(el, child, base);
        target.append(el);
      }
    }
  }

  // The article of a page's markup: Readability's result, or null when it finds none.
  function readArticle(html, url) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const base = doc.createElement("base");  // relative links and pictures resolve against the page
    base.href = url;
    (doc.head || doc.documentElement).prepend(base);
    return new globalThis.Readability(doc, { keepClasses: false }).parse();
  }

  async function show() {
    const id = new URLSearchParams(location.search).get("id");
    const page = id && await api.runtime.sendMessage({ type: "pagesieve.readerPage", id });
    if (!page || !page.ok) {
      $("title").textContent = "Nothing to show";
      $("content").textContent = "This reader tab has lost its page (the browser restarted the extension). Open the reader view again from the page.";
      return;
    }
    const article = readArticle(page.html, page.url);
    const link = document.createElement("a");
    link.href = safeUrl(page.url, page.url) || "#";
    link.textContent = new URL(page.url).hostname;
    $("note").append("Reader view without the pagesieve host (Mozilla's Readability) of ", link,
      ". Install the host for hiding in place, saving, site learning and corrections: ");
    const code = document.createElement("code");
    code.textContent = page.install;
    $("note").append(code);
    if (!article) {
      $("title").textContent = page.title || page.url;
      $("content").textContent = "No article was found on this page.";
      document.title = page.title || "pagesieve reader";
      return;
    }
    document.title = article.title || page.title;
    $("title").textContent = article.title || page.title;
    if (article.lang) $("article").lang = article.lang;
    if (article.dir) $("article").dir = article.dir;
    let published = article.publishedTime;
    if (published && !Number.isNaN(Date.parse(published))) published = new Date(published).toLocaleDateString(article.lang || undefined, { year: "numeric", month: "long", day: "numeric" });
    $("meta").textContent = [article.byline, published, article.siteName].filter(Boolean).join(" · ");
    copyInto($("content"), new DOMParser().parseFromString(article.content || "", "text/html").body, page.url);
    document.documentElement.dataset.ready = "1";  // for the browser tests
  }

  show().catch((error) => {
    $("title").textContent = "The reader view failed";
    $("content").textContent = String(error.message || error);
    document.documentElement.dataset.ready = "error";
  });
})();
