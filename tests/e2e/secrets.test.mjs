// Receiver secrets and headers against the built worker in workerd and a
// real local receiver (docs/design.md §9 "Receiver secrets and headers"): the
// write-only secrets API and its scopes; a webhook whose URL and
// `authorization` header come from secrets, signed as ever; a rotation
// taking effect on the next send; a read-only token reading everything a
// failing subscription leaves behind (the log, stream info, the card, dead
// letters, halts, metrics, a copy of the stream) and every structured log
// line never shows a resolved value; a deleted secret dead-letters the next
// send as `secret_missing`; another project cannot name the secret.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, TOKEN, READ_TOKEN, OTHER_TOKEN, streamUrl } from "./harness.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { CONFIGURED, HALTED, eventually, streamApi, copyReceiver } from "./delivery_helpers.mjs";

let t;
let api;
let receiver;
const logs = [];
let counter = 0;
const fresh = (name) => `/secrets-e2e/${name}-${++counter}`;
const ONCE = { maxAttempts: 1, initialBackoffMs: 10, maxBackoffMs: 10 };

before(async () => {
  [t, receiver] = await Promise.all([
    startTributary({ allowInsecureWebhooks: true, onLog: (entry) => void logs.push(JSON.stringify(entry)) }),
    startReceiver(),
  ]);
  api = streamApi(t);
});

after(async () => {
  await Promise.all([t?.cleanup(), receiver?.close()]);
});

async function putSecret(name, value, token = TOKEN) {
  const answer = await t.request("PUT", `/v1/secrets/${name}`, { body: { value }, token });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

/** Registers the subscription's signing secret with the receiver, so every delivery is verified. */
async function verifySignatures(path, key, receiverPath) {
  const secret = await t.request("GET", streamUrl(path, `subscriptions/${key}/signing-secret`));
  assert.equal(secret.status, 200, JSON.stringify(secret.body));
  receiver.setSecret(receiverPath, secret.body.secret);
}

const webhookWithSecrets = ({ urlSecret, tokenSecret, delivery }) => ({
  action: "webhook-post",
  url: { secret: urlSecret },
  headers: { authorization: { secret: tokenSecret }, "x-team": "alerts" },
  delivery: { start: "beginning", onFailingEvent: "skip", retry: ONCE, ...delivery },
});

test("§9: secrets are write-only — PUT versions, GET lists names never values, GET of a name is 405, DELETE; bad input changes nothing", async () => {
  const first = await putSecret("WRITE_ONLY", "value-one-4f1c9a");
  assert.deepEqual(Object.keys(first).sort(), ["name", "updatedAt", "version"]);
  assert.equal(first.version, 1);
  assert.equal((await putSecret("WRITE_ONLY", "value-one-4f1c9a")).version, 1, "an identical write is a retry");
  assert.equal((await putSecret("WRITE_ONLY", "value-two-8d2e7b")).version, 2);
  const listed = await t.request("GET", "/v1/secrets");
  assert.equal(listed.status, 200);
  const entry = listed.body.secrets.find((secret) => secret.name === "WRITE_ONLY");
  assert.equal(entry.version, 2);
  assert.doesNotMatch(JSON.stringify(listed.body), /value-(one|two)/);
  const read = await t.request("GET", "/v1/secrets/WRITE_ONLY");
  assert.equal(read.status, 405);
  assert.doesNotMatch(JSON.stringify(read.body), /value-two/);

  const refusals = [
    ["PUT", "/v1/secrets/bad%20name", { value: "x" }, 400, "invalid_secret_name"],
    ["PUT", "/v1/secrets/WRITE_ONLY", { value: "" }, 422, "invalid_secret"],
    ["PUT", "/v1/secrets/WRITE_ONLY", { value: "a\nb" }, 422, "invalid_secret"],
    ["PUT", "/v1/secrets/WRITE_ONLY", { value: "v".repeat(4097) }, 422, "invalid_secret"],
    ["PUT", "/v1/secrets/WRITE_ONLY", { value: "v".repeat(30_000) }, 413, "body_too_large"],
    ["PUT", "/v1/secrets/WRITE_ONLY", { other: "x" }, 422, "invalid_secret"],
    ["POST", "/v1/secrets/WRITE_ONLY", { value: "x" }, 405, "method_not_allowed"],
    ["DELETE", "/v1/secrets/NEVER_WRITTEN", undefined, 404, "secret_not_found"],
  ];
  for (const [method, path, body, status, code] of refusals) {
    const answer = await t.request(method, path, { body });
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.error.code, code, `${method} ${path}`);
  }
  const malformed = await t.request("PUT", "/v1/secrets/WRITE_ONLY", { rawBody: "{", headers: { "content-type": "application/json" } });
  assert.equal(malformed.body.error.code, "malformed_json");
  const after = await t.request("GET", "/v1/secrets");
  assert.equal(after.body.secrets.find((secret) => secret.name === "WRITE_ONLY").version, 2, "nothing changed");

  // `manage` on every route; a read-only token sees and writes none.
  for (const [method, path, body] of [["GET", "/v1/secrets"], ["PUT", "/v1/secrets/WRITE_ONLY", { value: "x" }], ["DELETE", "/v1/secrets/WRITE_ONLY"]]) {
    const refused = await t.request(method, path, { body, token: READ_TOKEN });
    assert.equal(refused.status, 403, `${method} ${path}`);
    assert.equal(refused.body.error.code, "forbidden_scope");
  }
  assert.equal((await t.request("DELETE", "/v1/secrets/WRITE_ONLY")).status, 204);
  assert.equal((await t.request("DELETE", "/v1/secrets/WRITE_ONLY")).status, 404);
});

