// Webhook receivers with the TypeScript client (issue 22; docs/design.md §9,
// §13): `verifyWebhook` on real deliveries of each body kind (event,
// digest, retracted) sent by the worker in workerd, its refusals (forged,
// altered, stale, a header missing or doubled, a verified body that is not
// Tributary's), and the example receiver in examples/ run as a process.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { startTributary, TOKEN, ROOT } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { client, closedPort, rejectsWith } from "./client_helpers.mjs";

const { Tributary, verifyWebhook } = client;
let t;
let receiver;
let tributary;
let counter = 0;
const fresh = (name) => `client-webhooks/${name}-${++counter}`;

before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
  tributary = new Tributary({ baseUrl: t.url, token: TOKEN });
});

after(async () => {
  await Promise.all([t?.cleanup(), receiver?.close()]);
});

/** Configures a webhook-post of `data` events to a fresh receiver path; returns {path, hookPath, secret}. */
async function hook(name, delivery = {}) {
  const path = fresh(name);
  const hookPath = `/client-webhooks/${name}-${counter}`;
  await tributary.subscriptions.configure(path, {
    subscriptionKey: "hook",
    filter: { eventTypes: ["data"] },
    receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { start: "beginning", onFailingEvent: "halt", ...delivery } },
  });
  return { path, hookPath, secret: await tributary.subscriptions.signingSecret(path, "hook") };
}

const verify = (secret, record) => verifyWebhook(secret, record.headers, record.rawBody);

test("verifyWebhook returns the typed body of real event, digest and retracted deliveries (§9, §13)", { timeout: 30_000 }, async () => {
  const single = await hook("event", { journalDepth: 10 });
  await tributary.streams.append(single.path, { type: "data", payload: { n: 1 } });
  const [delivery] = await eventually(() => {
    const got = receiver.received(single.hookPath);
    assert.equal(got.length, 1);
    return got;
  });
  const event = verify(single.secret, delivery);
  assert.equal(event.type, "event");
  assert.equal(event.event.offset, 2);
  assert.deepEqual(event.event.payload, { n: 1 });
  assert.equal(event.deliveryId, delivery.headers["webhook-id"]);
  assert.deepEqual(verifyWebhook(single.secret, new Headers(delivery.headers), new TextEncoder().encode(delivery.rawBody)), event, "fetch Headers and raw bytes work too");

  await tributary.streams.invalidate(single.path, { offsets: [2], reason: "reorg" });
  const retraction = await eventually(() => {
    const found = receiver.received(single.hookPath).find((r) => r.body?.type === "retracted");
    assert.ok(found, "the retraction arrived");
    return found;
  });
  const retracted = verify(single.secret, retraction);
  assert.equal(retracted.type, "retracted");
  assert.equal(retracted.offset, 2);
  assert.equal(retracted.deliveryId, event.deliveryId, "it names the delivery it retracts");
  assert.notEqual(retraction.headers["webhook-id"], event.deliveryId, "under a webhook-id of its own");

  const batched = await hook("digest", { aggregate: { windowMs: 60_000, maxBatch: 3 } });
  await tributary.streams.appendBatch(batched.path, [1, 2, 3].map((n) => ({ type: "data", payload: { n } })));
  const [digestDelivery] = await eventually(() => {
    const got = receiver.received(batched.hookPath);
    assert.equal(got.length, 1);
    return got;
  });
  const digest = verify(batched.secret, digestDelivery);
  assert.equal(digest.type, "digest");
  assert.deepEqual(digest.events.map((e) => e.payload.n), [1, 2, 3]);
});

