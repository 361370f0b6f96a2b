// End-to-end retraction down copy chains (docs/design.md §13 "Through copies",
// "Copies and invalidation order"; issue 18 items 5 and 6) against the
// built worker in workerd, delivering to a real Node receiver that verifies
// every request's Standard Webhooks signature.
//
// Every expectation is polled for (`eventually`); an absence is asserted
// only after a later delivery arrived, never after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, CONTROL, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";

const INVALIDATED = `${CONTROL}events-invalidated`;
let t;
let api;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  api = streamApi(t);
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
});

let counter = 0;
const fresh = (name) => `/e2e-copy-retraction/${name}-${++counter}`;

/** A copy subscription passing data and invalidations (the setup). */
async function configureCopy(from, to, key) {
  await api.appendOk(from, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: key,
      filter: { eventTypes: ["data", INVALIDATED] },
      receiver: { action: "copy-to-stream", receivingStreamPath: to, delivery: { start: "beginning", onFailingEvent: "halt" } },
    },
  });
}

async function configureHook(path, hookPath) {
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "hook",
      filter: { eventTypes: ["data"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        delivery: { start: "beginning", onFailingEvent: "skip", retry: { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 100 } },
      },
    },
  });
  const secret = await t.request("GET", streamUrl(path, "subscriptions/hook/signing-secret"));
  assert.equal(secret.status, 200);
  receiver.setSecret(hookPath, secret.body.secret);
}

const data = (label) => ({ type: "data", payload: { label } });

/** What `hookPath` received (deduplicated by webhook-id), as `kind:offset`. */
const seen = (hookPath) =>
  dedupeById(receiver.received(hookPath)).map((record) =>
    record.body.type === "retracted" ? `retracted:${record.body.offset}` : `${record.body.type}:${record.body.event?.offset}`,
  );

const waitFor = (hookPath, n) =>
  eventually(
    () => {
      const got = seen(hookPath);
      assert.ok(got.length >= n, `${got.length} of ${n}: ${got}`);
      return got;
    },
    { timeoutMs: 30_000, what: `${n} deliveries on ${hookPath}` },
  );

/** Offset on `path` of the copy labelled `label`. */
async function copyOf(path, label) {
  const events = (await api.readAll(path)).events;
  const copy = events.find((e) => e.type === "data" && e.payload.label === label);
  assert.ok(copy, `${path} has a copy of ${label}`);
  return copy.offset;
}

const ownInvalidations = async (path) => (await api.readAll(path)).events.filter((e) => e.type === INVALIDATED && !e.source);

/** Another stream still answers after the chain did its work. */
async function anotherStreamAnswers() {
  const other = fresh("other");
  const appended = await api.appendOk(other, data("still here"));
  assert.equal((await api.infoOk(other)).head, appended.offset);
}

test("§13 item 5: down a copy chain the later event waits for its retractions", async () => {
  const A = fresh("a");
  const B = fresh("b");
  const hook = `/hook${B}`;
  await configureCopy(A, B, "copy");
  await configureHook(B, hook);
  const originals = [];
  for (const label of ["x1", "x2", "x3"]) originals.push(await api.appendOk(A, data(label)));
  await waitFor(hook, 3);
  // One batch: the invalidation of x2 and x3, then the new fork's event.
  await api.batchOk(A, [
    { type: INVALIDATED, payload: { afterOffset: originals[0].offset, reason: "reorg" } },
    data("new"),
  ]);
  const got = await waitFor(hook, 6);
  const [x1, x2, x3, newCopy] = [await copyOf(B, "x1"), await copyOf(B, "x2"), await copyOf(B, "x3"), await copyOf(B, "new")];
  assert.deepEqual(got, [`event:${x1}`, `event:${x2}`, `event:${x3}`, `retracted:${x2}`, `retracted:${x3}`, `event:${newCopy}`]);
  const own = await ownInvalidations(B);
  assert.equal(own.length, 1, "one derived invalidation");
  assert.deepEqual(own[0].payload, { offsets: [x2, x3], reason: "reorg" });
  assert.ok(own[0].offset < newCopy, "B committed its invalidation before the copy of the later event");
  for (const record of dedupeById(receiver.received(hook))) assert.equal(record.verified, true, `verifies: ${record.verifyError}`);
  await anotherStreamAnswers();
});

test("§13 item 6: two hops retract exactly the copy of the invalidated event, once", async () => {
  const A = fresh("a");
  const B = fresh("b");
  const C = fresh("c");
  const hook = `/hook${C}`;
  await configureCopy(A, B, "ab");
  await configureCopy(B, C, "bc");
  await api.appendOk(B, { type: "noise", payload: {} }); // shifts B's offsets against A's
  await configureHook(C, hook);
  const originals = [];
  for (const label of ["x1", "x2", "x3"]) originals.push(await api.appendOk(A, data(label)));
  await waitFor(hook, 3);
  await api.appendOk(A, { type: INVALIDATED, payload: { offsets: [originals[1].offset] } });
  await api.appendOk(A, data("after"));
  const got = await waitFor(hook, 5);
  const cX2 = await copyOf(C, "x2");
  const cAfter = await copyOf(C, "after");
  // The later event arrived: nothing else can be retracted before it.
  assert.deepEqual(got.slice(3), [`retracted:${cX2}`, `event:${cAfter}`]);
  for (const [path, copy] of [[B, await copyOf(B, "x2")], [C, cX2]]) {
    const own = await ownInvalidations(path);
    assert.equal(own.length, 1, `${path}: one derived invalidation, though both A's and B's reach C`);
    assert.deepEqual(own[0].payload, { offsets: [copy] }, `${path} names its copy of x2`);
  }
  await anotherStreamAnswers();
});
