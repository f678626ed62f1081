// The reader view over the page: the host's article in an overlay of our own (a shadow root
// beside the page's body, which stays as it was), with its settings (size, width, line height,
// font, theme, kept in storage.local), Save, and printing of the article alone. An article over
// several pages grows as pages.js brings its following pages: each after a quiet page mark, the
// meta line saying how many pages. Adds `reader` to globalThis.pagesieve.content.
"use strict";
(function () {
  const ps = globalThis.pagesieve.content;
  let overlay = null;       // the overlay's host element while it is shown
  let printSheet = null;    // the page style that prints the reader view alone
  let shownArticle = null;  // the article in the overlay (what "save" saves then): all its pages shown
  let shown = null;         // {art, meta, metaParts, minutes, pages}: what addPage() changes

  // Printing while the reader view is open prints the article alone, all of it: the page's body
  // is left out of print, and the overlay (a child of <html>, beside the body) flows as a
  // document instead of a fixed, scrolled box one screen high.
  const PRINT_PAGE_RULE = "@media print { html { overflow: visible !important; height: auto !important; } " +
    "body { display: none !important; } }";

  function close() {
    if (!overlay) return;
    overlay.remove(); overlay = null; shownArticle = null; shown = null; document.removeEventListener("keydown", onKey, true);
    ps.removePageStyle(printSheet); printSheet = null;
  }

  function onKey(event) {
    if (event.key === "Escape" && overlay) { event.stopPropagation(); ps.off(); }
  }

  const THEMES = {
    light: { bg: "#fbfbf8", fg: "#1d1d1b", link: "#1f5fa8" },
    dark: { bg: "#1c1d20", fg: "#e4e2dc", link: "#8ab4f8" },
    sepia: { bg: "#f4ecd8", fg: "#3b2f23", link: "#7b4f1d" },
  };

  const systemTheme = () => (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");

  function readerCss(settings) {
    const t = THEMES[settings.theme] || THEMES[systemTheme()];
    return `:host { all: initial; }
      .page { position: fixed; inset: 0; z-index: 2147483647; overflow: auto; overscroll-behavior: contain; outline: none; background: ${t.bg}; color: ${t.fg}; }
      .bar { position: sticky; top: 0; display: flex; gap: .4em; justify-content: flex-end; padding: .5em; background: ${t.bg}; font: 14px system-ui, sans-serif; }
      .bar .said { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
      .bar button { font: inherit; padding: .2em .6em; border: 1px solid currentColor; background: transparent; color: inherit; border-radius: 4px; cursor: pointer; }
      article { max-width: ${settings.width}em; margin: 0 auto 4em; padding: 0 1.2em; font-family: ${settings.font === "sans" ? "system-ui, sans-serif" : "Georgia, 'Times New Roman', serif"}; font-size: ${settings.size}px; line-height: ${settings.lineHeight}; }
      h1 { font-size: 1.8em; line-height: 1.2; margin: .6em 0 .3em; }
      .meta { opacity: .75; font-size: .85em; margin-bottom: 1.5em; }
      .notice { font-style: italic; opacity: .75; }
      .page-mark { display: flex; align-items: center; gap: .8em; margin: 2em 0 1em; font: .75em system-ui, sans-serif; letter-spacing: .05em; text-transform: uppercase; opacity: .55; }
      .page-mark::before, .page-mark::after { content: ""; flex: 1; border-top: 1px solid currentColor; opacity: .5; }
      img, figure { max-width: 100%; height: auto; }
      pre { white-space: pre; overflow-x: auto; font-size: .85em; }
      table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow-x: auto; } td, th { border: 1px solid rgba(127,127,127,.4); padding: .2em .4em; }
      kbd { font: .85em ui-monospace, monospace; border: 1px solid rgba(127,127,127,.5); border-radius: 3px; padding: 0 .25em; }
      figure.embed a::before { content: "\\25B6\\FE0E  "; }
      math[display="block"] { margin: .8em 0; }
      a { color: ${t.link}; }
      @media print {
        .page { position: static; overflow: visible; background: none; color: #000; }
        .bar { display: none; }
        article { max-width: none; margin: 0; padding: 0; font-size: 12pt; }
        table { display: table; width: auto; max-width: none; overflow: visible; }
        a { color: inherit; }
      }`;
  }

  async function show(article) {
    const stored = await ps.api.storage.local.get("reader");
    // settings.theme stays unset until the reader picks one: the overlay then follows the
    // system's light or dark appearance (readerCss), even after other settings are saved.
    const settings = Object.assign({ font: "serif", size: 19, width: 38, lineHeight: 1.6 }, stored.reader || {});
    overlay = document.createElement("pagesieve-reader");
    const shadow = overlay.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    const page = document.createElement("div");
    page.className = "page";
    page.tabIndex = -1;  // focused when shown: the keyboard (space, arrows, Page Down) scrolls the article
    // a modal dialog named by the article's title, for screen readers (WAI-ARIA 1.2, "dialog")
    page.setAttribute("role", "dialog");
    page.setAttribute("aria-modal", "true");
    page.setAttribute("aria-label", article.title || document.title || "Reader view");
    // A link to a place in the article (a footnote, a table of contents: the host gives it as
    // "#id") moves within the reader; left to the browser it would scroll the hidden page.
    page.addEventListener("click", (event) => {
      const link = event.target.closest && event.target.closest("a[href^='#']");
      if (!link) return;
      event.preventDefault();
      let id = link.getAttribute("href").slice(1);
      try { id = decodeURIComponent(id); } catch (e) { /* not percent-encoded */ }
      const target = shadow.getElementById(id);
      if (target) target.scrollIntoView({ block: "start" });
    });
    const bar = document.createElement("div");
    bar.className = "bar";
    const art = document.createElement("article");
    if (article.language) art.lang = article.language;
    art.dir = document.documentElement.dir || "auto";
    const h1 = document.createElement("h1");
    h1.textContent = article.title || document.title;
    const meta = document.createElement("div");
    meta.className = "meta";
    let published = article.published;
    if (published && !Number.isNaN(Date.parse(published))) {
      published = new Date(published).toLocaleDateString(article.language || undefined, { year: "numeric", month: "long", day: "numeric" });
    }
    // how long it takes to read, as a range for faster and slower readers (computed by the host)
    const metaParts = [article.byline, published, article.site_name];
    const minutes = (article.reading_minutes || [0, 0]).slice(0, 2);
    meta.textContent = metaLine(metaParts, minutes, 1);
    const body = document.createElement("div");
    body.className = "content";
    // sanitised by the host (nh3 allow-list), without the title and byline lines; parsed inert
    body.append(...new DOMParser().parseFromString(article.html || "", "text/html").body.childNodes);
    if (!(article.text || "").trim() && !body.querySelector("img")) {
      const notice = document.createElement("p");
      notice.className = "notice";
      notice.textContent = "pagesieve found no article text on this page.";
      body.append(notice);
    }
    art.append(h1, meta);
    // The lead image goes above the article unless the article shows the same picture: the same
    // file name, whatever the query or a size suffix such as "-1024x683" (CMSs serve one photo
    // at several sizes, the page's og:image at another than the article's).
    const pictureKey = (url) => {
      try {
        const name = decodeURIComponent(new URL(url, location.href).pathname.split("/").pop() || "");
        return name ? name.toLowerCase().replace(/[-_]\d+x\d+(?=\.\w+$)/, "") : url;
      } catch (e) { return url; }
    };
    const pictures = new Set([...body.querySelectorAll("img")].map((img) => pictureKey(img.getAttribute("src") || "")));
    if (article.lead_image && !pictures.has(pictureKey(article.lead_image))) {
      const img = document.createElement("img");
      img.alt = "";
      img.addEventListener("error", () => img.remove());  // a lead image that cannot load leaves no gap
      img.src = article.lead_image;
      art.append(img);
    }
    art.append(body);
    const apply = () => { style.textContent = readerCss(settings); ps.api.storage.local.set({ reader: settings }); };
    const button = (label, title, action) => {
      const b = document.createElement("button");
      b.title = title;
      // the symbols ("A−", "↔", "◐") say nothing read aloud: a screen reader reads the words
      // alone, which are the button's whole name (no aria-label that the shown "A−" contradicts)
      const shown = document.createElement("span");
      shown.setAttribute("aria-hidden", "true");
      shown.textContent = label;
      const said = document.createElement("span");
      said.className = "said";
      said.textContent = title;
      b.append(shown, said);
      b.addEventListener("click", () => { action(); apply(); });
      bar.append(b);
    };
    button("A−", "smaller text", () => { settings.size = Math.max(12, settings.size - 1); });
    button("A+", "larger text", () => { settings.size = Math.min(32, settings.size + 1); });
    button("↔", "wider / narrower", () => { settings.width = settings.width >= 48 ? 30 : settings.width + 6; });
    button("≡", "line height", () => { settings.lineHeight = settings.lineHeight >= 2 ? 1.3 : Math.round((settings.lineHeight + 0.15) * 100) / 100; });
    button("Aa", "serif / sans-serif", () => { settings.font = settings.font === "sans" ? "serif" : "sans"; });
    button("◐", "theme: light, dark, sepia", () => { settings.theme = { light: "dark", dark: "sepia", sepia: "light" }[settings.theme || systemTheme()]; });
    const saveButton = document.createElement("button");
    saveButton.textContent = "Save";
    saveButton.title = "save the article to your library";
    saveButton.setAttribute("aria-label", saveButton.title);
    saveButton.addEventListener("click", async () => {
      saveButton.disabled = true;
      const result = await ps.saving.save().catch((error) => ({ ok: false, error: String(error.message || error) }));
      saveButton.disabled = false;
      if (result.ok) ps.toast(`${result.updated ? "Updated" : "Saved"} “${result.title}” in your library.`, true);
      else ps.toast(`Not saved: ${result.error}`, false);
    });
    bar.append(saveButton);
    button("✕", "close (Esc)", () => ps.off());
    page.append(bar, art);
    shadow.append(style, page);
    style.textContent = readerCss(settings);
    document.documentElement.append(overlay);
    page.focus({ preventScroll: true });
    printSheet = ps.addPageStyle(PRINT_PAGE_RULE);
    document.addEventListener("keydown", onKey, true);
    shownArticle = { ...article, pages: [article.url || location.href] };
    shown = { art, meta, metaParts, minutes, pages: 1 };
  }

  // The meta line: byline, date, site, how long it takes to read (a range for faster and slower
  // readers, computed by the host) and, for an article over several pages, "N pages".
  function metaLine(parts, [fast, slow], pages) {
    const reading = slow ? (fast === slow ? `${slow} min` : `${fast}–${slow} min`) : "";
    return [...parts, reading, pages > 1 ? `${pages} pages` : ""].filter(Boolean).join(" · ");
  }

  // A quiet mark between two pages of the article: "Page k", a separator for screen readers.
  function pageMark(k, url) {
    const mark = document.createElement("div");
    mark.className = "page-mark";
    mark.setAttribute("role", "separator");
    mark.dataset.page = String(k);
    if (url) mark.title = url;
    mark.textContent = `Page ${k}`;
    return mark;
  }

  // Page k of the article (a "follow" reply's article: html, text, url, reading_minutes) shown
  // after the pages before it; what Save saves grows with it. False when the reader is closed.
  function addPage(k, page) {
    if (!shown) return false;
    const body = document.createElement("div");
    body.className = "content";
    body.dataset.page = String(k);
    body.append(...new DOMParser().parseFromString(page.html || "", "text/html").body.childNodes);
    shown.art.append(pageMark(k, page.url), body);
    shown.pages = k;
    const [fast, slow] = page.reading_minutes || [0, 0];
    shown.minutes = [shown.minutes[0] + fast, shown.minutes[1] + slow];
    shown.meta.textContent = metaLine(shown.metaParts, shown.minutes, k);
    const markHtml = `<hr><p><small>Page ${k}</small></p>`;
    const inner = (html) => String(html || "").replace(/^\s*<div>/, "").replace(/<\/div>\s*$/, "");
    shownArticle = {
      ...shownArticle, html: `<div>${inner(shownArticle.html)}${markHtml}${inner(page.html)}</div>`,
      text: [shownArticle.text, page.text].filter(Boolean).join("\n"), pages: [...shownArticle.pages, page.url],
    };
    return true;
  }

  // The whole article from the site's single-page (or print) version: its body replaces page 1's
  // (a "follow" reply's article). False when the reader is closed.
  function replaceBody(whole) {
    if (!shown) return false;
    const body = shown.art.querySelector(".content");
    body.replaceChildren(...new DOMParser().parseFromString(whole.html || "", "text/html").body.childNodes);
    shown.minutes = (whole.reading_minutes || shown.minutes).slice(0, 2);
    shown.meta.textContent = metaLine(shown.metaParts, shown.minutes, 1);
    shownArticle = { ...shownArticle, html: whole.html, text: whole.text, pages: [whole.url] };
    return true;
  }

  // Page k (at url) could not be read: said where it would have been, with a link to it.
  function pageFailed(k, url, reason) {
    if (!shown) return;
    const notice = document.createElement("p");
    notice.className = "notice";
    notice.dataset.failed = String(k);
    const link = document.createElement("a");
    link.href = url;
    link.textContent = `Page ${k}`;
    notice.append(link, ` could not be read (${reason}).`);
    shown.art.append(notice);
  }

  // The following pages are all in (or stopped): `stopped` says why (pages.js).
  function pagesDone(stopped) {
    if (!shown) return;
    shown.art.dataset.pages = String(shown.pages);
    shown.art.dataset.stopped = stopped;
  }

  ps.reader = { show, close, addPage, replaceBody, pageFailed, pagesDone, article: () => shownArticle, open: () => shown };
})();
