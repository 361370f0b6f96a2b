// Shared helpers of the delivery end-to-end tests (copy.test.mjs,
// crash.test.mjs): a JSON client over any base URL, the stream requests the
// tests use, full paging reads, and bounded polling. Delivery is
// asynchronous (the source stream's alarm sends batches after an append), so
// every expectation about delivered state is polled for with a bounded wait —
// never asserted after a fixed sleep.
import assert from "node:assert/strict";
import { TOKEN, streamUrl } from "./harness.mjs";

export const CONTROL = "events.iterate.com/stream/";
export const CONFIGURED = `${CONTROL}subscription-configured`;
export const REMOVED = `${CONTROL}subscription-removed`;
export const CURSOR_SET = `${CONTROL}subscription-cursor-set`;
export const RESUMED = `${CONTROL}subscription-delivery-resumed`;
export const HALTED = `${CONTROL}subscription-delivery-halted`;
export const ERROR_OCCURRED = `${CONTROL}error-occurred`;

export const HOP_FIELDS = [
  "createdAt",
  "cursorChangedAtSourceOffset",
  "offset",
  "path",
  "projectId",
  "streamCreatedAt",
  "streamId",
  "subscriptionKey",
  "type",
];

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Raw JSON request against `baseUrl()`: {status, body, headers}. */
export async function rawRequest(baseUrl, method, path, { body, token = TOKEN, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (token !== null) init.headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text.length ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers };
}

/**
 * Polls `probe` every `intervalMs` until it returns without throwing (an
 * assertion inside it failing means "not yet"), for at most `timeoutMs`.
 * Returns the probe's value; on timeout, rethrows the last failure with the
 * description prefixed.
 */
export async function eventually(probe, { timeoutMs = 15_000, intervalMs = 75, what = "condition" } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const message = `timed out after ${timeoutMs} ms waiting for ${what}: ${lastError?.message ?? lastError}`;
      const wrapped = new assert.AssertionError({ message });
      wrapped.cause = lastError;
      throw wrapped;
    }
    await sleep(intervalMs);
  }
}

/** The copy chain of a committed event (empty for an original event). */
export const chainOf = (event) => event?.source?.copiedFrom ?? [];
/** The immediate-source hop of a copy. */
export const lastHop = (event) => chainOf(event).at(-1);

/**
 * The stream API of §3/§5/§11 over a requester with
 * `request(method, path, opts)` (the harness handle, or a client of a URL).
 */
