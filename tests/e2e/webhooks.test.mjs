// End-to-end webhook-post delivery (docs/design.md §5, §6, §8 skip mode, §9, §11)
// against the built worker running in workerd, delivering to a real Node
// HTTP receiver on 127.0.0.1 (tests/e2e/webhook_receiver.mjs) that verifies
// every delivery's Standard Webhooks signature with the `standardwebhooks`
// package, using the secret served by the signing-secret route.
//
// Two Tributaries: one with ALLOW_INSECURE_WEBHOOKS (so http://127.0.0.1 is a
// valid receiver) for delivery, and one without it for the configure-time
// URL rules. Delivery is asynchronous (alarm-driven): every expectation about
// delivered state is polled for with a bounded wait (`eventually`), never
// asserted after a fixed sleep. Small retry policies keep the ladders short.
// Dead letters (§8) are not implemented yet: a skipped delivery is asserted
// through its `error-occurred` fact only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer as createNetServer } from "node:net";
import { Webhook } from "standardwebhooks";
import { startTributary, streamUrl } from "./harness.mjs";
import { CONFIGURED, REMOVED, RESUMED, HALTED, ERROR_OCCURRED, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";

let t; // ALLOW_INSECURE_WEBHOOKS: delivers to the local receiver
let api;
let strict; // production URL rules
let strictApi;
let receiver;
before(async () => {
  [t, strict, receiver] = await Promise.all([
    startTributary({ allowInsecureWebhooks: true }),
    startTributary(),
    startReceiver(),
  ]);
  api = streamApi(t);
  strictApi = streamApi(strict);
});
after(async () => {
  await receiver?.close();
  await Promise.all([t?.cleanup(), strict?.cleanup()]);
});

let counter = 0;
/** A stream path (and receiver path) no other test uses. */
const fresh = (name) => `/e2e-webhooks/${name}-${++counter}`;

const PROJECT = "project-a";
const SMALL_RETRY = { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 200 };
const BODY_FIELDS = [
  "attempt",
  "cursorChangedAtSourceOffset",
  "deliveryId",
  "event",
  "path",
  "projectId",
  "streamCreatedAt",
  "streamId",
  "subscriptionKey",
  "type",
].sort();

/** A webhook-post receiver as a `subscription-configured` payload has it. */
const webhook = (url, { onFailingEvent = "halt", retry = SMALL_RETRY, start = "beginning", timeoutMs } = {}) => {
  const delivery = { start, onFailingEvent, retry };
  if (timeoutMs !== undefined) delivery.timeoutMs = timeoutMs;
  return { action: "webhook-post", url, delivery };
};

const signingSecret = (path, key, client = t) =>
  client.request("GET", streamUrl(path, `subscriptions/${encodeURIComponent(key)}/signing-secret`));

/**
 * Configures subscription `key` on `path` delivering `data` events to the
 * receiver path `hookPath`, registers its signing secret with the receiver,
 * and returns the configure event.
 */
async function configureHook(path, key, hookPath, options = {}, at = receiver) {
  const configured = await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: key,
      filter: { eventTypes: ["data"] },
      receiver: webhook(at.url(hookPath), options),
    },
  });
  const res = await signingSecret(path, key);
  assert.equal(res.status, 200, `signing secret: ${JSON.stringify(res.body)}`);
  at.setSecret(hookPath, res.body.secret);
  return configured;
}

const data = (i) => ({ type: "data", payload: { i } });

/** Polls until `hookPath` has recorded at least `n` requests; returns them. */
const receivedAtLeast = (hookPath, n, what = `${n} requests on ${hookPath}`) =>
  eventually(
    () => {
      const got = receiver.received(hookPath);
      assert.ok(got.length >= n, `${got.length} of ${n} requests so far`);
      return got;
    },
    { what, timeoutMs: 20_000 },
  );

/** Polls until `path` holds exactly one event of `type`; returns it. */
const oneFact = (path, type, what) =>
  eventually(
    async () => {
      const facts = await api.eventsOfType(path, type);
      assert.equal(facts.length, 1, `one ${type}: ${JSON.stringify(facts)}`);
      return facts[0];
    },
    { what, timeoutMs: 20_000 },
  );

function assertAllVerified(records) {
  assert.ok(records.length > 0);
  for (const record of records) {
    assert.equal(record.verified, true, `signature verifies: ${record.verifyError} ${JSON.stringify(record.headers)}`);
  }
}

const offsetsOf = (records) => records.map((r) => r.body.event.offset);

// ---------------------------------------------------------------------------
// Order, exactly-once after dedupe, body shape and signatures
// ---------------------------------------------------------------------------

