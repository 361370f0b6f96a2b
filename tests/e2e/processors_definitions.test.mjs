// End-to-end processor definitions and what is refused (docs/design.md §9, §2,
// §12) against the built worker running in workerd: malformed definitions
// and names (422 naming the field, 400), processor-wake subscriptions naming
// an undefined processor or an invalid name (refused before the append,
// never resolved to another processor), hostile reducers (step bombs,
// oversized states) that are accepted but halt delivery while the worker
// keeps serving, and definitions private to their project. Folding itself is
// in processors_fold.test.mjs.
//
// Delivery is asynchronous (the stream's alarm), so every expectation about
// folded state or halts is polled for with a bounded wait (`eventually`),
// never asserted after a fixed sleep. One Tributary per file; every test
// uses its own processor names and stream paths.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, OTHER_TOKEN } from "./harness.mjs";
import { CONFIGURED, streamApi } from "./delivery_helpers.mjs";
import {
  fresh,
  freshName,
  TOTALS,
  foldTotals,
  orderEvents,
  order,
  wake,
  processorApi,
  wakeSubscriptions,
} from "./processor_helpers.mjs";

let t;
let api;
before(async () => {
  t = await startTributary();
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
});

let papi;
before(() => {
  papi = processorApi({ request: (...args) => t.request(...args) });
});

const { configure, haltFacts } = wakeSubscriptions(() => t);

const STATE_LIMIT = 262_144;

// ---------------------------------------------------------------------------
// 1. Bad input
// ---------------------------------------------------------------------------

test("§9 bad input: malformed definitions are refused naming the field (422), malformed JSON and bad names 400; a refused PUT leaves the stored definition as it was", { timeout: 60_000 }, async () => {
  const P = freshName("validated");
  const good = { kind: "jsonata-reducer", initialState: { n: 0 }, reducer: "{'n': $state.n + 1}" };
  const v1 = await papi.defineOk(P, good);

  const cases = [
    ["kind missing", { initialState: 0, reducer: "1" }, 422, "kind"],
    ["kind unknown", { ...good, kind: "wasm" }, 422, "kind"],
    ["initialState missing", { kind: "jsonata-reducer", reducer: "1" }, 422, "initialState"],
    ["initialState over 256 KiB", { ...good, initialState: "x".repeat(STATE_LIMIT + 10) }, 422, "initialState"],
    ["reducer missing", { kind: "jsonata-reducer", initialState: 0 }, 422, "reducer"],
    ["reducer not a string", { ...good, reducer: 42 }, 422, "reducer"],
    ["reducer not JSONata", { ...good, reducer: "$state + (" }, 422, "reducer"],
    ["reducer calls $now", { ...good, reducer: "{'n': $state.n, 'at': $now()}" }, 422, "reducer"],
    ["reducer calls $millis", { ...good, reducer: "$state.n + $millis()" }, 422, "reducer"],
    ["reducer calls $random", { ...good, reducer: "$random() > 0.5 ? $state : {}" }, 422, "reducer"],
    ["description not a string", { ...good, description: 7 }, 422, "description"],
    ["unknown field", { ...good, extra: true }, 422, "body"],
    ["body an array", [good], 422, "body"],
  ];
  for (const [label, body, status, field] of cases) {
    const res = await papi.put(P, body);
    assert.equal(res.status, status, `${label}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.details.field, field, `${label}: details.field`);
    assert.equal(typeof res.body.error.message, "string");
  }
  for (const fn of ["$now", "$millis", "$random"]) {
    const res = await papi.put(P, { ...good, reducer: `${fn}()` });
    assert.match(res.body.error.message, new RegExp(`\\${fn}`), `${fn} named in the refusal`);
  }
  const malformed = await t.request("PUT", `/v1/processors/${P}`, { rawBody: "{\"kind\": ", headers: { "content-type": "application/json" } });
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.code, "malformed_json");

  const badNames = ["a%20b", "x".repeat(65), "%C3%A4", "a%2Fb", "a:b", "a*"];
  for (const name of badNames) {
    const res = await papi.put(name, good);
    assert.equal(res.status, 400, `name ${name}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.code, "invalid_processor_name", `name ${name}`);
  }
  const okNames = ["A.b_c-9", "x".repeat(64)];
  for (const name of okNames) {
    assert.equal((await papi.put(name, good)).status, 200, `name ${name} is valid`);
    assert.equal((await papi.remove(name)).status, 204);
  }

  // Nothing above changed the stored definition.
  assert.deepEqual((await papi.get(P)).body, v1);
  assert.equal((await papi.get(freshName("never"))).status, 404);
  assert.equal((await t.request("POST", `/v1/processors/${P}`, { body: good })).status, 405);
  assert.equal((await t.request("GET", "/v1/processors", { token: null })).status, 401);
});

