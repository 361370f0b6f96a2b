// Hostile inputs end to end (docs/design.md §2, §6 rules 7, 10, 11, §9, §12)
// against the built worker running in workerd: each hostile input is answered
// with a clear error or handled, and afterwards the worker still serves other
// streams (every test ends by appending to and reading a fresh stream).
//
//   1. JSONata bombs (self-application, aliased recursion, a huge $map) in the
//      evaluate route, as a filter and as a transform: a clear error, never a
//      hang; in a subscription a durable halt or a dead letter naming it.
//   2. A read of 1000 events of ~250 KiB: pages bounded by 4 MiB, nextAfter
//      says where the next page starts, paging reaches the head.
//   3. A receiver that trickles a body forever: its deadline covers the whole
//      exchange (dead letters "timed out"), and a fast subscription on the same
//      stream is not held behind it.
//   4. DELETE during a send: the old lifetime's send finishing cannot move,
//      halt or dead-letter the new lifetime's subscription of the same key.
//   5. Credentials in a webhook URL are refused even when insecure webhooks
//      are allowed, and nothing is committed.
//
// One Tributary (ALLOW_INSECURE_WEBHOOKS, so the local receiver is valid) and
// one receiver (tests/e2e/webhook_receiver.mjs). Delivery is asynchronous:
// every expectation is polled for with a bounded wait (`eventually`), never
// asserted after a fixed sleep; absence is only asserted after an observable
// moved. Every request carries a deadline, so a hang fails the test instead
// of stalling it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { CONFIGURED, HALTED, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";

let t;
let api;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  // Every request of this file has a deadline: a hang is a failure, not a stall.
  api = streamApi({ request: (method, path, opts) => request(method, path, opts) });
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
});

let counter = 0;
/** A stream path (and receiver path) no other test uses. */
const fresh = (name) => `/e2e-hostile/${name}-${++counter}`;

const REQUEST_TIMEOUT_MS = 30_000;
const WAIT = { timeoutMs: 20_000 };
const DATA_ONLY = { eventTypes: ["data"] };
const data = (i) => ({ type: "data", payload: { i } });

/** A JSON request against the Tributary with a deadline: {status, body, headers}. */
async function request(method, path, { body, token = TOKEN, headers = {}, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs) };
  if (token !== null) init.headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let response;
  let text;
  try {
    response = await fetch(`${t.url}${path}`, init);
    text = await response.text();
  } catch (error) {
    if (error?.name === "TimeoutError") {
      throw new assert.AssertionError({ message: `${method} ${path} got no answer within ${timeoutMs} ms (a hang)` });
    }
    throw error;
  }
  let parsed = text;
  try {
    parsed = text.length ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers };
}

/** A webhook-post receiver; `delivery` overrides the defaults. */
const webhook = (url, delivery = {}, extra = {}) => ({
  action: "webhook-post",
  url,
  ...extra,
  delivery: { start: "beginning", onFailingEvent: "halt", retry: { maxAttempts: 2, initialBackoffMs: 20, maxBackoffMs: 100 }, ...delivery },
});

const signingSecret = (path, key) =>
  request("GET", streamUrl(path, `subscriptions/${encodeURIComponent(key)}/signing-secret`));

/** Registers subscription `key`'s signing secret with the receiver for `hookPath`. */
async function registerSecret(path, key, hookPath) {
  const res = await signingSecret(path, key);
  assert.equal(res.status, 200, `signing secret of ${key}: ${JSON.stringify(res.body)}`);
  receiver.setSecret(hookPath, res.body.secret);
}

/** Every dead letter of `path` (of one subscription, if given). */
async function letters(path, key) {
  const all = [];
  let after = 0;
  for (let page = 0; page < 100; page++) {
    const query = [`after=${after}`, "limit=1000"];
    if (key !== undefined) query.push(`subscriptionKey=${encodeURIComponent(key)}`);
    const res = await request("GET", `${streamUrl(path, "dead-letters")}?${query.join("&")}`);
    assert.equal(res.status, 200, `dead letters of ${path}: ${JSON.stringify(res.body)}`);
    all.push(...res.body.deadLetters);
    if (res.body.deadLetters.length === 0) break;
    after = res.body.nextAfter;
  }
  return all;
}

/** Asserts `res` is a §2 error: the status, a JSON error object with a code and a message. */
function assertError(res, status, what) {
  assert.equal(res.status, status, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body, "object", `${what}: a JSON body: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body?.error?.code, "string", `${what}: error.code: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body.error.message, "string", `${what}: error.message: ${JSON.stringify(res.body)}`);
  assert.ok(res.body.error.message.length > 0);
}

