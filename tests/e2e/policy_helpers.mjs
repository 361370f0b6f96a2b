// Shared helpers of the delivery-policy tests (policies_dead_letters.test.mjs,
// policies_throttle_aggregate.test.mjs, policies_validation.test.mjs;
// docs/design.md §6, §8, §9): webhook subscriptions whose signing secret the Node
// receiver (tests/e2e/webhook_receiver.mjs) learns, the dead-letter routes,
// and bounded waits on letters, requests and facts. Every wait is polled
// (`eventually`, ≤ 20 s), never a fixed sleep.
import assert from "node:assert/strict";
import { streamUrl } from "./harness.mjs";
import { CONFIGURED, eventually, streamApi } from "./delivery_helpers.mjs";

let counter = 0;
/** A stream path (and receiver path) no other test uses. */
export const fresh = (name) => `/e2e-policies/${name}-${++counter}`;

export const WAIT = { timeoutMs: 20_000 };
export const SMALL_RETRY = { maxAttempts: 2, initialBackoffMs: 20, maxBackoffMs: 100 };
export const DATA_ONLY = { eventTypes: ["data"] };

export const data = (i) => ({ type: "data", payload: { i } });
export const dataBatch = (n, from = 0) => Array.from({ length: n }, (_, k) => data(from + k));

/** A webhook-post receiver; `delivery` overrides the skip-mode defaults. */
export const webhook = (url, delivery = {}) => ({
  action: "webhook-post",
  url,
  delivery: { start: "beginning", onFailingEvent: "skip", retry: SMALL_RETRY, ...delivery },
});

// --- dead-letter routes -----------------------------------------------------

export const dlUrl = (path, suffix = "") => `${streamUrl(path, "dead-letters")}${suffix}`;

// `kind` is "event", or "retraction" for a dead-lettered retraction (§13).
const LETTER_FIELDS = ["attempts", "createdAt", "deliveryId", "id", "kind", "offset", "payload", "reason", "subscriptionKey"];

export function assertLetterShape(letter) {
  assert.deepEqual(Object.keys(letter).sort(), LETTER_FIELDS, `§8 dead-letter fields: ${JSON.stringify(letter)}`);
  assert.ok(Number.isSafeInteger(letter.id) && letter.id > 0, `id: ${letter.id}`);
  assert.ok(Number.isSafeInteger(letter.offset) && letter.offset > 0);
  assert.equal(typeof letter.deliveryId, "string");
  assert.ok(letter.deliveryId.length > 0);
  assert.ok(Number.isSafeInteger(letter.attempts) && letter.attempts >= 0);
  assert.match(letter.reason, /^(permanent|transient): /);
  assert.match(letter.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, "RFC 3339 UTC with milliseconds");
}

export function assertAllVerified(records) {
  assert.ok(records.length > 0);
  for (const record of records) {
    assert.equal(record.verified, true, `signature verifies: ${record.verifyError} ${JSON.stringify(record.headers)}`);
  }
}

/**
 * The requests and waits of these tests against one file's Tributary and
 * webhook receiver: `tributary()` and `webhookReceiver()` return that file's
 * harness handle and receiver (started in its `before`).
 */
