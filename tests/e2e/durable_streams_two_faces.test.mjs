// One stream, two faces (docs/design.md §17, issue 30): what the official Durable Streams client
// writes through /v1/stream/{path} is the stream /v1/streams/{path} serves. A protocol client
// appends byte messages (non-UTF-8 bytes included); a webhook subscription configured natively
// delivers each message to a real local receiver with its bytes intact (a string `payload` and
// its `encoding`, `utf-8` or `base64`), signed; a native range read sees the same events; and a
// native append of a typed event reaches a protocol long-poll and SSE tail — on a stream first
// written natively (the committed event is the message) and on a protocol JSON stream (the
// payload is the message).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { ds, AUTH, freshPath, collector } from "./durable_streams_helpers.mjs";
import { startTributary, streamUrl } from "./harness.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";
import { eventually, CONFIGURED } from "./delivery_helpers.mjs";

let t;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true, dsLongPollTimeoutMs: 2000 }), startReceiver()]);
});
after(async () => {
  await Promise.all([t?.cleanup(), receiver?.close()]);
});

const protocolUrl = (path) => `${t.url}/v1/stream/${path}`;
/** A message's bytes from its native form (§17): a string payload and its encoding. */
const bytesOf = (event) => Buffer.from(event.payload, event.encoding === "base64" ? "base64" : "utf8");

/** A webhook-post subscription of `message` events to `hookPath`, its secret given to the receiver. */
async function webhook(path, key, hookPath) {
  const configured = await t.request("POST", streamUrl(`/${path}`, "events"), {
    body: {
      type: CONFIGURED,
      payload: {
        subscriptionKey: key,
        filter: { eventTypes: ["message"] },
        receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { start: "beginning", onFailingEvent: "skip" } },
      },
    },
  });
  assert.equal(configured.status, 201, JSON.stringify(configured.body));
  const secret = await t.request("GET", streamUrl(`/${path}`, `subscriptions/${key}/signing-secret`));
  assert.equal(secret.status, 200, JSON.stringify(secret.body));
  receiver.setSecret(hookPath, secret.body.secret);
}

test("a protocol client's byte messages reach a native webhook byte for byte, and a native range read sees them", async () => {
  const path = freshPath("two-faces-bytes");
  const hookPath = `/two-faces/${path}`;
  const handle = await ds.DurableStream.create({ url: protocolUrl(path), headers: AUTH, contentType: "application/octet-stream" });
  await webhook(path, "bytes-hook", hookPath);
  const messages = [
    Buffer.from("héllo, plain UTF-8"),
    Buffer.from([0xff, 0x00, 0xfe, 0x80, 0xc3]), // not UTF-8
    Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256)), // every kind of byte
    Buffer.from([0x00]),
  ];
  for (const message of messages) await handle.append(new Uint8Array(message));

  // The webhook: one signed delivery per message, each carrying its bytes.
  const delivered = await eventually(
    () => {
      const bodies = dedupeById(receiver.received(hookPath)).map((record) => record.body);
      assert.equal(bodies.length, messages.length, `deliveries so far: ${bodies.length}`);
      return bodies;
    },
    { what: "every message delivered" },
  );
  for (const record of receiver.received(hookPath)) assert.equal(record.verified, true, record.verifyError ?? "signed");
  const deliveredEvents = delivered.map((body) => body.event).sort((a, b) => a.offset - b.offset);
  assert.deepEqual(deliveredEvents.map((e) => e.type), messages.map(() => "message"));
  assert.deepEqual(deliveredEvents.map((e) => e.encoding), ["utf-8", "base64", "base64", "utf-8"]);
  deliveredEvents.forEach((event, i) => assert.deepEqual(bytesOf(event), messages[i], `message ${i} byte for byte`));

  // The native range read: the same events, offsets and bytes (the subscription's control event among them).
  const page = await t.request("GET", streamUrl(`/${path}`, "events?after=0"));
  assert.equal(page.status, 200);
  const native = page.body.events.filter((e) => e.type === "message");
  assert.deepEqual(native.map((e) => e.offset), deliveredEvents.map((e) => e.offset));
  native.forEach((event, i) => assert.deepEqual(bytesOf(event), messages[i]));
  assert.ok(page.body.events.some((e) => e.type === CONFIGURED), "the subscription is an event of the same log");
  const info = await t.request("GET", streamUrl(`/${path}`));
  assert.equal(info.body.contentType, "application/octet-stream");

  // And the protocol reads it back whole: the control event is not a message.
  const body = await (await ds.stream({ url: protocolUrl(path), headers: AUTH, live: false })).body();
  assert.deepEqual(Buffer.from(body), Buffer.concat(messages));
});