/** The worker still serves another stream: append to and read a fresh one. */
async function stillServes(after) {
  const path = fresh(`still-serves-after-${after}`);
  const appended = await api.append(path, data(after.length));
  assert.equal(appended.status, 201, `after ${after}, an append to another stream: ${JSON.stringify(appended.body)}`);
  const read = await api.range(path, "after=0&limit=10");
  assert.equal(read.status, 200, `after ${after}, a read of another stream: ${JSON.stringify(read.body)}`);
  assert.deepEqual(read.body.events.map((e) => e.offset), [appended.body.event.offset]);
  assert.deepEqual(read.body.events[0].payload, { i: after.length });
}

// ---------------------------------------------------------------------------
// 1. JSONata bombs
// ---------------------------------------------------------------------------

const BOMBS = [
  ["self-application", "(function($x){$x($x)})(function($x){$x($x)})"],
  ["aliasing", "($f:=function($n){$h($n)}; $h:=$f; $f(0))"],
  ["huge $map", "$map([1..9999999], function($v){$v})"],
];
/** What a bounded evaluation's error names: the step budget or the stack depth (§12). */
const BUDGET = /step|stack|depth|U1001|D1011/i;

for (const [name, expression] of BOMBS) {
  test(`§5/§12 JSONata bomb (${name}): the evaluate route answers a clear 4xx error, not a hang`, async () => {
    for (const input of [undefined, { type: "data", payload: { i: 1 } }]) {
      const body = input === undefined ? { expression } : { expression, input };
      const res = await request("POST", "/v1/jsonata/evaluate", { body });
      assert.ok(res.status >= 400 && res.status < 500, `a 4xx: ${res.status} ${JSON.stringify(res.body)}`);
      assertError(res, res.status, `evaluate ${expression}`);
      const named = `${res.body.error.code} ${res.body.error.message} ${JSON.stringify(res.body.error.details ?? {})}`;
      assert.match(named, BUDGET, `the error names the step budget or the stack depth: ${JSON.stringify(res.body)}`);
    }
    await stillServes(`evaluate-${name.replace(/\W+/g, "-")}`);
  });

  test(`§6 rule 11 JSONata bomb (${name}) as a filter and as a transform: refused at configure, or a durable halt / a dead letter naming the error`, async () => {
    const path = fresh(`bomb-${name.replace(/\W+/g, "-")}`);
    const cases = [
      { key: "filter-halt", onFailingEvent: "halt", filter: { ...DATA_ONLY, jsonataCondition: expression } },
      { key: "filter-skip", onFailingEvent: "skip", filter: { ...DATA_ONLY, jsonataCondition: expression } },
      { key: "transform-halt", onFailingEvent: "halt", filter: DATA_ONLY, jsonataTransform: expression },
      { key: "transform-skip", onFailingEvent: "skip", filter: DATA_ONLY, jsonataTransform: expression },
    ];
    const accepted = [];
    for (const c of cases) {
      const hook = `/hook${path}/${c.key}`;
      const extra = c.jsonataTransform === undefined ? {} : { jsonataTransform: c.jsonataTransform };
      const res = await api.append(path, {
        type: CONFIGURED,
        payload: {
          subscriptionKey: c.key,
          filter: c.filter,
          receiver: webhook(receiver.url(hook), { onFailingEvent: c.onFailingEvent }, extra),
        },
      });
      if (res.status === 422) {
        // Refused at configure time: a clear error, nothing committed.
        assertError(res, 422, `configure ${c.key}`);
        const card = await api.card(path);
        if (card.status === 200) {
          assert.ok(!card.body.subscriptions.some((s) => s.subscriptionKey === c.key), `${c.key} not configured`);
        }
        continue;
      }
      assert.equal(res.status, 201, `configure ${c.key}: 201 or 422, got ${res.status} ${JSON.stringify(res.body)}`);
      await registerSecret(path, c.key, hook);
      accepted.push({ ...c, hook });
    }
    if (accepted.length > 0) {
      const event = await api.appendOk(path, data(1));
      await eventually(
        async () => {
          for (const c of accepted) {
            const entry = await api.cardEntry(path, c.key);
            if (c.onFailingEvent === "halt") {
              assert.ok(entry.deliveryHalted, `${c.key} halted: ${JSON.stringify(entry)}`);
              assert.equal(entry.deliveryHalted.afterOffset, event.offset - 1, `${c.key}: ${JSON.stringify(entry.deliveryHalted)}`);
              assert.match(String(entry.deliveryHalted.error), BUDGET, `${c.key}: the halt names the error`);
              assert.match(String(entry.deliveryHalted.error), c.key.startsWith("filter") ? /filter/ : /transform/);
            } else {
              const got = await letters(path, c.key);
              assert.equal(got.length, 1, `${c.key}: one dead letter: ${JSON.stringify(got)}`);
              assert.equal(got[0].offset, event.offset);
              assert.match(got[0].reason, /^permanent: /, `${c.key}: ${got[0].reason}`);
              assert.match(got[0].reason, BUDGET, `${c.key}: the dead letter names the error`);
              assert.match(got[0].reason, c.key.startsWith("filter") ? /filter/ : /transform/);
              assert.ok(entry.runtime.acknowledgedOffset >= event.offset, `${c.key}: the cursor passed the dead-lettered event: ${JSON.stringify(entry.runtime)}`);
            }
          }
        },
        { what: `every accepted ${name} subscription halted or dead-lettered`, ...WAIT },
      );
      const halts = await api.eventsOfType(path, HALTED);
      for (const c of accepted) {
        const facts = halts.filter((f) => f.payload.subscriptionKey === c.key);
        if (c.onFailingEvent === "halt") {
          assert.equal(facts.length, 1, `${c.key}: one durable halt fact: ${JSON.stringify(halts)}`);
          assert.equal(facts[0].payload.afterOffset, event.offset - 1);
          assert.match(String(facts[0].payload.error), BUDGET);
        } else {
          assert.deepEqual(facts, [], `${c.key}: skip mode never halts`);
        }
        // A failing filter or transform sends nothing.
        assert.deepEqual(receiver.received(c.hook), [], `${c.key}: nothing was sent`);
      }
    }
    await stillServes(`bomb-subscriptions-${name.replace(/\W+/g, "-")}`);
  });
}