test("§9: a processor-wake subscription naming an undefined processor is refused before the append (422 unknown_processor, details.field receiver.expression): nothing is committed, alone or in a batch; malformed expressions, a transform or a start are refused too", { timeout: 60_000 }, async () => {
  const P = freshName("known");
  await papi.defineOk(P, { initialState: 0, reducer: "$state + 1" });
  const S = fresh("unknown");
  await api.appendOk(S, { type: "note", payload: {} });
  const before = await api.infoOk(S);
  const configuredWith = (receiver) => ({ type: CONFIGURED, payload: { subscriptionKey: "k", receiver } });

  const unknown = await api.append(S, configuredWith(wake("no-such-processor")));
  assert.equal(unknown.status, 422, JSON.stringify(unknown.body));
  assert.equal(unknown.body.error.code, "unknown_processor");
  assert.equal(unknown.body.error.details.field, "receiver.expression");
  const batch = await api.append(S, { events: [{ type: "note", payload: {} }, configuredWith(wake("no-such-processor"))] });
  assert.equal(batch.status, 422);
  assert.equal(batch.body.error.code, "unknown_processor");
  const absent = fresh("never-created");
  assert.equal((await api.append(absent, configuredWith(wake("no-such-processor")))).status, 422);
  assert.equal((await api.info(absent)).status, 404, "a refused first append creates no stream");

  for (const [label, receiver] of [
    ["two elements", { action: "processor-wake", expression: ["processors", P] }],
    ["wrong verb", { action: "processor-wake", expression: ["processors", P, "poke"] }],
    ["not an array", { action: "processor-wake", expression: P }],
    ["with a transform", { ...wake(P), jsonataTransform: "payload" }],
    ["with a delivery start", { ...wake(P), delivery: { start: "now", onFailingEvent: "halt" } }],
  ]) {
    const res = await api.append(S, configuredWith(receiver));
    assert.equal(res.status, 422, `${label}: ${JSON.stringify(res.body)}`);
    assert.match(res.body.error.details.field, /^receiver\./, `${label}: details.field`);
  }

  const after = await api.infoOk(S);
  assert.equal(after.head, before.head, "nothing committed");
  assert.deepEqual(after.state.subscriptions.outbound.byKey, {});
  assert.deepEqual((await api.cardOk(S)).subscriptions, []);
});