test("a native append of a typed event reaches a protocol long-poll and SSE tail of a natively created stream", async () => {
  const path = freshPath("two-faces-native");
  const first = await t.request("POST", streamUrl(`/${path}`, "events"), { body: { type: "order-placed", payload: { id: 1 } } });
  assert.equal(first.status, 201);

  const poll = collector();
  const sse = collector();
  const stopPoll = new AbortController();
  const stopSse = new AbortController();
  const polling = await ds.stream({ url: protocolUrl(path), headers: AUTH, live: "long-poll", signal: stopPoll.signal });
  polling.subscribeJson((batch) => poll.push(batch));
  const streaming = await ds.stream({ url: protocolUrl(path), headers: AUTH, live: "sse", signal: stopSse.signal });
  streaming.subscribeJson((batch) => sse.push(batch));
  await Promise.all([poll.until(1), sse.until(1)]);

  // Appended natively while both readers wait at the tail.
  const second = await t.request("POST", streamUrl(`/${path}`, "events"), {
    body: { type: "order-shipped", payload: { id: 1, carrier: "ups" }, metadata: { by: "native" }, idempotencyKey: "ship-1" },
  });
  assert.equal(second.status, 201);
  await Promise.all([poll.until(2), sse.until(2)]);
  stopPoll.abort();
  stopSse.abort();
  await Promise.allSettled([polling.closed, streaming.closed]);

  for (const seen of [poll, sse]) {
    assert.deepEqual(
      seen.items.map(({ offset, type, payload, metadata, idempotencyKey }) => ({ offset, type, payload, metadata, idempotencyKey })),
      [
        { offset: 1, type: "order-placed", payload: { id: 1 }, metadata: {}, idempotencyKey: undefined },
        { offset: 2, type: "order-shipped", payload: { id: 1, carrier: "ups" }, metadata: { by: "native" }, idempotencyKey: "ship-1" },
      ],
      "each message is the committed event of §3",
    );
    assert.equal(seen.items[1].createdAt, second.body.event.createdAt);
  }

  // The other way: a protocol append of an input event is a typed native event.
  const handle = new ds.DurableStream({ url: protocolUrl(path), headers: AUTH, contentType: "application/json" });
  await handle.append(JSON.stringify({ type: "order-delivered", payload: { id: 1 } }));
  const third = await t.request("GET", streamUrl(`/${path}`, "events/3"));
  assert.equal(third.status, 200, JSON.stringify(third.body));
  assert.deepEqual([third.body.event.type, third.body.event.payload], ["order-delivered", { id: 1 }]);
});

test("a native append to a protocol JSON stream reaches its protocol tail as the event's payload", async () => {
  const path = freshPath("two-faces-json");
  const handle = await ds.DurableStream.create({ url: protocolUrl(path), headers: AUTH, contentType: "application/json" });
  await handle.append(JSON.stringify({ n: 1, from: "protocol" }));

  const sse = collector();
  const stop = new AbortController();
  const streaming = await ds.stream({ url: protocolUrl(path), headers: AUTH, live: "sse", signal: stop.signal });
  streaming.subscribeJson((batch) => sse.push(batch));
  await sse.until(1);
  const native = await t.request("POST", streamUrl(`/${path}`, "events"), { body: { type: "message", payload: { n: 2, from: "native" } } });
  assert.equal(native.status, 201, JSON.stringify(native.body));
  await sse.until(2);
  stop.abort();
  await streaming.closed.catch(() => {});
  assert.deepEqual(sse.items, [
    { n: 1, from: "protocol" },
    { n: 2, from: "native" },
  ]);
  const page = await t.request("GET", streamUrl(`/${path}`, "events?after=0"));
  assert.deepEqual(
    page.body.events.map((e) => [e.type, e.payload, e.encoding]),
    [
      ["message", { n: 1, from: "protocol" }, undefined],
      ["message", { n: 2, from: "native" }, undefined],
    ],
  );
});
