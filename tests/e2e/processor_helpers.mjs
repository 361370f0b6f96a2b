// Shared helpers of the hosted-processor tests (processors_fold.test.mjs,
// processors_definitions.test.mjs; docs/design.md §9): the running-totals reducer
// and its plain JavaScript fold, deterministic order events, the processor
// API (/v1/processors and a stream's -/processors/{name}), and the
// processor-wake subscriptions and halt facts on a stream.
import assert from "node:assert/strict";
import { streamUrl } from "./harness.mjs";
import { CONFIGURED, HALTED, eventually, streamApi } from "./delivery_helpers.mjs";

let counter = 0;
/** A stream path no other test uses. */
export const fresh = (name) => `/e2e-processors/${name}-${++counter}`;
/** A processor name no other test uses ([A-Za-z0-9._-]{1,64}). */
export const freshName = (name) => `${name}-${++counter}`;

// ---------------------------------------------------------------------------
// Reducers and their plain JavaScript folds
// ---------------------------------------------------------------------------

/** JSONata: running totals per customer. */
export const TOTALS =
  "$merge([$state, {$event.payload.customer: ($lookup($state, $event.payload.customer) ? $lookup($state, $event.payload.customer) : 0) + $event.payload.amount}])";
export const foldTotals = (events, initial = {}) =>
  events.reduce((state, e) => ({ ...state, [e.payload.customer]: (state[e.payload.customer] ?? 0) + e.payload.amount }), initial);

const CUSTOMERS = ["ada", "bob", "cy", "dee", "eve"];

/** A small deterministic generator (LCG) so each run appends the same orders. */
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `n` order events (integer amounts 1..100), with a `note` event after every `noiseEvery`-th one. */
export function orderEvents(n, seed, { noiseEvery = 0, idempotencyPrefix } = {}) {
  const random = generator(seed);
  const events = [];
  for (let i = 0; i < n; i++) {
    const order = {
      type: "order",
      payload: { customer: CUSTOMERS[Math.floor(random() * CUSTOMERS.length)], amount: 1 + Math.floor(random() * 100), i },
    };
    if (idempotencyPrefix) order.idempotencyKey = `${idempotencyPrefix}-${i}`;
    events.push(order);
    if (noiseEvery && i % noiseEvery === noiseEvery - 1) events.push({ type: "note", payload: { customer: "ada", amount: 1_000_000 } });
  }
  return events;
}

export const order = (customer, amount) => ({ type: "order", payload: { customer, amount } });

// ---------------------------------------------------------------------------
// Client helpers
// ---------------------------------------------------------------------------

/** The processor-wake receiver naming `name`. */
export const wake = (name) => ({ action: "processor-wake", expression: ["processors", name, "wake"] });

/** The processor API over a requester (the harness handle or a client of a server URL). */
export function processorApi(requester) {
  const request = (...args) => requester.request(...args);
  const papi = {
    put: (name, body, opts = {}) => request("PUT", `/v1/processors/${name}`, { body, ...opts }),
    get: (name, opts = {}) => request("GET", `/v1/processors/${name}`, opts),
    list: (opts = {}) => request("GET", "/v1/processors", opts),
    remove: (name, opts = {}) => request("DELETE", `/v1/processors/${name}`, opts),
    state: (path, name, opts = {}) => request("GET", streamUrl(path, `processors/${name}`), opts),

    async defineOk(name, { initialState, reducer, description }) {
      const body = { kind: "jsonata-reducer", initialState, reducer };
      if (description !== undefined) body.description = description;
      const res = await papi.put(name, body);
      assert.equal(res.status, 200, `PUT /v1/processors/${name}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async stateOk(path, name) {
      const res = await papi.state(path, name);
      assert.equal(res.status, 200, `state of ${name} on ${path}: ${JSON.stringify(res.body).slice(0, 500)}`);
      return res.body;
    },
    /** Polls until the instance's checkpoint is the stream's head (lag 0), optionally at `version`. */
    async caughtUp(streams, path, name, { version, timeoutMs = 20_000 } = {}) {
      return eventually(
        async () => {
          const info = await streams.infoOk(path);
          const state = await papi.stateOk(path, name);
          if (version !== undefined) assert.equal(state.version, version, "definition version");
          assert.equal(state.streamId, info.streamId, "the current lifetime");
          assert.equal(state.checkpointOffset, info.head, `checkpoint at the head ${info.head}: ${JSON.stringify({ ...state, state: undefined })}`);
          assert.equal(state.lag, 0);
          return state;
        },
        { what: `processor ${name} on ${path} caught up`, timeoutMs, intervalMs: 100 },
      );
    },
  };
  return papi;
}

/**
 * Processor-wake subscriptions and their halt facts on the streams of one
 * file's Tributary: `tributary()` returns that file's harness handle
 * (started in its `before`).
 */
export function wakeSubscriptions(tributary) {
  const api = streamApi({ request: (...args) => tributary().request(...args) });

  /** Appends the processor-wake subscription `key` → `name` on `path`. */
  async function configure(path, key, name, filter) {
    const payload = { subscriptionKey: key, receiver: wake(name) };
    if (filter !== undefined) payload.filter = filter;
    return api.appendOk(path, { type: CONFIGURED, payload });
  }

  /** Polls until `path` holds `count` halt facts; returns them. */
  async function haltFacts(path, count, what = `halt fact on ${path}`) {
    return eventually(
      async () => {
        const facts = await api.eventsOfType(path, HALTED);
        assert.equal(facts.length, count, `${facts.length} halt facts, expected ${count}`);
        return facts;
      },
      { what, timeoutMs: 20_000, intervalMs: 100 },
    );
  }

  return { configure, haltFacts };
}
