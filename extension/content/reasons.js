// Why a block was hidden, in words for the page: the reasons the host gives ("why" of a clean
// reply, "reason" of an explain reply: docs/protocol.md, "Why a node is hidden") as the labels of
// "Show hidden" (hide.js) and the bar of the right-click picker (picker.js) say them. Pure: no
// DOM, no extension API (tests/js/reasons.test.js runs it in Node). Adds `reasons` to
// globalThis.pagesieve.
(function (root) {
  "use strict";
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];
  const POST_RULES = {
    "comment-section": "readers' comments", "ad-label": "an advertisement label", "back-to-top": "a “back to top” link",
    "unrendered-template": "a template the page never filled in", "structure-scraps": "scraps of a list or table that is mostly noise",
    "facts-table-scraps": "scraps of a table of facts that is mostly noise", "byline-in-header": "the byline, shown in the header",
    "title-in-header": "the title, shown in the header", "dateline-in-header": "the date, shown in the header",
    "title-copy": "the title once more, shown in the header", "byline-word": "a byline's “By” alone", "adjacent-copy": "a line shown twice in a row",
    "photo-credit": "a photo's credit line", "quoted-copy": "a post quoted again in a reply",
    "teaser-run": "teasers for other pages", "trailing-heading": "a heading with nothing under it",
    "consent-notice": "a cookie or consent notice",
    "newsletter-offer": "a newsletter offer",
  };
  // The kinds of a "named-aside" (host/pagesieve/rules/asides.py ASIDE_WORDS, PRODUCT_ASIDE_WORDS).
  const ASIDES = {
    disclaimer: "a disclaimer", "author-bio": "the author's bio", related: "related links", share: "a share bar",
    sponsor: "a sponsor's box", newsletter: "a newsletter box", breadcrumb: "a breadcrumb trail",
    reviews: "its customers' reviews",
  };
  const LAYERS = {
    backdrop: "a backdrop", "sticky-bar": "a sticky bar", overlay: "an overlay", "edge-banner": "a banner",
    floating: "a floating box", modal: "a pop-up",
  };
  const score = (x) => (typeof x === "number" ? String(Math.round(x * 1000) / 1000) : String(x));

  // A reason ([stage, rule, evidence] or {stage, rule, evidence}) in words for the page.
  function reasonText(why) {
    if (!why) return "no reason recorded";
    const [stage, rule, e = {}] = Array.isArray(why) ? why : [why.stage, why.rule, why.evidence];
    let text;
    if (stage === "templates") {
      if (rule === "library") {
        text = e.seen ? `seen on ${e.at_least ? "at least " : ""}${e.seen} of ${e.of} pages of this site` : "this site's template";
      } else if (rule === "diff") text = "the same as on another page of this site";
      else text = "noise in this site's style tree";
    } else if (stage === "correction") {
      const d = new Date((e.created || 0) * 1000);
      text = `by your correction of ${d.getDate()} ${MONTHS[d.getMonth()]}`;
    } else if (stage === "classifier") {
      const cut = `score ${score(e.score)} < ${score(e.cut)}`;
      text = rule === "svm-sure-noise" ? `the classifier is sure it is noise (${cut})`
        : rule === "context" ? `the classifier, with its neighbours, judged it noise (${cut})`
          : rule === "below-best" ? `scored below the page's best blocks (${cut})` : `the classifier judged it noise (${cut})`;
    } else if (stage === "layers") {
      const share = typeof e.share === "number" ? `, ${Math.round(e.share * 100)}% of the screen` : "";
      text = `${LAYERS[rule] || "a layer"} over the page, ${e.position || "fixed"}${share}`;
    } else if (stage === "post-rule") {
      text = rule === "named-aside" ? `what the page itself names ${ASIDES[e.kind] || "an aside"}` : POST_RULES[rule] || rule;
    } else {
      text = `not shown by the page itself (${rule})`;
    }
    return e.blocks > 1 ? `${text}; ${e.blocks} blocks` : text;
  }

  // An explain reply ({verdict, reason}: docs/protocol.md, "Why a node is hidden") in words for
  // the picker's bar; "" when the host knows no block there.
  function verdictText(reply) {
    if (reply.verdict === "content") return "shown: pagesieve keeps this as content";
    if (reply.verdict === "noise") return "“Hide noise” would hide this: " + reasonText(reply.reason);
    if (reply.verdict === "removed") return "pagesieve does not read this part: " + reasonText(reply.reason);
    return "";
  }

  (root.pagesieve || (root.pagesieve = {})).reasons = { reasonText, verdictText };
})(globalThis);
