// DOM snapshot, version 1 (docs/snapshot.md). The walk uses only the DOM, no extension API,
// so the same file can serialise pages outside the extension (offline rendering of datasets).
(function (root) {
  "use strict";
  const KEPT = new Set(("id class href src srcset data-src data-srcset data-original data-lazy-src alt title lang dir " +
    "role itemprop itemtype rel datetime property name content aria-hidden aria-label hidden type " +
    "colspan rowspan start cite").split(" "));
  // elements whose content is not sent: no text of the page (script, style ...) or drawings the
  // host drops whole (svg, math)
  const NO_CONTENT = new Set(["script", "style", "noscript", "template", "svg", "math"]);
  const TAG_RE = /^[a-z][a-z0-9._:\-\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c\u200d\u203f\u2040\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\u{10000}-\u{effff}]*$/u;
  const PRE = new Set(["pre", "pre-wrap", "pre-line", "break-spaces"]);
  // Block-level tags (HTML Living Standard rendering §15.3.3, plus content that renders no text)
  // that the host also treats as block boundaries. White space between two of them, or between
  // one and the edge of such a parent, renders nothing and separates no words, so it is not
  // sent: a quarter of a page's nodes. Left out on purpose: <br> and the tags the host unwraps
  // (<center>, <form>, <fieldset>), where that white space still separates words.
  const BLOCKY = new Set(("html head body div section article main header footer nav aside p h1 h2 h3 h4 h5 h6 " +
    "ul ol li dl dt dd table thead tbody tfoot tr td th caption blockquote figure figcaption address details " +
    "summary hgroup menu hr script style link meta noscript template title iframe select option optgroup " +
    "colgroup col").split(" "));
  const SPACE_ONLY = /^[ \t\n\f\r]+$/;
  const round = (v) => Math.round(v * 100) / 100;
  // Node ids live in the extension's own memory, never in the page: element -> id, kept for the
  // life of the content script, so that the same element has the same id in every snapshot and
  // the page's DOM is never written (nothing to undo, no style invalidation during the walk).
  const ids = new WeakMap();
  const TAGS = new Map();  // localName -> the tag sent (a page has a few dozen distinct names)
  let next = 0;

  // options.elements: a Map filled with node id -> element (what the caller needs to act on a reply)
  // options.parts: {size, send(nodes)}: send(nodes) is called during the walk with each run of
  // `size` new nodes, in order, so that a large page's nodes can be on their way while the walk
  // goes on; parts.sent then counts the nodes sent. The snapshot returned holds all the nodes.
  function snapshot(doc, options) {
    const elements = options && options.elements;
    const parts = options && options.parts;
    const win = doc.defaultView;
    const sx = win.scrollX, sy = win.scrollY;
    const nodes = [];
    const idOf = (el) => {
      let n = ids.get(el);
      if (n === undefined) { n = next++; ids.set(el, n); }
      return n;
    };
    function element(el, parentId, verbatim, inHead) {
      const name = el.localName;
      let tag = TAGS.get(name);
      if (tag === undefined) {
        tag = name.toLowerCase();
        if (!TAG_RE.test(tag)) tag = "ps-unknown";
        TAGS.set(name, tag);
      }
      const id = idOf(el);
      if (elements) elements.set(id, el);
      const node = { i: id, p: parentId, t: tag };
      let attrs = null;
      if (el.hasAttributes()) {
        for (const name of el.getAttributeNames()) {
          if (KEPT.has(name)) (attrs || (attrs = {}))[name] = el.getAttribute(name);
        }
      }
      if (attrs && attrs.srcset !== undefined) {
        // The candidate the browser picked is what the reader sees: sent as src, and the srcset
        // (an eighth of a page's bytes, used by the host only when src is missing) left out.
        // A <picture>'s <source> candidates are covered by its <img>'s choice.
        const chosen = tag === "img" ? el.currentSrc : "";
        if (tag === "source" || (chosen && !chosen.startsWith("data:"))) {
          if (chosen) attrs.src = chosen;
          delete attrs.srcset;
        }
      }
      if (attrs) node.a = attrs;
      const r = el.getBoundingClientRect();
      // An element is rendered iff it has a layout box (an all-zero rectangle may still be one:
      // an empty element at the origin, so only then ask for the client rects). What
      // checkVisibility() adds to that test (content-visibility: hidden) is rare, and the call
      // costs a third of the walk, so it is not made.
      let rendered = true;
      if (r.width || r.height || r.left || r.top || el.getClientRects().length) {
        // whole CSS pixels: finer than any feature needs, and a sixth of the bytes
        node.b = [Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height)];
      } else if (tag !== "html" && win.getComputedStyle(el).display !== "contents") {
        // display: none here or above, or no box by nature (<head> content, <source>, <col>):
        // not shown. A display: contents element has no box of its own but its children do.
        node.v = false;
        rendered = false;
      }
      nodes.push(node);
      if (parts && nodes.length - parts.sent >= parts.size) {
        parts.send(nodes.slice(parts.sent));
        parts.sent = nodes.length;
      }
      // The content of an element that is not rendered is not sent (the host drops such
      // subtrees whole), except under <head>: its <title> and <meta> carry the metadata.
      if (NO_CONTENT.has(tag) || (!rendered && !inHead && tag !== "head")) return;
      // Computed style for elements with text nodes of their own (white space included): font
      // size and weight matter for text, and white-space is inherited, so a text node's own
      // parent tells how to send it. Containers are asked for content-visibility only.
      let keepSpace = verbatim || tag === "pre" || tag === "textarea";
      const ownText = hasOwnText(el);
      const style = rendered && (ownText || el.firstElementChild) ? win.getComputedStyle(el) : null;
      // content-visibility: hidden shows the element but skips its content (an off-canvas
      // menu, a closed <details>, hidden="until-found"): that content is not sent either.
      if (style && style.contentVisibility === "hidden") return;
      if (ownText && style) {
        const fs = parseFloat(style.fontSize);
        if (Number.isFinite(fs)) node.fs = round(fs);
        const fw = parseFloat(style.fontWeight);
        if (Number.isFinite(fw) && fw >= 1 && fw <= 1000) node.fw = fw;
        keepSpace = keepSpace || PRE.has(style.whiteSpace);
      }
      const head = inHead || tag === "head";
      if (el.shadowRoot) children(el.shadowRoot, id, keepSpace, head);
      children(el, id, keepSpace, head);
    }
    function hasOwnText(el) {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3 && c.data) return true;
      }
      return false;
    }
    function children(parent, parentId, keepSpace, inHead) {
      const parentBlocky = parent.nodeType === 1 && BLOCKY.has(parent.localName);
      for (let c = parent.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) element(c, parentId, keepSpace, inHead);
        else if (c.nodeType === 3 && c.data) {
          if (!keepSpace && SPACE_ONLY.test(c.data) && blockyEdge(c, "previousSibling", parentBlocky) && blockyEdge(c, "nextSibling", parentBlocky)) continue;
          nodes.push({ p: parentId, x: keepSpace ? c.data : c.data.replace(/[ \t\n\f\r]+/g, " ") });
        }
      }
    }
    // true if the nearest sibling on one side (comments and empty text skipped) is a block-level
    // element, or there is none and the parent is block-level
    function blockyEdge(c, side, parentBlocky) {
      let n = c[side];
      while (n && (n.nodeType === 8 || (n.nodeType === 3 && !n.data))) n = n[side];
      if (!n) return parentBlocky;
      return n.nodeType === 1 && BLOCKY.has(n.localName);
    }
    element(doc.documentElement, null, false, false);
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

  root.pagesieveSnapshot = snapshot;
})(globalThis);
