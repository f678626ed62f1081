// The host requests the extension's own scripts may ask the background to send, one named
// channel each (docs/protocol.md, "Types"): who may send it, what its fields must hold before
// it goes to the host, and whether a private window's request is marked private. The host checks
// every field again; this keeps a content script to the requests a page needs, and names a wrong
// field before a snapshot travels to the host. Pure: tests/js/requests.test.js runs it in Node.

const MODES = new Set(["hide", "reader", "corrections"]);
const LABELS = new Set(["noise", "content"]);

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const optional = (value, test) => value === undefined || test(value);
const isText = (x) => typeof x === "string";
const isNodeId = (x) => Number.isInteger(x) && x >= 0;

// Each check returns null when the fields are right, else what is wrong.
const snapshot = (f) => (isObject(f.snapshot) ? null : "no snapshot");
const node = (f) => (isNodeId(f.node) ? snapshot(f) : "node must be a node id");

// from: "tab" (a content script, in a page), "extension" (a page of the extension: popup,
// options) or "any". private(fields): true when the request, sent from a private window, must
// store nothing of it (the host then refuses or skips what it would store).
export const REQUESTS = {
  clean: {
    from: "tab",
    check: (f) => (MODES.has(f.mode) ? snapshot(f) : "mode must be hide, reader or corrections"),
    private: (f) => f.learn === true,
  },
  learn: { from: "tab", check: snapshot, private: () => true },
  label: {
    from: "tab",
    check: (f) => (f.undo === true ? (optional(f.site, isText) ? null : "site must be a host name")
      : LABELS.has(f.label) ? node(f) : "label must be noise or content"),
    private: () => true,
  },
  labels: {
    from: "any",
    check: (f) => (!optional(f.site, isText) ? "site must be a host name" : optional(f.delete, Number.isInteger) ? null : "delete must be a correction id"),
  },
  explain: { from: "tab", check: node },
  history: { from: "tab", check: (f) => (isText(f.url) ? null : "url must be the page's address") },
  save: {
    from: "tab",
    check: (f) => (!isObject(f.article) ? "no article"
      : !optional(f.images, isObject) ? "images must map addresses to images"
        : !optional(f.tags, (t) => Array.isArray(t) && t.every(isText)) ? "tags must be a list of words"
          : optional(f.folder, isText) ? null : "folder must be a path"),
  },
  follow: {
    from: "tab",
    check: (f) => (!isText(f.url) ? "url must be the page's address" : !isText(f.data) ? "data must be the page as base64"
      : !optional(f.title, isText) ? "title must be the first page's title"
        : !optional(f.seen, (s) => Array.isArray(s) && s.every(isText)) ? "seen must be a list of addresses"
          : optional(f.earlier, (s) => Array.isArray(s) && s.every(isText)) ? null : "earlier must be a list of texts"),
  },
  sites: { from: "extension", check: () => null },
  forget: {
    from: "extension",
    check: (f) => (f.all === true || (isText(f.site) && f.site) ? null : "forget needs a site or all: true"),
  },
};

// The fields to send for request `name` from `sender` (runtime.MessageSender), or why it may not
// be sent: {fields} or {error}. extensionOrigin: runtime.getURL(""), the start of the address of
// every page of the extension.
export function prepare(name, fields, sender, extensionOrigin) {
  const request = Object.hasOwn(REQUESTS, name) ? REQUESTS[name] : null;
  if (!request) return { error: `unknown request ${JSON.stringify(name)}` };
  if (!isObject(fields)) return { error: `${name}: the fields are not an object` };
  const fromExtension = Boolean(sender && typeof sender.url === "string" && sender.url.startsWith(extensionOrigin));
  if (request.from === "extension" && !fromExtension) return { error: `${name} may be asked from the extension's own pages only` };
  if (request.from === "tab" && !(sender && sender.tab)) return { error: `${name} may be asked from a page's content script only` };
  const wrong = request.check(fields);
  if (wrong) return { error: `${name}: ${wrong}` };
  const out = { ...fields };
  if (request.private && request.private(fields) && sender && sender.tab && sender.tab.incognito) out.private = true;
  return { fields: out };
}
