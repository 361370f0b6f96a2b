// End-to-end subscribe-from (docs/design.md §5 subscribeToEventsFrom, §2, §3)
// against the built worker running in workerd: the one copy-to-stream
// configure it appends on the source — and nothing on the receiving stream —,
// retries by idempotencyKey, the filter, transform and start it carries into
// the configuration, keyed calls (ensure-or-replace), the project the source
// is resolved in, and the calls refused before anything is committed
// (no key, a bad source path, self-subscription, unknown fields, bad
// options, a missing token, the wrong method, a body that is not an object).
//
// Delivery is live, though: the source stream's alarm delivers shortly after
// any append (§6). So every subscription here that the spine would deliver is
// either filtered to an event type no test appends (never()) — nothing is
// ever sent, no receiving stream is written and no halt or audit event is
// appended, so heads and states stay exact — or has nothing after its start
// cursor. What the alarm still does for such a subscription is advance its
// cursor over the events its filter rejects (§6 rule 2), at a moment the test
// does not control: runtime rows of such subscriptions are asserted with cursor
// bounds (assertUnsentRuntime), and snapshots wait until the cursors have
// settled (quiescent) before comparing. Those helpers, shared with the other
// subscriptions_*.test.mjs files, are in subscription_helpers.mjs.
// One Tributary per file; every test uses its own stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, OTHER_TOKEN } from "./harness.mjs";
import { CONFIGURED } from "./delivery_helpers.mjs";
import {
  fresh,
  RFC3339_MILLIS,
  never,
  assertError,
  assertIdleRuntime,
  assertUnsentRuntime,
  subscriptionRequests,
} from "./subscription_helpers.mjs";

let t;
before(async () => {
  t = await startTributary();
});
after(async () => {
  await t?.cleanup();
});

const {
  info,
  card,
  range,
  subscribeFrom,
  infoOk,
  byKey,
  cardEntry,
  quiescent,
  snapshot,
  rejectsAndCommitsNothing,
  seeded,
} = subscriptionRequests(() => t);

// ---------------------------------------------------------------------------
// 1. subscribe-from
// ---------------------------------------------------------------------------

test("§5 subscribeToEventsFrom: appends exactly one copy-to-stream configure on the source, returns {subscriptionKey, subscriptionConfiguredEvent}, and appends nothing on the receiving stream", async () => {
  const source = await seeded("sf-src", 2);
  const receiving = fresh("sf-dst");
  // Filtered to nothing, so no copy can ever write the receiving stream: what
  // is observed there is what subscribe-from itself did.
  const res = await subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "attempt-1", filter: never() });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ["subscriptionConfiguredEvent", "subscriptionKey"]);
  const event = res.body.subscriptionConfiguredEvent;
  assert.equal(event.offset, 3);
  assert.equal(event.type, CONFIGURED);
  assert.match(event.createdAt, RFC3339_MILLIS);
  const expectedConfiguration = {
    filter: never(),
    receiver: {
      action: "copy-to-stream",
      receivingStreamPath: receiving,
      delivery: { start: "beginning", onFailingEvent: "halt" },
    },
  };
  assert.deepEqual(event.payload, expectedConfiguration);
  assert.equal(res.body.subscriptionKey, "subscription:3", "generated from the configure event's offset");

  const i = await infoOk(source);
  assert.equal(i.head, 3, "exactly one event appended on the source");
  const stored = (await range(source, "after=2")).body.events;
  assert.deepEqual(stored, [event], "the returned event is the committed one");
  assert.deepEqual(i.state.subscriptions.outbound.byKey, {
    "subscription:3": {
      configuration: expectedConfiguration,
      configuredAtOffset: 3,
      configuredAt: event.createdAt,
      subscriptionKeyWasGenerated: true,
    },
  });
  assertUnsentRuntime((await cardEntry(source, "subscription:3")).runtime, {
    runOffset: 3,
    startCursor: 0, // start "beginning"
    head: 3,
  });
  // subscribe-from wrote nothing on the receiving stream (not even created it);
  // it learns of the subscription only when a copy arrives.
  assertError(await info(receiving), 404, "stream_not_found");
  assertError(await card(receiving), 404, "stream_not_found");
  // Still so once the subscription has passed over the whole source.
  await quiescent(source);
  assertError(await info(receiving), 404, "stream_not_found");
  assert.equal((await infoOk(source)).head, 3, "still exactly one event appended on the source");

  // A retry with the same idempotencyKey is the same call: no new event anywhere.
  const again = await subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "attempt-1", filter: never() });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, "subscription:3");
  assert.deepEqual(again.body.subscriptionConfiguredEvent, event);
  assert.equal((await infoOk(source)).head, 3);
  assertError(await info(receiving), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: a retried call with the same idempotencyKey → 200, same key, same event, nothing new on the source", async () => {
  const source = await seeded("sf-retry-src", 1);
  const receiving = fresh("sf-retry-dst");
  const body = { sourcePath: source, idempotencyKey: "retry-me", filter: { eventTypes: ["x"] } };
  const first = await subscribeFrom(receiving, body);
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const before = await snapshot(source);
  const again = await subscribeFrom(receiving, body);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, first.body.subscriptionKey);
  assert.deepEqual(again.body.subscriptionConfiguredEvent, first.body.subscriptionConfiguredEvent);
  assert.deepEqual(await snapshot(source), before, "source head, events and state unchanged");
  assert.equal(Object.keys(await byKey(source)).length, 1);
  assertError(await info(receiving), 404, "stream_not_found");

  // The same idempotencyKey from another receiving stream is a different call.
  const other = fresh("sf-retry-dst2");
  const third = await subscribeFrom(other, body);
  assert.equal(third.status, 201, JSON.stringify(third.body));
  assert.notEqual(third.body.subscriptionKey, first.body.subscriptionKey);
  assert.equal(Object.keys(await byKey(source)).length, 2);
});

