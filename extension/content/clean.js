// Content script: snapshot the page, ask the host, then hide the noise in place or show the
// article in a reader overlay; "off" puts the page back exactly as it was.
// Test hook (also used by the popup): runtime message {type: "pagesieve.run", mode} answered
// with {ok: true, hidden, words} or {ok: false, error}; {type: "pagesieve.learn"} learns the page
// as a page load does and answers {ok, learned, timing} (timed by pagesieve bench-browser);
// {type: "pagesieve.state"} tells the tests when the page's on-load work is over (end of file);
// {type: "pagesieve.showHidden", on} (the popup's "Show hidden") outlines the hidden blocks in
// place, each labelled with the reason the host gave for it ("why" of docs/protocol.md).
"use strict";
(function () {
  const { platform } = globalThis.pagesieve;
  const api = platform.api;
  const HIDE_ATTR = "data-ps-hidden";
  let sheet = null;      // the page style that hides the noise (addPageStyle)
  let printSheet = null; // the page style that prints the reader view alone
  let overlay = null;    // reader overlay host element
  let hidden = [];
  let hiddenWhy = new Map();  // hidden element -> [stage, rule, evidence], the host's reason
  let shown = null;           // "Show hidden": {host, sheet, labels} while the hidden blocks are shown
  let mode = "off";
  let shownArticle = null;  // the article in the reader overlay (what "save" saves then)

  function ask(request, fields) {
    return api.runtime.sendMessage({ type: "pagesieve.host", request, fields });
  }

  // Elements per part when a snapshot is streamed: some 25 KB of markup. Smaller parts leave
  // less to send once the walk is over.
  const PART_ELEMENTS = 250;
  const NO_STREAM = 16;  // docs/protocol.md: the host has not got the parts

  // Snapshot the page and send it with a request (fields.snapshot is added). The walk hands its
  // nodes to the background in parts as it goes, and the background passes them on to the
  // host, which builds the page's tree meanwhile (docs/protocol.md, "Streaming a snapshot"):
  // the walk, the messaging and the host's reading overlap instead of following one another.
  // The walk is over when this returns; the promise gives {answer, walkMs, snapshot, parts}
  // (parts: how many went ahead). If the host lost the parts (it restarted meanwhile), the
  // whole snapshot is sent once more.
  // layout: false for a snapshot without boxes, fonts and rendering (learning reads none of them:
  // docs/snapshot.md, "Without layout"), a walk a third as long.
  function askWithSnapshot(request, fields, elements, layout = true) {
    let port = null;
    try { port = api.runtime.connect({ name: "pagesieve.stream" }); } catch (e) { port = null; }
    const t0 = performance.now();
    if (!port) {
      const snapshot = globalThis.pagesieveSnapshot(document, { elements, layout });
      const walkMs = performance.now() - t0;
      return ask(request, { ...fields, snapshot }).then((answer) => ({ answer, walkMs, snapshot, parts: 0 }));
    }
    let settle;
    const answered = new Promise((resolve) => { settle = resolve; });
    port.onMessage.addListener((answer) => settle(answer));
    port.onDisconnect.addListener(() => settle({ ok: false, error: "the extension's background stopped before it answered" }));
    const parts = { size: PART_ELEMENTS, sent: 0, send: (part) => port.postMessage({ type: "part", ...part }) };
    const snapshot = globalThis.pagesieveSnapshot(document, { elements, parts, layout });
    const walkMs = performance.now() - t0;
    port.postMessage({ type: "request", request, fields: { ...fields, snapshot: { ...snapshot, ...parts.rest } } });
    return answered.then(async (answer) => {
      try { port.disconnect(); } catch (e) { /* already closed */ }
      let sent = parts.sent;
      if (answer && answer.ok && !answer.reply.ok && answer.reply.error.code === NO_STREAM) {
        answer = await ask(request, { ...fields, snapshot });
        sent = 0;
      }
      return { answer, walkMs, snapshot, parts: sent };
    });
  }

  function visibleWords() {
    const text = document.body ? document.body.innerText : "";
    const words = text.match(/[\p{L}\p{N}]+/gu);
    return words ? words.length : 0;
  }

  function off() {
    showHidden(false);
    for (const el of hidden) el.removeAttribute(HIDE_ATTR);
    hidden = [];
    hiddenWhy = new Map();
    if (sheet) { removePageStyle(sheet); sheet = null; }
    if (overlay) {
      overlay.remove(); overlay = null; shownArticle = null; document.removeEventListener("keydown", onKey, true);
      removePageStyle(printSheet); printSheet = null;
    }
    mode = "off";
  }

  const addPageStyle = (rule) => platform.addPageStyle(document, rule);
  const removePageStyle = (style) => platform.removePageStyle(document, style);

  // Printing while the reader view is open prints the article alone, all of it: the page's body
  // is left out of print, and the overlay (a child of <html>, beside the body) flows as a
  // document instead of a fixed, scrolled box one screen high.
  const PRINT_PAGE_RULE = "@media print { html { overflow: visible !important; height: auto !important; } " +
    "body { display: none !important; } }";

  const HIDE_RULE = "[" + HIDE_ATTR + "] { display: none !important; }";

  // why: the reply's reasons, one per id (docs/protocol.md, "Why a node is hidden")
  function hide(ids, elements, why) {
    ids.forEach((id, k) => {
      const el = elements.get(id);
      if (!el) return;
      el.setAttribute(HIDE_ATTR, "");
      hidden.push(el);
      if (why && why[k]) hiddenWhy.set(el, why[k]);
    });
    sheet = addPageStyle(HIDE_RULE);
  }

  // ---------------------------------------------------------------- why it was hidden
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];
  const POST_RULES = {
    "comment-section": "readers' comments", "ad-label": "an advertisement label", "back-to-top": "a “back to top” link",
    "unrendered-template": "a template the page never filled in", "structure-scraps": "scraps of a list or table that is mostly noise",
    "facts-table-scraps": "scraps of a table of facts that is mostly noise", "byline-in-header": "the byline, shown in the header",
    "title-in-header": "the title, shown in the header",
  };
  const score = (x) => (typeof x === "number" ? String(Math.round(x * 1000) / 1000) : String(x));

  // A reason ([stage, rule, evidence] or {stage, rule, evidence}) in words for the page.
  function reasonText(why) {
    if (!why) return "no reason recorded";
    const [stage, rule, e = {}] = Array.isArray(why) ? why : [why.stage, why.rule, why.evidence];
    let text;
    if (stage === "templates") {
      if (rule === "library") {
        text = e.seen ? `seen on ${e.at_least ? "at least " : ""}${e.seen} of ${e.of} pages of this site` : "this site's template";
      } else if (rule === "diff") text = "the same as on another page of this site";
      else text = "noise in this site's style tree";
    } else if (stage === "correction") {
      const d = new Date((e.created || 0) * 1000);
      text = `by your correction of ${d.getDate()} ${MONTHS[d.getMonth()]}`;
    } else if (stage === "classifier") {
      const cut = `score ${score(e.score)} < ${score(e.cut)}`;
      text = rule === "svm-sure-noise" ? `the classifier is sure it is noise (${cut})`
        : rule === "context" ? `the classifier, with its neighbours, judged it noise (${cut})`
          : rule === "below-best" ? `scored below the page's best blocks (${cut})` : `the classifier judged it noise (${cut})`;
    } else if (stage === "post-rule") {
      text = POST_RULES[rule] || rule;
    } else {
      text = `not shown by the page itself (${rule})`;
    }
    return e.blocks > 1 ? `${text}; ${e.blocks} blocks` : text;
  }

  // The host's reason for el when el or a block around it is hidden, else null.
  function hiddenReasonOf(el) {
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      if (n.hasAttribute(HIDE_ATTR)) return hiddenWhy.get(n) || null;
    }
    return undefined;
  }

  const SHOWN_RULE = "[" + HIDE_ATTR + "] { outline: 2px dashed #c62828 !important; outline-offset: -1px !important; }";

  // "Show hidden": the hidden blocks are shown where they are, outlined, each with a label giving
  // its reason (focusable, in page order; Tab walks them, Esc or the bar's button ends it).
  // Ending it puts back the hiding style and removes our labels: the page is as it was before.
  function showHidden(on) {
    if (!on) {
      if (!shown) return { ok: true, shown: 0 };
      shown.host.remove();
      removePageStyle(shown.sheet);
      sheet = addPageStyle(HIDE_RULE);
      window.removeEventListener("keydown", onShownKey, true);
      window.removeEventListener("resize", placeLabels);
      shown = null;
      return { ok: true, shown: 0 };
    }
    if (shown) return { ok: true, shown: shown.labels.length };
    if (!hidden.length) return { ok: false, error: "nothing is hidden on this page: click “Hide noise” first" };
    clearToast();  // our own note would cover what is shown
    removePageStyle(sheet);
    sheet = null;
    const host = document.createElement("pagesieve-ui");
    host.dataset.kind = "hidden";
    host.style.cssText = "all: initial; position: absolute; left: 0; top: 0; width: 0; height: 0; z-index: 2147483647;";
    const root = host.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = `
      .why { position: absolute; box-sizing: border-box; width: max-content; max-width: min(560px, 90vw); font: 12px/1.35 system-ui, sans-serif;
        background: #c62828; color: #fff; padding: 2px 7px; border-radius: 0 0 4px 0; box-shadow: 0 1px 4px rgba(0,0,0,.3); }
      .why:focus { outline: 3px solid #ffb300; outline-offset: 1px; z-index: 1; }
      .bar { position: fixed; top: 12px; left: 50%; transform: translateX(-50%); font: 14px/1.4 system-ui, sans-serif;
        background: #222; color: #fff; padding: 8px 14px; border-radius: 6px; box-shadow: 0 2px 10px rgba(0,0,0,.3); max-width: 80vw; }
      .bar button { font: inherit; margin-left: 8px; }
      kbd { font: inherit; border: 1px solid #777; border-radius: 3px; padding: 0 4px; }`;
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.setAttribute("role", "status");
    const again = document.createElement("button");
    again.textContent = "Hide them again";
    again.addEventListener("click", () => showHidden(false));
    const tab = document.createElement("kbd");
    tab.textContent = "Tab";
    const esc = document.createElement("kbd");
    esc.textContent = "Esc";
    bar.append(`${hidden.length} hidden part(s) shown with the reason each was hidden · `, tab, " next · ", esc, " end", again);
    root.append(style, bar);
    const labels = [];
    for (const el of hidden) {
      const label = document.createElement("div");
      label.className = "why";
      label.tabIndex = 0;
      label.setAttribute("role", "note");
      label.textContent = "hidden: " + reasonText(hiddenWhy.get(el));
      label.addEventListener("focus", () => el.scrollIntoView({ block: "nearest" }));
      root.append(label);
      labels.push({ el, label });
    }
    document.documentElement.append(host);
    shown = { host, sheet: addPageStyle(SHOWN_RULE), labels };
    placeLabels();
    window.addEventListener("keydown", onShownKey, true);
    window.addEventListener("resize", placeLabels);
    again.focus();
    return { ok: true, shown: labels.length };
  }

  // Each label at the top left corner of its block, moved down below the label before it where
  // the two would overlap (blocks one line high, one after the other).
  function placeLabels() {
    if (!shown) return;
    const placed = [];
    for (const { el, label } of shown.labels) {
      const r = el.getBoundingClientRect();
      label.hidden = r.width === 0 && r.height === 0;  // not rendered by the page itself
      if (label.hidden) continue;
      const left = r.left + window.scrollX;
      let top = r.top + window.scrollY;
      label.style.left = left + "px";
      label.style.top = top + "px";
      const size = label.getBoundingClientRect();
      for (const p of placed) {
        if (left < p.right && p.left < left + size.width && top < p.bottom && p.top < top + size.height) top = p.bottom;
      }
      label.style.top = top + "px";
      placed.push({ left, right: left + size.width, top, bottom: top + size.height });
    }
  }

  function onShownKey(event) {
    if (event.key === "Escape" && shown && !picker) {
      event.stopPropagation();
      showHidden(false);
    }
  }

  function onKey(event) {
    if (event.key === "Escape" && overlay) { event.stopPropagation(); off(); }
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
      .bar button { font: inherit; padding: .2em .6em; border: 1px solid currentColor; background: transparent; color: inherit; border-radius: 4px; cursor: pointer; }
      article { max-width: ${settings.width}em; margin: 0 auto 4em; padding: 0 1.2em; font-family: ${settings.font === "sans" ? "system-ui, sans-serif" : "Georgia, 'Times New Roman', serif"}; font-size: ${settings.size}px; line-height: ${settings.lineHeight}; }
      h1 { font-size: 1.8em; line-height: 1.2; margin: .6em 0 .3em; }
      .meta { opacity: .75; font-size: .85em; margin-bottom: 1.5em; }
      .notice { font-style: italic; opacity: .75; }
      img, figure { max-width: 100%; height: auto; }
      pre { white-space: pre; overflow-x: auto; font-size: .85em; }
      table { border-collapse: collapse; } td, th { border: 1px solid rgba(127,127,127,.4); padding: .2em .4em; }
      kbd { font: .85em ui-monospace, monospace; border: 1px solid rgba(127,127,127,.5); border-radius: 3px; padding: 0 .25em; }
      figure.embed a::before { content: "\\25B6\\FE0E  "; }
      math[display="block"] { margin: .8em 0; }
      a { color: ${t.link}; }
      @media print {
        .page { position: static; overflow: visible; background: none; color: #000; }
        .bar { display: none; }
        article { max-width: none; margin: 0; padding: 0; font-size: 12pt; }
        a { color: inherit; }
      }`;
  }

  async function showReader(article) {
    const stored = await api.storage.local.get("reader");
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
    const [fast, slow] = article.reading_minutes || [0, 0];
    const reading = slow ? (fast === slow ? `${slow} min` : `${fast}–${slow} min`) : "";
    meta.textContent = [article.byline, published, article.site_name, reading].filter(Boolean).join(" · ");
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
    const apply = () => { style.textContent = readerCss(settings); api.storage.local.set({ reader: settings }); };
    const button = (label, title, action) => {
      const b = document.createElement("button");
      b.textContent = label; b.title = title;
      b.setAttribute("aria-label", title);  // the symbols ("↔", "◐") say nothing read aloud
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
      const result = await save().catch((error) => ({ ok: false, error: String(error.message || error) }));
      saveButton.disabled = false;
      if (result.ok) toast(`${result.updated ? "Updated" : "Saved"} “${result.title}” in your library.`, true);
      else toast(`Not saved: ${result.error}`, false);
    });
    bar.append(saveButton);
    button("✕", "close (Esc)", () => off());
    page.append(bar, art);
    shadow.append(style, page);
    style.textContent = readerCss(settings);
    document.documentElement.append(overlay);
    page.focus({ preventScroll: true });
    printSheet = addPageStyle(PRINT_PAGE_RULE);
    document.addEventListener("keydown", onKey, true);
    shownArticle = article;
  }

  // ---------------------------------------------------------------- save the clean article

  // Images are fetched here, with the page's own permissions (its cookies, its origin), because
  // the host never touches the network. Caps as the library's (pagesieve.library.html_file):
  // bigger images, and images past the total, stay links in the saved file.
  const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
  const MAX_TOTAL_BYTES = 24 * 1024 * 1024;
  const MAX_IMAGES = 200;
  const IMAGE_TIMEOUT_MS = 10000;

  function base64Of(blob) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  }

  async function fetchImage(url) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), IMAGE_TIMEOUT_MS);
    try {
      const response = await fetch(url, { credentials: "include", signal: abort.signal });
      if (!response.ok) return null;
      const blob = await response.blob();
      if (!blob.type.startsWith("image/") || blob.size > MAX_IMAGE_BYTES) return null;
      return { type: blob.type, data: await base64Of(blob), size: blob.size };
    } catch (e) {
      return null;  // unreachable, refused by CORS, timed out: it stays a link
    } finally {
      clearTimeout(timer);
    }
  }

  async function articleImages(article) {
    const doc = new DOMParser().parseFromString(article.html || "", "text/html");  // inert: no scripts, no loads
    const urls = [...new Set([...doc.images].map((img) => img.getAttribute("src")).filter((u) => /^https?:/i.test(u || "")))].slice(0, MAX_IMAGES);
    const images = {};
    let total = 0;
    for (let k = 0; k < urls.length; k += 6) {  // six at a time, in document order
      const got = await Promise.all(urls.slice(k, k + 6).map(fetchImage));
      for (let j = 0; j < got.length; j++) {
        if (!got[j] || total + got[j].size > MAX_TOTAL_BYTES) continue;
        total += got[j].size;
        images[urls[k + j]] = { type: got[j].type, data: got[j].data };
      }
      if (total >= MAX_TOTAL_BYTES) break;
    }
    return images;
  }

  async function save(tags) {
    let article = shownArticle;
    if (!article) {
      // the page as it is shown, without our own changes (hidden noise comes back for the walk)
      const restore = mode === "hide" ? hidden.slice() : null;
      if (restore) for (const el of restore) el.removeAttribute(HIDE_ATTR);
      const asked = askWithSnapshot("clean", { mode: "reader" });  // the walk is done when it returns
      if (restore) for (const el of restore) el.setAttribute(HIDE_ATTR, "");
      const { answer } = await asked;
      if (!answer || !answer.ok) return { ok: false, error: (answer && answer.error) || "no answer from the extension", hostMissing: answer && answer.hostMissing };
      if (!answer.reply.ok) return { ok: false, error: answer.reply.error.message, code: answer.reply.error.code };
      article = answer.reply.article;
    }
    const images = await articleImages(article);
    const { libraryFolder = "" } = await api.storage.local.get("libraryFolder");
    const answer = await ask("save", { article, images, tags: tags || [], ...(libraryFolder ? { folder: libraryFolder } : {}) });
    if (!answer || !answer.ok) return { ok: false, error: (answer && answer.error) || "no answer from the extension", hostMissing: answer && answer.hostMissing };
    const reply = answer.reply;
    if (!reply.ok) return { ok: false, error: reply.error.message, code: reply.error.code };
    return {
      ok: true, title: reply.title, markdown: reply.markdown, html: reply.html, updated: reply.updated,
      imagesInlined: reply.images_inlined, imagesLinked: reply.images_linked,
    };
  }

  // Cold start (options page, off by default; never in a private window): when the host has no
  // page of this site but this one to compare it with, the most similar link of the page
  // (reference.js) is fetched, without cookies, and sent with the "clean" request as the
  // reference page of the layout diff (docs/protocol.md, clean). The host uses it for that one
  // request and stores nothing of it. Any failure leaves the page to be judged alone.
  const REFERENCE_TIMEOUT_MS = 5000;
  const MAX_REFERENCE_BYTES = 8 * 1024 * 1024;  // the host's cap (protocol.py MAX_REFERENCE_BYTES)

  // the option, kept up to date here so that a click with it off costs no storage read
  let coldStartOn = false;
  api.storage.local.get("coldStart").then(({ coldStart }) => { coldStartOn = coldStart === true; }, () => {});
  api.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && changes.coldStart) coldStartOn = changes.coldStart.newValue === true;
  });

  async function coldStartReference() {
    if (!coldStartOn || (api.extension && api.extension.inIncognitoContext) || !/^https?:$/.test(location.protocol)) return null;
    const history = await ask("history", { url: location.href });
    if (!history || !history.ok || !history.reply.ok || history.reply.reference) return null;
    const hrefs = Array.from(document.querySelectorAll("a[href]"), (a) => {
      try { return new URL(a.getAttribute("href"), document.baseURI).href; } catch (e) { return ""; }
    });
    const link = globalThis.pagesieveReferenceLink(location.href, hrefs);
    if (!link) return null;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REFERENCE_TIMEOUT_MS);
    try {
      const response = await fetch(link, { credentials: "omit", redirect: "follow", signal: abort.signal });
      const type = response.headers.get("content-type") || "";
      if (!response.ok || !/html/i.test(type) || new URL(response.url).origin !== location.origin) return null;
      const blob = await response.blob();
      if (blob.size === 0 || blob.size > MAX_REFERENCE_BYTES) return null;
      return { url: response.url, data: await base64Of(blob) };
    } catch (e) {
      return null;  // unreachable, timed out: judged alone
    } finally {
      clearTimeout(timer);
    }
  }

  // learn: the host also learns the page from this snapshot (page load: one walk, not two)
  async function run(wanted, measure, learn) {
    off();
    if (wanted === "off") return { ok: true, hidden: 0, words: visibleWords() };
    if (wanted !== "hide" && wanted !== "reader" && wanted !== "corrections") return { ok: false, error: "mode must be hide, reader, corrections or off" };
    const t0 = performance.now();
    const elements = new Map();
    const fields = learn ? { mode: wanted, learn: true } : { mode: wanted };
    if (wanted !== "corrections") {
      const reference = await coldStartReference().catch(() => null);
      if (reference) fields.reference = reference;
    }
    const { answer, walkMs, snapshot, parts } = await askWithSnapshot("clean", fields, elements);
    if (!answer || !answer.ok) {
      const failed = { ok: false, error: (answer && answer.error) || "no answer from the extension", hostMissing: answer && answer.hostMissing };
      // the host cannot be reached: the reader view still works, in the extension's own page
      if (wanted === "reader" && answer && !answer.ok) return readerWithoutHost(failed);
      return failed;
    }
    const reply = answer.reply;
    if (!reply.ok) return { ok: false, error: reply.error.message, code: reply.error.code };
    if (wanted === "reader") await showReader(reply.article);
    else hide(reply.hide, elements, reply.why);
    mode = wanted;
    const t2 = performance.now();
    return {
      ok: true, hidden: wanted === "reader" ? reply.hide.length : hidden.length, words: visibleWords(),
      site: reply.site, sitePages: reply.site_pages, model: reply.model, corrections: reply.corrections, reference: reply.reference,
      timing: {
        snapshotMs: walkMs, totalMs: t2 - t0, elements: elements.size, host: reply.host_ms, parts,
        bytes: measure ? new TextEncoder().encode(JSON.stringify(snapshot)).length : undefined,
      },
    };
  }

  // The reader view without the host: the page's markup goes to the extension's reader page
  // (reader.html, Mozilla's Readability), opened in a tab beside this one; the page itself is
  // left as it is. Answers as run() does, with withoutHost: true and the host's error.
  async function readerWithoutHost(failed) {
    const opened = await api.runtime.sendMessage({
      type: "pagesieve.readerWithoutHost", html: document.documentElement.outerHTML, url: location.href, title: document.title,
    }).catch((error) => ({ ok: false, error: String(error.message || error) }));
    if (!opened || !opened.ok) return failed;
    return { ok: true, withoutHost: true, hostError: failed.error, hostMissing: failed.hostMissing, readerUrl: opened.url, hidden: 0, words: visibleWords() };
  }

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.save") return false;
    save(message.tags).then(sendResponse, (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.learn") return false;
    learnPage().then(sendResponse, (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  // A keyboard shortcut: the mode if it is not on, else the page as it was. Answers as run()
  // does, with the mode now on.
  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.toggle") return false;
    const wanted = mode === message.mode ? "off" : message.mode;
    run(wanted).then((answer) => sendResponse({ ...answer, mode: answer.ok ? wanted : mode }),
      (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.run") return false;
    run(message.mode, message.measure).then(sendResponse, (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  // Learn the site's template from this visit, where the user lets it (options page), and
  // apply the site's auto-mode, or else the user's own "hide this" corrections for the site.
  // One snapshot does both: the host judges the page, then learns it (docs/protocol.md, clean).
  async function learnOnLoad() {
    const { learn = {}, auto = {}, corrected = {} } = await api.storage.local.get(["learn", "auto", "corrected"]);
    const site = siteOf();
    if (!site || !/^https?:$/.test(location.protocol)) return;
    const learning = learn[site] !== false && learn["*"] !== false;
    let wanted = null;
    if (auto[site] === "hide" || auto[site] === "reader") wanted = auto[site];
    else if (corrected[site] > 0 && mode === "off") wanted = "corrections";
    if (wanted) await run(wanted, false, learning);
    else if (learning) await learnPage();
  }

  // The site's template learns this page: a walk without layout (all learning reads), sent as a
  // "learn" request. Answers {ok, learned, timing: {snapshotMs, totalMs}}; also the benchmark's
  // hook (runtime message {type: "pagesieve.learn"}), which times what every page load costs.
  async function learnPage() {
    const t0 = performance.now();
    const { answer, walkMs } = await askWithSnapshot("learn", {}, undefined, false);
    const totalMs = performance.now() - t0;
    if (!answer || !answer.ok) return { ok: false, error: (answer && answer.error) || "no answer from the extension" };
    if (!answer.reply.ok) return { ok: false, error: answer.reply.error.message, code: answer.reply.error.code };
    return { ok: true, learned: answer.reply.learned, timing: { snapshotMs: walkMs, totalMs } };
  }

  function siteOf() {
    return location.hostname.replace(/^www\./, "");
  }

  // ---------------------------------------------------------------- corrections (right-click)
  // The context menu's "Hide this" / "Keep this" start a picker on the block under the
  // right-click: the host's block tags (blocks.py BLOCK_TAGS), so the highlight shows exactly
  // what the correction applies to. Arrow up widens to the enclosing block, arrow down narrows
  // back; Enter saves, Esc cancels.
  const BLOCK_TAGS = new Set(("div section article main header footer nav aside p h1 h2 h3 h4 h5 h6 ul ol li " +
    "dl dt dd table thead tbody tfoot tr td th caption blockquote pre figure figcaption address details summary hgroup menu").split(" "));
  let lastTarget = null;
  let picker = null;   // {host, root, box, bar, chain, depth, label, reasons}
  let lastCorrectionSite = null;
  document.addEventListener("contextmenu", (event) => {
    const path = event.composedPath ? event.composedPath() : [event.target];
    lastTarget = path.find((n) => n && n.nodeType === 1) || null;
  }, true);

  function blockChain(el) {  // the blocks from the one under the pointer outwards, body excluded
    const chain = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (BLOCK_TAGS.has(n.localName)) chain.push(n);
    }
    return chain;
  }

  function describe(el) {
    const classes = [...el.classList].filter((c) => !/\d/.test(c)).slice(0, 2);
    return el.localName + classes.map((c) => "." + c).join("");
  }

  function uiRoot() {
    const host = document.createElement("pagesieve-ui");
    host.style.cssText = "all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;";
    const root = host.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    style.textContent = `
      .box { position: fixed; box-sizing: border-box; border: 2px solid; border-radius: 3px; pointer-events: none; }
      .noise { border-color: #c62828; background: rgba(198, 40, 40, 0.12); }
      .content { border-color: #2e7d32; background: rgba(46, 125, 50, 0.12); }
      .bar, .toast { position: fixed; left: 50%; transform: translateX(-50%); font: 14px/1.4 system-ui, sans-serif;
        background: #222; color: #fff; padding: 8px 14px; border-radius: 6px; box-shadow: 0 2px 10px rgba(0,0,0,.3); max-width: 80vw; }
      .bar { top: 12px; } .toast { bottom: 16px; }
      .reason { margin-top: 4px; padding-top: 4px; border-top: 1px solid #555; color: #ffcdd2; }
      kbd { font: inherit; border: 1px solid #777; border-radius: 3px; padding: 0 4px; }`;
    root.append(style);
    document.documentElement.append(host);
    return { host, root };
  }

  function drawPicker() {
    const el = picker.chain[picker.depth];
    const r = el.getBoundingClientRect();
    Object.assign(picker.box.style, { left: r.left + "px", top: r.top + "px", width: r.width + "px", height: r.height + "px" });
    picker.box.dataset.tag = el.localName;
    const verb = picker.label === "noise" ? "Hide" : "Keep";
    picker.bar.innerHTML = "";
    picker.bar.append(`${verb} this: ${describe(el)} (and blocks like it on this site) · `);
    for (const [key, what] of [["↑", "wider"], ["↓", "narrower"], ["Enter", "save"], ["Esc", "cancel"]]) {
      const k = document.createElement("kbd");
      k.textContent = key;
      picker.bar.append(k, ` ${what} `);
    }
    const reason = pickerReason(el);
    if (reason) {
      const line = document.createElement("div");
      line.className = "reason";
      line.textContent = reason;
      picker.bar.append(line);
    }
  }

  // Why the block under the picker is hidden or shown, before the user corrects it: the reason
  // the host gave when it hid the block (or a block around it); on a page cleaned in "hide"
  // mode, a block not hidden is content; else the host is asked ("explain", docs/protocol.md),
  // and the bar is drawn again when it answers.
  function pickerReason(el) {
    const local = hiddenReasonOf(el);
    if (local !== undefined) return "hidden: " + reasonText(local);
    if (mode === "hide") return "shown: pagesieve keeps this as content";
    if (!picker.reasons.has(el)) {
      picker.reasons.set(el, "");
      const asked = picker;
      explainNode(el).then((text) => {
        if (picker !== asked) return;
        picker.reasons.set(el, text);
        if (picker.chain[picker.depth] === el) drawPicker();
      }, () => {});
    }
    return picker.reasons.get(el);
  }

  async function explainNode(el) {
    const elements = new Map();
    const snapshot = globalThis.pagesieveSnapshot(document, { elements });
    let node = -1;
    for (const [id, e] of elements) if (e === el) { node = id; break; }
    if (node < 0) return "";
    const answer = await ask("explain", { snapshot, node });
    if (!answer || !answer.ok || !answer.reply.ok) return "";
    const r = answer.reply;
    if (r.verdict === "content") return "shown: pagesieve keeps this as content";
    if (r.verdict === "noise") return "“Hide noise” would hide this: " + reasonText(r.reason);
    if (r.verdict === "removed") return "pagesieve does not read this part: " + reasonText(r.reason);
    return "";
  }

  function closePicker() {
    if (!picker) return;
    picker.host.remove();
    window.removeEventListener("keydown", onPickerKey, true);
    window.removeEventListener("scroll", drawPicker, true);
    picker = null;
  }

  function onPickerKey(event) {
    if (!picker) return;
    const keys = { ArrowUp: 1, ArrowDown: -1 };
    if (event.key in keys) {
      picker.depth = Math.min(picker.chain.length - 1, Math.max(0, picker.depth + keys[event.key]));
      drawPicker();
    } else if (event.key === "Enter") {
      const el = picker.chain[picker.depth];
      const label = picker.label;
      closePicker();
      correct(el, label).catch((error) => toast("Not saved: " + String(error.message || error), false));
    } else if (event.key === "Escape") {
      closePicker();
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  function startPicker(label) {
    closePicker();
    const chain = lastTarget ? blockChain(lastTarget) : [];
    if (!chain.length) return { ok: false, error: "right-click on the part of the page to correct" };
    const { host, root } = uiRoot();
    const box = document.createElement("div");
    box.className = "box " + label;
    const bar = document.createElement("div");
    bar.className = "bar";
    root.append(box, bar);
    picker = { host, root, box, bar, chain, depth: 0, label, reasons: new Map() };
    drawPicker();
    window.addEventListener("keydown", onPickerKey, true);
    window.addEventListener("scroll", drawPicker, true);
    return { ok: true, picking: describe(chain[0]) };
  }

  let toastTimer = null;
  function clearToast() {
    const old = document.querySelector("pagesieve-ui[data-kind=toast]");
    if (old) old.remove();
  }

  function toast(text, ok) {  // a note at the bottom of the page, gone after 5 s
    clearToast();
    const { host, root } = uiRoot();
    host.dataset.kind = "toast";
    const box = document.createElement("div");
    box.className = "toast";
    box.textContent = text;
    box.dataset.ok = ok ? "1" : "0";
    root.append(box);
    clearTimeout(toastTimer);
    toastTimer = setTimeout(clearToast, 5000);
  }

  async function remember(site, count) {
    const { corrected = {} } = await api.storage.local.get("corrected");
    if (count > 0) corrected[site] = count; else delete corrected[site];
    await api.storage.local.set({ corrected });
  }

  async function reapply() {
    const wanted = mode === "off" ? "corrections" : mode;
    return run(wanted);
  }

  // Save a correction: the host stores it (on disk) before answering; then the page shows it.
  async function correct(el, label) {
    if (mode === "reader") off();  // corrections are made on the page itself
    clearToast();  // our own notes are not part of the page
    const elements = new Map();
    const snapshot = globalThis.pagesieveSnapshot(document, { elements });
    let node = -1;
    for (const [id, e] of elements) if (e === el) { node = id; break; }
    if (node < 0) throw new Error("that part of the page is not visible");
    const { snippets = true } = await api.storage.local.get("snippets");
    const answer = await ask("label", { snapshot, node, label, snippets });
    if (!answer || !answer.ok) throw new Error((answer && answer.error) || "no answer from the extension");
    const reply = answer.reply;
    if (!reply.ok) throw new Error(reply.error.message);
    lastCorrectionSite = reply.site;
    await remember(reply.site, reply.corrections);
    await reapply();
    const verb = label === "noise" ? "hide" : "keep";
    let text = `Saved: ${verb} ${reply.label.signature} on ${reply.site}.`;
    if (reply.replaced) text += ` It replaces your earlier “${reply.replaced.label === "noise" ? "hide" : "keep"}” of the same kind of block.`;
    toast(text, true);
    return reply;
  }

  async function undoCorrection() {
    const answer = await ask("label", { undo: true, site: lastCorrectionSite || siteOf() });
    if (!answer || !answer.ok) return toast("Not undone: " + ((answer && answer.error) || "no answer"), false);
    const reply = answer.reply;
    if (!reply.ok) return toast("Not undone: " + reply.error.message, false);
    if (!reply.removed) return toast("There is no correction to undo on this site.", false);
    const count = await ask("labels", { site: reply.removed.site });
    await remember(reply.removed.site, count && count.ok && count.reply.ok ? count.reply.labels.length : 0);
    await reapply();
    toast(`Undone: ${reply.removed.label === "noise" ? "hide" : "keep"} ${reply.removed.signature}.`, true);
  }

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (message && message.type === "pagesieve.showHidden") {
      sendResponse(showHidden(message.on !== false));
      return false;
    }
    if (!message || (message.type !== "pagesieve.pick" && message.type !== "pagesieve.undo")) return false;
    if (message.type === "pagesieve.undo") {
      undoCorrection().then(() => sendResponse({ ok: true }), (e) => sendResponse({ ok: false, error: String(e.message || e) }));
      return true;
    }
    if (message.label !== "noise" && message.label !== "content") sendResponse({ ok: false, error: "label must be noise or content" });
    else sendResponse(startPicker(message.label));
    return false;
  });
  // when the page is idle, so that learning never competes with the page's own loading
  const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
  let loaded = false;  // the on-load work (learning, the site's auto mode) is over
  idle(() => learnOnLoad().catch(() => {}).finally(() => { loaded = true; }), { timeout: 5000 });

  // The page's state, for the browser tests, which wait on it instead of sleeping: runtime
  // message {type: "pagesieve.state"} answered with {ok: true, loaded, coldStart, mode, hidden,
  // showing}: whether the on-load work is over, the cold-start option as this script holds it,
  // the page's mode, how many parts are hidden and whether "Show hidden" shows them (the popup
  // reads the last three).
  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.state") return false;
    sendResponse({ ok: true, loaded, coldStart: coldStartOn, mode, hidden: hidden.length, showing: !!shown });
    return false;
  });

  // Firefox 153's WebDriver BiDi may not navigate to an extension page, so a browser test asks
  // the extension to open its options page itself (from which it sends the messages above): the
  // page dispatches the DOM event "pagesieve:test-open-options". The background honours it only
  // in a development install (a temporary add-on or an unpacked extension), never in a user's.
  document.addEventListener("pagesieve:test-open-options", () => {
    api.runtime.sendMessage({ type: "pagesieve.testOpenOptions" }).catch(() => {});
  });
})();