export function policyHelpers(tributary, webhookReceiver) {
  const request = (...args) => tributary().request(...args);
  const api = streamApi({ request });

  const signingSecret = (path, key) =>
    request("GET", streamUrl(path, `subscriptions/${encodeURIComponent(key)}/signing-secret`));

  /**
   * Configures subscription `key` on `path` delivering `data` events to the
   * receiver path `hookPath` (skip mode, SMALL_RETRY unless overridden),
   * registers its signing secret with the receiver, returns the configure event.
   */
  async function configureHook(path, key, hookPath, delivery = {}) {
    const configured = await api.appendOk(path, {
      type: CONFIGURED,
      payload: { subscriptionKey: key, filter: DATA_ONLY, receiver: webhook(webhookReceiver().url(hookPath), delivery) },
    });
    const res = await signingSecret(path, key);
    assert.equal(res.status, 200, `signing secret: ${JSON.stringify(res.body)}`);
    webhookReceiver().setSecret(hookPath, res.body.secret);
    return configured;
  }

  const listLetters = (path, query = "") => request("GET", dlUrl(path, query ? `?${query}` : ""));
  const replay = (path, id) => request("POST", dlUrl(path, `/${id}/replay`));

  /** Every dead letter of `path` (optionally of one subscription), paging by 1000. */
  async function letters(path, key) {
    const all = [];
    let after = 0;
    for (let page = 0; page < 100; page++) {
      const query = [`after=${after}`, "limit=1000"];
      if (key !== undefined) query.push(`subscriptionKey=${encodeURIComponent(key)}`);
      const res = await listLetters(path, query.join("&"));
      assert.equal(res.status, 200, `dead letters of ${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(Object.keys(res.body).sort(), ["deadLetters", "nextAfter"]);
      all.push(...res.body.deadLetters);
      if (res.body.deadLetters.length === 0) break;
      after = res.body.nextAfter;
    }
    return all;
  }

  /** Polls until `path` holds exactly `n` dead letters (of `key`, if given); returns them. */
  const lettersEventually = (path, n, key) =>
    eventually(
      async () => {
        const got = await letters(path, key);
        assert.equal(got.length, n, `${n} dead letters: ${JSON.stringify(got)}`);
        return got;
      },
      { what: `${n} dead letters on ${path}`, ...WAIT },
    );

  /** Polls until `hookPath` has recorded at least `n` requests; returns them. */
  const receivedAtLeast = (hookPath, n, what = `${n} requests on ${hookPath}`) =>
    eventually(
      () => {
        const got = webhookReceiver().received(hookPath);
        assert.ok(got.length >= n, `${got.length} of ${n} requests so far`);
        return got;
      },
      { what, ...WAIT },
    );

  /** Polls until `path` holds exactly `n` events of `type`; returns them. */
  const factsEventually = (path, type, n) =>
    eventually(
      async () => {
        const got = await api.eventsOfType(path, type);
        assert.equal(got.length, n, `${n} × ${type}: ${JSON.stringify(got)}`);
        return got;
      },
      { what: `${n} × ${type} on ${path}`, ...WAIT },
    );

  /** Committed events of `path` by offset. */
  async function committedByOffset(path) {
    return new Map((await api.readAll(path)).events.map((e) => [e.offset, e]));
  }

  /**
   * Waits until subscription `key` has caught up and asserts the §8
   * write-then-advance ordering on every observation while waiting: whenever
   * the cursor is seen past an offset of `watched`, a dead letter for it
   * already exists (card read first, letters read after).
   */
  async function caughtUpWithLettersFirst(path, key, watched) {
    const violations = [];
    await eventually(
      async () => {
        const entry = await api.cardEntry(path, key);
        const present = new Set((await letters(path, key)).map((l) => l.offset));
        for (const offset of watched) {
          if (entry.runtime.acknowledgedOffset >= offset && !present.has(offset)) {
            violations.push(`cursor at ${entry.runtime.acknowledgedOffset} passed ${offset} without a dead letter`);
          }
        }
        const info = await api.infoOk(path);
        assert.equal(entry.runtime.acknowledgedOffset, info.head, "caught up");
        assert.equal(entry.runtime.inFlightDeadlineAt, null, "nothing in flight");
      },
      { what: `${path} → ${key} caught up`, ...WAIT },
    );
    assert.deepEqual(violations, [], "§8: the cursor moves on only after the dead-letter row is written");
  }

  return {
    configureHook,
    listLetters,
    replay,
    letters,
    lettersEventually,
    receivedAtLeast,
    factsEventually,
    committedByOffset,
    caughtUpWithLettersFirst,
  };
}
