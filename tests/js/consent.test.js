// content/consent.js: how the page's consent pop-up is answered with autoconsent (a stand-in
// here, giving the messages the library gives): refused in "optout" mode, hidden by our style in
// "hide" mode or when the opt-out fails, left alone when "off"; never accepted. The real library
// on the fixtures' pages is tested in both browsers (tests/e2e/test_overlays.py, test_firefox.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { load, plain } from "./load.js";
import { fakeBrowser } from "./fake-browser.js";

// script: the messages the stand-in library sends once initialised, in order ({wait: ms}: a pause)
function page(consent, script) {
  const made = [];
  class AutoConsent {
    constructor(send) { this.send = send; this.rules = [{ name: "Acme CMP", prehideSelectors: ["#acme", ".acme-dim"] }]; made.push(this); }
    initialize(config, rules) {
      this.config = config;
      this.declarative = rules;
      (async () => { for (const m of script) { await new Promise((r) => setTimeout(r, m.wait || 1)); if (!m.wait) await this.send(m); } })();
    }
    receiveMessageCallback(m) { (this.received || (this.received = [])).push(m); }
  }
  const browser = fakeBrowser({ stored: consent === undefined ? {} : { consent } });
  const location = { hostname: "www.example.com", protocol: "https:", href: "https://www.example.com/a" };
  const context = load(["platform.js", "channels.js", "content/shared.js", "content/consent.js"], {
    chrome: browser.api, location, setTimeout, clearTimeout, document: { addEventListener: () => {}, querySelector: () => null },
    pagesieveAutoconsent: { AutoConsent, filterCompactRules: (rules, at) => ({ rules, at }), rules: { r: [] } },
  });
  const styles = [];
  const ps = context.pagesieve.content;
  ps.addPageStyle = (rule) => { styles.push(rule); return rule; };
  ps.removePageStyle = (rule) => { styles.splice(styles.indexOf(rule), 1); };
  return { ps, made, styles, browser };
}

const found = { type: "popupFound", cmp: "Acme CMP" };

test("the default refuses: autoconsent runs its opt-out, never its opt-in", async () => {
  const { ps, made, styles } = page(undefined, [found, { type: "optOutResult", cmp: "Acme CMP", result: true }, { type: "autoconsentDone", cmp: "Acme CMP" }]);
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: "Acme CMP", action: "opted-out" });
  assert.equal(made[0].config.autoAction, "optOut");
  assert.equal(made[0].config.detectRetries, 0);  // a click: the page is there already
  assert.deepEqual(styles, []);
  assert.deepEqual(plain(ps.consent.last()), { cmp: "Acme CMP", action: "opted-out" });
});

test("an opt-out that fails hides the pop-up by its rule's selectors; off takes our style away", async () => {
  const { ps, styles } = page({ mode: "optout" }, [found, { type: "optOutResult", cmp: "Acme CMP", result: false }]);
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: "Acme CMP", action: "hidden" });
  assert.deepEqual(styles, ["#acme,.acme-dim { display: none !important; }"]);
  ps.consent.clear();
  assert.deepEqual(styles, []);
});

test("only hide: nothing is answered, the pop-up is hidden", async () => {
  const { ps, made, styles } = page({ mode: "hide" }, [found]);
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: "Acme CMP", action: "hidden" });
  assert.equal(made[0].config.autoAction, null);
  assert.equal(styles.length, 1);
});

test("off: the library is not even made; no pop-up found: none", async () => {
  const off = page({ mode: "off" }, [found]);
  assert.deepEqual(plain(await off.ps.consent.answer()), { cmp: null, action: "off" });
  assert.equal(off.made.length, 0);
  const none = page({ mode: "optout" }, [{ type: "report", state: { lifecycle: "nothingDetected" } }]);
  assert.deepEqual(plain(await none.ps.consent.answer()), { cmp: null, action: "none" });
});

test("a rule that asks the page's own script is answered by the background, by the snippet's name alone", async () => {
  const { ps, made, browser } = page({ mode: "optout" }, [
    { type: "eval", id: "e1", code: "window.Cookiebot.withdraw()", snippetId: "EVAL_COOKIEBOT_3" },
    { type: "report", state: { lifecycle: "nothingDetected" } }]);
  await ps.consent.answer();
  await new Promise((r) => setTimeout(r, 5));
  const asked = browser.calls.filter(([name]) => name === "runtime.sendMessage").map(([, message]) => plain(message));
  assert.deepEqual(asked.at(-1), { type: "pagesieve.autoconsentEval", snippetId: "EVAL_COOKIEBOT_3" });  // no code text
  // the stand-in background gives no answer: the rule's question counts as false
  assert.deepEqual(plain(made[0].received), [{ type: "evalResp", id: "e1", result: false }]);
});

test("on load only when the user asked, with more detection rounds", async () => {
  const asked = page({ mode: "optout", onLoad: true }, [{ type: "report", state: { lifecycle: "nothingDetected" } }]);
  await asked.ps.consent.onLoad();
  assert.equal(asked.made[0].config.detectRetries, 10);
  const not = page({ mode: "optout" }, []);
  await not.ps.consent.onLoad();
  assert.equal(not.made.length, 0);
});

const detected = { type: "report", state: { lifecycle: "cmpDetected" } };

test("a consent manager without a pop-up (consent given before): none after a short grace, not the whole wait", async () => {
  const { ps } = page({ mode: "optout" }, [detected]);
  const t0 = Date.now();
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: null, action: "none" });
  const took = Date.now() - t0;
  assert.ok(took >= 900 && took < 2000, `answered in ${took} ms`);
});

test("a pop-up found within the grace is answered, however long its opt-out takes", async () => {
  const { ps } = page({ mode: "optout" }, [detected, found, { wait: 1500 }, { type: "autoconsentDone", cmp: "Acme CMP" }]);
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: "Acme CMP", action: "opted-out" });
  const hidden = page({ mode: "hide" }, [detected, found]);
  assert.deepEqual(plain(await hidden.ps.consent.answer()), { cmp: "Acme CMP", action: "hidden" });
});

test("no consent manager at all: none at once", async () => {
  const { ps } = page({ mode: "optout" }, [{ type: "report", state: { lifecycle: "started" } }, { type: "report", state: { lifecycle: "nothingDetected" } }]);
  const t0 = Date.now();
  assert.deepEqual(plain(await ps.consent.answer()), { cmp: null, action: "none" });
  assert.ok(Date.now() - t0 < 500);
});