test("verifyWebhook refuses forged, altered, stale, header-less and doubled-header requests, and verified bodies that are not Tributary's", { timeout: 30_000 }, async () => {
  const { path, hookPath, secret } = await hook("refusals");
  await tributary.streams.append(path, { type: "data", payload: { n: 1 } });
  const [real] = await eventually(() => {
    const got = receiver.received(hookPath);
    assert.equal(got.length, 1);
    return got;
  });
  const refuse = (headers, body, s = secret) => {
    try {
      verifyWebhook(s, headers, body);
    } catch (error) {
      assert.ok(error instanceof client.TributaryError, String(error));
      return error;
    }
    assert.fail("it verified");
  };
  assert.equal(refuse(real.headers, real.rawBody.replace('"n":1', '"n":2')).code, "invalid_signature", "an altered body");
  assert.equal(refuse(real.headers, real.rawBody, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").code, "invalid_signature", "another secret");
  assert.equal(refuse(real.headers, real.rawBody, "not a secret").code, "invalid_signature", "a malformed secret");
  const { "webhook-signature": _, ...unsigned } = real.headers;
  const missing = refuse(unsigned, real.rawBody);
  assert.equal(missing.code, "invalid_signature");
  assert.equal(missing.details.header, "webhook-signature");
  assert.equal(refuse({ ...real.headers, "Webhook-Id": "other" }, real.rawBody).code, "invalid_signature", "a doubled header");

  const signer = new Webhook(secret);
  const stale = new Date(Date.now() - 10 * 60 * 1000);
  const staleHeaders = {
    "webhook-id": real.headers["webhook-id"],
    "webhook-timestamp": String(Math.floor(stale.getTime() / 1000)),
    "webhook-signature": signer.sign(real.headers["webhook-id"], stale, real.rawBody),
  };
  assert.equal(refuse(staleHeaders, real.rawBody).code, "invalid_signature", "a timestamp 10 minutes old");

  const signedForeign = (id, body) => {
    const now = new Date();
    return [{ "webhook-id": id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signer.sign(id, now, body) }, body];
  };
  assert.equal(refuse(...signedForeign("msg_1", '{"hello":1}')).code, "invalid_webhook_body", "verified, but not a Tributary body");
  assert.equal(refuse(...signedForeign("msg_1", "[1,2]")).code, "invalid_webhook_body");
  assert.equal(refuse(...signedForeign("msg_other", real.rawBody)).code, "invalid_webhook_body", "a body whose deliveryId is not the signed id");
});

test("the example receiver (examples/webhook-receiver.ts) verifies and prints real deliveries, refuses forgeries with 401, and flags duplicates", { timeout: 60_000 }, async () => {
  const port = await closedPort();
  const path = fresh("example");
  await tributary.subscriptions.configure(path, {
    subscriptionKey: "example",
    filter: { eventTypes: ["order-placed"] },
    receiver: { action: "webhook-post", url: `http://127.0.0.1:${port}/tributary`, delivery: { start: "now", onFailingEvent: "halt", journalDepth: 10 } },
  });
  const secret = await tributary.subscriptions.signingSecret(path, "example");
  const child = spawn(process.execPath, [join(ROOT, "examples", "webhook-receiver.ts")], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = [];
  createInterface({ input: child.stdout }).on("line", (line) => lines.push(line));
  try {
    await eventually(() => assert.ok(lines.includes(`listening on http://127.0.0.1:${port}`), JSON.stringify(lines)), { what: "the example listening" });
    await tributary.streams.appendBatch(path, [1, 2, 3].map((id) => ({ type: "order-placed", payload: { id } })));
    const deliveries = await eventually(() => {
      const parsed = lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((l) => l.webhookId);
      assert.equal(parsed.length, 3, JSON.stringify(lines));
      return parsed;
    });
    assert.deepEqual(deliveries.map((d) => d.offsets[0]), [2, 3, 4]);
    assert.ok(deliveries.every((d) => d.type === "event" && d.subscriptionKey === "example" && d.duplicate === false));
    await tributary.streams.invalidate(path, { offsets: [3], reason: "cancelled" });
    const retraction = await eventually(() => {
      const found = lines.filter((l) => l.includes('"retracted"')).map((l) => JSON.parse(l));
      assert.equal(found.length, 1, JSON.stringify(lines));
      return found[0];
    });
    assert.deepEqual(retraction.offsets, [3]);
    assert.equal(retraction.duplicate, false, "a retraction has a webhook-id of its own, though its body names the retracted delivery");
    // The receiver prints a delivery before it answers: the acknowledgement follows.
    await eventually(async () => {
      const card = await tributary.subscriptions.card(path);
      assert.equal(card.subscriptions.find((s) => s.subscriptionKey === "example").runtime.lag, 0, "every delivery was acknowledged");
    });

    const forged = await fetch(`http://127.0.0.1:${port}/tributary`, {
      method: "POST",
      headers: { "webhook-id": "msg_x", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,Zm9yZ2Vk" },
      body: JSON.stringify({ type: "event", deliveryId: "msg_x" }),
    });
    assert.equal(forged.status, 401);
    await eventually(() => assert.ok(lines.includes('{"rejected":"invalid_signature"}'), JSON.stringify(lines)));

    // A retry carries the same delivery id: the example answers 2xx again and flags it.
    const signer = new Webhook(secret);
    const body = JSON.stringify({ type: "event", projectId: "p", path: `/${path}`, streamId: "s", streamCreatedAt: "2026-12-01T00:00:00.000Z", subscriptionKey: "example", cursorChangedAtSourceOffset: 0, deliveryId: deliveries[0].webhookId, attempt: 2, event: { offset: 2, type: "order-placed", payload: {}, metadata: {}, createdAt: "2026-12-01T00:00:00.000Z" } });
    const now = new Date();
    const resent = await fetch(`http://127.0.0.1:${port}/tributary`, {
      method: "POST",
      headers: { "webhook-id": deliveries[0].webhookId, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": signer.sign(deliveries[0].webhookId, now, body) },
      body,
    });
    assert.equal(resent.status, 204);
    await eventually(() => assert.ok(lines.some((l) => l.includes('"duplicate":true')), JSON.stringify(lines)));
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  }
});