test("§5 subscribeToEventsFrom: filter, jsonataTransform and start are carried into the configuration", async () => {
  const source = await seeded("sf-opts-src", 1);
  const receiving = fresh("sf-opts-dst");
  const filter = { eventTypes: ["a", "b"], jsonataCondition: "payload.n > 1" };
  const res = await subscribeFrom(receiving, {
    sourcePath: source,
    idempotencyKey: "opts",
    filter,
    jsonataTransform: '{"type": "copied." & type}',
    start: "now",
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const expected = {
    filter,
    receiver: {
      action: "copy-to-stream",
      receivingStreamPath: receiving,
      jsonataTransform: '{"type": "copied." & type}',
      delivery: { start: "now", onFailingEvent: "halt" },
    },
  };
  assert.deepEqual(res.body.subscriptionConfiguredEvent.payload, expected);
  const key = res.body.subscriptionKey;
  assert.deepEqual((await byKey(source))[key].configuration, expected);
  const offset = res.body.subscriptionConfiguredEvent.offset;
  assertIdleRuntime((await cardEntry(source, key)).runtime, { runOffset: offset, acknowledgedOffset: offset, lag: 0 });
});

test("§5 subscribeToEventsFrom: with a subscriptionKey the key is returned as given (no idempotencyKey needed); a never-written source is created", async () => {
  const source = fresh("sf-keyed-src");
  const receiving = fresh("sf-keyed-dst");
  const res = await subscribeFrom(receiving, { sourcePath: source, subscriptionKey: "mirror", filter: never() });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.subscriptionKey, "mirror");
  assert.equal(res.body.subscriptionConfiguredEvent.offset, 1);
  assert.equal(res.body.subscriptionConfiguredEvent.payload.subscriptionKey, "mirror");
  const entries = await byKey(source);
  assert.deepEqual(Object.keys(entries), ["mirror"]);
  assert.equal(entries.mirror.subscriptionKeyWasGenerated, undefined);
  assert.equal(entries.mirror.configuration.receiver.receivingStreamPath, receiving);
  assert.deepEqual(entries.mirror.configuration.filter, never());
  assertError(await info(receiving), 404, "stream_not_found");

  // Calling again with the same key is ensure-or-replace: still one subscription.
  const again = await subscribeFrom(receiving, {
    sourcePath: source,
    subscriptionKey: "mirror",
    start: "now",
    filter: never(),
  });
  assert.ok([200, 201].includes(again.status), JSON.stringify(again.body));
  assert.equal(again.body.subscriptionKey, "mirror");
  const after = await byKey(source);
  assert.deepEqual(Object.keys(after), ["mirror"]);
  assert.equal(after.mirror.configuration.receiver.delivery.start, "now");
  assert.equal((await infoOk(source)).head, again.status === 201 ? 2 : 1);
  assertError(await info(receiving), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: without subscriptionKey and idempotencyKey → 400 idempotency_key_required, nothing appended", async () => {
  const source = await seeded("sf-noidem-src", 1);
  const neverWritten = fresh("sf-noidem-src-new");
  const receiving = fresh("sf-noidem-dst");
  for (const sourcePath of [source, neverWritten]) {
    await rejectsAndCommitsNothing(
      [sourcePath, receiving],
      () => subscribeFrom(receiving, { sourcePath }),
      400,
      "idempotency_key_required",
    );
  }
  assertError(await info(neverWritten), 404, "stream_not_found");
});

test("§5 subscribeToEventsFrom: an invalid sourcePath → 400 invalid_path, nothing appended anywhere", async () => {
  const receiving = await seeded("sf-badpath-dst", 1);
  for (const sourcePath of ["nope", "/a//b", "/a/../b", "/a/./b", "/a/-/b", "", "/"]) {
    await rejectsAndCommitsNothing(
      [receiving, "/a/b", "/b"],
      () => subscribeFrom(receiving, { sourcePath, idempotencyKey: "x" }),
      400,
      "invalid_path",
    );
  }
  // A missing or non-string sourcePath is a 400 too.
  await rejectsAndCommitsNothing([receiving], () => subscribeFrom(receiving, { idempotencyKey: "x" }), 400);
  await rejectsAndCommitsNothing(
    [receiving],
    () => subscribeFrom(receiving, { sourcePath: 7, idempotencyKey: "x" }),
    400,
  );
});

test("§5 subscribeToEventsFrom: a stream cannot subscribe to itself (422); unknown fields → 400; bad options → 422", async () => {
  const path = await seeded("sf-self", 1);
  await rejectsAndCommitsNothing(
    [path],
    () => subscribeFrom(path, { sourcePath: path, idempotencyKey: "self" }),
    422,
  );
  const neverWritten = fresh("sf-self-new");
  await rejectsAndCommitsNothing(
    [neverWritten],
    () => subscribeFrom(neverWritten, { sourcePath: neverWritten, subscriptionKey: "self" }),
    422,
  );

  const source = await seeded("sf-unknown-src", 1);
  const receiving = fresh("sf-unknown-dst");
  const unknown = await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", receiver: {} }),
    400,
  );
  assert.equal(unknown.body.error.details.field, "receiver");
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", jsonataTransform: "{" }),
    422,
    "invalid_jsonata",
    "receiver.jsonataTransform",
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, idempotencyKey: "u", start: "later" }),
    422,
    "invalid_subscription",
    "receiver.delivery.start",
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => subscribeFrom(receiving, { sourcePath: source, subscriptionKey: "subscription:9" }),
    422,
    "invalid_subscription",
    "subscriptionKey",
  );
});

