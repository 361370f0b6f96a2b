// End-to-end project-wide metrics (docs/design.md §11) against the built worker
// in workerd: `GET /v1/metrics` answers from the project object, which holds
// the latest snapshot each stream's alarm reported (a scrape asks no
// stream). A few streams with webhook subscriptions to a real local
// receiver (tests/e2e/webhook_receiver.mjs) — one delivering, one
// dead-lettering under a hostile subscription key, one halting — and the
// scrape is checked by a strict text-format parser (and `promtool check
// metrics` when installed) against each stream's own metrics page, debug
// card and dead letters; an EVM source (on a real local anvil) reports its
// progress the same way and is checked against its status. The METRICS Analytics Engine dataset is bound, so
// every completion also writes a data point through the real binding.
//
// Reports are asynchronous (at most one per stream every few seconds): every
// expectation is polled (`eventually`, ≤ 20 s), never asserted after a
// sleep; a destroyed stream's series are waited for to go. No assertion is
// about timing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, OTHER_TOKEN } from "./harness.mjs";
import { eventually, streamApi } from "./delivery_helpers.mjs";
import { WAIT, dataBatch, policyHelpers } from "./policy_helpers.mjs";
import { startReceiver } from "./webhook_receiver.mjs";
import { parsePrometheus, promtoolCheck, sample } from "./prometheus_text.mjs";
import { startAnvil, CHAIN_ID, TRANSFER } from "./anvil.mjs";

let t;
let api;
let receiver;
let anvil;
before(async () => {
  [t, receiver, anvil] = await Promise.all([
    startTributary({ allowInsecureWebhooks: true, analytics: true }),
    startReceiver(),
    startAnvil(),
  ]);
  api = streamApi(t);
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
  await anvil?.stop();
});

const { configureHook, letters } = policyHelpers(() => t, () => receiver);

// Keys may hold quotes and backslashes (not control characters, §5).
const HOSTILE_KEY = 'we"ird\\key} 1';

