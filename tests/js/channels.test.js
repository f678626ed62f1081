// channels.js: one handler per named channel, and how its answer reaches the sender.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load, plain } from "./load.js";

function channels() {
  return load(["channels.js"]).pagesieve.createChannels();
}

// Calls the listener as the browser does; returns {kept, answers} once pending answers are in.
async function deliver(ch, message, sender = {}) {
  const answers = [];
  const kept = ch.listener(message, sender, (a) => answers.push(a));
  await new Promise((resolve) => setImmediate(resolve));
  return { kept, answers };
}

test("a message goes to the handler of its channel name, with its sender", async () => {
  const ch = channels();
  const seen = [];
  ch.define("state", (message, sender) => { seen.push([message.type, sender.tab.id]); return { ok: true, mode: "off" }; });
  ch.define("run", () => ({ ok: true, ran: true }));
  const { kept, answers } = await deliver(ch, { type: "pagesieve.state" }, { tab: { id: 7 } });
  assert.equal(kept, false);  // answered at once
  assert.deepEqual(plain(answers), [{ ok: true, mode: "off" }]);
  assert.deepEqual(seen, [["pagesieve.state", 7]]);
  assert.deepEqual(plain(ch.names()), ["state", "run"]);
});

test("a promised answer keeps the channel open and is sent when it settles", async () => {
  const ch = channels();
  ch.define("save", async (message) => ({ ok: true, title: "t", tags: message.tags }));
  const { kept, answers } = await deliver(ch, { type: "pagesieve.save", tags: ["a"] });
  assert.equal(kept, true);
  assert.deepEqual(answers, [{ ok: true, title: "t", tags: ["a"] }]);
});

test("a handler that throws or rejects answers {ok: false, error}", async () => {
  const ch = channels();
  ch.define("pick", () => { throw new Error("right-click on the part of the page to correct"); });
  ch.define("undo", async () => { throw new Error("no answer"); });
  assert.deepEqual(plain((await deliver(ch, { type: "pagesieve.pick" })).answers), [{ ok: false, error: "right-click on the part of the page to correct" }]);
  const undo = await deliver(ch, { type: "pagesieve.undo" });
  assert.equal(undo.kept, true);
  assert.deepEqual(plain(undo.answers), [{ ok: false, error: "no answer" }]);
});

test("messages of no channel of ours, or of none at all, are left to other listeners", async () => {
  const ch = channels();
  ch.define("state", () => ({ ok: true }));
  for (const message of [{ type: "pagesieve.unknown" }, { type: "state" }, { type: 3 }, null, undefined, "pagesieve.state"]) {
    const { kept, answers } = await deliver(ch, message);
    assert.equal(kept, false, String(message));
    assert.deepEqual(answers, []);
  }
});

test("a handler that returns nothing sends no answer", async () => {
  const ch = channels();
  ch.define("testOpenOptions", () => undefined);
  assert.deepEqual(await deliver(ch, { type: "pagesieve.testOpenOptions" }), { kept: false, answers: [] });
});

test("a channel is defined once, with a function", () => {
  const ch = channels();
  ch.define("run", () => null);
  assert.throws(() => ch.define("run", () => null), /run is defined twice/);
  assert.throws(() => ch.define("learn", "learnPage"), /not a function/);
});