test("§9: 10 appended events arrive as 10 signed POSTs in offset order, one per webhook-id, with the §9 body", async () => {
  const path = fresh("order");
  const hook = `/hook${path}`;
  const configured = await configureHook(path, "order", hook);
  const appended = [];
  for (let i = 0; i < 10; i++) appended.push(await api.appendOk(path, data(i)));
  await api.caughtUp(path, "order", { timeoutMs: 20_000 });

  const records = receiver.received(hook);
  assertAllVerified(records);
  for (const record of records) assert.equal(record.method, "POST");
  // Per-subscription order (§6 rule 9): arrivals never go backwards.
  const arrivals = offsetsOf(records);
  for (let n = 1; n < arrivals.length; n++) assert.ok(arrivals[n] >= arrivals[n - 1], `order: ${arrivals}`);
  const unique = dedupeById(records);
  assert.equal(unique.length, 10, "exactly one delivery per event after dedupe on webhook-id");
  assert.deepEqual(offsetsOf(unique), appended.map((e) => e.offset), "every event, in offset order");

  const info = await api.infoOk(path);
  const committed = (await api.readAll(path)).events;
  const ids = new Set();
  for (const record of unique) {
    const { body, headers } = record;
    assert.deepEqual(Object.keys(body).sort(), BODY_FIELDS, `§9 body fields: ${JSON.stringify(body)}`);
    assert.equal(body.type, "event");
    assert.equal(body.projectId, PROJECT);
    assert.equal(body.path, path);
    assert.equal(body.streamId, info.streamId);
    assert.equal(body.streamCreatedAt, info.streamCreatedAt);
    assert.equal(body.subscriptionKey, "order");
    assert.equal(body.cursorChangedAtSourceOffset, configured.offset);
    assert.equal(body.attempt, 1, "every receiver answer was 2xx: no retries");
    assert.deepEqual(body.event, committed.find((e) => e.offset === body.event.offset), "the committed event, verbatim");
    assert.equal(headers["webhook-id"], body.deliveryId, "webhook-id is the delivery id");
    assert.match(headers["webhook-timestamp"], /^\d+$/, "webhook-timestamp is Unix seconds");
    assert.ok(Math.abs(Number(headers["webhook-timestamp"]) - record.at / 1000) < 300, "timestamp is of this attempt");
    assert.match(headers["webhook-signature"], /^v1,[A-Za-z0-9+/]+=*$/);
    assert.match(headers["content-type"], /^application\/json/);
    ids.add(body.deliveryId);
  }
  assert.equal(ids.size, 10, "each event has its own delivery id");

  const entry = await api.cardEntry(path, "order");
  assert.equal(entry.runtime.lastError, null);
  assert.equal(entry.runtime.attempt, 0);
  assert.ok(entry.runtime.bytesSent > 0, `bytesSent counts what was delivered: ${JSON.stringify(entry.runtime)}`);
});

// ---------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------

test("§6/§9: 500, 500, then 200 — three attempts under one webhook-id with attempt 1, 2, 3; the card shows lastError while failing", async () => {
  const path = fresh("retry");
  const hook = `/hook${path}`;
  const gate = `gate${path}`;
  // The third attempt is held open until the card has been inspected.
  receiver.script(hook, { status: 500, body: "boom" }, { status: 500, body: "boom" }, { gate, status: 200 });
  await configureHook(path, "retry", hook);
  // The cursor passes the configuration first, so the batch starts right before the event.
  await api.caughtUp(path, "retry");
  const event = await api.appendOk(path, data(1));

  await receivedAtLeast(hook, 3);
  const failing = await api.cardEntry(path, "retry");
  assert.match(String(failing.runtime.lastError), /500/, `lastError while failing: ${JSON.stringify(failing.runtime)}`);
  assert.equal(failing.runtime.attempt, 2, "two failed attempts recorded");
  assert.equal(failing.runtime.acknowledgedOffset, event.offset - 1, "the cursor waits");
  assert.equal(failing.deliveryHalted, undefined);
  assert.notEqual(failing.runtime.inFlightDeadlineAt, null, "the third attempt is in flight");
  receiver.release(gate);

  const done = await api.caughtUp(path, "retry", { timeoutMs: 20_000 });
  assert.equal(done.runtime.lastError, null, "success clears lastError");
  assert.equal(done.runtime.attempt, 0);
  const records = receiver.received(hook);
  assert.equal(records.length, 3);
  assertAllVerified(records);
  const ids = new Set(records.map((r) => r.headers["webhook-id"]));
  assert.equal(ids.size, 1, "webhook-id is stable across retries");
  assert.deepEqual(records.map((r) => r.body.deliveryId), records.map((r) => r.headers["webhook-id"]));
  assert.deepEqual(records.map((r) => r.body.attempt), [1, 2, 3]);
  assert.deepEqual(offsetsOf(records), [event.offset, event.offset, event.offset]);
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);
  assert.deepEqual(await api.eventsOfType(path, ERROR_OCCURRED), []);
});