async function scrape(token) {
  const res = await t.request("GET", "/v1/metrics", token === undefined ? {} : { token });
  assert.equal(res.status, 200, `scrape: ${JSON.stringify(res.body)}`);
  assert.match(res.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
  const families = parsePrometheus(res.body);
  promtoolCheck(res.body);
  return { text: res.body, families };
}

test("§11 the project's scrape labels every stream and subscription and agrees with their own metrics and cards", async () => {
  const orders = "/e2e-metrics/orders";
  const halts = "/e2e-metrics/halts";
  receiver.script("/m-ok", { status: 200 });
  receiver.script("/m-dead", { status: 410 });
  receiver.script("/m-halt", { status: 400 });
  await configureHook(orders, "ok", "/m-ok");
  await configureHook(orders, HOSTILE_KEY, "/m-dead");
  await configureHook(halts, "strict", "/m-halt", { onFailingEvent: "halt" });
  await api.batchOk(orders, dataBatch(2));
  await api.batchOk(halts, dataBatch(1));

  // The streams settle: delivered, dead-lettered, halted.
  await eventually(
    async () => {
      assert.equal((await api.cardEntry(orders, "ok")).runtime.lag, 0);
      assert.equal((await letters(orders, HOSTILE_KEY)).length, 2);
      assert.equal((await api.cardEntry(orders, HOSTILE_KEY)).runtime.lag, 0);
      assert.ok((await api.cardEntry(halts, "strict")).deliveryHalted, "halted");
    },
    { what: "deliveries settled", ...WAIT },
  );

  // Then the project's scrape shows what each stream shows.
  const { families, text } = await eventually(
    async () => {
      const scraped = await scrape();
      for (const path of [orders, halts]) {
        const own = await api.metricsOk(path);
        const info = await api.infoOk(path);
        for (const name of ["appends_total", "events_appended_total", "delivery_halts_total", "delivery_skips_total"]) {
          assert.equal(sample(scraped.families, `tributary_${name}`, { stream: path }), own[`tributary_${name}`], `${path} ${name}`);
        }
        assert.equal(sample(scraped.families, "tributary_stream_head", { stream: path }), info.head, `${path} head`);
      }
      const ok = { stream: orders, subscription: "ok" };
      assert.equal(sample(scraped.families, "tributary_subscription_lag", ok), 0);
      const sent = new Set(receiver.received("/m-ok").map((record) => record.headers["webhook-id"])).size;
      assert.equal(sample(scraped.families, "tributary_subscription_deliveries_total", { ...ok, outcome: "delivered" }), sent, "one per batch received");
      const hostile = { stream: orders, subscription: HOSTILE_KEY };
      assert.equal(sample(scraped.families, "tributary_subscription_dead_letters", hostile), 2, "letters held");
      assert.equal(sample(scraped.families, "tributary_subscription_deliveries_total", { ...hostile, outcome: "dead_lettered" }), 2, "dead-lettered");
      const strict = { stream: halts, subscription: "strict" };
      assert.equal(sample(scraped.families, "tributary_subscription_halted", strict), 1);
      assert.equal(sample(scraped.families, "tributary_subscription_halted", ok), 0);
      assert.equal(sample(scraped.families, "tributary_subscription_deliveries_total", { ...strict, outcome: "halted" }), 1, "halted once");
      const card = await api.cardEntry(halts, "strict");
      assert.equal(sample(scraped.families, "tributary_subscription_lag", strict), card.runtime.lag);
      return scraped;
    },
    { what: "the scrape agrees with the streams", ...WAIT },
  );
  assert.equal(sample(families, "tributary_metrics_streams_reported", {}), 2);
  assert.equal(sample(families, "tributary_metrics_streams_omitted", {}), 0);
  // The hostile key is one escaped label value on one line.
  assert.ok(text.includes('subscription="we\\"ird\\\\key} 1"'), "escaped per the text format");
  for (const [name, family] of families) {
    for (const { labels } of family.samples) {
      if (name.startsWith("tributary_subscription_")) assert.deepEqual(Object.keys(labels).filter((l) => l !== "outcome"), ["stream", "subscription"]);
      else if (!name.startsWith("tributary_metrics_")) assert.deepEqual(Object.keys(labels), ["stream"], name);
    }
  }
  // Another project's scrape shows none of this project's streams.
  const other = await scrape(OTHER_TOKEN);
  assert.equal(sample(other.families, "tributary_metrics_streams_reported", {}), 0);
});

test("§11 §14 a destroyed stream's series leave the scrape", async () => {
  const gone = "/e2e-metrics/gone";
  await api.batchOk(gone, dataBatch(3));
  const before = await eventually(
    async () => {
      const scraped = await scrape();
      assert.equal(sample(scraped.families, "tributary_stream_head", { stream: gone }), 3);
      return scraped;
    },
    { what: "the new stream reported", ...WAIT },
  );
  const reported = sample(before.families, "tributary_metrics_streams_reported", {});
  assert.equal((await api.destroy(gone)).status, 204);
  await eventually(
    async () => {
      const scraped = await scrape();
      assert.equal(sample(scraped.families, "tributary_metrics_streams_reported", {}), reported - 1);
      assert.ok(!scraped.text.includes(`stream="${gone}"`), "no series of the destroyed stream");
    },
    { what: "the destroyed stream's series gone", ...WAIT },
  );
});

test("§11 §15 a source's progress is in the scrape until the source is deleted", async () => {
  const contract = await anvil.deployEmitter();
  const from = "0x" + "a".repeat(40);
  const to = "0x" + "b".repeat(40);
  await anvil.emit(contract, from, to, 2);
  const name = "metrics-transfers";
  const put = await t.request("PUT", `/v1/sources/${name}`, {
    body: {
      kind: "evm",
      rpcUrls: [anvil.url],
      chainId: CHAIN_ID,
      targetStream: "/e2e-metrics/transfers",
      filters: [{ address: [contract], event: TRANSFER }],
      startBlock: 0,
      pollMs: 250,
    },
  });
  assert.equal(put.status, 201, JSON.stringify(put.body));
  const status = await eventually(
    async () => {
      const res = await t.request("GET", `/v1/sources/${name}`);
      assert.equal(res.body.eventsAppended, 2);
      return res.body;
    },
    { what: "the source appended its logs", ...WAIT },
  );
  await eventually(
    async () => {
      const { families } = await scrape();
      const source = { source: name };
      assert.equal(sample(families, "tributary_source_next_block", source), status.nextBlock);
      assert.equal(sample(families, "tributary_source_events_appended_total", source), 2);
      assert.equal(sample(families, "tributary_source_invalidations_total", source), status.invalidations);
      assert.equal(sample(families, "tributary_source_errors", source), 0);
      assert.equal(sample(families, "tributary_source_failed", source), 0);
    },
    { what: "the scrape shows the source's progress", ...WAIT },
  );
  assert.equal((await t.request("DELETE", `/v1/sources/${name}`)).status, 204);
  const { text } = await scrape();
  assert.ok(!text.includes(`source="${name}"`), "a deleted source's series are gone with the DELETE's answer");
});

test("§2 §11 a bad scrape is refused with the error body", async () => {
  const unknown = await t.request("GET", "/v1/metrics?limit=3");
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, "invalid_parameter");
  const badPrefix = await t.request("GET", "/v1/metrics?prefix=%zz");
  assert.equal(badPrefix.status, 400);
  const post = await t.request("POST", "/v1/metrics", { body: {} });
  assert.equal(post.status, 405);
  assert.equal(post.body.error.code, "method_not_allowed");
  const anonymous = await t.request("GET", "/v1/metrics", { token: null });
  assert.equal(anonymous.status, 401);
  const internal = await t.request("POST", "/internal/metrics", { body: {} });
  assert.equal(internal.status, 404, "the report route is not public");
  const prefixed = await scrape();
  const only = parsePrometheus((await t.request("GET", "/v1/metrics?prefix=%2Fe2e-metrics%2Fh")).body);
  assert.ok(sample(prefixed.families, "tributary_metrics_streams_reported", {}) > 1);
  assert.equal(sample(only, "tributary_metrics_streams_reported", {}), 1, "only /e2e-metrics/halts");
});
