// A stand-in for the extension API, enough for the extension's scripts to load and answer
// messages: listeners are kept so a test can fire the browser's events, and calls are recorded.
export function fakeBrowser({ stored = {}, connectNative } = {}) {
  const events = {};
  const event = (name) => ({ addListener: (f) => (events[name] || (events[name] = [])).push(f) });
  const calls = [];
  const record = (name, result) => (...args) => { calls.push([name, ...args]); return result; };
  const api = {
    runtime: {
      id: "pagesieve-test",
      onMessage: event("runtime.onMessage"), onConnect: event("runtime.onConnect"), onInstalled: event("runtime.onInstalled"),
      getURL: (path) => "chrome-extension://pagesieve-test/" + path,
      sendMessage: record("runtime.sendMessage", Promise.resolve(undefined)),
      connect: record("runtime.connect", null),
      connectNative: connectNative || record("runtime.connectNative", undefined),
    },
    storage: {
      local: { get: async () => ({ ...stored }), set: record("storage.local.set", Promise.resolve()) },
      onChanged: event("storage.onChanged"),
    },
    contextMenus: { create: record("contextMenus.create"), onClicked: event("contextMenus.onClicked") },
    commands: { onCommand: event("commands.onCommand") },
    tabs: {
      sendMessage: record("tabs.sendMessage", Promise.resolve(undefined)), create: record("tabs.create", Promise.resolve({})), query: async () => [],
      onUpdated: event("tabs.onUpdated"), onRemoved: event("tabs.onRemoved"),
    },
    action: Object.fromEntries(["setIcon", "setBadgeText", "setBadgeBackgroundColor", "setBadgeTextColor", "setTitle"]
      .map((name) => [name, record(`action.${name}`, Promise.resolve())])),
    management: { getSelf: async () => ({ installType: "normal" }) },
  };
  // send(message, sender): the runtime message as the browser hands it to every listener;
  // resolves with the first answer (undefined when no listener answers).
  api.send = (message, sender = {}) => new Promise((resolve) => {
    let kept = false;
    for (const listener of events["runtime.onMessage"] || []) kept = listener(message, sender, resolve) || kept;
    if (!kept) setImmediate(() => resolve(undefined));
  });
  return { api, events, calls };
}

// A port as connectNative returns it; the test plays the host.
export function fakePort() {
  const listeners = { message: [], disconnect: [] };
  const port = {
    sent: [],
    postMessage(message) {
      if (port.closed) throw new Error("Attempting to use a disconnected port object");
      port.sent.push(message);
    },
    onMessage: { addListener: (f) => listeners.message.push(f) },
    onDisconnect: { addListener: (f) => listeners.disconnect.push(f) },
    reply: (message) => listeners.message.forEach((f) => f(message)),
    exit(error) { port.closed = true; port.error = error; listeners.disconnect.forEach((f) => f(port)); },
  };
  return port;
}
