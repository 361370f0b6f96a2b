// The EVM chain source end to end (docs/design.md §15) against a real local EVM
// node (anvil, tests/e2e/anvil.mjs) and the built worker in workerd: logs
// appended in order with the §15 payload and keys, reorgs turned into
// `events-invalidated` naming exactly the dead fork's offsets, reorgs
// without matched logs invalidating nothing, a fork deeper than the window
// invalidating the window, a restart between an append and the checkpoint
// appending nothing twice, a hostile proxy (429, 5xx, a hang, logs with the
// wrong block hash) driving backoff and URL rotation without a wrong
// append, and a webhook hearing the retractions before the replacements.
//
// Every expectation is polled for (`eventually`); an absence is asserted
// only after a later fact was observed, never after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { startTributary, freshStateDir, streamUrl, TOKEN } from "./harness.mjs";
import { CONFIGURED, CONTROL, eventually, streamApi, sleep } from "./delivery_helpers.mjs";
import { startReceiver, dedupeById } from "./webhook_receiver.mjs";
import { startAnvil, CHAIN_ID, TRANSFER, TRANSFER_TOPIC } from "./anvil.mjs";
import { startProxy } from "./rpc_proxy.mjs";

const INVALIDATED = `${CONTROL}events-invalidated`;
const A = "0x" + "a1".repeat(20);
const B = "0x" + "b2".repeat(20);
const C = "0x" + "c3".repeat(20);
const D = "0x" + "d4".repeat(20);

let t;
let api;
let anvil;
let receiver;
before(async () => {
  [t, anvil, receiver] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startAnvil(), startReceiver()]);
  api = streamApi(t);
});
after(async () => {
  await receiver?.close();
  await t?.cleanup();
  await anvil?.stop();
});

let counter = 0;
const fresh = (name) => `${name}-${++counter}`;

const config = (targetStream, contract, extra = {}) => ({
  kind: "evm",
  rpcUrls: [anvil.url],
  chainId: CHAIN_ID,
  targetStream,
  filters: [{ address: [contract], event: TRANSFER }],
  startBlock: 0,
  pollMs: 250,
  ...extra,
});