// ---------------------------------------------------------------------------
// 2. A read of 1000 × ~250 KiB
// ---------------------------------------------------------------------------

test("§12: 1000 events of ~250 KiB read with limit=1000 → pages of at most 4 MiB, nextAfter = the last offset returned, paging reaches offset 1000", async () => {
  const path = fresh("big-read");
  const FOUR_MIB = 4 * 1024 * 1024;
  const blob = "x".repeat(250 * 1024 - 512);
  const big = (i) => ({ type: "big", payload: { i, blob } });
  // 7 events per batch stay under the 2 MiB batch limit; 143 batches, a few at a time.
  const batches = [];
  for (let i = 0; i < 1000; i += 7) batches.push(Array.from({ length: Math.min(7, 1000 - i) }, (_, k) => big(i + k)));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const res = await api.append(path, { events: batch });
      assert.equal(res.status, 201, `batch append: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const info = await api.infoOk(path);
  assert.equal(info.head, 1000);

  const first = await api.range(path, "after=0&limit=1000");
  assert.equal(first.status, 200, `first page: ${JSON.stringify(first.body).slice(0, 500)}`);
  const size = (events) => events.reduce((sum, e) => sum + JSON.stringify(e).length, 0);
  const { events } = first.body;
  assert.ok(events.length >= 1, "the first page holds events");
  assert.ok(events.length <= 16, `at most 4 MiB of ~250 KiB events: ${events.length}`);
  assert.ok(size(events) <= FOUR_MIB, `the page's events are at most 4 MiB: ${size(events)}`);
  assert.deepEqual(events.map((e) => e.offset), Array.from({ length: events.length }, (_, k) => k + 1), "offsets 1.. in order");
  assert.equal(first.body.nextAfter, events.at(-1).offset, "nextAfter is the last offset returned");
  assert.equal(first.body.head, 1000);

  let after = first.body.nextAfter;
  let pages = 1;
  while (after < 1000) {
    const res = await api.range(path, `after=${after}&limit=1000`);
    assert.equal(res.status, 200, `page after ${after}: ${JSON.stringify(res.body).slice(0, 500)}`);
    const page = res.body.events;
    assert.ok(page.length >= 1, `page after ${after} holds events`);
    assert.ok(size(page) <= FOUR_MIB, `page after ${after} is at most 4 MiB: ${size(page)}`);
    assert.equal(page[0].offset, after + 1, "no gap between pages");
    assert.equal(res.body.nextAfter, page.at(-1).offset, "nextAfter is the last offset returned");
    after = res.body.nextAfter;
    assert.ok(++pages <= 1000, "paging terminates");
  }
  assert.equal(after, 1000, "paging reached the head");
  await stillServes("big-read");
});

// ---------------------------------------------------------------------------
// 3. A trickling receiver next to a fast one
// ---------------------------------------------------------------------------

test("§6 rule 10/§12: a receiver trickling a body forever times out within its whole-exchange deadline (dead letters 'timed out'), and a fast subscription on the same stream is not held behind it", async () => {
  const path = fresh("trickle");
  const slowHook = `/slow${path}`;
  const fastHook = `/fast${path}`;
  receiver.script(slowHook, { trickle: true });
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "slow",
      filter: DATA_ONLY,
      receiver: webhook(receiver.url(slowHook), {
        onFailingEvent: "skip",
        timeoutMs: 2000,
        retry: { maxAttempts: 2, initialBackoffMs: 100, maxBackoffMs: 100 },
      }),
    },
  });
  await registerSecret(path, "slow", slowHook);
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "fast", filter: DATA_ONLY, receiver: webhook(receiver.url(fastHook)) } });
  await registerSecret(path, "fast", fastHook);

  const events = [];
  for (let i = 0; i < 20; i++) events.push(await api.appendOk(path, data(i)));

  // The fast subscription gets all 20 while the slow one has barely started:
  // each slow event costs 2 attempts of 2 s, so a fast subscription held
  // behind it would need about 40 s and would see many slow dead letters first.
  await eventually(
    () => {
      const got = new Set(receiver.received(fastHook).map((r) => r.body?.event?.offset));
      assert.equal(got.size, 20, `${got.size} of 20 fast deliveries`);
    },
    { what: "the fast subscription's 20 deliveries", ...WAIT },
  );
  const slowLettersSoFar = await letters(path, "slow");
  assert.ok(slowLettersSoFar.length < 3, `the fast subscription was not held behind the slow one: ${slowLettersSoFar.length} slow dead letters already`);
  const fast = receiver.received(fastHook);
  for (const record of fast) assert.equal(record.verified, true, record.verifyError);
  assert.deepEqual(
    [...new Set(fast.map((r) => r.body.event.offset))],
    events.map((e) => e.offset),
    "the fast deliveries in offset order",
  );
  await api.caughtUp(path, "fast", WAIT);

  // The slow subscription dead-letters event after event, each "timed out".
  const dead = await eventually(
    async () => {
      const got = await letters(path, "slow");
      assert.ok(got.length >= 2, `${got.length} slow dead letters so far`);
      return got;
    },
    { what: "the slow subscription's first dead letters", timeoutMs: 30_000 },
  );
  assert.deepEqual(dead.slice(0, 2).map((l) => l.offset), [events[0].offset, events[1].offset], "dead-lettered in offset order");
  for (const letter of dead) {
    assert.match(letter.reason, /^transient: /, letter.reason);
    assert.match(letter.reason, /timed out/, letter.reason);
    assert.equal(letter.attempts, 2);
  }
  const slowRequests = receiver.received(slowHook);
  assert.ok(slowRequests.length >= 4, `two attempts per dead letter: ${slowRequests.length}`);
  for (const record of slowRequests) assert.equal(record.verified, true, record.verifyError);
  assert.deepEqual((await api.cardEntry(path, "fast")).deliveryHalted, undefined);

  // Stop the slow subscription's remaining work.
  await api.appendOk(path, { type: `events.iterate.com/stream/subscription-removed`, payload: { subscriptionKey: "slow", reason: "requested" } });
  await stillServes("trickle");
});