test("§9/§12: an answer with a declared Content-Length is read whole within 64 KiB and cut at it past that; its text names the failure", async () => {
  const path = fresh("declared");
  const hook = `/hook${path}`;
  const [second, third] = [`gate2${path}`, `gate3${path}`];
  const small = "declared: the upstream said no";
  const large = "x".repeat(100 * 1024);
  const declared = (body) => ({ "content-length": String(Buffer.byteLength(body)) });
  receiver.script(
    hook,
    { status: 500, body: small, headers: declared(small) },
    { gate: second, status: 503, body: large, headers: declared(large) },
    { gate: third, status: 200, body: "ok", headers: declared("ok") },
  );
  await configureHook(path, "declared", hook);
  const event = await api.appendOk(path, data(1));

  // The second attempt is held: the card shows what the first answer said.
  await receivedAtLeast(hook, 2);
  const first = await api.cardEntry(path, "declared");
  assert.equal(first.runtime.lastError, `HTTP 500: ${small}`);
  receiver.release(second);

  // The third is held: the 100 KiB answer was read only to its cap, then dropped.
  await receivedAtLeast(hook, 3);
  const capped = await api.cardEntry(path, "declared");
  assert.match(String(capped.runtime.lastError), /^HTTP 503: x+/, String(capped.runtime.lastError).slice(0, 80));
  assert.equal(capped.runtime.attempt, 2);
  receiver.release(third);

  const done = await api.caughtUp(path, "declared", { timeoutMs: 20_000 });
  assert.equal(done.runtime.lastError, null);
  const records = receiver.received(hook);
  assert.equal(records.length, 3);
  assertAllVerified(records);
  assert.deepEqual(offsetsOf(records), [event.offset, event.offset, event.offset]);
});

