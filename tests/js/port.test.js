// background/port.js against a fake native port: replies matched by id, chunked replies put
// together, failures when the host exits or says nothing, a new host after an exit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHostPort } from "../../extension/background/port.js";
import { fakePort } from "./fake-browser.js";

function host(options = {}) {
  const ports = [];
  const h = createHostPort({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    closedWhy: (p) => (p.error ? p.error.message : "the host exited"),
    ...options,
  });
  return { h, ports };
}

test("requests carry the envelope and an id of their own; replies find their request by id", async () => {
  const { h, ports } = host();
  const first = h.request("ping", {});
  const second = h.request("history", { url: "https://example.com/" });
  assert.equal(ports.length, 1);  // one port for both
  const [a, b] = ports[0].sent;
  assert.deepEqual(a, { v: 1, id: a.id, type: "ping" });
  assert.deepEqual(b, { v: 1, id: b.id, type: "history", url: "https://example.com/" });
  assert.notEqual(a.id, b.id);
  ports[0].reply({ v: 1, id: b.id, ok: true, type: "history", pages: 2 });
  ports[0].reply({ v: 1, id: "r999", ok: true });  // no such request: dropped
  ports[0].reply({ v: 1, id: a.id, ok: true, type: "pong", version: "0.1.0" });
  assert.equal((await second).pages, 2);
  assert.equal((await first).version, "0.1.0");
});

test("a reply sent in chunks, in any order, is put together", async () => {
  const { h, ports } = host();
  const asked = h.request("clean", { mode: "reader" });
  const id = ports[0].sent[0].id;
  const whole = JSON.stringify({ v: 1, id, ok: true, type: "cleaned", article: { title: "Sourdough at Altitude", text: "é".repeat(50) } });
  const cut = [0, 17, 40, whole.length];
  const chunks = cut.slice(1).map((end, index) => ({ v: 1, id, type: "chunk", index, count: 3, data: whole.slice(cut[index], end) }));
  ports[0].reply(chunks[2]);
  ports[0].reply(chunks[0]);
  ports[0].reply(chunks[1]);
  assert.deepEqual(await asked, JSON.parse(whole));
});

test("when the host exits, waiting requests fail with its reason and the next request starts a new host", async () => {
  const { h, ports } = host();
  const asked = h.request("learn", {});
  ports[0].exit(new Error("Native host has exited."));
  await assert.rejects(asked, /Native host has exited/);
  assert.equal(h.lastError(), "Native host has exited.");
  const again = h.request("ping", {});
  assert.equal(ports.length, 2);
  ports[1].reply({ v: 1, id: ports[1].sent[0].id, ok: true });
  assert.equal((await again).ok, true);
});

test("a request the host does not answer in time fails", async () => {
  const { h } = host({ timeoutMs: 20 });
  await assert.rejects(h.request("clean", {}), /did not answer in time/);
});

test("a port that cannot be written fails the request at once; post drops its part quietly", async () => {
  const { h, ports } = host({ timeoutMs: 30 });
  const unanswered = h.request("ping", {});
  ports[0].closed = true;
  await assert.rejects(h.request("ping", {}), /disconnected port/);
  h.post("part", { stream: "s1", seq: 0, ack: false });  // opens a new port, as the next request would
  assert.equal(ports.length, 2);
  const [part] = ports[1].sent;
  assert.deepEqual(part, { v: 1, id: part.id, type: "part", stream: "s1", seq: 0, ack: false });
  assert.notEqual(part.id.slice(0, 1), "r");  // never mistaken for a request's reply
  await assert.rejects(unanswered, /did not answer in time/);
});
