// The mempool source end to end (docs/design.md §15.1) against a real local EVM
// node (anvil, tests/e2e/anvil.mjs) with automine off, and the built worker
// in workerd: pending transactions to a contract, with matching and
// non-matching calldata, appear once each as `evm.pending-tx` with decoded
// args; mining them appends nothing more; a restart of the worker while
// hashes are queued repeats nothing; a node that forgets the filter (a
// proxy answering "filter not found" once) gets a new one; bad
// configurations are 422 naming the field.
//
// Every expectation is polled for (`eventually`); an absence is asserted
// only after a later fact was observed (a later transaction appended, or a
// poll after the mining), never after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { eventually, streamApi } from "./delivery_helpers.mjs";
import { startAnvil, CHAIN_ID } from "./anvil.mjs";
import { startProxy } from "./rpc_proxy.mjs";

const TRANSFER_FN = "transfer(address to, uint256 amount)";
const word = (hex) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");
const transferData = (to, amount) => `0xa9059cbb${word(to)}${word(amount.toString(16))}`;
const approveData = (spender, amount) => `0x095ea7b3${word(spender)}${word(amount.toString(16))}`;
const B = "0x" + "b2".repeat(20);
const C = "0x" + "c3".repeat(20);
const ELSEWHERE = "0x" + "e5".repeat(20);

let t;
let api;
let anvil;
let contract;
before(async () => {
  [t, anvil] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startAnvil()]);
  api = streamApi(t);
  contract = await anvil.deployEmitter();
  await anvil.rpc("evm_setAutomine", [false]);
});
after(async () => {
  await t?.cleanup();
  await anvil?.stop();
});

let counter = 0;
const fresh = (name) => `${name}-${++counter}`;

const config = (targetStream, extra = {}) => ({
  kind: "evm-mempool",
  rpcUrls: [anvil.url],
  chainId: CHAIN_ID,
  targetStream,
  filters: [{ to: [contract], function: TRANSFER_FN }],
  pollMs: 250,
  ...extra,
});

