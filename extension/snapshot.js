// DOM snapshot, version 1 (docs/snapshot.md). The walk uses only the DOM, no extension API,
// so the same file can serialise pages outside the extension (offline rendering of datasets).
(function (root) {
  "use strict";
  const ID_ATTR = "data-ps-id";
  const KEPT = new Set(("id class href src srcset data-src data-srcset data-original data-lazy-src alt title lang dir " +
    "role itemprop itemtype rel datetime property name content aria-hidden aria-label hidden type " +
    "colspan rowspan start cite").split(" "));
  const NO_CONTENT = new Set(["script", "style", "noscript", "template"]);
  const TAG_RE = /^[a-z][a-z0-9._:\-\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c\u200d\u203f\u2040\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\u{10000}-\u{effff}]*$/u;
  const PRE = new Set(["pre", "pre-wrap", "pre-line", "break-spaces"]);
  const round = (v) => Math.round(v * 100) / 100;

  // options.elements: a Map filled with node id -> element (what the caller needs to act on a reply)
  function snapshot(doc, options) {
    const elements = options && options.elements;
    const win = doc.defaultView;
    const sx = win.scrollX, sy = win.scrollY;
    const nodes = [];
    let next = 0;
    const used = new Set();
    // keep ids already stamped (so that replies to earlier requests still name the same nodes)
    for (const el of doc.querySelectorAll("[" + ID_ATTR + "]")) {
      const n = Number(el.getAttribute(ID_ATTR));
      if (Number.isInteger(n) && n >= 0) { used.add(n); if (n >= next) next = n + 1; }
    }
    const idOf = (el) => {
      let v = el.getAttribute(ID_ATTR);
      let n = v === null ? NaN : Number(v);
      if (!Number.isInteger(n) || n < 0) { n = next++; el.setAttribute(ID_ATTR, String(n)); }
      return n;
    };
    const seen = new Set();
    function element(el, parentId, verbatim) {
      let tag = el.localName.toLowerCase();
      if (!TAG_RE.test(tag)) tag = "ps-unknown";
      let id = idOf(el);
      if (seen.has(id)) { id = next++; el.setAttribute(ID_ATTR, String(id)); }
      seen.add(id);
      if (elements) elements.set(id, el);
      const node = { i: id, p: parentId, t: tag };
      let attrs = null;
      for (const a of el.attributes) {
        if (KEPT.has(a.name)) (attrs || (attrs = {}))[a.name] = a.value;
      }
      if (attrs) node.a = attrs;
      const r = el.getBoundingClientRect();
      // an all-zero rectangle may still be a box (an empty element at the origin): only then ask
      if (r.width || r.height || r.left || r.top || el.getClientRects().length) {
        node.b = [round(r.left + sx), round(r.top + sy), round(r.width), round(r.height)];
      }
      if (el.checkVisibility && !el.checkVisibility()) node.v = false;
      nodes.push(node);
      if (NO_CONTENT.has(tag)) return;
      // Computed style only for elements with text nodes of their own (white space included):
      // font size and weight matter for text, and white-space is inherited, so a text node's own
      // parent tells how to send it; containers of elements only are not asked.
      let keepSpace = verbatim || tag === "pre" || tag === "textarea";
      if (hasOwnText(el)) {
        const style = win.getComputedStyle(el);
        const fs = parseFloat(style.fontSize);
        if (Number.isFinite(fs)) node.fs = round(fs);
        const fw = parseFloat(style.fontWeight);
        if (Number.isFinite(fw) && fw >= 1 && fw <= 1000) node.fw = fw;
        keepSpace = keepSpace || PRE.has(style.whiteSpace);
      }
      if (el.shadowRoot) children(el.shadowRoot, id, keepSpace);
      children(el, id, keepSpace);
    }
    function hasOwnText(el) {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3 && c.data) return true;
      }
      return false;
    }
    function children(parent, parentId, keepSpace) {
      for (let c = parent.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) element(c, parentId, keepSpace);
        else if (c.nodeType === 3 && c.data) {
          nodes.push({ p: parentId, x: keepSpace ? c.data : c.data.replace(/[ \t\n\f\r]+/g, " ") });
        }
      }
    }
    element(doc.documentElement, null, false);
    const de = doc.documentElement;
    return {
      version: 1,
      url: doc.location ? doc.location.href : null,
      title: doc.title || "",
      viewport: { width: win.innerWidth, height: win.innerHeight },
      document: { width: de.scrollWidth, height: de.scrollHeight },
      dpr: win.devicePixelRatio || 1,
      nodes,
    };
  }

  function unstamp(doc) {
    const roots = [doc];
    while (roots.length) {
      const r = roots.pop();
      for (const el of r.querySelectorAll("*")) {
        if (el.hasAttribute(ID_ATTR)) el.removeAttribute(ID_ATTR);
        if (el.shadowRoot) roots.push(el.shadowRoot);
      }
    }
  }

  root.pagesieveSnapshot = snapshot;
  root.pagesieveUnstamp = unstamp;
})(globalThis);
