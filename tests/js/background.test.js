// background/main.js with a stand-in browser: the named channels it answers, host requests going
// through requests.js to the native port, a missing host, and a streamed snapshot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fakeBrowser, fakePort } from "./fake-browser.js";

const natives = [];  // the native ports the background opened, newest last
const browser = fakeBrowser({ connectNative: (name) => { const p = fakePort(); p.host = name; natives.push(p); return p; } });
globalThis.chrome = browser.api;
await import("../../extension/background/main.js");

const tab = { tab: { id: 5, index: 0, windowId: 1, incognito: false }, url: "https://example.com/a" };
const snapshot = { version: 2, markup: "<html/>" };
const settle = () => new Promise((resolve) => setImmediate(resolve));

// The host's reply to the newest request on the newest port.
function answer(fields) {
  const port = natives.at(-1);
  port.reply({ v: 1, id: port.sent.at(-1).id, ok: true, ...fields });
}

test("the background's channels, and its hooks for the browser tests", () => {
  assert.equal(typeof globalThis.pagesieveHost.request, "function");
  assert.equal(typeof globalThis.pagesieveHost.post, "function");
  assert.equal(typeof globalThis.pagesieveMenuClick, "function");
  assert.equal(typeof globalThis.pagesieveCommand, "function");
  assert.equal(browser.events["runtime.onMessage"].length, 1);  // one listener: the channels
});

test("a content script's request goes to org.pagesieve.host and its reply comes back", async () => {
  const answered = browser.api.send({ type: "pagesieve.host", request: "clean", fields: { mode: "hide", snapshot, learn: true } },
    { ...tab, tab: { ...tab.tab, incognito: true } });
  await settle();
  assert.equal(natives.at(-1).host, "org.pagesieve.host");
  const sent = natives.at(-1).sent.at(-1);
  assert.deepEqual(sent, { v: 1, id: sent.id, type: "clean", mode: "hide", snapshot, learn: true, private: true });
  answer({ type: "cleaned", hide: [3], why: [["classifier", "context", { score: 0.1, cut: 0.5 }]] });
  const got = await answered;
  assert.equal(got.ok, true);
  assert.deepEqual(got.reply.hide, [3]);
});

test("a request requests.js refuses never reaches the host", async () => {
  const before = natives.map((p) => p.sent.length);
  assert.deepEqual(await browser.api.send({ type: "pagesieve.host", request: "forget", fields: { all: true } }, tab),
    { ok: false, error: "forget may be asked from the extension's own pages only" });
  assert.deepEqual(await browser.api.send({ type: "pagesieve.host", request: "ping" }, tab), { ok: false, error: "unknown request \"ping\"" });
  assert.deepEqual(natives.map((p) => p.sent.length), before);
});

test("no host registered: the answer says so and names the command that installs it", async () => {
  const status = browser.api.send({ type: "pagesieve.status" }, { url: "chrome-extension://pagesieve-test/pages/popup.html" });
  await settle();
  natives.at(-1).exit(new Error("Specified native messaging host not found."));
  assert.deepEqual(await status, {
    ok: false, error: "Specified native messaging host not found.", hostMissing: true, install: "pagesieve install-host",
  });
});

test("the popup's status: the host's version and its personal model's rebuild", async () => {
  const status = browser.api.send({ type: "pagesieve.status" }, { url: "chrome-extension://pagesieve-test/pages/popup.html" });
  await settle();
  assert.equal(natives.at(-1).sent.at(-1).type, "ping");
  const personal = { state: "rebuilding", message: "Your personal model was made for an older pagesieve; it is being rebuilt.", corrections: 3 };
  answer({ type: "pong", version: "0.1.0", protocol: 1, personal });
  assert.deepEqual(await status, { ok: true, version: "0.1.0", personal });
});

