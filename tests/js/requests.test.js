// background/requests.js: which host requests a script may send, with what fields, and when a
// private window's request is marked private.
import { test } from "node:test";
import assert from "node:assert/strict";
import { REQUESTS, prepare } from "../../extension/background/requests.js";

const ORIGIN = "chrome-extension://abcdefghijklmnop/";
const tab = (incognito = false) => ({ tab: { id: 3, incognito }, url: "https://example.com/a" });
const options = { url: ORIGIN + "pages/options.html" };
const snapshot = { version: 2, markup: "<html/>" };

test("the host requests the extension's scripts send are the named channels", () => {
  assert.deepEqual(Object.keys(REQUESTS).sort(), ["clean", "explain", "follow", "forget", "history", "label", "labels", "learn", "save", "sites"]);
});

test("a right request passes with its fields, copied", () => {
  const fields = { mode: "hide", snapshot };
  const prepared = prepare("clean", fields, tab(), ORIGIN);
  assert.deepEqual(prepared, { fields: { mode: "hide", snapshot } });
  assert.notEqual(prepared.fields, fields);
  assert.deepEqual(prepare("label", { undo: true, site: "example.com" }, tab(), ORIGIN), { fields: { undo: true, site: "example.com" } });
  assert.deepEqual(prepare("labels", {}, options, ORIGIN), { fields: {} });
  assert.deepEqual(prepare("forget", { all: true }, options, ORIGIN), { fields: { all: true } });
  const follow = { url: "https://example.com/a?page=2", data: "PGh0bWw+", title: "A", seen: ["https://example.com/a"], earlier: ["text"] };
  assert.deepEqual(prepare("follow", follow, tab(), ORIGIN), { fields: follow });
  assert.deepEqual(prepare("follow", follow, options, ORIGIN), { error: "follow may be asked from a page's content script only" });
});

test("wrong fields are named before anything goes to the host", () => {
  const wrong = [
    ["clean", { mode: "noise", snapshot }, "clean: mode must be hide, reader or corrections"],
    ["clean", { mode: "reader" }, "clean: no snapshot"],
    ["learn", { snapshot: [1] }, "learn: no snapshot"],
    ["label", { label: "spam", node: 3, snapshot }, "label: label must be noise or content"],
    ["label", { label: "noise", node: -1, snapshot }, "label: node must be a node id"],
    ["label", { label: "noise", node: 2.5, snapshot }, "label: node must be a node id"],
    ["label", { undo: true, site: 4 }, "label: site must be a host name"],
    ["explain", { node: "12", snapshot }, "explain: node must be a node id"],
    ["history", {}, "history: url must be the page's address"],
    ["save", { article: "text" }, "save: no article"],
    ["save", { article: {}, tags: "a,b" }, "save: tags must be a list of words"],
    ["save", { article: {}, images: [] }, "save: images must map addresses to images"],
    ["save", { article: {}, folder: 1 }, "save: folder must be a path"],
    ["labels", { delete: "7" }, "labels: delete must be a correction id"],
    ["follow", { data: "PGh0bWw+" }, "follow: url must be the page's address"],
    ["follow", { url: "https://example.com/a?page=2" }, "follow: data must be the page as base64"],
    ["follow", { url: "https://example.com/a?page=2", data: "", seen: "https://example.com/a" }, "follow: seen must be a list of addresses"],
    ["follow", { url: "https://example.com/a?page=2", data: "", earlier: [3] }, "follow: earlier must be a list of texts"],
  ];
  for (const [name, fields, error] of wrong) assert.deepEqual(prepare(name, fields, tab(), ORIGIN), { error }, name);
  assert.deepEqual(prepare("forget", {}, options, ORIGIN), { error: "forget: forget needs a site or all: true" });
  assert.deepEqual(prepare("clean", null, tab(), ORIGIN), { error: "clean: the fields are not an object" });
});

test("unknown requests, and the host's own types, are refused", () => {
  for (const name of ["ping", "part", "library", "constructor", "toString", "", undefined]) {
    assert.match(prepare(name, {}, tab(), ORIGIN).error, /^unknown request/, String(name));
  }
});

test("a page's content script cannot ask to forget or list sites; an extension page cannot clean", () => {
  assert.deepEqual(prepare("forget", { all: true }, tab(), ORIGIN), { error: "forget may be asked from the extension's own pages only" });
  assert.deepEqual(prepare("sites", {}, { tab: { id: 1 }, url: "https://evil.example/" + ORIGIN }, ORIGIN),
    { error: "sites may be asked from the extension's own pages only" });
  assert.deepEqual(prepare("clean", { mode: "hide", snapshot }, options, ORIGIN), { error: "clean may be asked from a page's content script only" });
  assert.deepEqual(prepare("sites", {}, options, ORIGIN), { fields: {} });
});

test("in a private window, learning and corrections are marked private; cleaning alone is not", () => {
  assert.equal(prepare("learn", { snapshot }, tab(true), ORIGIN).fields.private, true);
  assert.equal(prepare("label", { label: "noise", node: 1, snapshot }, tab(true), ORIGIN).fields.private, true);
  assert.equal(prepare("clean", { mode: "hide", snapshot, learn: true }, tab(true), ORIGIN).fields.private, true);
  assert.equal(prepare("clean", { mode: "hide", snapshot }, tab(true), ORIGIN).fields.private, undefined);
  assert.equal(prepare("learn", { snapshot }, tab(false), ORIGIN).fields.private, undefined);
  assert.equal(prepare("explain", { node: 0, snapshot }, tab(true), ORIGIN).fields.private, undefined);
});