test("§9/§12: an answer without a Content-Length (chunked) is read to its end or to 64 KiB, whatever its size around the first read's 1 KiB; its text names the failure", async () => {
  // A 400 halts at once (permanent, onFailingEvent halt): the halt carries the answer's text.
  const sizes = [3, 1023, 1024, 1025, 5000, 64 * 1024, 100 * 1024];
  const pattern = (size) => Array.from({ length: size }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join("");
  await Promise.all(
    sizes.map(async (size) => {
      const path = fresh(`chunked-${size}`);
      const hook = `/hook${path}`;
      // No Content-Length header: Node frames the answer as chunked.
      receiver.script(hook, { status: 400, body: pattern(size) });
      await configureHook(path, "chunked", hook);
      await api.appendOk(path, data(size));
      const halted = await oneFact(path, HALTED, `the halt after a ${size}-byte chunked answer`);
      assert.equal(halted.payload.error, `HTTP 400: ${pattern(size).slice(0, 200)}`, `a ${size}-byte chunked answer`);
      assert.equal(receiver.received(hook).length, 1);
    }),
  );
});

test("§9/§12: a 2xx answer is read to its end or past 64 KiB and dropped: each is delivered once, and an answer read to its end leaves its connection to the next send", async () => {
  const path = fresh("accepted");
  const hook = `/hook${path}`;
  const large = "y".repeat(100 * 1024);
  // A receiver of its own: no other test's sends share its connections.
  const own = await startReceiver();
  try {
    // Chunked (no Content-Length) and declared, small and past the cap; then plain 200s.
    own.script(
      hook,
      { status: 200, body: "short" },
      { status: 200, body: large },
      { status: 204, body: "" },
      { status: 200, body: large, headers: { "content-length": String(large.length) } },
      { status: 200, body: "ok" },
    );
    await configureHook(path, "accepted", hook, {}, own);
    const events = [];
    for (let i = 1; i <= 8; i++) events.push(await api.appendOk(path, data(i)));
    const done = await api.caughtUp(path, "accepted", { timeoutMs: 20_000 });
    assert.equal(done.runtime.lastError, null);
    const records = own.received(hook);
    assert.deepEqual(offsetsOf(records), events.map((event) => event.offset), "each event once, in order: no 2xx was taken for a failure");
    assertAllVerified(records);
    // The answers past the cap end their connections (their rest is never read);
    // every other answer leaves its connection to the next send: the last
    // four deliveries, after the last answer past the cap, share one.
    const tail = new Set(records.slice(4).map((record) => record.connection));
    assert.equal(tail.size, 1, `connections of the last four deliveries: ${[...tail]}`);
  } finally {
    await own.close();
  }
});

for (const [form, value] of [
  ["delta-seconds", () => "1"],
  // Evaluated when the 429 is sent; whole seconds, so at least 1 s later.
  ["an HTTP date", () => new Date(Date.now() + 2_000).toUTCString()],
]) {
  test(`§9: 429 with Retry-After as ${form} is the minimum backoff before the next attempt`, async () => {
    const path = fresh("retry-after");
    const hook = `/hook${path}`;
    receiver.script(hook, { status: 429, headers: () => ({ "retry-after": value() }) }, { status: 200 });
    await configureHook(path, "ra", hook); // initialBackoffMs 50: only Retry-After can make it wait ~1 s
    await api.appendOk(path, data(1));
    await api.caughtUp(path, "ra", { timeoutMs: 20_000 });
    const records = receiver.received(hook);
    assert.equal(records.length, 2, "one 429, then the successful retry");
    assertAllVerified(records);
    assert.equal(records[0].headers["webhook-id"], records[1].headers["webhook-id"]);
    assert.deepEqual(records.map((r) => r.body.attempt), [1, 2]);
    const gap = records[1].at - records[0].at;
    assert.ok(gap >= 900, `the retry waited for Retry-After (gap ${gap} ms)`);
  });
}

// ---------------------------------------------------------------------------
// halt, resume
// ---------------------------------------------------------------------------

test("§6 rules 5, 8: always 500 with maxAttempts 3 halts with attempts 3; resume after fixing the receiver continues from the halt, nothing skipped", async () => {
  const path = fresh("halt");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 500, body: "down" });
  const configured = await configureHook(path, "halt", hook);
  // The cursor passes the configuration first, so the failing batch starts
  // right after it (an alarm after both appends would batch from before it).
  await api.caughtUp(path, "halt");
  const first = await api.appendOk(path, data(1));

  const halted = await oneFact(path, HALTED, "the halt fact");
  assert.equal(halted.payload.subscriptionKey, "halt");
  assert.equal(halted.payload.reason, "delivery-failed");
  assert.equal(halted.payload.afterOffset, configured.offset, "halted after the last completed offset");
  assert.equal(halted.payload.attempts, 3);
  assert.match(String(halted.payload.error), /500/);
  const failed = receiver.received(hook);
  assert.equal(failed.length, 3, "exactly the retry budget was spent");
  assertAllVerified(failed);
  assert.deepEqual(failed.map((r) => r.body.attempt), [1, 2, 3]);
  assert.equal(new Set(failed.map((r) => r.headers["webhook-id"])).size, 1);
  const entry = await api.cardEntry(path, "halt");
  assert.deepEqual(entry.deliveryHalted, {
    reason: "delivery-failed",
    afterOffset: configured.offset,
    attempts: 3,
    error: halted.payload.error,
  });
  assert.equal(entry.runtime.acknowledgedOffset, configured.offset);

  // While halted, new events wait. A witness subscription on the same stream
  // receives them: once it has caught up, delivery has run past them.
  const witness = `/witness${path}`;
  await configureHook(path, "witness", witness);
  const more = [await api.appendOk(path, data(2)), await api.appendOk(path, data(3))];
  await api.caughtUp(path, "witness", { timeoutMs: 20_000 });
  assert.deepEqual(offsetsOf(dedupeById(receiver.received(witness))), [first.offset, ...more.map((e) => e.offset)]);
  assert.equal(receiver.received(hook).length, 3, "a halted subscription sends nothing");

  receiver.script(hook, { status: 200 });
  await api.appendOk(path, { type: RESUMED, payload: { subscriptionKey: "halt" } });
  await api.caughtUp(path, "halt", { timeoutMs: 20_000 });

  const after = receiver.received(hook).slice(3);
  assertAllVerified(after);
  assert.deepEqual(offsetsOf(dedupeById(after)), [first.offset, ...more.map((e) => e.offset)], "from the halt on, in order, nothing skipped");
  assert.equal(after[0].body.attempt, 1, "resume starts a fresh attempt count");
  assert.equal(after[0].headers["webhook-id"], failed[0].headers["webhook-id"], "the same delivery keeps its deterministic id (§8)");
  assert.deepEqual(await api.eventsOfType(path, ERROR_OCCURRED), [], "nothing was skipped");
  assert.equal((await api.cardEntry(path, "halt")).deliveryHalted, undefined);
});

