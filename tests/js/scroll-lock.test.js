// content/hide.js: a page's scroll lock undone (unlockScroll) and put back (clear) on <html> and
// <body> stood in for here: class tokens, inline properties with priorities, and a computed style
// that follows them ("modal-open" locks by overflow, "fixed" fixes <body> in place). The real
// thing on the fixtures' pages is tested in both browsers (tests/e2e/test_overlays.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load.js";
import { fakeBrowser } from "./fake-browser.js";

class Root {
  constructor(classes, props = {}) {
    this.classes = classes === null ? null : classes.split(" ").filter(Boolean);
    this.props = new Map(Object.entries(props).map(([name, value]) => [name, [value, ""]]));
    this.hadStyle = Object.keys(props).length > 0;
    const self = this;
    this.classList = {
      add(token) { self.classes = self.classes || []; if (!self.classes.includes(token)) self.classes.push(token); },
      remove(token) { if (self.classes) self.classes = self.classes.filter((t) => t !== token); },
      [Symbol.iterator]() { return (self.classes || [])[Symbol.iterator](); },
    };
    this.style = {
      getPropertyValue: (name) => (this.props.get(name) || [""])[0],
      getPropertyPriority: (name) => (this.props.get(name) || ["", ""])[1],
      setProperty: (name, value, priority = "") => { this.props.set(name, [value, priority]); this.hadStyle = true; this.raw = null; },
      removeProperty: (name) => { this.props.delete(name); this.raw = null; },
      get cssText() { return [...self.props].map(([n, [v, p]]) => `${n}: ${v}${p ? " !" + p : ""};`).join(" "); },
    };
  }
  hasAttribute(name) { return this.getAttribute(name) !== null; }
  getAttribute(name) {
    if (name === "class") return this.classes === null ? null : this.classes.join(" ");
    if (name === "style" && this.raw) return this.raw;  // as written, until CSSOM touches it (then as a browser writes it)
    if (name === "style") return this.hadStyle ? [...this.props].map(([n, [v, p]]) => `${n}: ${v}${p ? " !" + p : ""};`).join(" ") : null;
    return null;
  }
  setAttribute(name, value) {
    if (name === "class") this.classes = value.split(" ").filter(Boolean);
    if (name === "style") {
      this.hadStyle = true;
      this.raw = value;
      this.props = new Map(value.split(";").map((d) => d.trim()).filter(Boolean).map((d) => {
        const [n, v] = d.split(":").map((x) => x.trim());
        return [n, [v.replace(/ !important$/, ""), v.endsWith("!important") ? "important" : ""]];
      }));
    }
  }
  removeAttribute(name) { if (name === "class") this.classes = null; if (name === "style") { this.hadStyle = false; this.raw = null; this.props = new Map(); } }
}

function page(html, body) {
  const document = { documentElement: html, body, addEventListener: () => {}, querySelector: () => null };
  const getComputedStyle = (el) => ({
    overflowY: el.style.getPropertyValue("overflow-y") || ([...el.classList].includes("modal-open") ? "hidden" : "visible"),
    position: el.style.getPropertyValue("position") || ([...el.classList].includes("fixed") ? "fixed" : "static"),
    top: "0px",
  });
  const window = { scrollY: 0, scrollTo: () => {}, addEventListener: () => {}, removeEventListener: () => {} };
  const context = load(["platform.js", "channels.js", "content/shared.js", "content/reasons.js", "content/hide.js"], {
    chrome: fakeBrowser().api, document, window, getComputedStyle, location: { hostname: "example.com", protocol: "https:", href: "https://example.com/" },
  });
  return context.pagesieve.content.hiding;
}

test("the lock undone and put back: only the classes taken off and the properties set, the page's own changes in between stay", () => {
  const html = new Root("js modal-open");
  const body = new Root("fixed", { "overflow-y": "hidden", color: "black" });
  const hiding = page(html, body);
  assert.equal(hiding.unlockScroll(), true);
  assert.equal(html.getAttribute("class"), "js");
  // <body> still locks without "fixed" (its inline overflow): the class stays, inline overrides
  assert.equal(body.getAttribute("class"), "fixed");
  assert.equal(body.style.getPropertyValue("overflow-y"), "auto");
  assert.equal(body.style.getPropertyValue("position"), "static");
  // the page changes <html> and <body> meanwhile
  html.classList.add("dark");
  body.style.setProperty("color", "red");
  body.classList.add("loaded");
  hiding.clear();
  assert.equal(hiding.unlocked(), false);
  assert.deepEqual(html.classes.slice().sort(), ["dark", "js", "modal-open"]);
  assert.deepEqual(body.classes.slice().sort(), ["fixed", "loaded"]);
  assert.deepEqual([...body.props], [["overflow-y", ["hidden", ""]], ["color", ["red", ""]]]);
});

test("a property set where there was none is taken off; an attribute the element had not is not left behind", () => {
  const html = new Root(null);
  const body = new Root(null, {});
  body.setAttribute("style", "overflow-y: hidden !important");  // locked by inline style alone
  const hiding = page(html, body);
  assert.equal(hiding.unlockScroll(), true);
  assert.equal(body.style.getPropertyValue("overflow-y"), "auto");
  hiding.clear();
  assert.equal(body.style.getPropertyValue("overflow-y"), "hidden");
  assert.equal(body.style.getPropertyPriority("overflow-y"), "important");
  assert.equal(html.getAttribute("class"), null);
  assert.equal(html.getAttribute("style"), null);
});

test("with no change of the page's meanwhile, each attribute's very text is back (order of classes, the style as written)", () => {
  const html = new Root("modal-open js");
  const body = new Root("x");
  body.setAttribute("style", "overflow-y: hidden");
  const hiding = page(html, body);
  hiding.unlockScroll();
  hiding.clear();
  assert.equal(html.getAttribute("class"), "modal-open js");
  assert.equal(body.getAttribute("class"), "x");
  assert.equal(body.getAttribute("style"), "overflow-y: hidden");
});
