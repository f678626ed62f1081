// Consent pop-ups (issue 48), answered by DuckDuckGo's autoconsent (npm @duckduckgo/autoconsent,
// bundled with its rules into vendor/autoconsent/ at build time: nothing is fetched). Before
// "hide" and "reader" (and as a page loads, when the user turns that on in the options page) a
// consent manager's pop-up is answered with its opt-out where autoconsent has a rule for it, or
// hidden where the opt-out fails; it is never accepted. Options (storage "consent"): mode
// "optout" (the default), "hide" (only hide the pop-up, answer nothing) or "off"; onLoad (false).
// The layer stage of the host hides whatever covers the page after this (rules/layers.py).
// Adds `consent` to globalThis.pagesieve.content: answer() -> {cmp, action}; clear() takes our
// hiding style off (clean.js calls it on "off"); last() is the last answer (the tests read it).
"use strict";
(function () {
  const ps = globalThis.pagesieve.content;
  const DEFAULTS = { mode: "optout", onLoad: false };
  // How long one answer may take: autoconsent's rules wait for a pop-up to appear and for its
  // buttons (their own waits are up to a few seconds each); past this the page is judged as it is.
  const ANSWER_MS = { click: 6000, load: 15000 };
  // Detection rounds (autoconsent's detectRetries, one every ~500 ms): on a click the page is
  // already there; on load a consent manager puts its banner in late.
  const RETRIES = { click: 0, load: 10 };
  // A consent manager found but no pop-up of it (consent given on an earlier visit, the usual
  // case): autoconsent then goes on looking for its pop-up for ~5 s and tells nothing more. A
  // pop-up that is there shows within this grace; past it the answer is "none".
  const GRACE_MS = { click: 1000, load: 3000 };
  let sheet = null;  // our style hiding a pop-up ("hide" mode, or an opt-out that failed)
  let lastAnswer = null;
  let running = null;

  async function settings() {
    const { consent } = await ps.api.storage.local.get("consent").catch(() => ({}));
    return { ...DEFAULTS, ...(consent || {}) };
  }

  async function library() {
    if (!globalThis.pagesieveAutoconsent) {
      const loaded = await ps.api.runtime.sendMessage({ type: "pagesieve.loadAutoconsent" });
      if (!loaded || !loaded.ok) throw new Error((loaded && loaded.error) || "autoconsent could not be loaded");
    }
    return globalThis.pagesieveAutoconsent;
  }

  // The pop-up of consent manager `name` hidden by a style of ours (its rule's prehide selectors).
  function hidePopup(instance, name) {
    const rule = instance.rules.find((r) => r.name === name);
    const selectors = rule && rule.prehideSelectors ? rule.prehideSelectors.join(",") : "";
    if (!selectors) return false;
    if (!sheet) sheet = ps.addPageStyle(selectors + " { display: none !important; }");
    return true;
  }

  // One run of autoconsent on this page: {cmp, action} with action "opted-out" (its opt-out
  // rule ran), "hidden" (found, hidden by our style: "hide" mode, or the opt-out failed),
  // "none" (no consent manager's pop-up found), "off" (the option) or "failed" (with error).
  async function run(when) {
    const { mode } = await settings();
    if (mode === "off") return { cmp: null, action: "off" };
    const { AutoConsent, filterCompactRules, rules } = await library();
    return new Promise((resolve) => {
      let instance = null;
      let cmp = null;
      let grace = null;  // the grace timer, from "cmpDetected" until a pop-up is found
      const finish = (answer) => { clearTimeout(timer); clearTimeout(grace); resolve(answer); };
      const timer = setTimeout(() => finish(cmp && hidePopup(instance, cmp) ? { cmp, action: "hidden" } : { cmp, action: "none" }), ANSWER_MS[when]);
      const send = async (message) => {
        switch (message.type) {
          case "eval":
            // a rule that asks the page's consent manager script (window.Cookiebot ...): the
            // background runs that snippet of the library, by name, in the page's world; without
            // an answer it counts as false (the rule fails, the pop-up is hidden instead)
            ps.api.runtime.sendMessage({ type: "pagesieve.autoconsentEval", snippetId: message.snippetId })
              .then((answer) => Boolean(answer && answer.ok && answer.result), () => false)
              .then((result) => instance.receiveMessageCallback({ type: "evalResp", id: message.id, result }));
            break;
          case "popupFound":
            cmp = message.cmp;
            clearTimeout(grace);
            if (mode === "hide") finish({ cmp, action: hidePopup(instance, cmp) ? "hidden" : "none" });
            break;
          case "optOutResult":
            if (!message.result) finish({ cmp: message.cmp, action: hidePopup(instance, message.cmp) ? "hidden" : "failed" });
            break;
          case "autoconsentDone":
            finish({ cmp: message.cmp, action: "opted-out" });
            break;
          case "report":
            if (message.state.lifecycle === "nothingDetected") finish({ cmp: null, action: "none" });
            else if (message.state.lifecycle === "optOutSucceeded") finish({ cmp, action: "opted-out" });
            else if (message.state.lifecycle === "cmpDetected" && !cmp && !grace) {
              grace = setTimeout(() => finish({ cmp: null, action: "none" }), GRACE_MS[when]);
            }
            break;
          default:
            break;
        }
      };
      instance = new AutoConsent(send);
      instance.initialize({
        enabled: true,
        autoAction: mode === "optout" ? "optOut" : null,  // never "optIn"
        enablePrehide: false, enableCosmeticRules: true, enableGeneratedRules: true, enableHeuristicDetection: false,
        detectRetries: RETRIES[when], isMainWorld: false,
        logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
      }, { autoconsent: [], compact: filterCompactRules(rules, { url: location.href, mainFrame: true }) });
    });
  }

  // Answer the page's consent pop-up, once at a time: when = "click" (hide, reader) or "load".
  // Never throws: a failure is {cmp: null, action: "failed", error}.
  function answer(when = "click") {
    if (!running) {
      running = run(when).catch((error) => ({ cmp: null, action: "failed", error: String(error.message || error) }))
        .then((result) => { lastAnswer = result; running = null; return result; });
    }
    return running;
  }

  // Our hiding style off ("off"): an opt-out already given stays given, as a click of the user's would.
  function clear() {
    if (sheet) { ps.removePageStyle(sheet); sheet = null; }
  }

  async function onLoad() {
    const { mode, onLoad: wanted } = await settings();
    if (wanted && mode !== "off" && /^https?:$/.test(location.protocol)) await answer("load");
  }

  ps.consent = { answer, clear, onLoad, last: () => lastAnswer, settings };
})();