// ---------------------------------------------------------------------------
// skip mode (error-occurred facts; dead-letter rows are not implemented yet)
// ---------------------------------------------------------------------------

test("§8/§9: in skip mode a 410 is permanent: one error-occurred fact (reason permanent:) and the next events are still delivered", async () => {
  const path = fresh("gone");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 410, body: "gone" }, { status: 200 });
  await configureHook(path, "gone", hook, { onFailingEvent: "skip" });
  // The cursor passes the configuration first, so the batch starts right before e1.
  await api.caughtUp(path, "gone");
  const [e1, e2, e3] = await api.batchOk(path, [data(1), data(2), data(3)]);

  const fact = await oneFact(path, ERROR_OCCURRED, "the skip fact");
  await api.caughtUp(path, "gone", { timeoutMs: 20_000 });
  const records = receiver.received(hook);
  assertAllVerified(records);
  assert.equal(records[0].body.event.offset, e1.offset);
  assert.equal(records.filter((r) => r.body.event.offset === e1.offset).length, 1, "a permanent failure is not retried");
  assert.deepEqual(offsetsOf(dedupeById(records.slice(1))), [e2.offset, e3.offset], "the next events are delivered");

  const p = fact.payload;
  assert.equal(p.kind, "delivery-skipped");
  assert.equal(p.subscriptionKey, "gone");
  assert.equal(p.deliveryId, records[0].headers["webhook-id"]);
  assert.equal(p.afterOffset, e1.offset - 1);
  assert.equal(p.throughOffset, e1.offset);
  assert.deepEqual(p.offsets, [e1.offset]);
  assert.equal(p.attempts, 1);
  assert.match(p.reason, /^permanent: /);
  assert.match(p.reason, /410/);
  assert.deepEqual(await api.eventsOfType(path, HALTED), [], "skip mode never halts");
});

test("§8: in skip mode exhausted 500s skip the event with reason transient: and delivery moves on", async () => {
  const path = fresh("exhausted");
  const hook = `/hook${path}`;
  receiver.script(hook, { status: 500 }, { status: 500 }, { status: 500 }, { status: 200 });
  await configureHook(path, "ex", hook, { onFailingEvent: "skip" });
  // The cursor passes the configuration first, so the batch starts right before e1.
  await api.caughtUp(path, "ex");
  const [e1, e2] = await api.batchOk(path, [data(1), data(2)]);

  const fact = await oneFact(path, ERROR_OCCURRED, "the skip fact");
  await api.caughtUp(path, "ex", { timeoutMs: 20_000 });
  const records = receiver.received(hook);
  assertAllVerified(records);
  const forE1 = records.filter((r) => r.body.event.offset === e1.offset);
  assert.deepEqual(forE1.map((r) => r.body.attempt), [1, 2, 3], "the whole retry budget");
  assert.equal(new Set(forE1.map((r) => r.headers["webhook-id"])).size, 1);
  assert.deepEqual(offsetsOf(dedupeById(records.slice(3))), [e2.offset]);

  const p = fact.payload;
  assert.equal(p.kind, "delivery-skipped");
  assert.equal(p.subscriptionKey, "ex");
  assert.equal(p.deliveryId, forE1[0].headers["webhook-id"]);
  assert.deepEqual(p.offsets, [e1.offset]);
  assert.equal(p.afterOffset, e1.offset - 1);
  assert.equal(p.throughOffset, e1.offset);
  assert.equal(p.attempts, 3);
  assert.match(p.reason, /^transient: /);
  assert.match(p.reason, /500/);
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);
});

