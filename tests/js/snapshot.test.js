// content/snapshot.js: the markup of a version-2 snapshot (docs/snapshot.md, "Version 2:
// markup") for a page walked without layout, on a stand-in DOM. What a live page adds (boxes,
// fonts, rendering) is tested in the browser (tests/e2e/test_chromium.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load.js";
import { comment, documentOf, h } from "./mini-dom.js";

const snapshot = (root, options = {}) => load(["content/snapshot.js"]).pagesieveSnapshot(documentOf(root, { title: "T" }), { layout: false, ...options });

test("elements in document order with their kept attributes and ids; white space between blocks left out", () => {
  const page = h("html", { lang: "en" },
    h("head", {}, h("title", {}, "T")),
    "\n  ",
    h("body", { onload: "steal()", style: "color: red" },
      "\n", h("p", { class: "lead", "data-x": "1" }, "A ", h("b", {}, "bold"), " move"), "\n  ",
      comment(" ad "), h("p", {}, "Two  \n  spaces"), "\n"));
  const elements = new Map();
  const snap = snapshot(page, { elements });
  assert.equal(snap.markup,
    "<html lang='en' data-ps-id='0'><head data-ps-id='1'><title data-ps-id='2'>T</title></head>" +
    "<body data-ps-id='3'><p class='lead' data-ps-id='4'>A <b data-ps-id='5'>bold</b> move</p>" +
    "<p data-ps-id='6'>Two spaces</p></body></html>");
  assert.deepEqual([snap.version, snap.elements, snap.cleaned, snap.flattened, snap.title, snap.url], [2, 7, 0, 0, "T", "https://example.com/a"]);
  assert.equal(elements.get(4), page.childNodes[2].childNodes[1]);
  assert.equal(elements.size, 7);
});

test("the same element keeps its id in every snapshot of the page", () => {
  const context = load(["content/snapshot.js"]);
  const page = h("html", {}, h("body", {}, h("p", {}, "x")));
  const first = context.pagesieveSnapshot(documentOf(page), { layout: false }).markup;
  page.childNodes[0].append(h("p", {}, "y"));
  const second = context.pagesieveSnapshot(documentOf(page), { layout: false }).markup;
  assert.equal(second, first.replace("</body>", "<p data-ps-id='3'>y</p></body>"));
});