test("§9: a webhook's URL and authorization header come from secrets; both arrive, signed; a rotation takes effect on the next send", async () => {
  const hookPath = `/secret-hook-${++counter}/T0001/tok3nInPath9f2`;
  await putSecret("ROTATE_URL", receiver.url(hookPath));
  await putSecret("ROTATE_TOKEN", "Bearer token-v1-a7c3e9");
  const path = fresh("rotation");
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "hook", filter: { eventTypes: ["order"] }, receiver: webhookWithSecrets({ urlSecret: "ROTATE_URL", tokenSecret: "ROTATE_TOKEN" }) } });
  await verifySignatures(path, "hook", hookPath);
  const first = await api.appendOk(path, { type: "order", payload: { n: 1 } });
  const one = await eventually(() => {
    const [record] = receiver.received(hookPath).filter((r) => r.body?.event?.offset === first.offset);
    assert.ok(record, "the first event arrived at the secret URL");
    return record;
  });
  assert.equal(one.headers.authorization, "Bearer token-v1-a7c3e9");
  assert.equal(one.headers["x-team"], "alerts");
  assert.equal(one.verified, true, one.verifyError);
  assert.ok(one.headers["webhook-signature"].startsWith("v1,"));

  assert.equal((await putSecret("ROTATE_TOKEN", "Bearer token-v2-5b8d1f")).version, 2);
  const second = await api.appendOk(path, { type: "order", payload: { n: 2 } });
  const two = await eventually(() => {
    const records = receiver.received(hookPath).filter((r) => r.body?.event?.offset === second.offset);
    assert.ok(records.length > 0, "the second event arrived");
    return records;
  });
  assert.deepEqual(two.map((r) => r.headers.authorization), ["Bearer token-v2-5b8d1f"], "sent after the rotation, with the new value only");
  assert.ok(two.every((r) => r.verified === true));
});

test("§9: configured headers arrive as configured, a User-Agent in any case replacing Tributary's; a name repeated in another case is refused", async () => {
  const hookPath = `/headers-hook-${++counter}`;
  const plainPath = `/headers-plain-${++counter}`;
  const path = fresh("headers");
  const receiverOf = (url, headers) => ({ action: "webhook-post", url, ...(headers ? { headers } : {}), delivery: { start: "beginning", onFailingEvent: "skip", retry: ONCE } });
  const configured = { "User-Agent": "acme-relay/2", "X-Trace": "one" };
  const repeated = await api.append(path, { type: CONFIGURED, payload: { subscriptionKey: "custom", receiver: receiverOf(receiver.url(hookPath), { ...configured, "x-trace": "two" }) } });
  assert.equal(repeated.status, 422, JSON.stringify(repeated.body));
  assert.equal(repeated.body.error.details.field, "receiver.headers.x-trace");
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "custom", filter: { eventTypes: ["order"] }, receiver: receiverOf(receiver.url(hookPath), configured) } });
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "plain", filter: { eventTypes: ["order"] }, receiver: receiverOf(receiver.url(plainPath)) } });
  await verifySignatures(path, "custom", hookPath);
  const appended = await api.appendOk(path, { type: "order", payload: { n: 1 } });
  const arrived = (at) =>
    eventually(() => {
      const [record] = receiver.received(at).filter((r) => r.body?.event?.offset === appended.offset);
      assert.ok(record, `the event arrived at ${at}`);
      return record;
    });
  const [custom, plain] = await Promise.all([arrived(hookPath), arrived(plainPath)]);
  assert.equal(custom.headers["user-agent"], "acme-relay/2", "the configured User-Agent alone");
  assert.equal(custom.headers["x-trace"], "one");
  assert.equal(custom.verified, true, custom.verifyError);
  assert.equal(plain.headers["user-agent"], "Tributary-Webhooks/1");
  assert.equal(plain.headers["content-type"], "application/json");
  assert.ok(plain.headers["webhook-id"] && plain.headers["webhook-timestamp"] && plain.headers["webhook-signature"]);
});