// ---------------------------------------------------------------------------
// 4. DELETE during a send
// ---------------------------------------------------------------------------

test("§6 rule 7: DELETE while a send is held, recreate the same key on the same path: the old send's completion cannot move, halt or dead-letter the new lifetime's subscription", async () => {
  const path = fresh("delete-mid-send");
  const gatePath = `/gated${path}`;
  const newHook = `/new${path}`;
  const gate = `gate${path}`;
  receiver.script(gatePath, { gate, status: 200 });

  // Old lifetime: the held event sits at a high offset (filler before it), so
  // an old completion applied to the new lifetime would push its cursor past
  // the new head.
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "k", filter: DATA_ONLY, receiver: webhook(receiver.url(gatePath)) } });
  await registerSecret(path, "k", gatePath);
  await api.batchOk(path, Array.from({ length: 8 }, (_, i) => ({ type: "filler", payload: { i } })));
  const oldInfo = await api.infoOk(path);
  const held = await api.appendOk(path, data(1));
  assert.equal(held.offset, 10);
  const [request1] = await eventually(
    () => {
      const got = receiver.received(gatePath);
      assert.equal(got.length, 1, `the held request arrived: ${got.length}`);
      return got;
    },
    { what: "the held send at the receiver", ...WAIT },
  );
  assert.equal(request1.body.event.offset, held.offset);
  assert.equal(request1.body.streamId, oldInfo.streamId);

  const deleted = await api.destroy(path);
  assert.ok(deleted.status >= 200 && deleted.status < 300, `DELETE: ${deleted.status} ${JSON.stringify(deleted.body)}`);
  assert.equal((await api.info(path)).status, 404, "the stream is gone");

  // New lifetime, same key, a healthy receiver.
  const configured = await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "k", filter: DATA_ONLY, receiver: webhook(receiver.url(newHook)) } });
  await registerSecret(path, "k", newHook);
  const fresh1 = await api.appendOk(path, data(2));
  const newInfo = await api.infoOk(path);
  assert.notEqual(newInfo.streamId, oldInfo.streamId, "a new lifetime");
  assert.ok(fresh1.offset < held.offset);

  receiver.release(gate);

  const [delivered] = await eventually(
    () => {
      const got = receiver.received(newHook);
      assert.ok(got.length >= 1, "the new lifetime's event arrived");
      return got;
    },
    { what: "the new lifetime's delivery", ...WAIT },
  );
  assert.equal(delivered.verified, true, delivered.verifyError);
  assert.equal(delivered.body.streamId, newInfo.streamId, "delivered under the new streamId");
  assert.equal(delivered.body.event.offset, fresh1.offset);
  assert.equal(delivered.body.cursorChangedAtSourceOffset, configured.offset);

  // One more event after the release: once it is delivered, the old send's
  // answer (released before it was appended) has long been handled.
  const fresh2 = await api.appendOk(path, data(3));
  const entry = await api.caughtUp(path, "k", WAIT);
  const head = (await api.infoOk(path)).head;
  assert.equal(head, fresh2.offset);
  assert.equal(entry.runtime.acknowledgedOffset, head, "the cursor is the new head, not the old send's offset");
  assert.equal(entry.deliveryHalted, undefined, "the old send did not halt the new run");
  assert.deepEqual(await letters(path), [], "the old send dead-lettered nothing into the new lifetime");
  assert.deepEqual(await api.eventsOfType(path, HALTED), []);
  const newRecords = receiver.received(newHook);
  assert.deepEqual([...new Set(newRecords.map((r) => r.body.event.offset))], [fresh1.offset, fresh2.offset]);
  for (const record of newRecords) assert.equal(record.body.streamId, newInfo.streamId);
  assert.equal(receiver.received(gatePath).length, 1, "the old lifetime's send was not retried");
  await stillServes("delete-mid-send");
});

