// Corrections with the right mouse button: the context menu's "Hide this" / "Keep this" start a
// picker on the block under the pointer, which shows why that block is hidden or shown
// (reasons.js) before the user corrects it; Enter saves the correction (a "label" request),
// and "Undo last correction" takes the newest one back. Adds `picker` to
// globalThis.pagesieve.content; answers the channels "pick" and "undo".
"use strict";
(function () {
  const { content: ps, reasons } = globalThis.pagesieve;

  // The blocks the picker offers are the host's block tags (blocks.py BLOCK_TAGS), so the
  // highlight shows exactly what the correction applies to (with "Hide this", an inline element
  // under the pointer comes first: pickChain). Arrow up widens to the enclosing block, arrow down narrows
  // back; Enter saves, Esc cancels.
  const BLOCK_TAGS = new Set(("div section article main header footer nav aside p h1 h2 h3 h4 h5 h6 ul ol li " +
    "dl dt dd table thead tbody tfoot tr td th caption blockquote pre figure figcaption address details summary hgroup menu").split(" "));
  let lastTarget = null;
  let picker = null;   // {host, root, box, bar, chain, depth, label, reasons} while the picker is open
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

  // With "Hide this", the chain starts at the inline element under the pointer when it can be
  // corrected alone (a photo credit span, a "More…" link: text, and no block inside; the host's
  // corrections/parts.py is_part), then its inline ancestors, then the blocks. "Keep this"
  // names blocks only.
  const BLOCK_SELECTOR = [...BLOCK_TAGS].join(",");
  function isPart(n) {
    return !BLOCK_TAGS.has(n.localName) && (n.textContent || "").trim() !== "" && !n.querySelector(BLOCK_SELECTOR);
  }

  function pickChain(el, label) {
    const parts = [];
    if (label === "noise") {
      for (let n = el; n && n.nodeType === 1 && !BLOCK_TAGS.has(n.localName) && n !== document.body; n = n.parentElement) {
        if (isPart(n)) parts.push(n);
      }
    }
    const blocks = blockChain(el);
    return blocks.length ? parts.concat(blocks) : [];
  }

  function describe(el) {
    const classes = [...el.classList].filter((c) => !/\d/.test(c)).slice(0, 2);
    return el.localName + classes.map((c) => "." + c).join("");
  }

  function drawPicker() {
    const el = picker.chain[picker.depth];
    const r = el.getBoundingClientRect();
    Object.assign(picker.box.style, { left: r.left + "px", top: r.top + "px", width: r.width + "px", height: r.height + "px" });
    picker.box.dataset.tag = el.localName;
    const verb = picker.label === "noise" ? "Hide" : "Keep";
    picker.bar.innerHTML = "";
    const block = picker.chain.find((n) => BLOCK_TAGS.has(n.localName));
    picker.bar.append(BLOCK_TAGS.has(el.localName)
      ? `${verb} this: ${describe(el)} (and blocks like it on this site) · `
      : `${verb} this: ${describe(el)} in ${describe(block)} (only it, wherever it is in blocks like this on this site) · `);
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
    const local = ps.hiding.reasonOf(el);
    if (local !== undefined) return "hidden: " + reasons.reasonText(local);
    if (ps.mode === "hide") return reasons.verdictText({ verdict: "content" });
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

  // A snapshot of the page and the node id of el in it (-1: el is not sent, being unrendered).
  function snapshotOf(el) {
    const elements = new Map();
    const snapshot = globalThis.pagesieveSnapshot(document, { elements });
    for (const [id, e] of elements) if (e === el) return { snapshot, node: id };
    return { snapshot, node: -1 };
  }

  async function explainNode(el) {
    const { snapshot, node } = snapshotOf(el);
    if (node < 0) return "";
    const answer = await ps.ask("explain", { snapshot, node });
    if (!answer || !answer.ok || !answer.reply.ok) return "";
    return reasons.verdictText(answer.reply);
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
      correct(el, label).catch((error) => ps.toast("Not saved: " + String(error.message || error), false));
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
    const chain = lastTarget ? pickChain(lastTarget, label) : [];
    if (!chain.length) return { ok: false, error: "right-click on the part of the page to correct" };
    const { host, root } = ps.uiRoot();
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

  async function remember(site, count) {
    const { corrected = {} } = await ps.api.storage.local.get("corrected");
    if (count > 0) corrected[site] = count; else delete corrected[site];
    await ps.api.storage.local.set({ corrected });
  }

  async function reapply() {
    return ps.run(ps.mode === "off" ? "corrections" : ps.mode);
  }

  // Save a correction: the host stores it (on disk) before answering; then the page shows it.
  async function correct(el, label) {
    if (ps.mode === "reader") ps.off();  // corrections are made on the page itself
    ps.clearToast();  // our own notes are not part of the page
    const { snapshot, node } = snapshotOf(el);
    if (node < 0) throw new Error("that part of the page is not visible");
    const { snippets = true } = await ps.api.storage.local.get("snippets");
    const answer = await ps.ask("label", { snapshot, node, label, snippets });
    if (!answer || !answer.ok) throw new Error((answer && answer.error) || "no answer from the extension");
    const reply = answer.reply;
    if (!reply.ok) throw new Error(reply.error.message);
    lastCorrectionSite = reply.site;
    await remember(reply.site, reply.corrections);
    await reapply();
    const verb = label === "noise" ? "hide" : "keep";
    let text = `Saved: ${verb} ${reply.label.signature} on ${reply.site}. ${reachText(reply.reach)}`;
    if (reply.replaced) text += ` It replaces your earlier “${reply.replaced.label === "noise" ? "hide" : "keep"}” of the same kind of block.`;
    ps.toast(text, true);
    return reply;
  }

  // How far the correction reaches, as the host counted it (the "reach" of the label reply):
  // the learned pages of the site that hold the same kind of block; of those, stays_off held the
  // article when the host judged them, and a "hide" stays off pages like them.
  function reachText(reach) {
    if (!reach) return "";
    const where = reach.anchored ? " (where the same text appears)" : "";
    const off = reach.stays_off || 0;
    if (reach.pages > 1 && off > 0) {
      const reaches = reach.pages - off;
      return `It reaches ${reaches} of the ${reach.site_pages} pages of this site seen so far${where}: on ${off} other ${off === 1 ? "page" : "pages"} this kind of block held the article, so it stays off ${off === 1 ? "it" : "them"} and pages like them.`;
    }
    if (reach.pages > 1) return `It reaches ${reach.pages} of the ${reach.site_pages} pages of this site seen so far${where}, and later pages like them.`;
    if (reach.site_pages > 1) return `It reaches this page only: none of the other ${reach.site_pages - 1} pages of this site seen so far has it.`;
    return "It reaches this page, the first of this site seen so far.";
  }

  async function undoCorrection() {
    const answer = await ps.ask("label", { undo: true, site: lastCorrectionSite || ps.siteOf() });
    if (!answer || !answer.ok) return ps.toast("Not undone: " + ((answer && answer.error) || "no answer"), false);
    const reply = answer.reply;
    if (!reply.ok) return ps.toast("Not undone: " + reply.error.message, false);
    if (!reply.removed) return ps.toast("There is no correction to undo on this site.", false);
    const count = await ps.ask("labels", { site: reply.removed.site });
    await remember(reply.removed.site, count && count.ok && count.reply.ok ? count.reply.labels.length : 0);
    await reapply();
    ps.toast(`Undone: ${reply.removed.label === "noise" ? "hide" : "keep"} ${reply.removed.signature}.`, true);
  }

  ps.on("pick", (message) => {
    if (message.label !== "noise" && message.label !== "content") return { ok: false, error: "label must be noise or content" };
    return startPicker(message.label);
  });
  ps.on("undo", () => undoCorrection().then(() => ({ ok: true })));

  ps.picker = { open: () => Boolean(picker), reachText };
})();
