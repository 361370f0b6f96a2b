// End-to-end failure paths of processors and dead-letter replay (docs/design.md
// §9, §8, §13, §12, §3 rule 6) against the built worker in workerd:
//   - a second processor-wake subscription of one processor on one stream
//     is 409 processor_already_subscribed (alone or in a batch) and commits
//     nothing; the first keeps folding exactly its own filter;
//   - GET /v1/processors is paged (?after=&limit=, nextAfter);
//   - a dead-letter replay still in flight when its stream is deleted and
//     recreated finishes with 409 stream_lifetime_ended and leaves the new
//     lifetime's letter with the same id alone;
//   - a dead-lettered event whose retraction was sent is never replayed
//     (409 no_replay_invalidated).
// Webhooks go to a real Node receiver on 127.0.0.1. Every wait is for an
// observable (a letter listed, a request held at the receiver, a checkpoint
// at the head); every hostile case ends with a request to another stream.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, OTHER_TOKEN } from "./harness.mjs";
import { CONFIGURED, eventually, streamApi } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";

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
const fresh = (name) => `/e2e-processor-failures/${name}-${++counter}`;
const freshName = (name) => `${name}-${++counter}`;
const WAIT = { timeoutMs: 20_000, intervalMs: 100 };
const INVALIDATED = "events.iterate.com/stream/events-invalidated";

const wake = (name) => ({ action: "processor-wake", expression: ["processors", name, "wake"] });
const COUNT_TYPES = "$merge([$state, {$event.type: $lookup($state, $event.type) + 1}])";

async function define(name) {
  const res = await t.request("PUT", `/v1/processors/${name}`, {
    body: { kind: "jsonata-reducer", initialState: { a: 0, b: 0 }, reducer: COUNT_TYPES },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const configureWake = (path, key, name, types) =>
  api.append(path, { type: CONFIGURED, payload: { subscriptionKey: key, filter: { eventTypes: types }, receiver: wake(name) } });

/** Another stream answers: the isolate and its objects are fine. */
async function anotherStreamAnswers() {
  const other = fresh("witness");
  await api.appendOk(other, { type: "ping", payload: {} });
  assert.equal((await api.infoOk(other)).head, 1);
}

test("§9: a second processor-wake key naming the same processor on a stream is 409 processor_already_subscribed, alone or in a batch, commits nothing; the state is the fold of the first key's filter", { timeout: 60_000 }, async () => {
  const P = freshName("counts");
  const Q = freshName("other");
  await define(P);
  await define(Q);
  const S = fresh("two-keys");
  assert.equal((await configureWake(S, "p1", P, ["a"])).status, 201);
  const second = await configureWake(S, "p2", P, ["b"]);
  assert.equal(second.status, 409, JSON.stringify(second.body));
  assert.equal(second.body.error.code, "processor_already_subscribed");
  assert.equal(second.body.error.details.subscriptionKey, "p1", "names the key that runs it");
  assert.equal(second.body.error.details.processor, P);
  const batch = await api.append(S, {
    events: [
      { type: CONFIGURED, payload: { subscriptionKey: "q1", filter: { eventTypes: ["a"] }, receiver: wake(Q) } },
      { type: CONFIGURED, payload: { subscriptionKey: "q2", filter: { eventTypes: ["b"] }, receiver: wake(Q) } },
    ],
  });
  assert.equal(batch.status, 409, JSON.stringify(batch.body));
  assert.equal(batch.body.error.code, "processor_already_subscribed");
  let info = await api.infoOk(S);
  assert.equal(info.head, 1, "nothing of either refusal was committed");
  assert.deepEqual(Object.keys(info.state.subscriptions.outbound.byKey), ["p1"]);
  // Replacing the same key is allowed.
  assert.equal((await configureWake(S, "p1", P, ["a"])).status, 201);
  // Ten of each type: the instance folds p1's filter only.
  const events = [];
  for (let i = 0; i < 10; i++) events.push({ type: "a", payload: { i } }, { type: "b", payload: { i } });
  await api.batchOk(S, events);
  info = await api.infoOk(S);
  const state = await eventually(
    async () => {
      const res = await t.request("GET", streamUrl(S, `processors/${P}`));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.checkpointOffset, info.head, JSON.stringify(res.body));
      return res.body;
    },
    { what: `processor ${P} caught up on ${S}`, ...WAIT },
  );
  assert.deepEqual(state.state, { a: 10, b: 0 });
  await anotherStreamAnswers();
});

test("§9: GET /v1/processors is paged in name order (?after=&limit=, nextAfter null on the last page); a bad limit is 400; another project lists none of them", { timeout: 60_000 }, async () => {
  const prefix = `zz-page-${++counter}-`;
  for (const suffix of ["e", "a", "c", "b", "d"]) await define(`${prefix}${suffix}`);
  const page = (query) => t.request("GET", `/v1/processors?${query}`);
  let res = await page(`after=${prefix}&limit=2`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ["nextAfter", "processors"]);
  assert.deepEqual(res.body.processors.map((p) => p.name), [`${prefix}a`, `${prefix}b`]);
  assert.deepEqual(Object.keys(res.body.processors[0]).sort(), ["definedAt", "description", "kind", "name", "version"]);
  assert.equal(res.body.nextAfter, `${prefix}b`);
  res = await page(`after=${encodeURIComponent(res.body.nextAfter)}&limit=2`);
  assert.deepEqual(res.body.processors.map((p) => p.name), [`${prefix}c`, `${prefix}d`]);
  res = await page(`after=${encodeURIComponent(res.body.nextAfter)}&limit=2`);
  assert.deepEqual(res.body.processors.map((p) => p.name), [`${prefix}e`]);
  assert.equal(res.body.nextAfter, null);
  for (const query of ["limit=0", "limit=1001", "limit=many", "bogus=1"]) {
    const bad = await page(query);
    assert.equal(bad.status, 400, `${query}: ${JSON.stringify(bad.body)}`);
    assert.equal(bad.body.error.code, "invalid_parameter");
  }
  const other = await t.request("GET", `/v1/processors?after=${prefix}`, { token: OTHER_TOKEN });
  assert.equal(other.status, 200, JSON.stringify(other.body));
  assert.ok(!other.body.processors.some((p) => p.name.startsWith(prefix)), "another project's list");
  await anotherStreamAnswers();
});

// --- dead letters -------------------------------------------------------------

const SMALL_RETRY = { maxAttempts: 2, initialBackoffMs: 20, maxBackoffMs: 100 };
const dlUrl = (path, suffix = "") => `${streamUrl(path, "dead-letters")}${suffix}`;
const replay = (path, id) => t.request("POST", dlUrl(path, `/${id}/replay`));

async function configureHook(path, key, hookPath) {
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: key,
      filter: { eventTypes: ["data"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY },
      },
    },
  });
}