const put = (name, body, on = t) => on.request("PUT", `/v1/sources/${name}`, { body });
const status = async (name, on = t) => {
  const res = await on.request("GET", `/v1/sources/${name}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

async function putOk(name, body, on = t) {
  const res = await put(name, body, on);
  assert.equal(res.status, 201, `PUT /v1/sources/${name}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The stream's evm.log and events-invalidated events. */
async function sourceEvents(path, on = api) {
  const { events } = await on.readAll(path);
  return {
    logs: events.filter((event) => event.type === "evm.log"),
    invalidations: events.filter((event) => event.type === INVALIDATED),
    all: events,
  };
}

/** The non-invalidated evm.log events, as `blockHash:logIndex`. */
function valid({ logs, invalidations }) {
  const dead = new Set(invalidations.flatMap((event) => event.payload.offsets));
  return logs.filter((event) => !dead.has(event.offset)).map((event) => `${event.payload.blockHash}:${event.payload.logIndex}`);
}

/** The canonical chain's logs of `contract`, as `blockHash:logIndex`. */
async function canonical(contract) {
  return (await anvil.logs(contract)).map((log) => `${log.blockHash}:${parseInt(log.logIndex, 16)}`);
}

/** Waits until the stream's valid logs are exactly the chain's logs of `contract`. */
async function converged(path, contract, { on = api, timeoutMs = 30_000 } = {}) {
  return eventually(
    async () => {
      const events = await sourceEvents(path, on);
      assert.deepEqual(valid(events), await canonical(contract));
      return events;
    },
    { timeoutMs, what: `${path} equals the chain's logs of ${contract}` },
  );
}

const lower = (address) => address.toLowerCase();

test("§15: logs appear in order with the payload and keys of §15; GET and the list show the source", async () => {
  const contract = await anvil.deployEmitter();
  await anvil.emit(contract, A, B, 2);
  await anvil.emit(contract, C, D, 3);
  const name = fresh("transfers");
  const path = `/e2e-evm/${name}`;
  const created = await putOk(name, config(path, contract));
  assert.equal(created.name, name);
  assert.equal(created.config.finalityDepth, 64);
  assert.equal(created.config.confirmations, 0);
  const { logs } = await converged(path, contract);
  const chain = await anvil.logs(contract);
  assert.equal(logs.length, 5);
  for (const [i, event] of logs.entries()) {
    const log = chain[i];
    const logIndex = parseInt(log.logIndex, 16);
    assert.equal(event.idempotencyKey, `evm:${name}:${CHAIN_ID}:${log.blockHash}:${logIndex}`);
    assert.equal(event.payload.chainId, CHAIN_ID);
    assert.equal(event.payload.address.toLowerCase(), contract.toLowerCase());
    assert.match(event.payload.address, /^0x[0-9a-fA-F]{40}$/);
    assert.equal(event.payload.event, "Transfer");
    assert.deepEqual(event.payload.topics, log.topics);
    assert.equal(event.payload.topics[0], TRANSFER_TOPIC);
    assert.equal(event.payload.data, log.data);
    assert.equal(event.payload.blockNumber, parseInt(log.blockNumber, 16));
    assert.equal(event.payload.blockHash, log.blockHash);
    assert.equal(event.payload.transactionHash, log.transactionHash);
    assert.equal(event.payload.transactionIndex, parseInt(log.transactionIndex, 16));
    assert.equal(event.payload.logIndex, logIndex);
    assert.equal(lower(event.payload.args.from), i < 2 ? A : C);
    assert.equal(lower(event.payload.args.to), i < 2 ? B : D);
    assert.equal(event.payload.args.value, String(BigInt(log.data)));
  }
  assert.deepEqual(
    logs.map((event) => event.payload.args.value),
    ["2", "1", "3", "2", "1"],
  );
  // Addresses in args are EIP-55 checksummed (mixed case for these).
  assert.notEqual(logs[0].payload.args.from, logs[0].payload.args.from.toLowerCase());
  const got = await eventually(
    async () => {
      const got = await status(name);
      assert.equal(got.eventsAppended, 5);
      return got;
    },
    { what: "eventsAppended 5" },
  );
  assert.equal(got.status, "running");
  assert.equal(got.lastError, null);
  assert.equal(got.invalidations, 0);
  assert.equal(got.nextBlock, (await anvil.head()) + 1);
  const chainHead = await anvil.head();
  assert.equal(got.finalizedBlock, chainHead >= 64 ? chainHead - 64 : null, "the floor: null below block 0");
  assert.equal(lower(got.config.filters[0].address[0]), lower(contract), "stored checksummed");
  const list = await t.request("GET", "/v1/sources");
  assert.equal(list.status, 200);
  assert.ok(list.body.sources.some((source) => source.name === name && source.config.targetStream === path));
  // An identical PUT replaces (200) and keeps the progress.
  const again = await put(name, config(path, contract));
  assert.equal(again.status, 200);
  assert.equal(again.body.eventsAppended, 5);
});

test("§15: PUT checks the endpoint's chain id and refuses bad input naming the field; DELETE forgets the source", async () => {
  const contract = await anvil.deployEmitter();
  const path = `/e2e-evm/${fresh("checks")}`;
  const wrongChain = await put("wrong-chain", config(path, contract, { chainId: 1 }));
  assert.equal(wrongChain.status, 422);
  assert.equal(wrongChain.body.error.details.field, "chainId");
  const closed = await put("unreachable", config(path, contract, { rpcUrls: ["http://127.0.0.1:9/"] }));
  assert.equal(closed.status, 422);
  assert.equal(closed.body.error.details.field, "rpcUrls");
  for (const [body, field] of [
    [config(path, contract, { filters: [{ event: "Transfer(address" }] }), "filters[0].event"],
    [config(path, contract, { pollMs: 100 }), "pollMs"],
    [config(path, contract, { rpcUrls: ["ftp://127.0.0.1/"] }), "rpcUrls[0]"],
    [config(path, contract, { targetStream: "nope" }), "targetStream"],
    [{ ...config(path, contract), kind: "solana" }, "kind"],
  ]) {
    const res = await put("bad", body);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.error.details.field, field);
  }
  const malformed = await t.request("PUT", "/v1/sources/bad", { rawBody: "{", headers: { "content-type": "application/json" } });
  assert.equal(malformed.status, 400);
  const huge = await t.request("PUT", "/v1/sources/bad", { rawBody: "x".repeat(70_000) });
  assert.equal(huge.status, 413);
  const badName = await t.request("GET", "/v1/sources/a%20b");
  assert.equal(badName.status, 400);
  assert.equal((await t.request("POST", "/v1/sources/x")).status, 405);
  assert.equal((await t.request("GET", "/v1/sources/bad")).status, 404, "nothing was stored");
  assert.equal((await t.request("GET", "/v1/sources/bad", { token: null })).status, 401);
  // DELETE: gone from GET and from the list; the stream keeps its events.
  const name = fresh("deleted");
  await anvil.emit(contract, A, B, 1);
  await putOk(name, config(path, contract));
  await converged(path, contract);
  assert.equal((await t.request("DELETE", `/v1/sources/${name}`)).status, 204);
  assert.equal((await t.request("GET", `/v1/sources/${name}`)).status, 404);
  assert.equal((await t.request("DELETE", `/v1/sources/${name}`)).status, 404);
  const list = await t.request("GET", "/v1/sources");
  assert.ok(!list.body.sources.some((source) => source.name === name));
  assert.equal((await sourceEvents(path)).logs.length, 1);
  // Another project sees none of it.
  const other = await t.request("GET", "/v1/sources", { token: "e2e-other-token" });
  assert.deepEqual(other.body.sources, []);
});

test("§15: anvil_reorg(2) appends events-invalidated naming exactly the dead fork's offsets, then the new fork's logs", async () => {
  const contract = await anvil.deployEmitter();
  await anvil.emit(contract, A, B, 1);
  const dead1 = await anvil.emit(contract, A, B, 2);
  const dead2 = await anvil.emit(contract, C, D, 3);
  const name = fresh("reorg");
  const path = `/e2e-evm/${name}`;
  await putOk(name, config(path, contract));
  const before = await converged(path, contract);
  assert.equal(before.logs.length, 6);
  const deadHashes = new Set([dead1.blockHash, dead2.blockHash]);
  const deadOffsets = before.logs.filter((event) => deadHashes.has(event.payload.blockHash)).map((event) => event.offset);
  assert.equal(deadOffsets.length, 5);
  const head = before.all.at(-1).offset;
  await anvil.rpc("anvil_reorg", [
    2,
    [
      [anvil.tx(contract, D, C, 4), 0],
      [anvil.tx(contract, B, A, 1), 1],
    ],
  ]);
  const after = await converged(path, contract);
  assert.equal(after.invalidations.length, 1);
  const invalidation = after.invalidations[0];
  assert.deepEqual(invalidation.payload.offsets, deadOffsets);
  assert.equal(invalidation.payload.reason, "reorg");
  assert.equal(invalidation.offset, head + 1, "the invalidation comes first");
  assert.equal(invalidation.metadata.deep, false);
  assert.equal(invalidation.metadata.deadTip.hash, dead2.blockHash);
  assert.match(invalidation.idempotencyKey, new RegExp(`^evm:${name}:${CHAIN_ID}:reorg:0x[0-9a-f]{64}:${dead2.blockHash}:0:0$`));
  const replacements = after.logs.filter((event) => event.offset > invalidation.offset);
  assert.deepEqual(
    replacements.map((event) => event.payload.args.value),
    ["4", "3", "2", "1", "1"],
  );
  const got = await status(name);
  assert.equal(got.invalidations, 1);
  assert.equal(got.reorgs, 1);
  assert.equal(got.deepReorgs, 0);
});

test("§15: a reorg touching no matched logs invalidates nothing", async () => {
  const contract = await anvil.deployEmitter();
  await anvil.emit(contract, A, B, 2);
  await anvil.rpc("evm_mine");
  await anvil.rpc("evm_mine");
  const name = fresh("quiet-reorg");
  const path = `/e2e-evm/${name}`;
  await putOk(name, config(path, contract));
  await converged(path, contract);
  const caughtUp = await eventually(
    async () => {
      const got = await status(name);
      assert.equal(got.nextBlock, (await anvil.head()) + 1);
      return got;
    },
    { what: "caught up" },
  );
  const count = (await sourceEvents(path)).all.length;
  await anvil.rpc("anvil_reorg", [2, []]);
  // The source saw the reorg (counted) ...
  await eventually(
    async () => {
      const got = await status(name);
      assert.ok(got.reorgs > caughtUp.reorgs, JSON.stringify(got));
    },
    { what: "the reorg counted" },
  );
  // ... and appended nothing for it.
  const after = await sourceEvents(path);
  assert.equal(after.invalidations.length, 0);
  assert.equal(after.all.length, count);
  assert.deepEqual(valid(after), await canonical(contract));
});

test("§15: a fork deeper than the window invalidates the whole window and is counted", async () => {
  const contract = await anvil.deployEmitter();
  const receipts = [];
  for (let i = 0; i < 5; i++) receipts.push(await anvil.emit(contract, A, B, 2));
  const name = fresh("deep");
  const path = `/e2e-evm/${name}`;
  await putOk(name, config(path, contract, { finalityDepth: 2 }));
  const before = await converged(path, contract);
  const head = await anvil.head();
  await eventually(
    async () => {
      const got = await status(name);
      assert.equal(got.finalizedBlock, head - 2);
      assert.equal(got.nextBlock, head + 1);
    },
    { what: "the window is the last two blocks" },
  );
  const windowHashes = new Set(receipts.slice(-2).map((receipt) => receipt.blockHash));
  const windowOffsets = before.logs.filter((event) => windowHashes.has(event.payload.blockHash)).map((event) => event.offset);
  assert.equal(windowOffsets.length, 4);
  await anvil.rpc("anvil_reorg", [4, [[anvil.tx(contract, C, D, 1), 3]]]);
  const got = await eventually(
    async () => {
      const got = await status(name);
      assert.equal(got.deepReorgs, 1);
      return got;
    },
    { what: "the deep reorg counted" },
  );
  assert.equal(got.invalidations, 1);
  const after = await eventually(
    async () => {
      const events = await sourceEvents(path);
      assert.equal(events.invalidations.length, 1);
      assert.ok(events.logs.length > before.logs.length, "the new fork's log above the floor");
      return events;
    },
    { what: "the invalidation and the new fork's log" },
  );
  assert.deepEqual(after.invalidations[0].payload.offsets, windowOffsets, "exactly the window");
  assert.equal(after.invalidations[0].metadata.deep, true);
  const last = after.logs.at(-1);
  assert.equal(last.payload.args.from.toLowerCase(), C);
});

test("§15: 429, 5xx, a hang and logs with the wrong block hash back off and rotate URLs without a wrong append", async () => {
  const contract = await anvil.deployEmitter();
  const startBlock = parseInt((await anvil.emit(contract, A, B, 2)).blockNumber, 16);
  await anvil.emit(contract, C, D, 1);
  const [first, second] = await Promise.all([startProxy(anvil.url), startProxy(anvil.url)]);
  const name = fresh("hostile");
  try {
    const path = `/e2e-evm/${name}`;
    // The PUT's eth_chainId checks pass through; the runs meet the plans.
    first.plan.push({ method: "eth_blockNumber", action: "429" }, { method: "eth_getLogs", action: "badhash" });
    second.plan.push({ method: "eth_blockNumber", action: "500" }, { method: "eth_blockNumber", action: "hang" });
    // From the first block with logs: the run after the 500 meets them at once.
    await putOk(name, config(path, contract, { rpcUrls: [first.url, second.url], startBlock }));
    const retrying = await eventually(
      async () => {
        const got = await status(name);
        assert.equal(got.status, "retrying");
        assert.match(got.lastError, /HTTP (429|500)/);
        return got;
      },
      { what: "retrying after 429" },
    );
    assert.equal(retrying.eventsAppended, 0);
    const events = await converged(path, contract, { timeoutMs: 60_000 });
    assert.equal(events.logs.length, 3);
    assert.ok(!events.logs.some((event) => event.payload.blockHash === "0x" + "ee".repeat(32)), "no wrong append");
    assert.equal(first.plan.length + second.plan.length, 0, "every failure was met");
    // Runs alternate URLs after each failure, each waiting longer.
    const failures = [...first.seen.map((s) => ({ ...s, url: 0 })), ...second.seen.map((s) => ({ ...s, url: 1 }))]
      .filter((s) => s.action !== "pass")
      .sort((x, y) => x.at - y.at);
    assert.deepEqual(
      failures.map((s) => `${s.url}:${s.action}`),
      ["0:429", "1:500", "0:badhash", "1:hang"],
    );
    const all = [...first.seen.map((s) => ({ ...s, url: 0 })), ...second.seen.map((s) => ({ ...s, url: 1 }))].sort((x, y) => x.at - y.at);
    const gaps = [];
    for (const failure of failures.slice(0, 3)) {
      const next = all.find((s) => s.at > failure.at && s.method === "eth_blockNumber");
      gaps.push(next.at - failure.at);
      assert.notEqual(next.url, failure.url, "the next run uses the other URL");
    }
    assert.ok(gaps[0] >= 900, `Retry-After 1 s honoured: ${gaps}`);
    assert.ok(gaps[1] >= 1_500, `second backoff ~2 s: ${gaps}`);
    assert.ok(gaps[2] >= 3_000, `third backoff ~4 s: ${gaps}`);
    const got = await status(name);
    assert.equal(got.status, "running");
    assert.equal(got.lastError, null);
  } finally {
    await t.request("DELETE", `/v1/sources/${name}`);
    await Promise.all([first.close(), second.close()]);
  }
});

/**
 * A Tributary in its own detached process group (like crash.test.mjs), so
 * that SIGKILL reaches Node and workerd at once, the moment the test says.
 */
async function startKillable(persistDir) {
  const script =
    `import { startTributary } from ${JSON.stringify(new URL("./harness.mjs", import.meta.url).href)};` +
    `const t = await startTributary({ persistDir: ${JSON.stringify(persistDir)}, allowInsecureWebhooks: true });` +
    `process.stdout.write(JSON.stringify({ url: t.url }) + "\\n"); setInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    new Promise((resolve) => lines.once("line", resolve)),
    exited.then((code) => {
      throw new Error(`server exited (${code}): ${stderr}`);
    }),
  ]);
  lines.on("line", () => {});
  const { url } = JSON.parse(first);
  return {
    url,
    async request(method, path, { body, token = TOKEN } = {}) {
      const init = { method, headers: { authorization: `Bearer ${token}` } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers["content-type"] = "application/json";
      }
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      let parsed = text;
      try {
        parsed = text.length ? JSON.parse(text) : null;
      } catch {}
      return { status: response.status, body: parsed };
    },
    async kill() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch (error) {
        if (error.code !== "ESRCH") throw error;
      }
      await exited;
    },
  };
}

test("§15: killing workerd between an append and the checkpoint appends nothing twice", async () => {
  const persistDir = freshStateDir("tributary-evm-restart-");
  const proxy = await startProxy(anvil.url);
  let server = await startKillable(persistDir);
  // Requests follow the current server across restarts.
  const current = { request: (...args) => server.request(...args) };
  const currentApi = streamApi(current);
  try {
    const contract = await anvil.deployEmitter();
    const from = (await anvil.head()) + 1;
    // 600 blocks of 20 logs: the first 500 finalized ones are read as one
    // range (10 000 logs, ten appends of 1000), then checkpointed.
    await anvil.emitMany(contract, 600, 20);
    const name = fresh("restart");
    const path = `/e2e-evm/${name}`;
    // The source waits at the proxy until the kill loop watches (the PUT's
    // eth_chainId goes through).
    proxy.hold((method) => method !== "eth_chainId");
    await putOk(name, config(path, contract, { startBlock: from, rpcUrls: [proxy.url] }), current);
    proxy.release();
    // The stream object is too busy appending to be watched, so the kill is
    // timed from the proxy: it answers the range's anchor block, the appends
    // follow. A kill that lands too early leaves the range unappended and is
    // repeated later; once one lands inside the appends, it is proven.
    let proven = false;
    let seen = 0;
    for (let round = 0, delay = 0; round < 12 && !proven; round++, delay += 120) {
      const anchor = await eventually(
        () => {
          const fresh = proxy.seen.slice(seen);
          const index = fresh.findIndex((s, i) => s.method === "eth_getBlockByNumber" && fresh[i - 1]?.params?.[0]?.fromBlock);
          assert.ok(index >= 0, "a range's anchor was answered");
          seen += index + 1;
          return fresh[index];
        },
        { timeoutMs: 60_000, intervalMs: 2, what: "a range read" },
      );
      await sleep(Math.max(0, anchor.at + delay - Date.now()));
      proxy.hold();
      await server.kill();
      server = await startKillable(persistDir);
      // The restarted source is parked at the proxy: compare its checkpoint with the stream.
      const got = await status(name, current);
      const { logs } = await sourceEvents(path, currentApi);
      proven = logs.length > got.eventsAppended;
      proxy.release();
    }
    assert.ok(proven, "a kill landed after an append and before its checkpoint");
    const events = await converged(path, contract, { on: currentApi, timeoutMs: 120_000 });
    assert.equal(events.logs.length, 12_000);
    const keys = new Set(events.logs.map((event) => event.idempotencyKey));
    assert.equal(keys.size, 12_000, "no duplicate");
    assert.equal(events.invalidations.length, 0);
    await eventually(
      async () => assert.equal((await status(name, current)).eventsAppended, 12_000),
      { what: "eventsAppended 12000" },
    );
    // The repeated appends collapsed onto their keys in the new process.
    const metrics = await currentApi.metricsOk(path);
    assert.ok(metrics.tributary_events_deduplicated_total > 0, JSON.stringify(metrics));
  } finally {
    await proxy.close();
    await server.kill();
    rmSync(persistDir, { recursive: true, force: true });
  }
});

test("§15 with §13: a webhook subscription receives the retractions before the replacements", async () => {
  const contract = await anvil.deployEmitter();
  await anvil.emit(contract, A, B, 1);
  const dead = await anvil.emit(contract, C, D, 2);
  const name = fresh("hooked");
  const path = `/e2e-evm/${name}`;
  const hookPath = `/hook/${name}`;
  await api.appendOk(path, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "transfers",
      filter: { eventTypes: ["evm.log"] },
      receiver: {
        action: "webhook-post",
        url: receiver.url(hookPath),
        delivery: { start: "beginning", onFailingEvent: "skip", retry: { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 100 } },
      },
    },
  });
  const secret = await t.request("GET", streamUrl(path, "subscriptions/transfers/signing-secret"));
  receiver.setSecret(hookPath, secret.body.secret);
  await putOk(name, config(path, contract));
  const seen = () =>
    dedupeById(receiver.received(hookPath)).map((record) =>
      record.body.type === "retracted" ? `retracted:${record.body.offset}` : `event:${record.body.event.offset}:${record.body.event.payload.args.value}`,
    );
  const before = await eventually(
    () => {
      const got = seen();
      assert.equal(got.length, 3, String(got));
      return got;
    },
    { what: "three transfers delivered" },
  );
  const { logs } = await sourceEvents(path);
  const deadOffsets = logs.filter((event) => event.payload.blockHash === dead.blockHash).map((event) => event.offset);
  await anvil.rpc("anvil_reorg", [1, [[anvil.tx(contract, D, C, 1), 0]]]);
  const got = await eventually(
    () => {
      const got = seen();
      assert.equal(got.length, 3 + deadOffsets.length + 1, String(got));
      return got;
    },
    { timeoutMs: 30_000, what: "retractions then the replacement" },
  );
  assert.deepEqual(got.slice(0, 3), before);
  assert.deepEqual(
    got.slice(3, 3 + deadOffsets.length),
    deadOffsets.map((offset) => `retracted:${offset}`),
  );
  assert.match(got.at(-1), /^event:\d+:1$/);
  for (const record of receiver.received(hookPath)) assert.equal(record.verified, true, record.verifyError);
  const retraction = receiver.received(hookPath).find((record) => record.body.type === "retracted");
  assert.equal(retraction.body.reason, "reorg");
});
