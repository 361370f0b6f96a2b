// A fork's subscriptions (docs/design.md §18, issue 31) against the built worker in workerd: a
// webhook from the beginning on a fork delivers the source's messages below the fork point,
// then the fork's own, in order, signed, to a real local receiver; the source's own
// subscription (a control event in the prefix) configures nothing on the fork; down a chain (a
// fork of a fork) too; and a copy subscription on a fork copies the whole log into another
// stream, where a native range read sees it in order; and the native face reads a fork page
// by page across the fork point, as the protocol face does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, TOKEN } from "./harness.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";
import { eventually, CONFIGURED, copyReceiver } from "./delivery_helpers.mjs";

let t;
let receiver;
before(async () => {
  [t, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startReceiver()]);
});
after(async () => {
  await Promise.all([t?.cleanup(), receiver?.close()]);
});

let counter = 0;
const fresh = (name) => `/fork-subs/${name}-${process.pid}-${++counter}`;

async function protocol(method, path, { body, headers = {} } = {}) {
  const response = await fetch(`${t.url}/v1/stream${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, text };
}

const text = { "content-type": "text/plain" };
async function create(path, first) {
  assert.equal((await protocol("PUT", path, { headers: text, body: first })).status, 201);
}
async function append(path, ...messages) {
  for (const message of messages) assert.equal((await protocol("POST", path, { headers: text, body: message })).status, 204);
}
async function fork(path, from) {
  const answer = await protocol("PUT", path, { headers: { "stream-forked-from": `/v1/stream${from}` } });
  assert.equal(answer.status, 201, answer.text);
}

async function configure(path, payload) {
  const answer = await t.request("POST", streamUrl(path, "events"), { body: { type: CONFIGURED, payload } });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
}

async function webhook(path, key, hookPath) {
  await configure(path, {
    subscriptionKey: key,
    filter: { eventTypes: ["message"] },
    receiver: { action: "webhook-post", url: receiver.url(hookPath), delivery: { start: "beginning", onFailingEvent: "halt" } },
  });
  const secret = await t.request("GET", streamUrl(path, `subscriptions/${key}/signing-secret`));
  assert.equal(secret.status, 200, JSON.stringify(secret.body));
  receiver.setSecret(hookPath, secret.body.secret);
}

/** The (offset, message) pairs `hookPath` received, once each, by offset — after `count` arrived. */
async function receivedMessages(hookPath, count) {
  return eventually(
    () => {
      const events = dedupeById(receiver.received(hookPath)).map((record) => record.body.event);
      assert.equal(events.length, count, `deliveries so far: ${events.map((e) => e.payload).join(",")}`);
      return events.sort((a, b) => a.offset - b.offset).map((event) => [event.offset, event.payload]);
    },
    { what: `${count} deliveries to ${hookPath}` },
  );
}

test("a webhook from the beginning on a fork delivers the inherited messages, then the fork's own, signed, in order", async () => {
  const [source, forked] = [fresh("src"), fresh("fork")];
  await create(source, "A1");
  await append(source, "A2", "A3");
  // The source's own subscription: a control event inside the fork's prefix (offset 4).
  await webhook(source, "source-hook", `/fork-subs/source-${counter}`);
  await fork(forked, source);
  await append(source, "A-after"); // past the fork point: never the fork's
  await append(forked, "F5");
  const hookPath = `/fork-subs/fork-${counter}`;
  await webhook(forked, "fork-hook", hookPath);
  await append(forked, "F7");

  const got = await receivedMessages(hookPath, 5);
  assert.deepEqual(got, [[1, "A1"], [2, "A2"], [3, "A3"], [5, "F5"], [7, "F7"]]);
  for (const record of receiver.received(hookPath)) assert.equal(record.verified, true, record.verifyError ?? "signed");
  // The inherited configuration configured nothing on the fork.
  const subscriptions = await t.request("GET", streamUrl(forked, "subscriptions"));
  assert.equal(subscriptions.status, 200);
  assert.deepEqual(
    subscriptions.body.subscriptions.map((subscription) => subscription.subscriptionKey),
    ["fork-hook"],
  );
});

test("down a chain: a webhook on a fork of a fork delivers every ancestor's messages below its point once", async () => {
  const [a, b, c] = [fresh("a"), fresh("b"), fresh("c")];
  await create(a, "A1");
  await append(a, "A2");
  await fork(b, a);
  await append(b, "B3");
  await fork(c, b);
  await append(c, "C4");
  const hookPath = `/fork-subs/chain-${counter}`;
  await webhook(c, "chain-hook", hookPath);
  await append(c, "C6");
  assert.deepEqual(await receivedMessages(hookPath, 5), [[1, "A1"], [2, "A2"], [3, "B3"], [4, "C4"], [6, "C6"]]);
});

test("a copy subscription on a fork copies the inherited messages and its own into another stream, in order", async () => {
  const [source, forked, target] = [fresh("copy-src"), fresh("copy-fork"), fresh("copy-target")];
  await create(source, "S1");
  await append(source, "S2", "S3");
  await fork(forked, source);
  await append(forked, "F4");
  await configure(forked, { subscriptionKey: "to-target", filter: { eventTypes: ["message"] }, receiver: copyReceiver(target) });
  await append(forked, "F6");
  const copied = await eventually(
    async () => {
      const page = await t.request("GET", streamUrl(target, "events?after=0"));
      assert.equal(page.status, 200, JSON.stringify(page.body));
      const messages = page.body.events.filter((event) => event.type === "message").map((event) => event.payload);
      assert.equal(messages.length, 5, `copied so far: ${messages.join(",")}`);
      return messages;
    },
    { what: "five messages copied" },
  );
  assert.deepEqual(copied, ["S1", "S2", "S3", "F4", "F6"]);
});

test("the native face reads a fork as the protocol face does: inherited messages, then its own, page by page", async () => {
  const [a, b] = [fresh("read-a"), fresh("read-b")];
  await create(a, "A1");
  await append(a, "A2", "A3");
  await fork(b, a);
  await append(b, "B4", "B5");
  const seen = [];
  let after = 0;
  for (let page = 0; page < 20; page += 1) {
    const answer = await t.request("GET", streamUrl(b, `events?after=${after}&limit=2`));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    seen.push(...answer.body.events.map((event) => [event.offset, event.payload]));
    if (answer.body.nextAfter >= answer.body.head) break;
    after = answer.body.nextAfter;
  }
  assert.deepEqual(seen, [[1, "A1"], [2, "A2"], [3, "A3"], [4, "B4"], [5, "B5"]]);
  const point = await t.request("GET", streamUrl(b, "events/2"));
  assert.equal(point.status, 200, JSON.stringify(point.body));
  assert.equal(point.body.event.payload, "A2", "a point read of an inherited offset answers the source's event");
  const protocolRead = await protocol("GET", `${b}?offset=-1`);
  assert.equal(protocolRead.text, "A1A2A3B4B5");
  // Deleted while a fork of it lives, the source reads 410 on the native face, inherited or not.
  const c = fresh("read-c");
  await fork(c, b);
  assert.equal((await protocol("DELETE", b)).status, 204);
  assert.equal((await t.request("GET", streamUrl(b, "events?after=0"))).status, 410);
  const throughC = await t.request("GET", streamUrl(c, "events?after=0&limit=10"));
  assert.deepEqual(throughC.body.events.map((event) => event.payload), ["A1", "A2", "A3"]);
});

test("a natively written JSON stream's fork reads natively across its fork point, page by page", async () => {
  const [a, b] = [fresh("json-a"), fresh("json-b")];
  const events = (from, n) => Array.from({ length: n }, (_, i) => ({ type: "order", payload: { n: from + i } }));
  assert.equal((await t.request("POST", streamUrl(a, "events"), { body: { events: events(1, 25) } })).status, 201);
  const forked = await t.request("POST", streamUrl(b, "fork"), { body: { from: a } });
  assert.equal(forked.status, 201, JSON.stringify(forked.body));
  assert.equal((await t.request("POST", streamUrl(a, "events"), { body: { events: events(900, 2) } })).status, 201);
  assert.equal((await t.request("POST", streamUrl(b, "events"), { body: { events: events(100, 4) } })).status, 201);
  for (const limit of [1, 7, 1000]) {
    const seen = [];
    let after = 0;
    for (let page = 0; page < 100; page += 1) {
      const answer = await t.request("GET", streamUrl(b, `events?after=${after}&limit=${limit}`));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.events.length <= limit);
      seen.push(...answer.body.events.map((event) => [event.offset, event.payload.n]));
      if (answer.body.nextAfter >= answer.body.head) break;
      after = answer.body.nextAfter;
    }
    const expected = [...Array.from({ length: 25 }, (_, i) => [i + 1, i + 1]), ...[0, 1, 2, 3].map((i) => [26 + i, 100 + i])];
    assert.deepEqual(seen, expected, `limit ${limit}`);
  }
});