const lettersEventually = (path, n) =>
  eventually(
    async () => {
      const res = await t.request("GET", dlUrl(path, "?limit=1000"));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.deadLetters.length, n, JSON.stringify(res.body.deadLetters));
      return res.body.deadLetters;
    },
    { what: `${n} dead letters on ${path}`, ...WAIT },
  );

test("§8/§3: a replay still in flight when its stream is deleted and recreated ends 409 stream_lifetime_ended; the new lifetime's letter with the same id is kept as it was", { timeout: 60_000 }, async () => {
  const S = fresh("replay-fence");
  const oldHook = `${S}/old`;
  const newHook = `${S}/new`;
  const gate = `${S}-gate`;
  // The first delivery is refused (a dead letter); the replay is held at the receiver.
  receiver.script(oldHook, { status: 400 }, { gate, status: 200 });
  receiver.script(newHook, { status: 400 });
  await configureHook(S, "hook", oldHook);
  await api.appendOk(S, { type: "data", payload: { lifetime: 1 } });
  const [old] = await lettersEventually(S, 1);
  const replaying = replay(S, old.id);
  await eventually(() => assert.equal(receiver.received(oldHook).length, 2, "the replay reached the receiver"), {
    what: "replay held at the receiver",
    ...WAIT,
  });
  // Meanwhile: DELETE and a new lifetime that dead-letters an event of its own.
  assert.equal((await api.destroy(S)).status, 204);
  await configureHook(S, "hook", newHook);
  await api.appendOk(S, { type: "data", payload: { lifetime: 2 } });
  const [fresh2] = await lettersEventually(S, 1);
  assert.equal(fresh2.id, old.id, "the new lifetime's letter has the same id");
  assert.deepEqual(fresh2.payload.payload, { lifetime: 2 });
  // The receiver accepts the held replay; its completion is fenced out.
  receiver.release(gate);
  const done = await replaying;
  assert.equal(done.status, 409, JSON.stringify(done.body));
  assert.equal(done.body.error.code, "stream_lifetime_ended");
  const [kept] = await lettersEventually(S, 1);
  assert.deepEqual(kept, fresh2, "the new lifetime's letter is untouched");
  // The new lifetime's own replay still works once its receiver accepts.
  receiver.script(newHook, { status: 200 });
  const own = await replay(S, kept.id);
  assert.equal(own.status, 204, JSON.stringify(own.body));
  await lettersEventually(S, 0);
  await anotherStreamAnswers();
});

test("§13/§8: a dead-lettered event whose retraction was sent is not replayed (409 no_replay_invalidated, naming the invalidation); a letter of a valid event still replays", { timeout: 60_000 }, async () => {
  const S = fresh("replay-invalidated");
  const hook = `${S}/hook`;
  receiver.script(hook, { status: 400 }, { status: 400 }, { status: 200 });
  await configureHook(S, "hook", hook);
  const [e1, e2] = await api.batchOk(S, [
    { type: "data", payload: { i: 1 } },
    { type: "data", payload: { i: 2 } },
  ]);
  const letters = await lettersEventually(S, 2);
  const invalidation = await api.appendOk(S, { type: INVALIDATED, payload: { offsets: [e1.offset], reason: "test" } });
  await eventually(
    () =>
      assert.ok(
        receiver.received(hook).some((r) => r.body?.type === "retracted" && r.body.offset === e1.offset),
        "the retraction of the dead-lettered event was sent",
      ),
    { what: "retraction sent", ...WAIT },
  );
  const invalid = letters.find((l) => l.offset === e1.offset);
  const refused = await replay(S, invalid.id);
  assert.equal(refused.status, 409, JSON.stringify(refused.body));
  assert.equal(refused.body.error.code, "no_replay_invalidated");
  assert.equal(refused.body.error.details.invalidatedAtOffset, invalidation.offset);
  await lettersEventually(S, 2);
  const valid = letters.find((l) => l.offset === e2.offset);
  const replayed = await replay(S, valid.id);
  assert.equal(replayed.status, 204, JSON.stringify(replayed.body));
  await lettersEventually(S, 1);
  await anotherStreamAnswers();
});

