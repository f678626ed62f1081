// background/toolbar.js: the button's icon, badge and tooltip follow what a content script
// reports of its page; a page loading anew is off again; a shortcut's ✓ gives way to the state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fakeBrowser } from "./fake-browser.js";
import { ICONS, look, setUpToolbar } from "../../extension/background/toolbar.js";
import "../../extension/channels.js";

function toolbar() {
  const browser = fakeBrowser();
  browser.api.action.getBadgeText = async () => "";
  browser.api.action.getTitle = async () => "";
  const channels = globalThis.pagesieve.createChannels();
  browser.api.runtime.onMessage.addListener(channels.listener);
  const { flash } = setUpToolbar(browser.api, channels);
  const last = (name, tabId) => browser.calls.filter(([n, args]) => n === `action.${name}` && args.tabId === tabId).at(-1)?.[1];
  return { browser, flash, last };
}

test("the look of each state: hidden parts counted on the badge, the reader's icon, off plain", () => {
  assert.deepEqual(look({ mode: "hide", hidden: 12 }), { icon: "hide", badge: "12", title: "pagesieve: 12 parts of this page hidden" });
  assert.deepEqual(look({ mode: "corrections", hidden: 1 }), { icon: "hide", badge: "1", title: "pagesieve: 1 part of this page hidden" });
  assert.equal(look({ mode: "hide", hidden: 4321 }).badge, "999+");
  assert.deepEqual(look({ mode: "hide", hidden: 0 }), { icon: "off", badge: "", title: "pagesieve" });
  assert.deepEqual(look({ mode: "reader", hidden: 0 }), { icon: "reader", badge: "", title: "pagesieve: reader view" });
  assert.deepEqual(look(undefined), { icon: "off", badge: "", title: "pagesieve" });
  assert.deepEqual(Object.keys(ICONS).sort(), ["hide", "off", "reader"]);
});

test("a page's report sets its tab's icon, badge and tooltip: hide -> reader -> off", async () => {
  const { browser, last } = toolbar();
  const sender = { tab: { id: 7 }, frameId: 0 };
  const answer = await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 23 }, sender);
  assert.deepEqual(answer, { ok: true, icon: "hide", badge: "23", title: "pagesieve: 23 parts of this page hidden" });
  assert.deepEqual(last("setIcon", 7), { tabId: 7, path: ICONS.hide });
  assert.deepEqual(last("setBadgeText", 7), { tabId: 7, text: "23" });
  await browser.api.send({ type: "pagesieve.pageState", mode: "reader", hidden: 0 }, sender);
  assert.deepEqual(last("setIcon", 7), { tabId: 7, path: ICONS.reader });
  assert.deepEqual(last("setBadgeText", 7), { tabId: 7, text: "" });
  await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 5 }, sender);
  await browser.api.send({ type: "pagesieve.pageState", mode: "off", hidden: 0 }, sender);
  assert.deepEqual(last("setIcon", 7), { tabId: 7, path: ICONS.off });
  assert.deepEqual(last("setBadgeText", 7), { tabId: 7, text: "" });
  assert.equal(last("setTitle", 7).title, "pagesieve");
  // a frame's report, or one from no tab, changes nothing
  const calls = browser.calls.length;
  assert.equal((await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 3 }, { tab: { id: 7 }, frameId: 2 })).ok, false);
  assert.equal((await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 3 }, {})).ok, false);
  assert.equal(browser.calls.length, calls);
});

test("a page that loads anew is off again; another tab keeps its own state", async () => {
  const { browser, last } = toolbar();
  await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 9 }, { tab: { id: 1 }, frameId: 0 });
  await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 4 }, { tab: { id: 2 }, frameId: 0 });
  for (const f of browser.events["tabs.onUpdated"]) f(1, { status: "loading" });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(last("setBadgeText", 1), { tabId: 1, text: "" });
  assert.deepEqual(last("setIcon", 1), { tabId: 1, path: ICONS.off });
  assert.deepEqual(last("setBadgeText", 2), { tabId: 2, text: "4" });
});

test("a shortcut's outcome flashes on the badge, then the page's count is back", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { browser, flash, last } = toolbar();
  await browser.api.send({ type: "pagesieve.pageState", mode: "hide", hidden: 6 }, { tab: { id: 3 }, frameId: 0 });
  await flash({ id: 3 }, true, "pagesieve: saved “A”");
  assert.deepEqual(last("setBadgeText", 3), { tabId: 3, text: "✓" });
  t.mock.timers.tick(4000);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(last("setBadgeText", 3), { tabId: 3, text: "6" });
});
