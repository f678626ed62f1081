// What the content scripts share, on one small namespace object, globalThis.pagesieve.content:
// the page's mode, the requests to the host (through the background), the named channels this
// page answers (channels.js), and our own marks on the page (style sheets, the toast). Loaded
// after platform.js, channels.js, snapshot.js and reference.js and before the scripts that
// use it (manifest content_scripts order): reasons.js, hide.js, reader.js, save.js, picker.js,
// clean.js.
"use strict";
(function () {
  const { platform, createChannels } = globalThis.pagesieve;
  const api = platform.api;
  const channels = createChannels();
  api.runtime.onMessage.addListener(channels.listener);

  function ask(request, fields) {
    return api.runtime.sendMessage({ type: "pagesieve.host", request, fields });
  }

  // An answer of ask() (or of askWithSnapshot's request) that failed, as the scripts answer a
  // failure ({ok: false, error, hostMissing} when the host could not be asked, {ok: false, error,
  // code} when it refused); null when the host answered ok.
  function failure(answer) {
    if (!answer || !answer.ok) return { ok: false, error: (answer && answer.error) || "no answer from the extension", hostMissing: answer && answer.hostMissing };
    if (!answer.reply.ok) return { ok: false, error: answer.reply.error.message, code: answer.reply.error.code };
    return null;
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

  function siteOf() {
    return location.hostname.replace(/^www\./, "");
  }

  // A shadow root of ours over the page, for the picker and the toast: nothing of the page's
  // style reaches in, nothing of ours leaks out.
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

  const TOAST_MS = 5000;  // how long a note stays at the bottom of the page
  let toastTimer = null;
  function clearToast() {
    const old = document.querySelector("pagesieve-ui[data-kind=toast]");
    if (old) old.remove();
  }

  function toast(text, ok) {
    clearToast();
    const { host, root } = uiRoot();
    host.dataset.kind = "toast";
    const box = document.createElement("div");
    box.className = "toast";
    box.textContent = text;
    box.dataset.ok = ok ? "1" : "0";
    root.append(box);
    clearTimeout(toastTimer);
    toastTimer = setTimeout(clearToast, TOAST_MS);
  }

  // A blob's bytes as base64 (what the host's "save" images and a cold start's reference carry).
  function base64Of(blob) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  }

  globalThis.pagesieve.content = {
    api,
    // what the page shows: "off", "hide", "reader" or "corrections" (clean.js sets it)
    mode: "off",
    // on(name, handler): answer runtime messages {type: "pagesieve." + name} (channels.js)
    on: channels.define,
    ask, askWithSnapshot, failure, visibleWords, siteOf, uiRoot, toast, clearToast, base64Of,
    addPageStyle: (rule) => platform.addPageStyle(document, rule),
    removePageStyle: (style) => platform.removePageStyle(document, style),
  };
})();