test("§9: an expression whose NAME is not a valid processor name ([A-Za-z0-9._-]{1,64}) is refused at configure time (422, details.field receiver.expression) — never a 5xx, and never resolved to another processor through URL normalisation (\"P?x\", \"P#x\", percent-escapes, dot segments all alias P)", { timeout: 30_000 }, async () => {
  const P = freshName("aliased");
  await papi.defineOk(P, { initialState: 0, reducer: "$state + 1" });
  const S = fresh("bad-name-expression");
  await api.appendOk(S, { type: "note", payload: {} });
  const before = await api.infoOk(S);
  const percentEscaped = `%${P.charCodeAt(0).toString(16)}${P.slice(1)}`;
  const problems = [];
  for (const name of ["a b", "x".repeat(65), "", ".", `${P}?x`, `${P}#x`, percentEscaped, `x/../${P}`, `./${P}`]) {
    const res = await api.append(S, { type: CONFIGURED, payload: { subscriptionKey: "k", receiver: wake(name) } });
    if (res.status !== 422 || res.body?.error?.details?.field !== "receiver.expression") {
      problems.push(`${JSON.stringify(name)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
  }
  // The state route refuses an invalid name as a client error too (not a 502, not an alias's instance).
  for (const name of ["a b", `${P}?x`, "."]) {
    const res = await papi.state(S, encodeURIComponent(name));
    if (![400, 404].includes(res.status)) problems.push(`GET -/processors/${encodeURIComponent(name)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  const after = await api.infoOk(S);
  assert.equal(problems.length, 0, `every invalid name refused as a client error (422 receiver.expression on configure):\n${problems.join("\n")}`);
  assert.equal(after.head, before.head, "nothing committed");
});

test("§9, §12: hostile reducers are accepted at definition time but halt delivery — a recursion bomb with U1001 (step budget), a state over 256 KiB with the size in the error (the last good state kept) — and the worker keeps serving other streams", { timeout: 90_000 }, async () => {
  const BOMB = freshName("bomb");
  const LOOP = freshName("loop");
  const BIG = freshName("big");
  const HEALTHY = freshName("healthy");
  assert.equal((await papi.defineOk(BOMB, { initialState: 0, reducer: "($f := function($n){ $f($n+1) }; $f(0))" })).version, 1);
  await papi.defineOk(LOOP, { initialState: 0, reducer: "$count($map([1..100000], function($v){ $v }))" });
  await papi.defineOk(BIG, { initialState: [], reducer: "$append($state, $pad('', 100000, 'x'))" });
  await papi.defineOk(HEALTHY, { initialState: {}, reducer: TOTALS });

  const bombStream = fresh("bomb");
  const loopStream = fresh("loop");
  const bigStream = fresh("big");
  for (const [path, name] of [
    [bombStream, BOMB],
    [loopStream, LOOP],
    [bigStream, BIG],
  ]) {
    await configure(path, "k", name, { eventTypes: ["order"] });
  }
  await Promise.all([bombStream, loopStream].map((path) => api.batchOk(path, orderEvents(3, 5))));
  const big = await api.batchOk(bigStream, orderEvents(4, 6));

  for (const path of [bombStream, loopStream]) {
    const [halt] = await haltFacts(path, 1);
    assert.match(halt.payload.error, /U1001/, `${path}: the step budget: ${halt.payload.error}`);
    assert.equal(halt.payload.attempts, 1);
    assert.ok(halt.payload.afterOffset < 2, `halted at the first order (offset 2): ${halt.payload.afterOffset}`);
    const state = await papi.stateOk(path, path === bombStream ? BOMB : LOOP);
    assert.equal(state.state, 0, "the initial state is kept");
  }

  const [bigHalt] = await haltFacts(bigStream, 1);
  assert.match(bigHalt.payload.error, /262144/, `the limit is named: ${bigHalt.payload.error}`);
  assert.match(bigHalt.payload.error, new RegExp(`offset ${big[2].offset}\\b`), "the event whose result was too large");
  assert.equal(bigHalt.payload.afterOffset, big[1].offset);
  const bigState = await papi.stateOk(bigStream, BIG);
  assert.equal(bigState.checkpointOffset, big[1].offset);
  assert.equal(bigState.state.length, 2, "two 100 KB strings: the last state under the limit");
  assert.ok(bigState.state.every((s) => s.length === 100_000));

  // The worker still serves: a healthy processor on another stream folds.
  const ok = fresh("healthy");
  await configure(ok, "k", HEALTHY, { eventTypes: ["order"] });
  const events = await api.batchOk(ok, orderEvents(30, 8));
  const state = await papi.caughtUp(api, ok, HEALTHY);
  assert.deepEqual(state.state, foldTotals(events));
  assert.equal((await papi.stateOk(bigStream, BIG)).checkpointOffset, big[1].offset, "the halted one stays put");
});

test("§9, §2: definitions belong to their project — another project's token lists none, reads none, cannot configure them, and cannot see a stream's instance", { timeout: 30_000 }, async () => {
  const P = freshName("private");
  const S = fresh("private");
  await papi.defineOk(P, { initialState: {}, reducer: TOTALS });
  await configure(S, "k", P, { eventTypes: ["order"] });
  await api.appendOk(S, order("ada", 1));
  await papi.caughtUp(api, S, P);

  const listed = await papi.list({ token: OTHER_TOKEN });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.processors, [], "project-b defines nothing");
  assert.ok((await papi.list()).body.processors.some((p) => p.name === P), "project-a still lists it");
  const read = await papi.get(P, { token: OTHER_TOKEN });
  assert.equal(read.status, 404);
  assert.equal(read.body.error.code, "processor_not_found");
  assert.equal((await papi.remove(P, { token: OTHER_TOKEN })).status, 404, "and cannot delete it");
  assert.equal((await papi.get(P)).status, 200, "still defined for project-a");

  const configured = await api.append(S, { type: CONFIGURED, payload: { subscriptionKey: "k", receiver: wake(P) } }, { token: OTHER_TOKEN });
  assert.equal(configured.status, 422);
  assert.equal(configured.body.error.code, "unknown_processor");
  assert.equal((await papi.state(S, P, { token: OTHER_TOKEN })).status, 404);
  assert.equal((await papi.state(S, P, { token: null })).status, 401);
});
