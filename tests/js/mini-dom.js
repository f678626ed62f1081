// A few DOM nodes, enough for content/snapshot.js to walk a page without layout
// ({layout: false}: no box, font or style is asked for): elements with attributes and children,
// text and comment nodes, a document.

class Node {
  get firstChild() { return this.childNodes[0] || null; }
  get nextSibling() { return this.sibling(1); }
  get previousSibling() { return this.sibling(-1); }
  sibling(step) {
    if (!this.parentNode) return null;
    const all = this.parentNode.childNodes;
    return all[all.indexOf(this) + step] || null;
  }
}

class Text extends Node {
  constructor(data, type = 3) { super(); this.nodeType = type; this.data = data; this.childNodes = []; }
}

class Element extends Node {
  constructor(localName, attributes, children) {
    super();
    this.nodeType = 1;
    this.localName = localName;
    this.attributes = new Map(Object.entries(attributes));
    this.childNodes = [];
    this.shadowRoot = null;
    this.currentSrc = "";
    for (const child of children) this.append(child);
  }
  append(child) {
    const node = typeof child === "string" ? new Text(child) : child;
    node.parentNode = this;
    this.childNodes.push(node);
    return node;
  }
  get firstElementChild() { return this.childNodes.find((n) => n.nodeType === 1) || null; }
  get textContent() { return this.childNodes.map((n) => (n.nodeType === 1 ? n.textContent : n.nodeType === 3 ? n.data : "")).join(""); }
  hasAttributes() { return this.attributes.size > 0; }
  getAttributeNames() { return [...this.attributes.keys()]; }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
}

// h("p", {class: "x"}, "text", h("b", {}, "bold")): an element; comment(data): a comment node.
export const h = (tag, attributes = {}, ...children) => new Element(tag, attributes, children);
export const comment = (data) => new Text(data, 8);

// A document whose <html> is `root`.
export function documentOf(root, { url = "https://example.com/a", title = "" } = {}) {
  const view = { scrollX: 0, scrollY: 0, innerWidth: 1280, innerHeight: 720, devicePixelRatio: 1, getComputedStyle: () => ({}) };
  return { defaultView: view, documentElement: root, location: { href: url }, title };
}
