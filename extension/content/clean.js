// Cleaning the page: snapshot it, ask the host ("clean"), then hide the noise in place
// (hide.js) or show the article in the reader view (reader.js); "off" puts the page back
// exactly as it was. The last content script (manifest order): it starts the page's on-load
// work (learning the site, the site's auto mode). Channels it answers (the popup, the
// shortcuts and the browser tests send them):
//   run {mode, measure}: -> {ok: true, hidden, words, site, sitePages, model, corrections,
//     reference, consent, layers, timing} or {ok: false, error} (consent: {cmp, action}, consent.js;
//     layers: the shape of each layer over the page the host hid, rules/layers.py); toggle {mode}: as run, the mode off when it is on;
//   learn: learns the page as a page load does -> {ok, learned, timing} (timed by pagesieve
//     bench-browser);
//   state: -> {ok: true, loaded, coldStart, mode, hidden, showing, unlocked}, what the tests wait on
//     (unlocked: the page's scroll lock is undone).
"use strict";
(function () {
  const ps = globalThis.pagesieve.content;

  // Everything of ours off the page: the hidden blocks shown, the reader view closed.
  function off() {
    ps.consent.clear();
    ps.hiding.clear();
    ps.reader.close();
    ps.mode = "off";
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
  ps.api.storage.local.get("coldStart").then(({ coldStart }) => { coldStartOn = coldStart === true; }, () => {});
  ps.api.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && changes.coldStart) coldStartOn = changes.coldStart.newValue === true;
  });

  async function coldStartReference() {
    if (!coldStartOn || (ps.api.extension && ps.api.extension.inIncognitoContext) || !/^https?:$/.test(location.protocol)) return null;
    const history = await ps.ask("history", { url: location.href });
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
      return { url: response.url, data: await ps.base64Of(blob) };
    } catch (e) {
      return null;  // unreachable, timed out: judged alone
    } finally {
      clearTimeout(timer);
    }
  }

  // The toolbar button shows the page's state: its icon, and the number of hidden parts as its
  // badge (background/toolbar.js). Told after every change of mode.
  function tellToolbar() {
    const hidden = ps.mode === "reader" ? 0 : ps.hiding.count();
    ps.api.runtime.sendMessage({ type: "pagesieve.pageState", mode: ps.mode, hidden }).catch(() => {});
  }

  // when: "click" (the popup, a shortcut) or "load" (the site's auto mode as the page loads)
  async function run(wanted, measure, learn, when = "click") {
    const answer = await runMode(wanted, measure, learn, when);
    tellToolbar();
    return answer;
  }

  // learn: the host also learns the page from this snapshot (page load: one walk, not two)
  async function runMode(wanted, measure, learn, when) {
    off();
    if (wanted === "off") return { ok: true, hidden: 0, words: ps.visibleWords() };
    if (wanted !== "hide" && wanted !== "reader" && wanted !== "corrections") return { ok: false, error: "mode must be hide, reader, corrections or off" };
    const t0 = performance.now();
    // the page's consent pop-up answered first (consent.js): the page is then judged without it
    const consent = wanted === "corrections" ? null : await consentFirst(when);
    const elements = new Map();
    const fields = learn ? { mode: wanted, learn: true } : { mode: wanted };
    if (wanted !== "corrections") {
      const reference = await coldStartReference().catch(() => null);
      if (reference) fields.reference = reference;
    }
    const { answer, walkMs, snapshot, parts } = await ps.askWithSnapshot("clean", fields, elements);
    const failed = ps.failure(answer);
    // the host cannot be reached: the reader view still works, in the extension's own page
    if (failed && wanted === "reader" && answer && !answer.ok) return readerWithoutHost(failed);
    if (failed) return failed;
    const reply = answer.reply;
    if (wanted === "reader") {
      await ps.reader.show(reply.article);
      // the article's following pages, shown as they arrive (pages.js); page 1 is shown already
      ps.pages.follow(reply.article).catch((error) => ps.reader.pagesDone(`failed: ${error.message || error}`));
    }
    else {
      ps.hiding.hide(reply.hide, elements, reply.why);
      // a layer over the page was hidden (a modal, its backdrop): the page's scroll lock goes too
      if ((reply.why || []).some((why) => why && why[0] === "layers") || (consent && consent.action === "hidden")) ps.hiding.unlockScroll();
    }
    ps.mode = wanted;
    const t2 = performance.now();
    return {
      ok: true, hidden: wanted === "reader" ? reply.hide.length : ps.hiding.count(), words: ps.visibleWords(),
      site: reply.site, sitePages: reply.site_pages, model: reply.model, corrections: reply.corrections, reference: reply.reference, consent,
      layers: (reply.why || []).filter((why) => why && why[0] === "layers").map((why) => why[1]),
      timing: {
        snapshotMs: walkMs, totalMs: t2 - t0, elements: elements.size, host: reply.host_ms, parts,
        bytes: measure ? new TextEncoder().encode(JSON.stringify(snapshot)).length : undefined,
      },
    };
  }

  // The page's consent pop-up answered (consent.js). On load only where the user asked for that
  // (options page), and then it is already answered: consent.js's onLoad() ran just before.
  async function consentFirst(when) {
    if (when !== "load") return ps.consent.answer("click");
    const { onLoad } = await ps.consent.settings();
    return onLoad ? ps.consent.last() || ps.consent.answer("load") : null;
  }

  // The reader view without the host: the page's markup goes to the extension's reader page
  // (pages/reader.html, Mozilla's Readability), opened in a tab beside this one; the page itself
  // is left as it is. Answers as run() does, with withoutHost: true and the host's error.
  async function readerWithoutHost(failed) {
    const opened = await ps.api.runtime.sendMessage({
      type: "pagesieve.readerWithoutHost", html: document.documentElement.outerHTML, url: location.href, title: document.title,
    }).catch((error) => ({ ok: false, error: String(error.message || error) }));
    if (!opened || !opened.ok) return failed;
    return { ok: true, withoutHost: true, hostError: failed.error, hostMissing: failed.hostMissing, readerUrl: opened.url, hidden: 0, words: ps.visibleWords() };
  }

  // Learn the site's template from this visit, where the user lets it (options page), and
  // apply the site's auto-mode, or else the user's own "hide this" corrections for the site.
  // One snapshot does both: the host judges the page, then learns it (docs/protocol.md, clean).
  async function learnOnLoad() {
    const { learn = {}, auto = {}, corrected = {} } = await ps.api.storage.local.get(["learn", "auto", "corrected"]);
    const site = ps.siteOf();
    if (!site || !/^https?:$/.test(location.protocol)) return;
    const learning = learn[site] !== false && learn["*"] !== false;
    let wanted = null;
    if (auto[site] === "hide" || auto[site] === "reader") wanted = auto[site];
    else if (corrected[site] > 0 && ps.mode === "off") wanted = "corrections";
    if (wanted) await run(wanted, false, learning, "load");
    else if (learning) await learnPage();
  }

  // The site's template learns this page: a walk without layout (all learning reads), sent as a
  // "learn" request. Answers {ok, learned, timing: {snapshotMs, totalMs}}; also the benchmark's
  // hook (runtime message {type: "pagesieve.learn"}), which times what every page load costs.
  async function learnPage() {
    const t0 = performance.now();
    const { answer, walkMs } = await ps.askWithSnapshot("learn", {}, undefined, false);
    const totalMs = performance.now() - t0;
    const failed = ps.failure(answer);
    if (failed) return failed;
    return { ok: true, learned: answer.reply.learned, timing: { snapshotMs: walkMs, totalMs } };
  }

  ps.on("run", (message) => run(message.mode, message.measure));
  ps.on("learn", () => learnPage());
  // A keyboard shortcut: the mode if it is not on, else the page as it was. Answers as run()
  // does, with the mode now on.
  ps.on("toggle", (message) => {
    const wanted = ps.mode === message.mode ? "off" : message.mode;
    return run(wanted).then((answer) => ({ ...answer, mode: answer.ok ? wanted : ps.mode }));
  });

  // when the page is idle, so that learning never competes with the page's own loading
  const idle = globalThis.requestIdleCallback || ((f) => setTimeout(f, 200));
  let loaded = false;  // the on-load work (learning, the site's auto mode) is over
  // the consent pop-up first, where the user asked for that on every page (options page)
  idle(() => ps.consent.onLoad().catch(() => {}).then(() => learnOnLoad()).catch(() => {}).finally(() => { loaded = true; }), { timeout: 5000 });

  // The page's state, for the browser tests, which wait on it instead of sleeping: whether the
  // on-load work is over, the cold-start option as this script holds it, the page's mode, how
  // many parts are hidden and whether "Show hidden" shows them (the popup reads the last three).
  ps.on("state", () => ({
    ok: true, loaded, coldStart: coldStartOn, mode: ps.mode, hidden: ps.hiding.count(), showing: ps.hiding.showing(),
    unlocked: ps.hiding.unlocked(),
  }));

  // Firefox 153's WebDriver BiDi may not navigate to an extension page, so a browser test asks
  // the extension to open its options page itself (from which it sends the messages above): the
  // page dispatches the DOM event "pagesieve:test-open-options". The background honours it only
  // in a development install (a temporary add-on or an unpacked extension), never in a user's.
  document.addEventListener("pagesieve:test-open-options", () => {
    ps.api.runtime.sendMessage({ type: "pagesieve.testOpenOptions" }).catch(() => {});
  });

  ps.off = () => { off(); tellToolbar(); };  // the reader view's Esc
  ps.run = run;
})();
