// Named message channels (as uBlock Origin names its own: "elementPicker", "popupPanel", ...):
// a runtime message {type: "pagesieve.NAME", ...} goes to the one handler defined for NAME,
// instead of a row of listeners that each compare the type string. The background routes the
// messages of its pages and content scripts with it (background/main.js), each content script
// defines the channels it answers (content/shared.js). A classic script, which the background's
// modules import for its effect; it adds createChannels to globalThis.pagesieve.
(function (root) {
  "use strict";
  const ns = root.pagesieve || (root.pagesieve = {});
  const PREFIX = "pagesieve.";

  // Returns {define(name, handler), names(), listener}. handler(message, sender) returns the
  // answer: a value (sent at once), a promise of one (sent when it settles; a rejection becomes
  // {ok: false, error: its message}) or undefined (no answer). listener is the
  // runtime.onMessage listener: it returns true while an answer is on its way (both browsers
  // keep the channel open then) and leaves a message of no defined channel to other listeners.
  function createChannels() {
    const handlers = new Map();

    function define(name, handler) {
      if (typeof handler !== "function") throw new TypeError(`channel ${name}: the handler is not a function`);
      if (handlers.has(name)) throw new Error(`channel ${name} is defined twice`);
      handlers.set(name, handler);
    }

    function listener(message, sender, sendResponse) {
      const type = message && typeof message.type === "string" ? message.type : "";
      const handler = type.startsWith(PREFIX) ? handlers.get(type.slice(PREFIX.length)) : undefined;
      if (!handler) return false;
      let answer;
      try {
        answer = handler(message, sender);
      } catch (error) {
        sendResponse(failure(error));
        return false;
      }
      if (answer === undefined) return false;
      if (!answer || typeof answer.then !== "function") {
        sendResponse(answer);
        return false;
      }
      answer.then(sendResponse, (error) => sendResponse(failure(error)));
      return true;
    }

    return { define, names: () => [...handlers.keys()], listener };
  }

  function failure(error) {
    return { ok: false, error: String((error && error.message) || error) };
  }

  ns.createChannels = createChannels;
})(globalThis);
