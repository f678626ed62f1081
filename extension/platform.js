// The Chromium / Firefox differences, and nothing else (uBlock Origin keeps its own in one shim
// the same way). Every other script of the extension reads the browser through this file: the
// background imports it first (background/main.js), the manifest loads it before the content
// scripts, and each page of pages/ loads it before its own script. It adds `platform` to the one
// namespace object the extension's scripts share, globalThis.pagesieve. A classic script, which
// a module may also import for its effect: it declares nothing at the top level.
(function (root) {
  "use strict";
  const ns = root.pagesieve || (root.pagesieve = {});

  // Firefox has `browser`; Chromium has `chrome` alone. Both return promises in Manifest V3
  // (Chromium since 99 for the APIs used here), so no callback form is needed anywhere.
  const api = root.browser ?? root.chrome;

  // Why a native port closed. Firefox sets port.error (an Error); Chromium sets
  // runtime.lastError while onDisconnect runs.
  // https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/API/runtime/Port#error
  function disconnectError(port) {
    if (port && port.error && port.error.message) return port.error.message;
    const last = api && api.runtime && api.runtime.lastError;
    return (last && last.message) || "the host exited";
  }

  // Whether an error of connectNative/postMessage means that no host is registered. Chromium says
  // "Specified native messaging host not found." (or "... not installed"); Firefox says "No such
  // native application org.pagesieve.host", or "... not found" when the manifest's file is gone.
  const HOST_MISSING = /not found|not installed|no such native application|specified native messaging host/i;
  function hostMissing(message) {
    return HOST_MISSING.test(message || "");
  }

  // A style sheet of ours for a page: constructed (no DOM node at all) and adopted where the
  // script may (Chromium); a <style> element where it may not (Firefox content scripts see the
  // page's document through an Xray wrapper and cannot set adoptedStyleSheets).
  // removePageStyle() takes either away.
  function addPageStyle(doc, rule) {
    try {
      const constructed = new CSSStyleSheet();
      constructed.replaceSync(rule);
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, constructed];
      return constructed;
    } catch (e) {
      const element = doc.createElement("style");
      element.textContent = rule;
      (doc.head || doc.documentElement).append(element);
      return element;
    }
  }

  function removePageStyle(doc, style) {
    if (!style) return;
    if (typeof CSSStyleSheet !== "undefined" && style instanceof CSSStyleSheet) {
      doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== style);
    } else {
      style.remove();
    }
  }

  // Where the user changes the extension's keyboard shortcuts: Firefox (137 and newer) opens its
  // "Manage Extension Shortcuts" itself; Chromium has a page of its own, which an extension may
  // open in a tab (a link to chrome:// is refused).
  function openShortcutSettings() {
    if (api.commands && typeof api.commands.openShortcutSettings === "function") return api.commands.openShortcutSettings();
    return api.tabs.create({ url: "chrome://extensions/shortcuts" });
  }

  ns.platform = { api, disconnectError, hostMissing, addPageStyle, removePageStyle, openShortcutSettings };
})(globalThis);
