// content/reasons.js: the words "Show hidden" and the picker give for each reason the host
// sends (docs/protocol.md, "Why a node is hidden"); the reasons are shaped as the host writes them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load.js";

const { reasonText, verdictText } = load(["content/reasons.js"]).pagesieve.reasons;

test("the site's template: on how many pages of the site the block was seen", () => {
  assert.equal(reasonText(["templates", "library", { pages: 15, share: 1.0, entry: "Subscribe to", seen: 14, of: 15, batch: "open" }]),
    "seen on 14 of 15 pages of this site");
  assert.equal(reasonText(["templates", "library", { pages: 40, seen: 3, of: 10, batch: "closed", at_least: true }]),
    "seen on at least 3 of 10 pages of this site");
  assert.equal(reasonText(["templates", "library", { pages: 2 }]), "this site's template");
  assert.equal(reasonText(["templates", "diff", { pages: 1, reference: "https://example.com/b", fetched: true }]),
    "the same as on another page of this site");
  assert.equal(reasonText(["templates", "sst", { pages: 9 }]), "noise in this site's style tree");
});

test("the user's correction, by the day it was made", () => {
  const may3 = new Date(2026, 4, 3, 12).getTime() / 1000;  // noon of 3 May where the test runs, as the page shows it
  assert.equal(reasonText(["correction", "hide-this", { id: 4, created: may3, signature: "body>div.promo", snippet: "Get the" }]),
    "by your correction of 3 May");
});

test("the classifier, with the block's score and the cut, rounded to 3 places", () => {
  assert.equal(reasonText(["classifier", "context", { score: 0.0031, cut: 0.5, svm: -0.863 }]),
    "the classifier, with its neighbours, judged it noise (score 0.003 < 0.5)");
  assert.equal(reasonText(["classifier", "svm-sure-noise", { score: -1.23456, cut: -1 }]),
    "the classifier is sure it is noise (score -1.235 < -1)");
  assert.equal(reasonText(["classifier", "below-best", { score: 0.2, cut: 0.35 }]),
    "scored below the page's best blocks (score 0.2 < 0.35)");
  assert.equal(reasonText(["classifier", "svm", { score: -0.2, cut: 0 }]), "the classifier judged it noise (score -0.2 < 0)");
});

test("post-rules in words, an unknown one by its name", () => {
  assert.equal(reasonText(["post-rule", "comment-section", { marked: "section#comments", share: 0.2 }]), "readers' comments");
  assert.equal(reasonText(["post-rule", "ad-label", { label: "Advertisement" }]), "an advertisement label");
  assert.equal(reasonText(["post-rule", "byline-in-header", {}]), "the byline, shown in the header");
  assert.equal(reasonText(["post-rule", "dateline-in-header", {}]), "the date, shown in the header");
  assert.equal(reasonText(["post-rule", "title-copy", {}]), "the title once more, shown in the header");
  assert.equal(reasonText(["post-rule", "byline-word", {}]), "a byline's “By” alone");
  assert.equal(reasonText(["post-rule", "adjacent-copy", { chars: 60 }]), "a line shown twice in a row");
  assert.equal(reasonText(["post-rule", "photo-credit", { chars: 2 }]), "a photo's credit line");
  assert.equal(reasonText(["post-rule", "quoted-copy", { chars: 90 }]), "a post quoted again in a reply");
  assert.equal(reasonText(["post-rule", "teaser-run", {}]), "teasers for other pages");
  assert.equal(reasonText(["post-rule", "trailing-heading", {}]), "a heading with nothing under it");
  assert.equal(reasonText(["post-rule", "named-aside", { kind: "author-bio", chars: 180 }]),
    "what the page itself names the author's bio");
  assert.equal(reasonText(["post-rule", "named-aside", { kind: "reviews", chars: 400 }]),
    "what the page itself names its customers' reviews");
  assert.equal(reasonText(["post-rule", "named-aside", { chars: 40 }]), "what the page itself names an aside");
  assert.equal(reasonText(["post-rule", "a-rule-of-tomorrow", {}]), "a-rule-of-tomorrow");
});

test("pre-processing: what the page itself does not show", () => {
  assert.equal(reasonText(["preprocess", "not-rendered", { tag: "div" }]), "not shown by the page itself (not-rendered)");
});

test("a container hidden for the blocks inside it says how many; no reason says so", () => {
  assert.equal(reasonText(["templates", "library", { seen: 4, of: 4, blocks: 6 }]), "seen on 4 of 4 pages of this site; 6 blocks");
  assert.equal(reasonText(["post-rule", "back-to-top", { blocks: 1 }]), "a “back to top” link");
  assert.equal(reasonText(null), "no reason recorded");
  assert.equal(reasonText(undefined), "no reason recorded");
});

test("an explain reply's reason is an object, read as the array form", () => {
  const reason = { stage: "classifier", rule: "context", evidence: { score: 0.1, cut: 0.5 } };
  assert.equal(reasonText(reason), reasonText(["classifier", "context", { score: 0.1, cut: 0.5 }]));
  assert.equal(reasonText({ stage: "post-rule", rule: "ad-label" }), "an advertisement label");  // no evidence
});

test("the picker's line for each verdict of an explain reply", () => {
  assert.equal(verdictText({ verdict: "content", reason: null }), "shown: pagesieve keeps this as content");
  assert.equal(verdictText({ verdict: "noise", block: 12, reason: { stage: "templates", rule: "library", evidence: { seen: 14, of: 15 } } }),
    "“Hide noise” would hide this: seen on 14 of 15 pages of this site");
  assert.equal(verdictText({ verdict: "removed", reason: { stage: "preprocess", rule: "hidden", evidence: { tag: "div" } } }),
    "pagesieve does not read this part: not shown by the page itself (hidden)");
  assert.equal(verdictText({ verdict: "unknown", reason: null }), "");
});

test("a layer over the page: its shape, position and the share of the screen it covers", () => {
  assert.equal(reasonText(["layers", "backdrop", { position: "fixed", z: 2000, share: 1, chars: 0 }]),
    "a backdrop over the page, fixed, 100% of the screen");
  assert.equal(reasonText(["layers", "edge-banner", { position: "fixed", z: null, share: 0.134, chars: 120 }]),
    "a banner over the page, fixed, 13% of the screen");
  assert.equal(reasonText(["layers", "sticky-bar", { position: "sticky", z: 50, share: 0.05, chars: 40, blocks: 2 }]),
    "a sticky bar over the page, sticky, 5% of the screen; 2 blocks");
  assert.equal(reasonText({ stage: "layers", rule: "modal", evidence: { position: "fixed", share: 0.2 } }),
    "a pop-up over the page, fixed, 20% of the screen");
});

test("a consent notice or a newsletter offer read from the page's words", () => {
  assert.equal(reasonText(["post-rule", "consent-notice", { words: ["cookies", "partners", "your device"] }]), "a cookie or consent notice");
  assert.equal(reasonText(["post-rule", "newsletter-offer", { words: ["inbox", "subscribe"] }]), "a newsletter offer");
});
