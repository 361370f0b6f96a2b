// Shared helpers of the durable-subscription configuration tests
// (subscriptions_configure.test.mjs, subscriptions_subscribe_from.test.mjs,
// subscriptions_bad_input.test.mjs; docs/design.md §2, §4, §5, §6, §11):
// receivers that never send, the requests those tests make, snapshots of
// everything a request could have committed, and the §6 runtime-row checks.
//
// Every subscription those files configure is filtered to nothing (never())
// or has nothing after its start cursor, so nothing is ever sent; the alarm
// still advances such a cursor over the events its filter rejects (§6 rule 2)
// at a moment no test controls, hence assertUnsentRuntime's cursor bounds and
// snapshot()'s wait until delivery has settled (quiescent).
import assert from "node:assert/strict";
import { streamUrl } from "./harness.mjs";
import { CONFIGURED, eventually } from "./delivery_helpers.mjs";

export let counter = 0;
/** A stream path no other test uses. */
export const fresh = (name) => `/e2e-subs/${name}-${++counter}`;

export const RFC3339_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|\+00:00)$/;

// --- receivers ---------------------------------------------------------------

/** A filter that matches nothing: no test appends an event of type "never". */
export const never = () => ({ eventTypes: ["never"] });

/** Names processor "p", which a file using it defines in its `before` (§9: an undefined one is refused). */
export const processorWake = () => ({ action: "processor-wake", expression: ["processors", "p", "wake"] });
export const copyTo = (receivingStreamPath, start = "beginning") => ({
  action: "copy-to-stream",
  receivingStreamPath,
  delivery: { start, onFailingEvent: "halt" },
});
export const itxCall = (start = "beginning") => ({
  action: "itx-call",
  expression: ["services", "X", "m"],
  delivery: { start, onFailingEvent: "skip" },
});
export const webhookPost = () => ({
  action: "webhook-post",
  url: "https://example.com/hook",
  delivery: {
    start: "now",
    onFailingEvent: "skip",
    retry: { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 100 },
    timeoutMs: 5000,
  },
});

export const configureEvent = (payload, extra = {}) => ({ type: CONFIGURED, payload, ...extra });

// --- checks --------------------------------------------------------------------

export function assertError(res, status, code, field) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body, "object", `error body must be JSON: ${res.body}`);
  assert.ok(res.body && res.body.error, `error body must have "error": ${JSON.stringify(res.body)}`);
  if (code) assert.equal(res.body.error.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, "string");
  assert.equal(typeof res.body.error.details, "object");
  if (field) assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
}

const RUNTIME_FIELDS = [
  "runOffset",
  "acknowledgedOffset",
  "lag",
  "attempt",
  "nextAttemptAt",
  "inFlightDeadlineAt",
  "lastError",
  "bytesSent",
];

/** The runtime fields of §6 that stay put while nothing is ever sent. */
export function assertNothingSent(runtime) {
  assert.ok(runtime && typeof runtime === "object", `runtime row present: ${JSON.stringify(runtime)}`);
  for (const field of RUNTIME_FIELDS) assert.ok(field in runtime, `runtime.${field} present`);
  assert.equal(runtime.attempt, 0, "attempt");
  assert.equal(runtime.nextAttemptAt, null, "nextAttemptAt");
  assert.equal(runtime.inFlightDeadlineAt, null, "inFlightDeadlineAt");
  assert.equal(runtime.lastError, null, "lastError");
  assert.equal(runtime.bytesSent, 0, "bytesSent");
}

/**
 * The exact idle runtime row of §6, for a row the alarm cannot move: a
 * processor-wake subscription (never delivered by the spine), or one whose
 * cursor already is at the head (start "now" with nothing appended since).
 */
export function assertIdleRuntime(runtime, { runOffset, acknowledgedOffset, lag }) {
  assertNothingSent(runtime);
  assert.equal(runtime.runOffset, runOffset, "runOffset");
  assert.equal(runtime.acknowledgedOffset, acknowledgedOffset, "acknowledgedOffset");
  assert.equal(runtime.lag, lag, "lag");
}

/**
 * The runtime row of a subscription that sends nothing (its filter matches
 * nothing) but whose cursor the alarm may already have advanced over the
 * rejected events (§6 rule 2): the cursor lies between the run's start
 * cursor and the head, and lag = head − cursor.
 */
export function assertUnsentRuntime(runtime, { runOffset, startCursor, head }) {
  assertNothingSent(runtime);
  assert.equal(runtime.runOffset, runOffset, "runOffset");
  const cursor = runtime.acknowledgedOffset;
  assert.ok(
    Number.isInteger(cursor) && cursor >= startCursor && cursor <= head,
    `acknowledgedOffset ${cursor} within [${startCursor}, ${head}]`,
  );
  assert.equal(runtime.lag, head - cursor, "lag = head − acknowledgedOffset");
}