test("a streamed snapshot: its parts go on at once, the request names the stream", async () => {
  const client = fakePort();
  client.name = "pagesieve.stream";
  client.sender = tab;
  browser.events["runtime.onConnect"].forEach((f) => f(client));
  client.reply({ type: "part", markup: "<html><body>", boxes: [0, 0, 0, 800, 600], fonts: [] });
  client.reply({ type: "part", markup: "<p>x</p>", boxes: [], fonts: [] });
  client.reply({ type: "request", request: "learn", fields: { snapshot: { version: 2, markup: "</body></html>" } } });
  await settle();
  const [first, second, request] = natives.at(-1).sent.slice(-3);
  assert.equal(first.type, "part");
  assert.deepEqual([first.seq, second.seq, first.ack, first.stream === second.stream], [0, 1, false, true]);
  assert.equal(first.markup, "<html><body>");
  assert.equal(request.type, "learn");
  assert.equal(request.stream, first.stream);
  answer({ type: "learned", learned: true });
  await settle();
  assert.deepEqual(client.sent, [{ ok: true, reply: { v: 1, id: request.id, ok: true, type: "learned", learned: true } }]);
});

test("the no-host reader keeps the page and opens pages/reader.html beside the tab", async () => {
  const opened = await browser.api.send({ type: "pagesieve.readerWithoutHost", html: "<p>x</p>", url: "https://example.com/a", title: "A" }, tab);
  assert.equal(opened.ok, true);
  assert.match(opened.url, /^chrome-extension:\/\/pagesieve-test\/pages\/reader\.html\?id=/);
  const id = decodeURIComponent(opened.url.split("?id=")[1]);
  assert.deepEqual(await browser.api.send({ type: "pagesieve.readerPage", id }),
    { ok: true, html: "<p>x</p>", url: "https://example.com/a", title: "A", install: "pagesieve install-host" });
  const [, created] = browser.calls.find(([name]) => name === "tabs.create");
  assert.deepEqual({ ...created, url: undefined }, { url: undefined, index: 1, openerTabId: 5, windowId: 1 });
});

test("the popup's status: the host's version, and what it holds of the page's site", async () => {
  const popup = { url: "chrome-extension://pagesieve-test/pages/popup.html" };
  const status = browser.api.send({ type: "pagesieve.status", url: "https://news.example.org/2026/a" }, popup);
  await settle();
  assert.equal(natives.at(-1).sent.at(-1).type, "ping");
  answer({ type: "pong", version: "0.1.0", protocol: 1 });
  await settle();
  assert.deepEqual(natives.at(-1).sent.at(-1), { v: 1, id: natives.at(-1).sent.at(-1).id, type: "history", url: "https://news.example.org/2026/a" });
  answer({ type: "history", site: "news.example.org", pages: 4, reference: true });
  await settle();
  assert.deepEqual(natives.at(-1).sent.at(-1), { v: 1, id: natives.at(-1).sent.at(-1).id, type: "labels", site: "news.example.org" });
  // the widest reach of the site's corrections goes with their count
  const labels = [{ id: 3, reach: { pages: 1, site_pages: 4, anchored: false } }, { id: 2, reach: { pages: 3, site_pages: 4, anchored: false } }];
  answer({ type: "labels", labels, sites: { "news.example.org": 2, "other.example": 5 }, deleted: 0 });
  assert.deepEqual(await status, { ok: true, version: "0.1.0", site: "news.example.org", pages: 4, corrections: 2,
    reach: { pages: 3, site_pages: 4, anchored: false } });
  // a "hide" that stays off the pages where its kind of block held the article reaches fewer
  const again = browser.api.send({ type: "pagesieve.status", url: "https://news.example.org/2026/b" }, popup);
  await settle();
  answer({ type: "pong", version: "0.1.0", protocol: 1 });
  await settle();
  answer({ type: "history", site: "news.example.org", pages: 4, reference: true });
  await settle();
  const wrapper = { pages: 4, site_pages: 4, anchored: false, stays_off: 3 };
  const caption = { pages: 3, site_pages: 4, anchored: false, stays_off: 0 };
  answer({ type: "labels", labels: [{ id: 5, reach: wrapper }, { id: 4, reach: caption }], sites: { "news.example.org": 2 }, deleted: 0 });
  assert.deepEqual((await again).reach, caption);
  // a browser page: the version alone
  const plain = browser.api.send({ type: "pagesieve.status", url: "chrome://extensions/" }, popup);
  await settle();
  answer({ type: "pong", version: "0.1.0", protocol: 1 });
  assert.deepEqual(await plain, { ok: true, version: "0.1.0" });
});
