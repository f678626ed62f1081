// pages/popup.js: the mode controls, in a stand-in popup page (every element one stub).
import { test } from "node:test";
import assert from "node:assert/strict";
import { load, plain } from "./load.js";
import { fakeBrowser } from "./fake-browser.js";

function element() {
  const el = {
    textContent: "", value: "", disabled: false, className: "", style: {}, dataset: {},
    querySelector: () => element(), setAttribute() {}, getAttribute: () => null, addEventListener() {}, append() {},
  };
  return el;
}

function popup() {
  const browser = fakeBrowser();
  browser.api.commands.getAll = async () => [];
  browser.api.runtime.getManifest = () => ({ version: "0" });
  browser.api.tabs.query = async () => [{ id: 7, url: "https://example.com/a" }];
  const elements = new Map();
  const document = {
    getElementById: (id) => elements.get(id) || elements.set(id, element()).get(id),
    querySelectorAll: () => [], createElement: element, documentElement: element(),
  };
  const context = load(["platform.js", "pages/popup.js"], { chrome: browser.api, document });
  return { browser, context, document };
}

test("a mode whose run fails leaves the mode controls working: the next choice runs", async () => {
  const { browser, context, document } = popup();
  await new Promise((r) => setTimeout(r, 10));  // the popup's init
  const query = browser.api.tabs.query;
  browser.api.tabs.query = async () => { throw new Error("the tab is gone"); };
  await assert.rejects(context.choose("hide"), /the tab is gone/);
  browser.api.tabs.query = query;
  await context.choose("reader");
  const runs = browser.calls.filter(([name, , message]) => name === "tabs.sendMessage" && message.type === "pagesieve.run");
  assert.deepEqual(plain(runs.map(([, tab, message]) => [tab, message])), [[7, { type: "pagesieve.run", mode: "reader" }]]);
  assert.equal(document.getElementById("status").textContent, "no answer");  // the stand-in page answers nothing
});