test("§9 classification: 400/404/422 are permanent (one attempt); 408/429/503/307 and a refused connection are transient (budget spent)", async () => {
  // A port nothing listens on: connection refused, a network error.
  const closed = createNetServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const deadPort = closed.address().port;
  await new Promise((resolve) => closed.close(resolve));

  const cases = [
    [400, "permanent", 1],
    [404, "permanent", 1],
    [422, "permanent", 1],
    [408, "transient", 3],
    [429, "transient", 3],
    [503, "transient", 3],
    [307, "transient", 3],
    ["refused", "transient", 3],
  ];
  await Promise.all(
    cases.map(async ([status, kind, attempts]) => {
      const path = fresh(`classify-${status}`);
      const hook = `/hook${path}`;
      let url = receiver.url(hook);
      if (status === "refused") url = `http://127.0.0.1:${deadPort}${hook}`;
      else if (status === 307) receiver.script(hook, { redirect: `/target${path}`, status: 307 });
      else receiver.script(hook, { status });
      const configured = await api.appendOk(path, {
        type: CONFIGURED,
        payload: { subscriptionKey: "c", filter: { eventTypes: ["data"] }, receiver: webhook(url, { onFailingEvent: "skip" }) },
      });
      receiver.setSecret(hook, (await signingSecret(path, "c")).body.secret);
      // The cursor passes the configuration first, so the first batch starts right before e1.
      await api.caughtUp(path, "c");
      const [e1, e2] = await api.batchOk(path, [data(1), data(2)]);
      // Both events fail the same way; each gets its own skip fact, in order.
      const facts = await eventually(
        async () => {
          const got = await api.eventsOfType(path, ERROR_OCCURRED);
          assert.deepEqual(got.map((f) => f.payload.offsets), [[e1.offset], [e2.offset]]);
          return got;
        },
        { what: `both events skipped for ${status}`, timeoutMs: 20_000 },
      );
      for (const fact of facts) {
        assert.equal(fact.payload.attempts, attempts, `${status}: ${JSON.stringify(fact.payload)}`);
        assert.ok(fact.payload.reason.startsWith(`${kind}: `), `${status}: ${fact.payload.reason}`);
        if (status === "refused") assert.match(fact.payload.reason, /network|connect|refused/i);
        else assert.match(fact.payload.reason, new RegExp(String(status)));
      }
      assert.equal(facts[0].payload.afterOffset, configured.offset);
      if (status !== "refused") {
        const records = receiver.received(hook);
        assert.equal(records.filter((r) => r.body.event.offset === e1.offset).length, attempts);
        assert.equal(records.filter((r) => r.body.event.offset === e2.offset).length, attempts);
        assertAllVerified(records);
        assert.deepEqual(receiver.received(`/target${path}`), []);
      }
    }),
  );
});

// ---------------------------------------------------------------------------
// Redirects and timeouts
// ---------------------------------------------------------------------------

test("§9: a 302 is not followed (the target records nothing) and counts as a failed delivery", async () => {
  const path = fresh("redirect");
  const hook = `/hook${path}`;
  const target = `/target${path}`;
  receiver.script(hook, { redirect: target, status: 302 });
  await configureHook(path, "redir", hook);
  receiver.setSecret(target, "whsec_" + Buffer.from("unused").toString("base64"));
  // The cursor passes the configuration first, so the batch starts right before the event.
  await api.caughtUp(path, "redir");
  const event = await api.appendOk(path, data(1));

  const halted = await oneFact(path, HALTED, "the halt after 302s");
  assert.equal(halted.payload.afterOffset, event.offset - 1);
  assert.equal(halted.payload.attempts, 3, "3xx is a transient failure: the budget is spent");
  assert.match(String(halted.payload.error), /302/);
  const records = receiver.received(hook);
  assert.equal(records.length, 3);
  assertAllVerified(records);
  assert.deepEqual(receiver.received(target), [], "the redirect target was never requested");
  const entry = await api.cardEntry(path, "redir");
  assert.equal(entry.runtime.acknowledgedOffset, event.offset - 1, "the event is not acknowledged");
});

test("§9/§12: timeoutMs 500 against a hanging receiver: the attempt times out, is retried under the same webhook-id, lastError names the timeout", async () => {
  const path = fresh("timeout");
  const hook = `/hook${path}`;
  receiver.script(hook, { hang: true });
  await configureHook(path, "slow", hook, { timeoutMs: 500 });
  const sent = await api.appendOk(path, data(1));

  const halted = await oneFact(path, HALTED, "the halt after timeouts");
  assert.match(String(halted.payload.error), /time/i, `the error names the timeout: ${halted.payload.error}`);
  assert.equal(halted.payload.attempts, 3, "a timeout is transient: retried until the budget is spent");
  const records = receiver.received(hook);
  assert.equal(records.length, 3);
  assertAllVerified(records);
  assert.deepEqual(records.map((r) => r.body.attempt), [1, 2, 3]);
  assert.deepEqual(offsetsOf(records), [sent.offset, sent.offset, sent.offset]);
  assert.equal(new Set(records.map((r) => r.headers["webhook-id"])).size, 1);
  const entry = await api.cardEntry(path, "slow");
  assert.match(String(entry.runtime.lastError), /time/i, `card lastError: ${JSON.stringify(entry.runtime)}`);
  assert.equal(entry.runtime.inFlightDeadlineAt, null, "nothing left in flight");
});

// ---------------------------------------------------------------------------
// The signing-secret route
// ---------------------------------------------------------------------------

