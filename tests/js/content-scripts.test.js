// The content scripts of manifest.json, loaded in its order into one context as the browser
// loads them into a page: each finds what it needs of the ones before it, and together they
// answer every channel the background, the popup and the browser tests send to a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { EXTENSION, load, plain } from "./load.js";
import { fakeBrowser } from "./fake-browser.js";

const manifest = JSON.parse(readFileSync(EXTENSION + "manifest.json", "utf8"));
const scripts = manifest.content_scripts[0].js;

// A page with nothing on it: the scripts touch only these while they load and answer below.
function page(stored) {
  const browser = fakeBrowser({ stored });
  const idle = [];
  const document = { addEventListener: () => {}, querySelector: () => null };
  const location = { hostname: "www.example.com", protocol: "https:", href: "https://www.example.com/a" };
  const context = load(scripts, { chrome: browser.api, document, location, requestIdleCallback: (f) => idle.push(f) });
  return { browser, context, idle };
}

test("platform.js and channels.js come first, clean.js (which starts the on-load work) last", () => {
  assert.deepEqual(scripts.slice(0, 2), ["platform.js", "channels.js"]);
  assert.equal(scripts.at(-1), "content/clean.js");
  assert.ok(scripts.indexOf("content/shared.js") < scripts.indexOf("content/reasons.js"));
});

test("the scripts share one namespace, each adding its part", () => {
  const { context } = page();
  assert.deepEqual(Object.keys(context.pagesieve).sort(), ["content", "createChannels", "platform", "reasons"]);
  const parts = ["hiding", "reader", "saving", "picker", "off", "run"];
  for (const part of parts) assert.ok(context.pagesieve.content[part], part);
  assert.equal(typeof context.pagesieveSnapshot, "function");
  assert.equal(typeof context.pagesieveReferenceLink, "function");
});

test("every message the extension sends to a page has a channel that answers it", async () => {
  const { browser } = page();
  // the types sent by background/menus.js, pages/popup.js and the browser tests
  const state = await browser.api.send({ type: "pagesieve.state" });
  assert.deepEqual(plain(state), { ok: true, loaded: false, coldStart: false, mode: "off", hidden: 0, showing: false, unlocked: false });
  assert.deepEqual(plain(await browser.api.send({ type: "pagesieve.showHidden", on: true })),
    { ok: false, error: "nothing is hidden on this page: click “Hide noise” first" });
  assert.deepEqual(plain(await browser.api.send({ type: "pagesieve.showHidden", on: false })), { ok: true, shown: 0 });
  assert.deepEqual(plain(await browser.api.send({ type: "pagesieve.pick", label: "spam" })), { ok: false, error: "label must be noise or content" });
  assert.deepEqual(plain(await browser.api.send({ type: "pagesieve.run", mode: "tidy" })).error, "mode must be hide, reader, corrections or off");
});

test("the page's on-load work waits for the page to be idle, and marks the page loaded when done", async () => {
  const { browser, idle } = page({ learn: { "*": false } });  // learning switched off: nothing to send
  assert.equal(idle.length, 1);
  idle[0]();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal((await browser.api.send({ type: "pagesieve.state" })).loaded, true);
  assert.deepEqual(browser.calls.filter(([name]) => name === "runtime.sendMessage"), []);  // nothing asked of the host
});

test("every change of mode is told to the toolbar button (background/toolbar.js): mode and hidden parts", async () => {
  const { browser } = page();
  const tells = () => browser.calls.filter(([name, message]) => name === "runtime.sendMessage" && message.type === "pagesieve.pageState")
    .map(([, message]) => plain(message));
  await browser.api.send({ type: "pagesieve.run", mode: "off" });
  assert.deepEqual(tells(), [{ type: "pagesieve.pageState", mode: "off", hidden: 0 }]);
  await browser.api.send({ type: "pagesieve.run", mode: "tidy" });  // refused: the mode stays, and is told again
  assert.deepEqual(tells().at(-1), { type: "pagesieve.pageState", mode: "off", hidden: 0 });
  assert.equal(tells().length, 2);
});

// The site's auto mode as the page loads, the host stood in for by a failure (the page is not
// judged): how often the stand-in autoconsent is made, and with which detection rounds.
async function autoLoad(stored) {
  const browser = fakeBrowser({ stored });
  const idle = [];
  const made = [];
  class AutoConsent {
    constructor(send) { this.send = send; this.rules = []; made.push(this); }
    initialize(config) { this.config = config; setTimeout(() => this.send({ type: "report", state: { lifecycle: "nothingDetected" } }), 1); }
  }
  const document = { addEventListener: () => {}, querySelector: () => null };
  const location = { hostname: "www.example.com", protocol: "https:", href: "https://www.example.com/a" };
  const context = load(scripts, {
    chrome: browser.api, document, location, requestIdleCallback: (f) => idle.push(f), setTimeout, clearTimeout, performance,
    pagesieveAutoconsent: { AutoConsent, filterCompactRules: () => ({}), rules: {} },
  });
  const asked = [];
  context.pagesieve.content.askWithSnapshot = async (type, fields) => { asked.push(plain(fields)); return { answer: { ok: false, error: "no host here" } }; };
  idle[0]();
  for (let i = 0; i < 50 && !(await browser.api.send({ type: "pagesieve.state" })).loaded; i++) await new Promise((r) => setTimeout(r, 5));
  return { browser, made, asked };
}

test("the site's auto mode on load answers no consent pop-up unless the user asked for that on load, and then once", async () => {
  const auto = { "example.com": "hide" };  // the site (ps.siteOf)
  for (const learn of [undefined, { "*": false }]) {  // learning on (the default) or off: the same
    const quiet = await autoLoad({ auto, learn });
    assert.deepEqual(quiet.asked.map((fields) => fields.mode), ["hide"]);
    assert.equal(quiet.made.length, 0);
  }
  const asked = await autoLoad({ auto, consent: { mode: "optout", onLoad: true } });
  assert.equal(asked.asked.length, 1);
  assert.deepEqual(asked.made.map((instance) => instance.config.detectRetries), [10]);  // onLoad's run, not a second
  // a click answers it at once, with no detection rounds
  await asked.browser.api.send({ type: "pagesieve.run", mode: "hide" });
  assert.deepEqual(asked.made.map((instance) => instance.config.detectRetries), [10, 0]);
});

test("the correction's note says how far it reaches, less the pages a hide stays off", () => {
  const { context } = page();
  const reachText = context.pagesieve.content.picker.reachText;
  assert.equal(reachText({ pages: 3, site_pages: 4, anchored: false, stays_off: 0 }),
    "It reaches 3 of the 4 pages of this site seen so far, and later pages like them.");
  assert.equal(reachText({ pages: 3, site_pages: 3, anchored: false, stays_off: 2 }),
    "It reaches 1 of the 3 pages of this site seen so far: on 2 other pages this kind of block held the article, so it stays off them and pages like them.");
  assert.equal(reachText({ pages: 4, site_pages: 5, anchored: true, stays_off: 1 }),
    "It reaches 3 of the 5 pages of this site seen so far (where the same text appears): on 1 other page this kind of block held the article, so it stays off it and pages like them.");
  assert.equal(reachText({ pages: 1, site_pages: 3, anchored: false }),
    "It reaches this page only: none of the other 2 pages of this site seen so far has it.");
});
