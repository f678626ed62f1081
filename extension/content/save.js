// Saving the clean article to the library: the article shown in the reader view, else the
// host's reader article of the page as it is; its images fetched here and sent with it in a
// "save" request. Adds `saving` to globalThis.pagesieve.content; answers the channel "save"
// (the popup's button, the context menu, the shortcut).
"use strict";
(function () {
  const ps = globalThis.pagesieve.content;

  // Images are fetched here, with the page's own permissions (its cookies, its origin), because
  // the host never touches the network. Caps as the library's (pagesieve.library.html_file):
  // bigger images, and images past the total, stay links in the saved file.
  const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
  const MAX_TOTAL_BYTES = 24 * 1024 * 1024;
  const MAX_IMAGES = 200;
  const IMAGE_TIMEOUT_MS = 10000;

  async function fetchImage(url) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), IMAGE_TIMEOUT_MS);
    try {
      const response = await fetch(url, { credentials: "include", signal: abort.signal });
      if (!response.ok) return null;
      const blob = await response.blob();
      if (!blob.type.startsWith("image/") || blob.size > MAX_IMAGE_BYTES) return null;
      return { type: blob.type, data: await ps.base64Of(blob), size: blob.size };
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

  // tags: the popup's tags (a list of words). Answers {ok: true, title, markdown, html, updated,
  // imagesInlined, imagesLinked} or a failure (shared.js).
  async function save(tags) {
    let article = ps.reader.article();
    if (!article) {
      // the page as it is shown, without our own changes (hidden noise comes back for the walk,
      // which is done when askWithSnapshot returns)
      const walk = () => ps.askWithSnapshot("clean", { mode: "reader" });
      const { answer } = await (ps.mode === "hide" ? ps.hiding.whileRevealed(walk) : walk());
      const failed = ps.failure(answer);
      if (failed) return failed;
      article = answer.reply.article;
    }
    const images = await articleImages(article);
    const { libraryFolder = "" } = await ps.api.storage.local.get("libraryFolder");
    const answer = await ps.ask("save", { article, images, tags: tags || [], ...(libraryFolder ? { folder: libraryFolder } : {}) });
    const failed = ps.failure(answer);
    if (failed) return failed;
    const reply = answer.reply;
    return {
      ok: true, title: reply.title, markdown: reply.markdown, html: reply.html, updated: reply.updated,
      imagesInlined: reply.images_inlined, imagesLinked: reply.images_linked,
    };
  }

  ps.on("save", (message) => save(message.tags));
  ps.saving = { save };
})();
