// The one native-messaging port to the pagesieve host (docs/protocol.md). Requests carry ids;
// replies are matched by id, chunked replies reassembled; a request that gets no answer in time
// fails; when the host exits, pending requests fail and the next request starts a new host.
// Nothing here names a browser: connect() is handed in (platform.api.runtime.connectNative in the
// extension, a fake port in tests/js/port.test.js).

export const HOST = "org.pagesieve.host";

// How long a request may wait for its reply before it fails.
export const TIMEOUT_MS = 60000;

// options.connect(): a new port ({postMessage, onMessage, onDisconnect}) to the host.
// options.closedWhy(port): why a port closed (platform.disconnectError).
// options.timeoutMs: as TIMEOUT_MS. Returns {request, post, lastError}:
//   request(type, fields) -> Promise of the host's reply ({v, id, ok, ...}); rejects with an
//     Error when the port fails, the host exits or TIMEOUT_MS passes;
//   post(type, fields): a message that needs no answer (a part of a streamed snapshot, sent with
//     "ack": false); a reply the host sends anyway (it refuses the part) finds no waiter and is
//     dropped (the request that completes the stream gets the same error);
//   lastError(): why the last port closed, or null.
// request and post are read from the returned object at each call (background/main.js), so that
// a browser test may wrap them.
export function createHostPort({ connect, closedWhy, timeoutMs = TIMEOUT_MS }) {
  let port = null;
  let lastError = null;
  let nextId = 1;
  const pending = new Map();  // id -> {resolve, reject, timer}
  const chunks = new Map();   // id -> array of data strings

  function open() {
    const opened = connect();
    opened.onMessage.addListener(onMessage);
    opened.onDisconnect.addListener((p) => {
      const err = closedWhy(p);
      lastError = err;
      if (port === opened) port = null;
      for (const [, waiter] of pending) { clearTimeout(waiter.timer); waiter.reject(new Error(err)); }
      pending.clear();
      chunks.clear();
    });
    port = opened;
  }

  // A reply, or one chunk of a reply too large for one native message
  // ({type: "chunk", id, index, count, data}: docs/protocol.md, "Chunked replies").
  function onMessage(message) {
    if (message && message.type === "chunk") {
      const parts = chunks.get(message.id) || new Array(message.count);
      parts[message.index] = message.data;
      chunks.set(message.id, parts);
      if (parts.filter((x) => x !== undefined).length < message.count) return;
      chunks.delete(message.id);
      message = JSON.parse(parts.join(""));
    }
    const waiter = message && pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    clearTimeout(waiter.timer);
    waiter.resolve(message);
  }

  function request(type, fields) {
    if (!port) open();
    const id = "r" + nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { pending.delete(id); reject(new Error("the host did not answer in time")); }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      try {
        port.postMessage({ v: 1, id, type, ...fields });
      } catch (e) {
        clearTimeout(timer);
        pending.delete(id);
        port = null;
        reject(e);
      }
    });
  }

  function post(type, fields) {
    if (!port) open();
    try {
      port.postMessage({ v: 1, id: "n" + nextId++, type, ...fields });
    } catch (e) {
      port = null;  // the request that completes the stream fails, and is sent whole
    }
  }

  return { request, post, lastError: () => lastError };
}