test("§9: signing-secret is 404 subscription_not_found for unknown and non-webhook keys; the secret is stable, per subscription, and verifies deliveries", async () => {
  const path = fresh("secret");
  const hook = `/hook${path}`;
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "copy",
      receiver: { action: "copy-to-stream", receivingStreamPath: `${path}-copy`, delivery: { start: "now", onFailingEvent: "halt" } },
      filter: { eventTypes: ["never"] },
    },
  });
  await configureHook(path, "hook", hook);
  await configureHook(path, "other", `/other${path}`);

  for (const key of ["nope", "copy"]) {
    const res = await signingSecret(path, key);
    assert.equal(res.status, 404, `${key}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "subscription_not_found");
  }
  const missingStream = await signingSecret(`${path}-never-written`, "hook");
  assert.equal(missingStream.status, 404);

  const a = await signingSecret(path, "hook");
  const again = await signingSecret(path, "hook");
  const other = await signingSecret(path, "other");
  assert.equal(a.status, 200);
  assert.deepEqual(Object.keys(a.body), ["secret"]);
  assert.match(a.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  assert.ok(Buffer.from(a.body.secret.slice(6), "base64").length >= 16, "a real key");
  assert.equal(again.body.secret, a.body.secret, "stable");
  assert.notEqual(other.body.secret, a.body.secret, "per subscription");

  await api.appendOk(path, data(1));
  const [record] = await receivedAtLeast(hook, 1);
  assert.equal(record.verified, true, record.verifyError);
  assert.doesNotThrow(() => new Webhook(a.body.secret).verify(record.rawBody, record.headers));
  assert.throws(() => new Webhook(other.body.secret).verify(record.rawBody, record.headers), /signature/i, "another subscription's secret does not verify it");
  const tampered = record.rawBody.replace('"i":1', '"i":2');
  assert.notEqual(tampered, record.rawBody);
  assert.throws(() => new Webhook(a.body.secret).verify(tampered, record.headers), /signature/i, "a changed body does not verify");

  await api.appendOk(path, { type: REMOVED, payload: { subscriptionKey: "other", reason: "requested" } });
  const removed = await signingSecret(path, "other");
  assert.equal(removed.status, 404, `a removed subscription has no secret: ${JSON.stringify(removed.body)}`);
  assert.equal(removed.body.error.code, "subscription_not_found");
});

// ---------------------------------------------------------------------------
// URL rules and timeoutMs (configure time, §2: nothing committed on refusal)
// ---------------------------------------------------------------------------

/** Everything a refused configure could have changed on `path`. */
async function snapshot(client, path) {
  const c = streamApi(client);
  return {
    info: await c.infoOk(path),
    events: (await c.readAll(path)).events,
    card: (await c.cardOk(path)).subscriptions.map(({ runtime, ...rest }) => ({
      ...rest,
      runtime: { ...runtime, completionLatencyMs: undefined, deliveryDurationMs: undefined },
    })),
  };
}

async function refused(client, path, payload, field) {
  const before = await snapshot(client, path);
  const res = await streamApi(client).append(path, { type: CONFIGURED, payload });
  assert.equal(res.status, 422, `${JSON.stringify(payload.receiver)} → ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, "invalid_subscription", JSON.stringify(res.body));
  assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
  assert.deepEqual(await snapshot(client, path), before, `nothing committed for ${JSON.stringify(payload.receiver)}`);
}

const NEVER = { eventTypes: ["never-delivered"] };

