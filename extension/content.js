// Content script: snapshot the page, ask the host, then hide the noise in place or show the
// article in a reader overlay; "off" puts the page back exactly as it was.
// Test hook (also used by the popup): runtime message {type: "pagesieve.run", mode} answered
// with {ok: true, hidden, words} or {ok: false, error}.
"use strict";
(function () {
  const api = globalThis.browser ?? globalThis.chrome;
  const HIDE_ATTR = "data-ps-hidden";
  let sheet = null;      // constructed stylesheet (not a DOM node)
  let overlay = null;    // reader overlay host element
  let hidden = [];
  let mode = "off";
  let shownArticle = null;  // the article in the reader overlay (what "save" saves then)

  function ask(request, fields) {
    return api.runtime.sendMessage({ type: "pagesieve.host", request, fields });
  }

  function visibleWords() {
    const text = document.body ? document.body.innerText : "";
    const words = text.match(/[\p{L}\p{N}]+/gu);
    return words ? words.length : 0;
  }

  function off() {
    for (const el of hidden) el.removeAttribute(HIDE_ATTR);
    hidden = [];
    if (sheet) {
      if (sheet instanceof CSSStyleSheet) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
      else sheet.remove();
      sheet = null;
    }
    if (overlay) { overlay.remove(); overlay = null; shownArticle = null; document.removeEventListener("keydown", onKey, true); }
    mode = "off";
  }

  function hide(ids, elements) {
    for (const id of ids) {
      const el = elements.get(id);
      if (el) { el.setAttribute(HIDE_ATTR, ""); hidden.push(el); }
    }
    const rule = "[" + HIDE_ATTR + "] { display: none !important; }";
    try {  // a constructed stylesheet is no DOM node at all
      sheet = new CSSStyleSheet();
      sheet.replaceSync(rule);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    } catch (e) {  // Firefox content scripts cannot reach adoptedStyleSheets: one <style>, removed by off()
      sheet = document.createElement("style");
      sheet.textContent = rule;
      (document.head || document.documentElement).append(sheet);
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

  function readerCss(settings) {
    const t = THEMES[settings.theme] || THEMES.light;
    return `:host { all: initial; }
      .page { position: fixed; inset: 0; z-index: 2147483647; overflow: auto; background: ${t.bg}; color: ${t.fg}; }
      .bar { position: sticky; top: 0; display: flex; gap: .4em; justify-content: flex-end; padding: .5em; background: ${t.bg}; font: 14px system-ui, sans-serif; }
      .bar button { font: inherit; padding: .2em .6em; border: 1px solid currentColor; background: transparent; color: inherit; border-radius: 4px; cursor: pointer; }
      article { max-width: ${settings.width}em; margin: 0 auto 4em; padding: 0 1.2em; font-family: ${settings.font === "sans" ? "system-ui, sans-serif" : "Georgia, 'Times New Roman', serif"}; font-size: ${settings.size}px; line-height: ${settings.lineHeight}; }
      h1 { font-size: 1.8em; line-height: 1.2; margin: .6em 0 .3em; }
      .meta { opacity: .75; font-size: .85em; margin-bottom: 1.5em; }
      img, figure { max-width: 100%; height: auto; }
      pre { white-space: pre; overflow-x: auto; font-size: .85em; }
      table { border-collapse: collapse; } td, th { border: 1px solid rgba(127,127,127,.4); padding: .2em .4em; }
      a { color: ${t.link}; }`;
  }

  async function showReader(article) {
    const stored = await api.storage.local.get("reader");
    const settings = Object.assign({ theme: "light", font: "serif", size: 19, width: 38, lineHeight: 1.6 }, stored.reader || {});
    overlay = document.createElement("pagesieve-reader");
    const shadow = overlay.attachShadow({ mode: "open" });
    const style = document.createElement("style");
    const page = document.createElement("div");
    page.className = "page";
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
    meta.textContent = [article.byline, published, article.site_name].filter(Boolean).join(" · ");
    const body = document.createElement("div");
    body.className = "content";
    body.innerHTML = article.html;  // sanitised by the host (nh3 allow-list)
    const first = body.querySelector("h1");  // the article's own headline: shown once, as ours
    if (first && first.textContent.trim() === (article.title || "").trim()) first.remove();
    art.append(h1, meta);
    if (article.lead_image && !article.html.includes(article.lead_image)) {
      const img = document.createElement("img");
      img.src = article.lead_image;
      img.alt = "";
      art.append(img);
    }
    art.append(body);
    const apply = () => { style.textContent = readerCss(settings); api.storage.local.set({ reader: settings }); };
    const button = (label, title, action) => {
      const b = document.createElement("button");
      b.textContent = label; b.title = title;
      b.addEventListener("click", () => { action(); apply(); });
      bar.append(b);
    };
    button("A−", "smaller text", () => { settings.size = Math.max(12, settings.size - 1); });
    button("A+", "larger text", () => { settings.size = Math.min(32, settings.size + 1); });
    button("↔", "wider / narrower", () => { settings.width = settings.width >= 48 ? 30 : settings.width + 6; });
    button("≡", "line height", () => { settings.lineHeight = settings.lineHeight >= 2 ? 1.3 : Math.round((settings.lineHeight + 0.15) * 100) / 100; });
    button("Aa", "serif / sans-serif", () => { settings.font = settings.font === "sans" ? "serif" : "sans"; });
    button("◐", "theme: light, dark, sepia", () => { settings.theme = { light: "dark", dark: "sepia", sepia: "light" }[settings.theme] || "light"; });
    button("✕", "close (Esc)", () => off());
    page.append(bar, art);
    shadow.append(style, page);
    style.textContent = readerCss(settings);
    document.documentElement.append(overlay);
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
      const snapshot = globalThis.pagesieveSnapshot(document);
      if (restore) for (const el of restore) el.setAttribute(HIDE_ATTR, "");
      const answer = await ask("clean", { mode: "reader", snapshot });
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

  async function run(wanted, measure) {
    off();
    if (wanted === "off") return { ok: true, hidden: 0, words: visibleWords() };
    if (wanted !== "hide" && wanted !== "reader") return { ok: false, error: "mode must be hide, reader or off" };
    const t0 = performance.now();
    const elements = new Map();
    const snapshot = globalThis.pagesieveSnapshot(document, { elements });
    const t1 = performance.now();
    const answer = await ask("clean", { mode: wanted, snapshot });
    if (!answer || !answer.ok) {
      return { ok: false, error: (answer && answer.error) || "no answer from the extension", hostMissing: answer && answer.hostMissing };
    }
    const reply = answer.reply;
    if (!reply.ok) return { ok: false, error: reply.error.message, code: reply.error.code };
    if (wanted === "hide") hide(reply.hide, elements);
    else await showReader(reply.article);
    mode = wanted;
    const t2 = performance.now();
    return {
      ok: true, hidden: wanted === "hide" ? hidden.length : reply.hide.length, words: visibleWords(),
      site: reply.site, sitePages: reply.site_pages, model: reply.model,
      timing: {
        snapshotMs: t1 - t0, totalMs: t2 - t0, elements: elements.size, host: reply.host_ms,
        bytes: measure ? new TextEncoder().encode(JSON.stringify(snapshot)).length : undefined,
      },
    };
  }

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.save") return false;
    save(message.tags).then(sendResponse, (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  api.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!message || message.type !== "pagesieve.run") return false;
    run(message.mode, message.measure).then(sendResponse, (error) => sendResponse({ ok: false, error: String(error.message || error) }));
    return true;
  });

  // Learn the site's template from this visit, where the user lets it (options page).
  async function learnOnLoad() {
    const { learn = {} } = await api.storage.local.get("learn");
    const site = location.hostname.replace(/^www\./, "");
    if (!site || !/^https?:$/.test(location.protocol) || learn[site] === false || learn["*"] === false) return;
    const snapshot = globalThis.pagesieveSnapshot(document);
    await ask("learn", { snapshot });
    const { auto = {} } = await api.storage.local.get("auto");
    if (auto[site] === "hide" || auto[site] === "reader") run(auto[site]);
  }
  // when the page is idle, so that learning never competes with the page's own loading
  const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
  idle(() => learnOnLoad().catch(() => {}), { timeout: 5000 });
})();