export function streamApi(requester) {
  const request = (...args) => requester.request(...args);
  const api = {
    request,
    append: (path, body, opts = {}) => request("POST", streamUrl(path, "events"), { body, ...opts }),
    info: (path, opts = {}) => request("GET", streamUrl(path), opts),
    destroy: (path, opts = {}) => request("DELETE", streamUrl(path), opts),
    card: (path, opts = {}) => request("GET", streamUrl(path, "subscriptions"), opts),
    metrics: (path, opts = {}) => request("GET", streamUrl(path, "metrics"), opts),
    range: (path, query = "", opts = {}) =>
      request("GET", `${streamUrl(path, "events")}${query ? `?${query}` : ""}`, opts),
    subscribeFrom: (receivingPath, body, opts = {}) =>
      request("POST", streamUrl(receivingPath, "subscribe-from"), { body, ...opts }),

    async appendOk(path, event, opts) {
      const res = await api.append(path, event, opts);
      assert.equal(res.status, 201, `append to ${path} should be 201: ${JSON.stringify(res.body)}`);
      return res.body.event;
    },
    async batchOk(path, events, opts) {
      const res = await api.append(path, { events }, opts);
      assert.equal(res.status, 201, `batch append to ${path} should be 201: ${JSON.stringify(res.body)}`);
      return res.body.events;
    },
    async infoOk(path, opts) {
      const res = await api.info(path, opts);
      assert.equal(res.status, 200, `info of ${path} should be 200: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async cardOk(path, opts) {
      const res = await api.card(path, opts);
      assert.equal(res.status, 200, `debug card of ${path} should be 200: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async cardEntry(path, key) {
      const card = await api.cardOk(path);
      const entry = card.subscriptions.find((s) => s.subscriptionKey === key);
      assert.ok(entry, `subscription ${key} on ${path}: ${JSON.stringify(card.subscriptions.map((s) => s.subscriptionKey))}`);
      return entry;
    },
    async subscribeFromOk(receivingPath, body) {
      const res = await api.subscribeFrom(receivingPath, body);
      assert.equal(res.status, 201, `subscribe-from on ${receivingPath} should be 201: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    /** Prometheus counters of a stream as {name: number}. */
    async metricsOk(path) {
      const res = await api.metrics(path);
      assert.equal(res.status, 200, `metrics of ${path} should be 200: ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body, "string");
      const values = {};
      for (const line of res.body.split("\n")) {
        const match = /^([a-z_]+)\s+(\d+)$/.exec(line.trim());
        if (match) values[match[1]] = Number(match[2]);
      }
      return values;
    },
    /**
     * Every durable event of `path` (paging through range reads of up to
     * 1000), with the head observed by the last page. A stream that does not
     * exist reads as empty.
     */
    async readAll(path) {
      const events = [];
      let after = 0;
      let head = 0;
      for (let page = 0; page < 10_000; page++) {
        const res = await api.range(path, `after=${after}&limit=1000`);
        if (res.status === 404 && page === 0) return { head: 0, events: [], exists: false };
        assert.equal(res.status, 200, `range read of ${path}: ${JSON.stringify(res.body)}`);
        head = res.body.head;
        events.push(...res.body.events);
        if (res.body.events.length === 0 || res.body.nextAfter >= head) break;
        assert.ok(res.body.nextAfter > after, "nextAfter moves forward");
        after = res.body.nextAfter;
      }
      for (let n = 1; n < events.length; n++) {
        assert.ok(events[n].offset > events[n - 1].offset, `offsets ascend on ${path}`);
      }
      return { head, events, exists: true };
    },
    /** Events of `path` whose type is `type`. */
    async eventsOfType(path, type) {
      return (await api.readAll(path)).events.filter((e) => e.type === type);
    },
    /** Polls until the subscription `key` on `source` has caught up with the head (lag 0, nothing in flight). */
    async caughtUp(source, key, opts = {}) {
      return eventually(
        async () => {
          const info = await api.infoOk(source);
          const entry = await api.cardEntry(source, key);
          assert.equal(entry.deliveryHalted, undefined, `not halted: ${JSON.stringify(entry.deliveryHalted)}`);
          assert.equal(entry.runtime.lag, 0, `lag 0: ${JSON.stringify(entry.runtime)}`);
          assert.equal(entry.runtime.acknowledgedOffset, info.head, "acknowledgedOffset = head");
          assert.equal(entry.runtime.inFlightDeadlineAt, null, "nothing in flight");
          return entry;
        },
        { what: `${source} → ${key} caught up`, ...opts },
      );
    },
  };
  return api;
}

/** A subscription's copy-to-stream receiver, as a `subscription-configured` payload has it. */
export const copyReceiver = (receivingStreamPath, { start = "beginning", jsonataTransform, retry } = {}) => {
  const receiver = { action: "copy-to-stream", receivingStreamPath, delivery: { start, onFailingEvent: "halt" } };
  if (jsonataTransform !== undefined) receiver.jsonataTransform = jsonataTransform;
  if (retry !== undefined) receiver.delivery.retry = retry;
  return receiver;
};

/** `n` data events `{type: "data", payload: {i}, metadata: {m: i}}` numbered from `from`. */
export const dataEvents = (n, from = 0, extra = () => ({})) =>
  Array.from({ length: n }, (_, k) => ({
    type: "data",
    payload: { i: from + k },
    metadata: { m: from + k },
    ...extra(from + k),
  }));