test("§2/§5 subscribeToEventsFrom: the source is resolved in the caller's project only", async () => {
  const source = await seeded("sf-project-src", 1);
  const receiving = fresh("sf-project-dst");
  const res = await subscribeFrom(
    receiving,
    { sourcePath: source, subscriptionKey: "other-project", filter: never() },
    { token: OTHER_TOKEN },
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.subscriptionConfiguredEvent.offset, 1, "a fresh stream in project-b");
  assert.deepEqual(await byKey(source), {}, "project-a's source untouched");
  assert.equal((await infoOk(source)).head, 1);
  assert.deepEqual(Object.keys(await byKey(source, { token: OTHER_TOKEN })), ["other-project"]);
});

test("§2/§3: subscribe-from needs a bearer token, POST, and a JSON object body", async () => {
  const source = await seeded("sf-http-src", 1);
  const receiving = fresh("sf-http-dst");
  const body = { sourcePath: source, idempotencyKey: "h" };
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, body, { token: null }), 401);
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, body, { token: "wrong" }), 401);
  await rejectsAndCommitsNothing(
    [source, receiving],
    () => t.request("GET", streamUrl(receiving, "subscribe-from")),
    405,
  );
  await rejectsAndCommitsNothing(
    [source, receiving],
    () =>
      t.request("POST", streamUrl(receiving, "subscribe-from"), {
        rawBody: "{nope",
        headers: { "content-type": "application/json" },
      }),
    400,
  );
  await rejectsAndCommitsNothing([source, receiving], () => subscribeFrom(receiving, ["not", "an", "object"]), 400);
  assertError(await t.request("GET", streamUrl(source, "subscriptions"), { token: null }), 401);
});