test("XML's own characters become entities; what XML cannot hold becomes U+FFFD and is counted", () => {
  const page = h("html", {}, h("body", {},
    h("p", { title: "it's <b> & \"q\"\ttab\nline" }, "5 < 6 & 'quoted'\r\n"),
    h("p", {}, "bell\u0007 and form\ffeed"),
    h("pre", {}, "line\r\nform\ffeed"),
    h("p", {}, "pair \ud83d\ude00 lone \ud83d end")));
  const snap = snapshot(page);
  assert.match(snap.markup, /title='it&apos;s &lt;b&gt; &amp; "q"&#9;tab&#10;line'/);
  assert.match(snap.markup, />5 &lt; 6 &amp; 'quoted' </);  // a run of white space is one space
  assert.match(snap.markup, />bell\ufffd and form feed</);  // the form feed was white space
  assert.match(snap.markup, />line&#13;\nform feed</);  // kept as it is in <pre>, but XML holds no form feed
  assert.match(snap.markup, />pair \ud83d\ude00 lone \ufffd end</);
  assert.equal(snap.cleaned, 3);  // the bell's text, the <pre>'s and the lone surrogate's
});

test("script and style content stays behind, except schema.org JSON-LD; odd tag names become ps-unknown", () => {
  const page = h("html", {}, h("head", {},
    h("script", {}, "track()"),
    h("script", { type: " Application/LD+JSON " }, "{\"@type\": \"NewsArticle\", \"author\": \"A & B\"}"),
    h("style", {}, "p {}")),
  h("body", {}, h("o:p", {}, "x"), h("DIV", {}, "y"), h("my-widget", {}, "z")));
  const snap = snapshot(page);
  assert.match(snap.markup, /<script data-ps-id='2'\/><script type=' Application\/LD\+JSON ' data-ps-id='3'>\{"@type": "NewsArticle", "author": "A &amp; B"\}<\/script><style data-ps-id='4'\/>/);
  assert.match(snap.markup, /<ps-unknown data-ps-id='6'>x<\/ps-unknown><div data-ps-id='7'>y<\/div><my-widget data-ps-id='8'>z<\/my-widget>/);
});

test("white space is kept as it is inside <pre>", () => {
  const snap = snapshot(h("html", {}, h("body", {}, h("pre", {}, "a\n\n  b"), h("p", {}, "a\n\n  b"))));
  assert.match(snap.markup, /<pre data-ps-id='2'>a\n\n  b<\/pre><p data-ps-id='3'>a b<\/p>/);
});

test("nesting deeper than 256 elements is flattened into the ancestor at depth 255", () => {
  let inner = h("p", {}, "deep text");
  for (let k = 0; k < 300; k++) inner = h("div", {}, `level ${300 - k}`, inner);
  const snap = snapshot(h("html", {}, h("body", {}, inner)));
  assert.equal(snap.elements, 303);
  assert.equal(snap.flattened, 303 - 256);  // the elements at depth 257 .. 303
  let depth = 0, deepest = 0;
  for (const [, close, selfClosing] of snap.markup.matchAll(/<(\/)?[a-z][^>]*?(\/)?>/g)) {
    depth += close ? -1 : selfClosing ? 0 : 1;
    deepest = Math.max(deepest, depth);
  }
  assert.equal(depth, 0);  // every element closed
  assert.equal(deepest, 256);
  assert.ok(snap.markup.includes("level 300") && snap.markup.includes("deep text"));
});

test("a streamed walk sends parts that add up to the whole snapshot", () => {
  const body = h("body", {});
  for (let k = 0; k < 40; k++) body.append(h("p", { id: `p${k}` }, `Paragraph ${k} & more`));
  const page = h("html", {}, body);
  const got = [];
  const parts = { size: 7, sent: 0, send: (part) => got.push(part.markup) };
  const snap = snapshot(page, { parts });
  assert.equal(parts.sent, got.length);
  assert.ok(got.length >= 5, got.length);  // 42 elements, a part per 7
  assert.equal(got.join("") + parts.rest.markup, snap.markup);
});

test("a picture a lazy loader has not swapped in sends the loader's address, and no other attribute", () => {
  const gif = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
  const loaded = h("img", { src: "/shown.jpg", "data-lzl-src": "/big.jpg" });
  loaded.currentSrc = "https://example.com/shown.jpg";
  const page = h("html", {}, h("body", {},
    h("img", { src: gif, "data-track": "promo.jpg-7", "nitro-lazy-src": "/a/photo.webp", "lazy-src": "/b.png", alt: "x.jpg" }),
    h("img", { "data-lzl-srcset": "/p-1.webp 1x, /p-2.webp 2x", decoding: "async" }),
    h("img", { src: "/img/spacer.gif", ":src": "/vue.jpg", "data-ps-id": "/ours.jpg" }),
    h("img", { src: gif, "data-src": "/known.jpg", "lazy-src": "/other.jpg" }),
    loaded));
  const markup = snapshot(page).markup;
  const imgs = markup.match(/<img [^>]*\/>/g);
  assert.deepEqual(imgs, [
    `<img src='${gif}' alt='x.jpg' nitro-lazy-src='/a/photo.webp' data-ps-id='2'/>`,  // the first address, after the kept ones
    "<img data-lzl-srcset='/p-1.webp 1x, /p-2.webp 2x' data-ps-id='3'/>",
    "<img src='/img/spacer.gif' data-ps-id='4'/>",  // no name XML would misread, not ours
    `<img src='${gif}' data-src='/known.jpg' data-ps-id='5'/>`,  // a known loader's is sent anyway
    "<img src='/shown.jpg' data-ps-id='6'/>",  // loaded: nothing more
  ]);
});
