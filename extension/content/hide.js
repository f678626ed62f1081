// Hiding the noise in place: the blocks the host names are hidden by one attribute and one
// style rule of ours (nothing of the page is removed or rewritten), and "Show hidden" (the
// popup's button) outlines them where they are, each labelled with the reason the host gave
// (reasons.js). Adds `hiding` to globalThis.pagesieve.content; answers the channel "showHidden".
"use strict";
(function () {
  const { content: ps, reasons } = globalThis.pagesieve;
  const HIDE_ATTR = "data-ps-hidden";
  const HIDE_RULE = "[" + HIDE_ATTR + "] { display: none !important; }";
  let sheet = null;            // the page style that hides the noise
  let hidden = [];             // the hidden elements, in the reply's order
  let hiddenWhy = new Map();   // hidden element -> [stage, rule, evidence], the host's reason
  let shown = null;            // "Show hidden": {host, sheet, labels} while the hidden blocks are shown

  // ids: the node ids of a clean reply's "hide"; elements: node id -> element (the snapshot's);
  // why: the reply's reasons, one per id (docs/protocol.md, "Why a node is hidden").
  function hide(ids, elements, why) {
    ids.forEach((id, k) => {
      const el = elements.get(id);
      if (!el) return;
      el.setAttribute(HIDE_ATTR, "");
      hidden.push(el);
      if (why && why[k]) hiddenWhy.set(el, why[k]);
    });
    sheet = ps.addPageStyle(HIDE_RULE);
  }

  // Scroll locks (issue 48). A page that opens a modal stops its own scrolling: overflow hidden
  // on <html> or <body>, <body> fixed in place (its top at minus the scroll offset), by a class
  // or by inline style. Once the modal is hidden, the lock is undone: first each class of <html>
  // and <body> whose removal unlocks the element (found by what it does, not by its name), then
  // inline overrides for what still locks. What is changed is kept (the classes taken off, each
  // property set with its value and priority before) and only that is put back by clear(): the
  // page's own changes to <html> and <body> in between stay.
  const LOCKING = new Set(["hidden", "clip"]);
  // [{el, tokens: [class taken off], props: [[name, value, priority] before], attributes: [[name, text, form]]}] while undone
  let unlocked = null;
  // an attribute's meaning, whatever its text: the set of classes, the declarations
  const FORM = { class: (el) => [...el.classList].sort().join(" "), style: (el) => el.style.cssText };
  const ATTRIBUTES = Object.keys(FORM);

  // true when el stops the page's scrolling: overflow hidden (or clip), or <body> fixed
  function locks(el) {
    const style = getComputedStyle(el);
    return LOCKING.has(style.overflowY) || (el === document.body && style.position === "fixed");
  }

  // el's inline property name set to value !important, what it was kept in changed.props
  function override(el, changed, name, value) {
    changed.props.push([name, el.style.getPropertyValue(name), el.style.getPropertyPriority(name)]);
    el.style.setProperty(name, value, "important");
  }

  // Undo the page's scroll lock, if it has one; returns true when there was one.
  function unlockScroll() {
    const html = document.documentElement, body = document.body;
    if (unlocked || !body || !(locks(html) || locks(body))) return false;
    unlocked = [];
    // where the page was: a body fixed at top: -Y px was scrolled to Y
    const top = getComputedStyle(body).position === "fixed" ? -parseFloat(getComputedStyle(body).top) || 0 : window.scrollY;
    for (const el of [html, body]) {
      const changed = { el, tokens: [], props: [], attributes: ATTRIBUTES.map((name) => [name, el.getAttribute(name), FORM[name](el)]) };
      unlocked.push(changed);
      for (const token of [...el.classList]) {
        if (!locks(el)) break;
        el.classList.remove(token);
        if (locks(el)) el.classList.add(token);  // not this one: put back
        else changed.tokens.push(token);
      }
      if (locks(el)) {
        override(el, changed, "overflow-y", "auto");
        if (el === body && getComputedStyle(el).position === "fixed") override(el, changed, "position", "static");
      }
    }
    if (top > 0) window.scrollTo(0, top);
    return true;
  }

  // The lock as it was before unlockScroll(): the classes taken off put back, each property of
  // ours as it was before (last set first); the rest of <html> and <body> as the page has it now.
  function relock() {
    if (!unlocked) return;
    for (const { el, tokens, props, attributes } of unlocked) {
      for (const token of tokens) el.classList.add(token);
      for (const [name, value, priority] of props.reverse()) {
        if (value) el.style.setProperty(name, value, priority);
        else el.style.removeProperty(name);
      }
      // unchanged by the page meanwhile: its attribute's very text back (the browser rewrites a
      // style attribute touched by CSSOM, and a class put back comes last)
      for (const [name, text, form] of attributes) {
        if (FORM[name](el) !== form) continue;
        if (text === null) el.removeAttribute(name);
        else el.setAttribute(name, text);
      }
    }
    unlocked = null;
  }

  // Everything hidden shown again: the page as it was.
  function clear() {
    relock();
    showHidden(false);
    for (const el of hidden) el.removeAttribute(HIDE_ATTR);
    hidden = [];
    hiddenWhy = new Map();
    if (sheet) { ps.removePageStyle(sheet); sheet = null; }
  }

  // fn() called with the hidden blocks back in the page (a walk of the page as it is), then
  // hidden again; returns what fn returned.
  function whileRevealed(fn) {
    const restore = hidden.slice();
    for (const el of restore) el.removeAttribute(HIDE_ATTR);
    try {
      return fn();
    } finally {
      for (const el of restore) el.setAttribute(HIDE_ATTR, "");
    }
  }

  // The host's reason for el when el or a block around it is hidden (null when it gave none),
  // else undefined.
  function reasonOf(el) {
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
      ps.removePageStyle(shown.sheet);
      sheet = ps.addPageStyle(HIDE_RULE);
      window.removeEventListener("keydown", onShownKey, true);
      window.removeEventListener("resize", placeLabels);
      shown = null;
      return { ok: true, shown: 0 };
    }
    if (shown) return { ok: true, shown: shown.labels.length };
    if (!hidden.length) return { ok: false, error: "nothing is hidden on this page: click “Hide noise” first" };
    ps.clearToast();  // our own note would cover what is shown
    ps.removePageStyle(sheet);
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
      label.textContent = "hidden: " + reasons.reasonText(hiddenWhy.get(el));
      label.addEventListener("focus", () => el.scrollIntoView({ block: "nearest" }));
      root.append(label);
      labels.push({ el, label });
    }
    document.documentElement.append(host);
    shown = { host, sheet: ps.addPageStyle(SHOWN_RULE), labels };
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
    if (event.key === "Escape" && shown && !(ps.picker && ps.picker.open())) {
      event.stopPropagation();
      showHidden(false);
    }
  }

  ps.on("showHidden", (message) => showHidden(message.on !== false));

  ps.hiding = {
    hide, clear, whileRevealed, reasonOf, showHidden, unlockScroll,
    unlocked: () => Boolean(unlocked),
    count: () => hidden.length,
    showing: () => Boolean(shown),
  };
})();