// ---------------------------------------------------------------------------
// 5. Credentials in a webhook URL
// ---------------------------------------------------------------------------

test("§9: credentials in a webhook URL are 422 even with ALLOW_INSECURE_WEBHOOKS, and nothing is committed", async () => {
  const port = new URL(receiver.base).port;
  for (const url of [
    `http://user:pw@127.0.0.1:${port}/x`,
    `http://user@127.0.0.1:${port}/x`,
    `http://:pw@127.0.0.1:${port}/x`,
  ]) {
    // A new stream stays unwritten.
    const path = fresh("credentials");
    const res = await api.append(path, { type: CONFIGURED, payload: { subscriptionKey: "c", filter: DATA_ONLY, receiver: webhook(url) } });
    assertError(res, 422, url);
    assert.equal(res.body.error.code, "invalid_subscription", JSON.stringify(res.body));
    assert.equal(res.body.error.details?.field, "receiver.url", JSON.stringify(res.body));
    const info = await api.info(path);
    assert.equal(info.status, 404, `the new stream stays unwritten: ${JSON.stringify(info.body)}`);

    // An existing stream is unchanged.
    const existing = fresh("credentials-existing");
    const first = await api.appendOk(existing, data(0));
    const refused = await api.append(existing, { type: CONFIGURED, payload: { subscriptionKey: "c", filter: DATA_ONLY, receiver: webhook(url) } });
    assertError(refused, 422, url);
    const after = await api.infoOk(existing);
    assert.equal(after.head, first.offset, "nothing committed");
    assert.deepEqual((await api.cardOk(existing)).subscriptions, []);
  }
  assert.deepEqual(receiver.received("/x"), []);
  await stillServes("credentials");
});
