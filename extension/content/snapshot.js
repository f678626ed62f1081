// DOM snapshot, version 2 (docs/snapshot.md). The walk uses only the DOM, no extension API,
// so the same file can serialise pages outside the extension (offline rendering of datasets).
(function (root) {
  "use strict";
  const KEPT = new Set(("id class href src srcset data-src data-srcset data-original data-lazy-src alt title lang dir " +
    "role itemprop itemtype rel datetime property name content aria-hidden aria-label hidden type " +
    "colspan rowspan start cite for display mathvariant encoding data-lang data-language").split(" "));
  // A picture a lazy loader has not swapped in yet (docs/snapshot.md, "Lazy pictures"): the <img>
  // shows a placeholder (no address, a data: URI or a spacer file) and the loader keeps the real
  // address in an attribute of its own (nitro-lazy-src, data-lzl-src, data-lazy-srcset ...). The
  // first such attribute whose value is an image address, or a srcset of them, is sent too: the
  // host reads it (pagesieve.article.images.lazy_source; the patterns are its IMAGE_URL,
  // IMAGE_SRCSET and PLACEHOLDER_SRC, after Readability.js's _fixLazyImages).
  const LAZY_KNOWN = ["data-src", "data-srcset", "data-original", "data-lazy-src"];
  const NOT_ADDRESSES = new Set("src srcset alt title class id style width height sizes".split(" "));
  const PLACEHOLDER_SRC = /^data:|blank|spacer|placeholder|pixel|1x1|transparent|grey\.gif|loading/i;
  const IMAGE_URL = /^\s*\S+\.(?:jpe?g|png|webp|gif|avif)(?:[?#]\S*)?\s*$/i;
  const IMAGE_SRCSET = /\.(?:jpe?g|png|webp|gif|avif)(?:[?#]\S*)?\s+\d+(?:\.\d+)?[wx]/i;
  // a name XML takes as it is: no namespace prefix (Vue's ":src"), not ours (data-ps-*), not xml*
  const LAZY_NAME = /^(?!xml|data-ps-)[a-z][a-z0-9._-]*$/;
  function lazyAddress(el, attrs) {
    const shown = el.currentSrc || (attrs && attrs.src) || "";
    if (shown && !PLACEHOLDER_SRC.test(shown)) return null;  // the picture is loaded
    if (attrs && LAZY_KNOWN.some((name) => attrs[name])) return null;  // a known loader's, sent anyway
    for (const name of el.getAttributeNames()) {
      if (KEPT.has(name) || NOT_ADDRESSES.has(name) || !LAZY_NAME.test(name)) continue;
      const value = el.getAttribute(name);
      if (value && !value.startsWith("data:") && (IMAGE_SRCSET.test(value) || IMAGE_URL.test(value))) return [name, value];
    }
    return null;
  }
  // elements whose content is not sent: no text of the page (script, style ...) or drawings the
  // host drops whole (svg). A formula's MathML is sent: the article shows it (docs/snapshot.md)
  const NO_CONTENT = new Set(["script", "style", "noscript", "template", "svg"]);
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
  // Structured data (schema.org JSON-LD) is the one script whose text is sent: the host reads the
  // article's author, dates and headline there (docs/snapshot.md). Longer ones are left out.
  const JSON_LD = "application/ld+json";
  const JSON_LD_MAX = 65536;  // characters per script
  const JSON_LD_TOTAL_MAX = 262144;  // characters of all of a page's scripts together
  const round = (v) => Math.round(v * 100) / 100;
  // Layers (docs/snapshot.md, "Layers"): elements whose computed position is fixed or sticky, sent
  // with their stacking order and the share of the viewport they cover. A leaf element (no child
  // to make us read its style anyway) is asked for its style only when it is an embedded frame or
  // player, or its box covers at least this share of the viewport (a backdrop is an empty <div>
  // over the screen): a quarter, a size no page's ordinary leaf (an image in the text) has in a
  // layer of its own, so the walk pays for almost none of them.
  const LEAF_LAYER_SHARE = 0.25;
  const LEAF_LAYER_TAGS = new Set(["iframe", "video", "embed", "object", "button"]);
  const POSITION = { fixed: 1, sticky: 2 };
  // Node ids live in the extension's own memory, never in the page: element -> id, kept for the
  // life of the content script, so that the same element has the same id in every snapshot and
  // the page's DOM is never written (nothing to undo, no style invalidation during the walk).
  const ids = new WeakMap();
  const TAGS = new Map();  // localName -> the tag sent (a page has a few dozen distinct names)
  let next = 0;

  // Tags sent as they are; any other name (a prefix such as o:p or fb:like, which XML would read
  // as a namespace, a non-ASCII custom element, broken markup) is sent as ps-unknown.
  const PLAIN_TAG = /^[a-z][a-z0-9._-]*$/;
  // Characters that markup cannot carry as they are: XML's own (& < > and the quote of attribute
  // values), white space that XML would normalise (\r in text; tab, newline, \r in attribute
  // values), and what an XML document cannot hold at all (C0 controls, lone surrogates, U+FFFE/F).
  const TEXT_SPECIAL = /[&<>\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/;
  const ATTR_SPECIAL = /[&<>'\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/;
  const SPECIAL_ALL = /[\ud800-\udbff][\udc00-\udfff]|[&<>'\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]/g;
  const ENTITY = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;", "\f": " " };
  // The deepest nesting sent (<html> is depth 1): libxml2's limit. An element at this depth or
  // below is flattened: it holds only its text before its first child element, and its child
  // elements follow it, inside the ancestor at depth MAX_DEPTH - 1 (as the host flattens
  // version 1, docs/snapshot.md).
  const MAX_DEPTH = 256;

  // options.elements: a Map filled with node id -> element (what the caller needs to act on a reply)
  // options.parts: {size, send(part)}: send({markup, boxes, fonts}) is called during the walk
  // each time `size` more elements have been written, with what was written since the last
  // part, so that a large page is on its way while the walk goes on; parts.sent then counts the
  // parts sent, and parts.rest holds what the last part left (the same three fields). The
  // snapshot returned holds the whole page either way.
  function snapshot(doc, options) {
    const elements = options && options.elements;
    const parts = options && options.parts;
    // options.layout === false: no box, font or rendering is read (nothing of the page's layout
    // is asked for, so the walk is cheaper): for learning a site's template, which reads the
    // page's tree and text alone. Every element is then sent as rendered, with its content.
    const layout = !(options && options.layout === false);
    const win = doc.defaultView;
    const sx = win.scrollX, sy = win.scrollY;
    const vw = win.innerWidth, vh = win.innerHeight;
    const layers = [];      // id, position, z-index, share, x, y, width, height per layer
    // el is a layer when its computed position is fixed or sticky: its id, position (1 fixed,
    // 2 sticky), z-index (an integer, null for auto), the share of the viewport its box covers
    // (0 .. 1, 2 decimals) and its box in viewport coordinates (whole CSS px).
    // Our own elements (pagesieve-ui, pagesieve-reader) are never a layer of the page.
    function layer(id, tag, r, style) {
      const kind = POSITION[style.position];
      if (!kind || tag.startsWith("pagesieve-")) return;
      const z = parseInt(style.zIndex, 10);
      const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
      const hh = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
      const share = vw > 0 && vh > 0 ? Math.round((w * hh) / (vw * vh) * 100) / 100 : 0;
      layers.push(id, kind, Number.isFinite(z) ? z : null, share, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height));
    }
    let markup = "";        // since the last part
    let boxes = [];         // id, x, y, width, height per element with a box
    let fonts = [];         // id, font size, font weight per element with text of its own
    const done = { markup: [], boxes: [], fonts: [] };  // what went in earlier parts
    let count = 0, sentAt = 0, cleaned = 0, flattened = 0, jsonLdChars = 0;
    const idOf = (el) => {
      let n = ids.get(el);
      if (n === undefined) { n = next++; ids.set(el, n); }
      return n;
    };
    // A text or attribute value holding a character no XML document can (what xml_safe_text()
    // does on the host: form feed -> space, the others U+FFFD) counts once in `cleaned`.
    let dirty = false;
    const special = (c) => {
      if (c.length === 2) return c;  // a surrogate pair: one character
      const entity = ENTITY[c];
      if (entity === undefined) { dirty = true; return "\ufffd"; }
      if (c === "\f") dirty = true;
      return entity;
    };
    const inText = (c) => (c === "'" || c === "\t" || c === "\n" ? c : special(c));
    const escape = (s, inside) => {
      dirty = false;
      s = s.replace(SPECIAL_ALL, inside);
      if (dirty) cleaned++;
      return s;
    };
    const text = (s) => (TEXT_SPECIAL.test(s) ? escape(s, inText) : s);
    const value = (s) => (ATTR_SPECIAL.test(s) ? escape(s, special) : s);
    function flush() {
      parts.send({ markup, boxes, fonts });
      done.markup.push(markup); done.boxes.push(boxes); done.fonts.push(fonts);
      markup = ""; boxes = []; fonts = [];
      parts.sent++;
      sentAt = count;
    }
    // depth: of the element (html = 1); flat: true when it is written without its content inside
    function element(el, depth, verbatim, inHead) {
      const name = el.localName;
      let tag = TAGS.get(name);
      if (tag === undefined) {
        tag = name.toLowerCase();
        if (!PLAIN_TAG.test(tag)) tag = "ps-unknown";
        TAGS.set(name, tag);
      }
      const id = idOf(el);
      if (elements) elements.set(id, el);
      count++;
      let open = "<" + tag;
      let attrs = null;
      if (el.hasAttributes()) {
        for (const name of el.getAttributeNames()) {
          if (KEPT.has(name)) (attrs || (attrs = {}))[name] = el.getAttribute(name);
        }
      }
      if (tag === "img") {
        const lazy = lazyAddress(el, attrs);
        if (lazy) (attrs || (attrs = {}))[lazy[0]] = lazy[1];
      }
      if (attrs) {
        if (attrs.srcset !== undefined) {
          // The candidate the browser picked is what the reader sees: sent as src, and the srcset
          // (an eighth of a page's bytes, used by the host only when src is missing) left out.
          // A <picture>'s <source> candidates are covered by its <img>'s choice.
          const chosen = tag === "img" ? el.currentSrc : "";
          if (tag === "source" || (chosen && !chosen.startsWith("data:"))) {
            if (chosen) attrs.src = chosen;
            delete attrs.srcset;
          }
        }
        for (const name in attrs) open += " " + name + "='" + value(attrs[name]) + "'";
      }
      open += " data-ps-id='" + id + "'";
      // An element is rendered iff it has a layout box (an all-zero rectangle may still be one:
      // an empty element at the origin, so only then ask for the client rects). What
      // checkVisibility() adds to that test (content-visibility: hidden) is rare, and the call
      // costs a third of the walk, so it is not made.
      let rendered = true;
      const r = layout ? el.getBoundingClientRect() : null;
      if (!r) {
        // no layout asked for
      } else if (r.width || r.height || r.left || r.top || el.getClientRects().length) {
        // whole CSS pixels: finer than any feature needs, and a sixth of the bytes
        boxes.push(id, Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height));
      } else if (tag !== "html" && win.getComputedStyle(el).display !== "contents") {
        // display: none here or above, or no box by nature (<head> content, <source>, <col>):
        // not shown. A display: contents element has no box of its own but its children do.
        open += " data-ps-unrendered=''";
        rendered = false;
      }
      if (tag === "script" && (el.getAttribute("type") || "").trim().toLowerCase() === JSON_LD) {
        const data = el.textContent;
        const sent = data && data.length <= JSON_LD_MAX && jsonLdChars + data.length <= JSON_LD_TOTAL_MAX;
        if (sent) jsonLdChars += data.length;
        markup += sent ? open + ">" + text(data) + "</script>" : open + "/>";
        if (parts && count - sentAt >= parts.size) flush();
        return;
      }
      const flat = depth >= MAX_DEPTH;
      if (depth > MAX_DEPTH) flattened++;  // not where the DOM has it (as the host counts)
      // The content of an element that is not rendered is not sent (the host drops such
      // subtrees whole), except under <head>: its <title> and <meta> carry the metadata.
      // a MathML <annotation> (a formula's TeX) is never rendered, and is sent all the same
      if (NO_CONTENT.has(tag) || (!rendered && !inHead && tag !== "head" && tag !== "annotation") || !(el.firstChild || el.shadowRoot)) {
        if (r && rendered && (LEAF_LAYER_TAGS.has(tag) || r.width * r.height >= LEAF_LAYER_SHARE * vw * vh) && tag !== "html") {
          layer(id, tag, r, win.getComputedStyle(el));
        }
        markup += open + "/>";
        if (parts && count - sentAt >= parts.size) flush();
        return;
      }
      // Computed style for elements with text nodes of their own (white space included): font
      // size and weight matter for text, and white-space is inherited, so a text node's own
      // parent tells how to send it. Containers are asked for content-visibility only.
      let keepSpace = verbatim || tag === "pre" || tag === "textarea";
      const ownText = hasOwnText(el);
      const style = layout && rendered && (ownText || el.firstElementChild || el.shadowRoot) ? win.getComputedStyle(el) : null;
      // content-visibility: hidden shows the element but skips its content (an off-canvas
      // menu, a closed <details>, hidden="until-found"): that content is not sent either.
      if (style && tag !== "html" && tag !== "body") layer(id, tag, r, style);
      if (style && style.contentVisibility === "hidden") {
        markup += open + "/>";
        if (parts && count - sentAt >= parts.size) flush();
        return;
      }
      if (ownText && style) {
        const fs = parseFloat(style.fontSize);
        const fw = parseFloat(style.fontWeight);
        const size = Number.isFinite(fs) ? round(fs) : null;
        const weight = Number.isFinite(fw) && fw >= 1 && fw <= 1000 ? fw : null;
        if (size !== null || weight !== null) fonts.push(id, size, weight);
        keepSpace = keepSpace || PRE.has(style.whiteSpace);
      }
      markup += open + ">";
      if (parts && count - sentAt >= parts.size) flush();
      const head = inHead || tag === "head";
      // A flattened element keeps the text before its first child element; that child (deeper
      // still, so flattened too) and what follows come after it, in the same ancestor.
      let closing = "</" + tag + ">";
      const before = flat ? () => { markup += closing; closing = ""; } : null;
      if (el.shadowRoot) children(el.shadowRoot, depth + 1, keepSpace, head, before);
      children(el, depth + 1, keepSpace, head, before);
      markup += closing;
    }
    function hasOwnText(el) {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3 && c.data) return true;
      }
      return false;
    }
    // before: called before each element child is written (a flattened parent closes there)
    function children(parent, depth, keepSpace, inHead, before) {
      const parentBlocky = parent.nodeType === 1 && BLOCKY.has(parent.localName);
      for (let c = parent.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) {
          if (before) before();
          element(c, depth, keepSpace, inHead);
        } else if (c.nodeType === 3 && c.data) {
          if (!keepSpace && SPACE_ONLY.test(c.data) && blockyEdge(c, "previousSibling", parentBlocky) && blockyEdge(c, "nextSibling", parentBlocky)) continue;
          markup += text(keepSpace ? c.data : c.data.replace(/[ \t\n\f\r]+/g, " "));
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
    element(doc.documentElement, 1, false, false);
    if (parts) parts.rest = { markup, boxes, fonts };
    const de = doc.documentElement;
    return {
      version: 2,
      url: doc.location ? doc.location.href : null,
      title: doc.title || "",
      viewport: { width: win.innerWidth, height: win.innerHeight },
      document: { width: de.scrollWidth, height: de.scrollHeight },
      dpr: win.devicePixelRatio || 1,
      elements: count,
      cleaned,
      flattened,
      markup: done.markup.length ? done.markup.join("") + markup : markup,
      boxes: done.boxes.length ? [].concat(...done.boxes, boxes) : boxes,
      fonts: done.fonts.length ? [].concat(...done.fonts, fonts) : fonts,
      layers,
    };
  }

  root.pagesieveSnapshot = snapshot;
})(globalThis);