test("§9: a read-only token reading the log, info, the card, dead letters, halts, metrics and a copy — and every log line — never sees a resolved value", async () => {
  const hookPath = `/echo-${++counter}/services/T0001/B0002/s3cretPathToken77`;
  const token = "Bearer echo-token-3e9a1c55";
  const hookUrl = receiver.url(hookPath);
  // The receiver refuses and quotes everything it was sent: the failure text must be redacted.
  receiver.script(hookPath, (record) => ({ status: 400, body: `refused ${record.headers.authorization} at ${hookUrl} (${record.path})` }));
  await putSecret("ECHO_URL", hookUrl);
  await putSecret("ECHO_TOKEN", token);
  const path = fresh("redacted");
  const copy = fresh("redacted-copy");
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "copy", receiver: copyReceiver(copy) } });
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "skips", filter: { eventTypes: ["order"] }, receiver: webhookWithSecrets({ urlSecret: "ECHO_URL", tokenSecret: "ECHO_TOKEN" }) } });
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "halts", filter: { eventTypes: ["order"] }, receiver: webhookWithSecrets({ urlSecret: "ECHO_URL", tokenSecret: "ECHO_TOKEN", delivery: { onFailingEvent: "halt" } }) } });
  await api.appendOk(path, { type: "order", payload: { n: 1 } });
  const letters = await eventually(async () => {
    const answer = await t.request("GET", `${streamUrl(path, "dead-letters")}?subscriptionKey=skips`, { token: READ_TOKEN });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.deadLetters.length, 1, "the failing send was dead-lettered");
    return answer.body.deadLetters;
  });
  assert.match(letters[0].reason, /HTTP 400/);
  assert.match(letters[0].reason, /\{secret:ECHO_TOKEN\}/, "the echoed header shows as its placeholder");
  assert.match(letters[0].reason, /\{secret:ECHO_URL\}/, "the echoed URL shows as its placeholder");
  await eventually(async () => assert.equal((await api.eventsOfType(path, HALTED)).length, 1, "the halt-mode subscription halted"));
  await eventually(async () => assert.ok((await api.eventsOfType(copy, CONFIGURED)).length >= 2, "the configuration was copied"));
  await eventually(async () => {
    const scrape = await t.request("GET", `/v1/metrics?prefix=${encodeURIComponent(path)}`, { token: READ_TOKEN });
    assert.match(scrape.body, /skips/, "the project's metrics report the subscriptions");
  }, { timeoutMs: 20_000 });

  const reads = [
    streamUrl(path),
    `${streamUrl(path, "events")}?after=0&limit=1000`,
    `${streamUrl(path, "events")}/3`,
    streamUrl(path, "subscriptions"),
    streamUrl(path, "dead-letters"),
    streamUrl(path, "metrics"),
    `/v1/metrics?prefix=${encodeURIComponent(path)}`,
    `${streamUrl(copy, "events")}?after=0&limit=1000`,
    streamUrl(copy),
    "/v1/streams?prefix=/secrets-e2e/",
  ];
  const secretParts = [hookUrl, hookPath, "s3cretPathToken77", token, "echo-token-3e9a1c55"];
  for (const url of reads) {
    const answer = await t.request("GET", url, { token: READ_TOKEN });
    assert.equal(answer.status, 200, `${url}: ${JSON.stringify(answer.body)}`);
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    for (const part of secretParts) assert.ok(!text.includes(part), `${url} shows ${part}: ${text.slice(0, 2000)}`);
  }
  const copied = (await api.eventsOfType(copy, CONFIGURED)).find((event) => event.payload.subscriptionKey === "skips");
  assert.deepEqual(copied.payload.receiver.url, { secret: "ECHO_URL" }, "a copy carries the reference");
  assert.deepEqual(copied.payload.receiver.headers.authorization, { secret: "ECHO_TOKEN" });
  const halted = await api.eventsOfType(path, HALTED);
  const card = await api.cardEntry(path, "halts");
  assert.match(JSON.stringify([card, halted]), /\{secret:ECHO_TOKEN\}/, "the halt's error is redacted, not empty");
  // The workers' structured logs (delivery_failed, delivery_dead_lettered, delivery_halted).
  assert.ok(logs.some((line) => line.includes("delivery_dead_lettered")), "the dead letter was logged");
  for (const line of logs) for (const part of secretParts) assert.ok(!line.includes(part), `a log line shows ${part}: ${line}`);
});

