// Shared helpers of the retention end-to-end tests (retention.test.mjs,
// docs/design.md §16): configuring retention, waiting until the alarm's trim
// steps settled (polled on stream info, never after a fixed sleep), reading
// a trimmed stream from its first retained event, the 410 `trimmed` shape,
// and a webhook receiver path that records the offset of every event it
// acknowledged (the receiver keeps at most 10 000 full records; this keeps
// every offset).
import assert from "node:assert/strict";
import { CONTROL, CONFIGURED, eventually } from "./delivery_helpers.mjs";

export const RETENTION = `${CONTROL}retention-configured`;

/** A 410 `trimmed` answer naming `firstOffset` (§16). */
export function assertTrimmed(res, firstOffset, what = "") {
  assert.equal(res.status, 410, `${what} should be 410 trimmed: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.error?.code, "trimmed", `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.details.firstOffset, firstOffset, `${what}: details.firstOffset`);
  assert.equal(typeof res.body.error.message, "string");
}

export function retentionHelpers(api) {
  return {
    /** Appends a `retention-configured` and returns the committed event. */
    retain: (path, payload) => api.appendOk(path, { type: RETENTION, payload }),

    /**
     * Polls stream info until the trim settled: `firstOffset` moved past 1
     * and `settled(info)` holds. Returns the info.
     */
    async trimmedInfo(path, settled = () => true, opts = {}) {
      return eventually(
        async () => {
          const info = await api.infoOk(path);
          assert.ok(info.firstOffset > 1, `firstOffset moved: ${JSON.stringify(info.firstOffset)}`);
          assert.ok(settled(info), `settled: ${JSON.stringify({ ...info, state: undefined })}`);
          return info;
        },
        { what: `${path} trimmed`, timeoutMs: 30_000, ...opts },
      );
    },

    /** Every retained durable event of `path`, paging from `after=earliest`. */
    async readRetained(path) {
      const events = [];
      let query = "after=earliest&limit=1000";
      for (let page = 0; page < 1000; page++) {
        const res = await api.range(path, query);
        assert.equal(res.status, 200, `range read of ${path} (${query}): ${JSON.stringify(res.body)}`);
        events.push(...res.body.events);
        if (res.body.events.length === 0 || res.body.nextAfter >= res.body.head) break;
        query = `after=${res.body.nextAfter}&limit=1000`;
      }
      return events;
    },
  };
}

/** A `subscription-configured` payload: a webhook-post of `data` events to `url`. */
export const webhookSubscription = (subscriptionKey, url, retry = { maxAttempts: 10, initialBackoffMs: 50, maxBackoffMs: 200 }) => ({
  type: CONFIGURED,
  payload: {
    subscriptionKey,
    filter: { eventTypes: ["data"] },
    receiver: { action: "webhook-post", url, delivery: { start: "beginning", onFailingEvent: "halt", retry } },
  },
});

/**
 * Scripts `hookPath` on `receiver` with `answer(record)` (a response spec or
 * null for 200) and records the offset of every event answered 200, in
 * arrival order. Returns {acknowledged: offsets[], firstArrivals(): offsets
 * in the order each first arrived}.
 */
export function recordingHook(receiver, hookPath, answer = () => null) {
  const acknowledged = [];
  receiver.script(hookPath, (record) => {
    const spec = answer(record) ?? { status: 200 };
    if ((spec.status ?? 200) === 200 && spec.gate === undefined) acknowledged.push(record.body?.event?.offset);
    return spec;
  });
  return {
    acknowledged,
    firstArrivals() {
      const seen = new Set();
      return acknowledged.filter((offset) => !seen.has(offset) && seen.add(offset));
    },
  };
}