const put = (name, body) => t.request("PUT", `/v1/sources/${name}`, { body });
const status = async (name) => {
  const res = await t.request("GET", `/v1/sources/${name}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

/** PUT, then wait until the source has made its filter (it watches from then). */
async function watching(name, body) {
  const res = await put(name, body);
  assert.equal(res.status, 201, `PUT /v1/sources/${name}: ${JSON.stringify(res.body)}`);
  return eventually(
    async () => {
      const got = await status(name);
      assert.equal(typeof got.watchingSince, "string", JSON.stringify(got));
      return got;
    },
    { what: `${name} watching` },
  );
}

const send = (to, data) => anvil.rpc("eth_sendTransaction", [{ from: anvil.account, to, data, gas: "0x30000" }]);

const pendingTxs = async (path) => (await api.readAll(path)).events.filter((event) => event.type === "evm.pending-tx");

/** Waits until `path` holds exactly the pending-tx events of `hashes`, in order. */
const appended = (path, hashes, what) =>
  eventually(
    async () => {
      const events = await pendingTxs(path);
      assert.deepEqual(
        events.map((event) => event.payload.hash),
        hashes,
      );
      return events;
    },
    { what, timeoutMs: 30_000 },
  );

test("§15.1: matching pending transactions appear once each with decoded args; mining them appends nothing more", async () => {
  const name = fresh("pending");
  const path = `/e2e-mempool/${name}`;
  const started = await watching(name, config(path));
  assert.equal(started.config.kind, "evm-mempool");
  assert.equal(started.config.pollMs, 250);
  const first = await send(contract, transferData(B, 42));
  await send(contract, approveData(B, 42)); // another function
  await send(ELSEWHERE, transferData(B, 42)); // another recipient
  const second = await send(contract, transferData(C, 7));
  const events = await appended(path, [first, second], "both transfers appended");
  const [one, two] = events;
  assert.equal(one.idempotencyKey, `evm-mempool:${name}:${CHAIN_ID}:${first}`);
  const tx = await anvil.rpc("eth_getTransactionByHash", [first]);
  assert.equal(one.payload.chainId, CHAIN_ID);
  assert.equal(one.payload.from.toLowerCase(), anvil.account.toLowerCase());
  assert.notEqual(one.payload.from, one.payload.from.toLowerCase(), "checksummed");
  assert.equal(one.payload.to.toLowerCase(), contract.toLowerCase());
  assert.equal(one.payload.nonce, parseInt(tx.nonce, 16));
  assert.equal(one.payload.value, "0");
  assert.equal(one.payload.function, "transfer");
  assert.equal(one.payload.args.to.toLowerCase(), B);
  assert.equal(one.payload.args.amount, "42");
  assert.equal(one.payload.input, transferData(B, 42));
  assert.ok(Date.parse(one.payload.seenAt) >= Date.parse(started.watchingSince), one.payload.seenAt);
  assert.equal(two.payload.args.amount, "7");
  // Mined: the filter does not announce them again. A transaction sent
  // after the mining is the observable that the source polled since.
  await anvil.rpc("evm_mine", []);
  const third = await send(contract, transferData(B, 3));
  await appended(path, [first, second, third], "the later transfer, and nothing more");
  const got = await status(name);
  assert.equal(got.eventsAppended, 3);
  assert.ok(got.txsSeen >= 5, JSON.stringify(got));
  assert.equal(got.status, "running");
  const listed = await t.request("GET", "/v1/sources");
  assert.equal(listed.body.sources.find((source) => source.name === name)?.config.kind, "evm-mempool");
  await anvil.rpc("evm_mine", []);
  assert.equal((await t.request("DELETE", `/v1/sources/${name}`)).status, 204);
});

test("§15.1: a restart of the worker while hashes are queued repeats nothing", async () => {
  const proxy = await startProxy(anvil.url);
  const name = fresh("restart");
  const path = `/e2e-mempool/${name}`;
  try {
    await watching(name, config(path, { rpcUrls: [proxy.url] }));
    // The poll queues the hash; its fetch parks at the proxy; the worker
    // restarts under it.
    proxy.hold((method) => method === "eth_getTransactionByHash");
    const first = await send(contract, transferData(B, 1));
    await eventually(
      async () => assert.ok(proxy.seen.some((s) => s.method === "eth_getFilterChanges" && s.at > 0) && (await status(name)).txsSeen === 1),
      { what: "the hash queued" },
    );
    await t.restart();
    proxy.release();
    await appended(path, [first], "the queued transfer, once");
    const second = await send(contract, transferData(B, 2));
    await appended(path, [first, second], "the next transfer, and the first not again");
    const got = await status(name);
    assert.equal(got.eventsAppended, 2, JSON.stringify(got));
    assert.equal(got.filterResets, 0, "the node kept the filter across the worker's restart");
  } finally {
    proxy.release();
    await t.request("DELETE", `/v1/sources/${name}`);
    await anvil.rpc("evm_mine", []);
    await proxy.close();
  }
});

test("§15.1: a node that forgets the filter gets a new one, and the source watches on", async () => {
  const proxy = await startProxy(anvil.url);
  const name = fresh("forget");
  const path = `/e2e-mempool/${name}`;
  try {
    const before = await watching(name, config(path, { rpcUrls: [proxy.url] }));
    proxy.plan.push({ method: "eth_getFilterChanges", action: "forget" });
    const reset = await eventually(
      async () => {
        const got = await status(name);
        assert.equal(got.filterResets, 1, JSON.stringify(got));
        assert.notEqual(got.watchingSince, before.watchingSince);
        return got;
      },
      { what: "the filter made again" },
    );
    assert.equal(reset.status, "running", "not a failure");
    assert.equal(proxy.seen.filter((s) => s.method === "eth_newPendingTransactionFilter").length, 2);
    const hash = await send(contract, transferData(C, 9));
    await appended(path, [hash], "a transfer after the new filter");
  } finally {
    await t.request("DELETE", `/v1/sources/${name}`);
    await anvil.rpc("evm_mine", []);
    await proxy.close();
  }
});

test("§15.1: bad configurations are 422 naming the field, and nothing is stored", async () => {
  const name = fresh("bad");
  const path = `/e2e-mempool/${name}`;
  const cases = [
    [{ ...config(path), kind: "evm-pool" }, "kind"],
    [{ ...config(path), startBlock: 1 }, "startBlock"],
    [{ ...config(path), filters: [] }, "filters"],
    [{ ...config(path), filters: [{ to: ["0x1234"] }] }, "filters[0].to[0]"],
    [{ ...config(path), filters: [{ function: "transfer(" }] }, "filters[0].function"],
    [{ ...config(path), filters: [{ to: [contract], event: "Transfer()" }] }, "filters[0].event"],
    [{ ...config(path), pollMs: 10 }, "pollMs"],
    [{ ...config(path), chainId: 1 }, "chainId"],
    [{ ...config(path), rpcUrls: ["http://127.0.0.1:9/"] }, "rpcUrls"],
  ];
  for (const [body, field] of cases) {
    const res = await put(name, body);
    assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
  }
  const hostile = await t.request("PUT", `/v1/sources/${name}`, { rawBody: "{".repeat(100_000) });
  assert.ok([400, 413].includes(hostile.status), `${hostile.status}`);
  assert.equal((await t.request("GET", `/v1/sources/${name}`)).status, 404, "nothing stored");
});