test("§9: deleting a secret dead-letters the next send as permanent secret_missing", async () => {
  const hookPath = `/deleted-${++counter}`;
  await putSecret("DOOMED_URL", receiver.url(hookPath));
  await putSecret("DOOMED_TOKEN", "Bearer doomed-6a1f");
  const path = fresh("deleted");
  await api.appendOk(path, { type: CONFIGURED, payload: { subscriptionKey: "hook", filter: { eventTypes: ["order"] }, receiver: webhookWithSecrets({ urlSecret: "DOOMED_URL", tokenSecret: "DOOMED_TOKEN", delivery: { retry: { maxAttempts: 5, initialBackoffMs: 10, maxBackoffMs: 10 } } }) } });
  const first = await api.appendOk(path, { type: "order", payload: { n: 1 } });
  await eventually(() => assert.ok(receiver.received(hookPath).some((r) => r.body?.event?.offset === first.offset)));
  assert.equal((await t.request("DELETE", "/v1/secrets/DOOMED_TOKEN")).status, 204);
  const second = await api.appendOk(path, { type: "order", payload: { n: 2 } });
  const [letter] = await eventually(async () => {
    const answer = await t.request("GET", streamUrl(path, "dead-letters"));
    assert.equal(answer.body.deadLetters.length, 1);
    return answer.body.deadLetters;
  });
  assert.equal(letter.offset, second.offset);
  assert.equal(letter.attempts, 1, "permanent: not retried");
  assert.match(letter.reason, /^permanent: secret_missing: 'receiver\.headers\.authorization' names secret 'DOOMED_TOKEN'/);
  // The cursor moved past the letter: the event was never sent.
  await api.caughtUp(path, "hook");
  assert.ok(!receiver.received(hookPath).some((r) => r.body?.event?.offset === second.offset));
});

test("§9: configuring names only secrets the project holds (422 unknown_secret naming the field); another project cannot name them; headers are checked", async () => {
  await putSecret("PROJECT_A_ONLY", "Bearer a-only-0c4d");
  const path = fresh("configure");
  const configure = (receiver, token = TOKEN) => api.append(path, { type: CONFIGURED, payload: { subscriptionKey: "hook", receiver } }, { token });
  const base = { action: "webhook-post", url: receiver.url("/configure"), delivery: { start: "now", onFailingEvent: "skip" } };
  const cases = [
    [{ ...base, url: { secret: "NO_SUCH_URL" } }, 422, "unknown_secret", "receiver.url"],
    [{ ...base, headers: { authorization: { secret: "NO_SUCH_TOKEN" } } }, 422, "unknown_secret", "receiver.headers.authorization"],
    [{ ...base, headers: { authorization: "Bearer in-the-log" } }, 422, "invalid_subscription", "receiver.headers.authorization"],
    [{ ...base, headers: { host: "elsewhere.example" } }, 422, "invalid_subscription", "receiver.headers.host"],
    [{ ...base, headers: { "webhook-id": "forged" } }, 422, "invalid_subscription", "receiver.headers.webhook-id"],
    [{ ...base, headers: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`x-h${i}`, "v"])) }, 422, "invalid_subscription", "receiver.headers"],
    [{ ...base, headers: { "x-big": "v".repeat(1025) } }, 422, "invalid_subscription", "receiver.headers.x-big"],
  ];
  for (const [receiverConfig, status, code, field] of cases) {
    const answer = await configure(receiverConfig);
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.error.code, code);
    assert.equal(answer.body.error.details.field, field);
  }
  // Project b holds no secret of project a's: the same name is unknown there.
  const elsewhere = await configure({ ...base, headers: { authorization: { secret: "PROJECT_A_ONLY" } } }, OTHER_TOKEN);
  assert.equal(elsewhere.status, 422, JSON.stringify(elsewhere.body));
  assert.equal(elsewhere.body.error.code, "unknown_secret");
  assert.deepEqual((await t.request("GET", "/v1/secrets", { token: OTHER_TOKEN })).body.secrets.filter((s) => s.name === "PROJECT_A_ONLY"), []);
  // Nothing was appended by any refusal; the project's own token may name it.
  assert.equal((await api.readAll(path)).exists, false);
  assert.equal((await configure({ ...base, headers: { authorization: { secret: "PROJECT_A_ONLY" } } })).status, 201);
});