const UNSAFE_URLS = [
  // scheme
  "http://example.com/hook",
  "ftp://example.com/hook",
  "ws://example.com/hook",
  // credentials
  "https://user:pw@example.com/hook",
  "https://user@example.com/hook",
  "https://:pw@example.com/hook",
  // localhost
  "https://localhost/hook",
  "https://LOCALHOST./hook",
  "https://localhost:8443/hook",
  "https://api.localhost/hook",
  "https://LocalHost/hook",
  "https://localhost%2e/hook",
  "https://ｌｏｃａｌｈｏｓｔ/hook",
  // IPv4 loopback in every spelling
  "https://127.0.0.1/hook",
  "https://127.255.255.254/hook",
  "https://127.1/hook",
  "https://2130706433/hook",
  "https://0x7f000001/hook",
  "https://0x7f.0.0.1/hook",
  "https://0177.0.0.1/hook",
  "https://017700000001/hook",
  "https://0x7f.1/hook",
  "https://127.000.000.001/hook",
  "https://127.0.0.1./hook",
  "https://%31%32%37.0.0.1/hook",
  "https://１２７.０.０.１/hook",
  "HTTPS://127.0.0.1/hook",
  "https://example.com@127.0.0.1/hook",
  // private, link-local, metadata, CGNAT, unspecified
  "https://10.0.0.1/hook",
  "https://167772161/hook",
  "https://012.0.0.1/hook",
  "https://172.16.5.4/hook",
  "https://172.31.255.255/hook",
  "https://192.168.1.1/hook",
  "https://0xc0a80101/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://2852039166/latest/meta-data",
  "https://0xa9fea9fe/latest/meta-data",
  "https://169.254.1.1/hook",
  "https://100.64.0.1/hook",
  "https://100.127.255.254/hook",
  "https://0.0.0.0/hook",
  "https://0/hook",
  "https://224.0.0.1/hook",
  "https://255.255.255.255/hook",
  // IPv6 loopback, unspecified, unique-local (incl. the AWS metadata address), link-local
  "https://[::1]/hook",
  "https://[0:0:0:0:0:0:0:1]/hook",
  "https://[::]/hook",
  "https://[fd00:ec2::254]/hook",
  "https://[fc00::1]/hook",
  "https://[fe80::1]/hook",
  "https://[fe80::1%25eth0]/hook",
  "https://[ff02::1]/hook",
  "https://[::127.0.0.1]/hook",
  "https://[64:ff9b::a9fe:a9fe]/hook",
  // IPv4-mapped IPv6
  "https://[::ffff:127.0.0.1]/hook",
  "https://[0:0:0:0:0:ffff:127.0.0.1]/hook",
  "https://[::ffff:7f00:1]/hook",
  "https://[::ffff:10.0.0.1]/hook",
  "https://[::ffff:192.168.1.1]/hook",
  "https://[::ffff:169.254.169.254]/hook",
  "https://[::ffff:a9fe:a9fe]/hook",
  "https://[::ffff:100.64.0.1]/hook",
  // not a URL
  "not a url",
  "https://",
];

test("§9: without ALLOW_INSECURE_WEBHOOKS every unsafe URL form is 422 on receiver.url and commits nothing", async () => {
  const path = fresh("url-rules");
  await strictApi.appendOk(path, data(0));
  for (const url of UNSAFE_URLS) {
    await refused(strict, path, { subscriptionKey: "u", filter: NEVER, receiver: webhook(url, { start: "now" }) }, "receiver.url");
  }
});

test("§9/§12: timeoutMs outside 1..30000 or not an integer is 422 on receiver.delivery.timeoutMs and commits nothing", async () => {
  const path = fresh("timeout-rules");
  await strictApi.appendOk(path, data(0));
  for (const timeoutMs of [0, 30_001, "5", -1, 1.5, null, 1e300]) {
    await refused(
      strict,
      path,
      { subscriptionKey: "u", filter: NEVER, receiver: webhook("https://example.com/hook", { start: "now", timeoutMs }) },
      "receiver.delivery.timeoutMs",
    );
  }
});

test("§9: public https URLs (and timeoutMs 1 and 30000) are accepted without ALLOW_INSECURE_WEBHOOKS", async () => {
  const path = fresh("url-ok");
  const accepted = [
    ["https://example.com/hook", undefined],
    ["https://example.com:8443/x?y=1#frag", 1],
    ["https://8.8.8.8/hook", 30_000],
    ["https://[2606:4700:4700::1111]/hook", 15_000],
    ["https://hooks.example.org/a/b/c", undefined],
  ];
  let n = 0;
  for (const [url, timeoutMs] of accepted) {
    const key = `ok-${++n}`;
    // start "now" and a filter nothing matches: configuring must not send anything anywhere.
    const res = await strictApi.append(path, {
      type: CONFIGURED,
      payload: { subscriptionKey: key, filter: NEVER, receiver: webhook(url, { start: "now", timeoutMs }) },
    });
    assert.equal(res.status, 201, `${url}: ${JSON.stringify(res.body)}`);
    const entry = await strictApi.cardEntry(path, key);
    assert.equal(entry.configuration.receiver.url, url);
    const secret = await signingSecret(path, key, strict);
    assert.equal(secret.status, 200);
  }
});

test("§9: even with ALLOW_INSECURE_WEBHOOKS only http(s) URLs are accepted", async () => {
  const path = fresh("insecure-scheme");
  await api.appendOk(path, data(0));
  for (const url of ["ftp://127.0.0.1/hook", "file:///etc/passwd", "not a url"]) {
    await refused(t, path, { subscriptionKey: "u", filter: NEVER, receiver: webhook(url, { start: "now" }) }, "receiver.url");
  }
  const ok = await api.append(path, {
    type: CONFIGURED,
    payload: { subscriptionKey: "local", filter: NEVER, receiver: webhook("http://127.0.0.1:9/hook", { start: "now" }) },
  });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
});