/** Subscriptions the delivery spine works on (§6): not processor-wake, not halted. */
const delivered = (s) => s.configuration.receiver.action !== "processor-wake" && s.deliveryHalted === undefined;

// --- requests ----------------------------------------------------------------

/**
 * The requests of these tests against one file's Tributary: `tributary()`
 * returns that file's harness handle (started in its `before`).
 */
export function subscriptionRequests(tributary) {
  const send = (...args) => tributary().request(...args);

  const append = (path, body, opts = {}) => send("POST", streamUrl(path, "events"), { body, ...opts });
  const info = (path, opts = {}) => send("GET", streamUrl(path), opts);
  const card = (path, opts = {}) => send("GET", streamUrl(path, "subscriptions"), opts);
  const range = (path, query = "", opts = {}) =>
    send("GET", `${streamUrl(path, "events")}${query ? `?${query}` : ""}`, opts);
  const subscribeFrom = (receivingPath, body, opts = {}) =>
    send("POST", streamUrl(receivingPath, "subscribe-from"), { body, ...opts });

  const configure = (path, payload, extra, opts) => append(path, configureEvent(payload, extra), opts);

  async function appendOk(path, event, opts) {
    const res = await append(path, event, opts);
    assert.equal(res.status, 201, `append should be 201: ${JSON.stringify(res.body)}`);
    return res.body.event;
  }

  async function batchOk(path, events, opts) {
    const res = await append(path, { events }, opts);
    assert.equal(res.status, 201, `batch append should be 201: ${JSON.stringify(res.body)}`);
    return res.body.events;
  }

  const configureOk = (path, payload, extra, opts) => appendOk(path, configureEvent(payload, extra), opts);

  async function infoOk(path, opts) {
    const res = await info(path, opts);
    assert.equal(res.status, 200, `info should be 200: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function byKey(path, opts) {
    return (await infoOk(path, opts)).state.subscriptions.outbound.byKey;
  }

  async function cardOk(path, opts) {
    const res = await card(path, opts);
    assert.equal(res.status, 200, `debug card should be 200: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function cardEntry(path, key) {
    const c = await cardOk(path);
    return c.subscriptions.find((s) => s.subscriptionKey === key);
  }

  /**
   * Waits until the alarm has nothing left to do on `path`: every delivered
   * subscription's cursor is at the head, nothing in flight or scheduled. For
   * the subscriptions of these files (filtered to nothing, or with nothing
   * after their start) that is the cursor passing the events the filter rejects.
   */
  async function quiescent(path) {
    return eventually(
      async () => {
        const res = await card(path);
        if (res.status === 404) return;
        assert.equal(res.status, 200, JSON.stringify(res.body));
        for (const s of res.body.subscriptions.filter(delivered)) {
          assert.equal(s.runtime.lag, 0, `${s.subscriptionKey} lag 0: ${JSON.stringify(s.runtime)}`);
          assert.equal(s.runtime.inFlightDeadlineAt, null, `${s.subscriptionKey} nothing in flight`);
          assert.equal(s.runtime.nextAttemptAt, null, `${s.subscriptionKey} nothing scheduled`);
        }
      },
      { what: `delivery on ${path} to settle` },
    );
  }

  /** Everything a request could have committed to a stream (taken once delivery has settled). */
  async function snapshot(path) {
    await quiescent(path);
    const i = await info(path);
    if (i.status === 404) {
      assert.equal(i.body.error.code, "stream_not_found");
      return { exists: false };
    }
    assert.equal(i.status, 200);
    const events = await range(path, "limit=1000&includeEphemeral=true");
    return {
      exists: true,
      head: i.body.head,
      eventCount: i.body.eventCount,
      streamId: i.body.streamId,
      state: i.body.state,
      events: events.body.events,
      card: await cardOk(path),
    };
  }

  /** Runs `request`, asserts the §2 error, and that nothing on `paths` moved. */
  async function rejectsAndCommitsNothing(paths, request, status, code, field) {
    const before = await Promise.all(paths.map(snapshot));
    const res = await request();
    assertError(res, status, code, field);
    const after = await Promise.all(paths.map(snapshot));
    for (let n = 0; n < paths.length; n++) {
      assert.deepEqual(after[n], before[n], `nothing committed on ${paths[n]}`);
    }
    return res;
  }

  /** A source stream holding `n` ordinary events. */
  async function seeded(name, n = 1) {
    const path = fresh(name);
    await batchOk(path, Array.from({ length: n }, (_, i) => ({ type: "seed", payload: i + 1 })));
    return path;
  }

  return {
    append,
    info,
    card,
    range,
    subscribeFrom,
    configure,
    appendOk,
    batchOk,
    configureOk,
    infoOk,
    byKey,
    cardOk,
    cardEntry,
    quiescent,
    snapshot,
    rejectsAndCommitsNothing,
    seeded,
  };
}
