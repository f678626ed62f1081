// platform.js: the one place that knows Chromium from Firefox.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load.js";

test("Firefox's `browser` is taken where it exists, else Chromium's `chrome`", () => {
  const chrome = { runtime: { id: "c" } };
  const browser = { runtime: { id: "f" } };
  assert.equal(load(["platform.js"], { chrome }).pagesieve.platform.api, chrome);
  assert.equal(load(["platform.js"], { chrome, browser }).pagesieve.platform.api, browser);
});

test("a missing host is recognised in the words of both browsers, other errors are not", () => {
  const { hostMissing } = load(["platform.js"], { chrome: {} }).pagesieve.platform;
  for (const message of ["Specified native messaging host not found.", "No such native application org.pagesieve.host",
    "Native messaging host org.pagesieve.host is not installed"]) {
    assert.equal(hostMissing(message), true, message);
  }
  for (const message of ["Native host has exited.", "Error when communicating with the native messaging host.",
    "the host did not answer in time", "", undefined]) {
    assert.equal(hostMissing(message), false, String(message));
  }
});

test("why a native port closed: Firefox's port.error, else Chromium's runtime.lastError", () => {
  const chrome = { runtime: { lastError: { message: "Native host has exited." } } };
  const { disconnectError } = load(["platform.js"], { chrome }).pagesieve.platform;
  assert.equal(disconnectError({ error: { message: "No such native application org.pagesieve.host" } }), "No such native application org.pagesieve.host");
  assert.equal(disconnectError({}), "Native host has exited.");
  chrome.runtime.lastError = undefined;
  assert.equal(disconnectError({ error: null }), "the host exited");
});

test("platform.js adds to the namespace the other scripts already made, and declares no global", () => {
  const context = load(["channels.js", "platform.js"], { chrome: {} });
  assert.equal(typeof context.pagesieve.createChannels, "function");
  assert.equal(typeof context.pagesieve.platform.addPageStyle, "function");
  assert.deepEqual(Object.keys(context).sort(), ["URL", "chrome", "pagesieve"]);
});
