// The EVM source and its target stream's lifetime (docs/design.md §15, §3 rule
// 6) end to end, against anvil and the built worker in workerd: the source
// appended blocks into a lifetime of its target; the target is deleted and
// created again by someone else's events; then the chain reorganises the
// blocks the source had appended. The window's offsets name the destroyed
// lifetime's events, so the reorg must invalidate nothing of the new
// lifetime (before the fix it named the new lifetime's unrelated events);
// the new fork's logs arrive in the new lifetime and the source keeps
// running. Every expectation is polled for (`eventually`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary } from "./harness.mjs";
import { CONTROL, eventually, streamApi } from "./delivery_helpers.mjs";
import { startAnvil, CHAIN_ID, TRANSFER } from "./anvil.mjs";

const INVALIDATED = `${CONTROL}events-invalidated`;
const A = "0x" + "a1".repeat(20);
const B = "0x" + "b2".repeat(20);
const C = "0x" + "c3".repeat(20);
const D = "0x" + "d4".repeat(20);

let t;
let api;
let anvil;
before(async () => {
  [t, anvil] = await Promise.all([startTributary({ allowInsecureWebhooks: true }), startAnvil()]);
  api = streamApi(t);
});
after(async () => {
  await t?.cleanup();
  await anvil?.stop();
});

const WAIT = { timeoutMs: 30_000, intervalMs: 100 };

test("§15/§3: after its target is deleted and recreated, a reorg of blocks the source appended invalidates nothing of the new lifetime; the new fork's logs arrive there and the source keeps running", { timeout: 120_000 }, async () => {
  const contract = await anvil.deployEmitter();
  await anvil.emit(contract, A, B, 1);
  await anvil.emit(contract, A, B, 2);
  await anvil.emit(contract, C, D, 3);
  const name = "lifetime";
  const path = "/e2e-evm-lifetime/target";
  const put = await t.request("PUT", `/v1/sources/${name}`, {
    body: { kind: "evm", rpcUrls: [anvil.url], chainId: CHAIN_ID, targetStream: path, filters: [{ address: [contract], event: TRANSFER }], startBlock: 0, pollMs: 250 },
  });
  assert.equal(put.status, 201, JSON.stringify(put.body));
  const chainLogs = async () => (await anvil.logs(contract)).length;
  const expected = await chainLogs();
  await eventually(
    async () => assert.equal((await api.readAll(path)).events.filter((e) => e.type === "evm.log").length, expected),
    { what: "the source appended every log", ...WAIT },
  );
  const first = await api.infoOk(path);
  // The target goes away; someone else's events start a new lifetime,
  // enough of them that the old offsets all name events of it.
  assert.equal((await api.destroy(path)).status, 204);
  const users = await api.batchOk(
    path,
    Array.from({ length: first.head + 5 }, (_, i) => ({ type: "user.note", payload: { i } })),
  );
  const second = await api.infoOk(path);
  assert.notEqual(second.streamId, first.streamId);
  // The chain drops the last two blocks (matched logs in both) for a new fork.
  await anvil.rpc("anvil_reorg", [2, [[anvil.tx(contract, D, C, 4), 0]]]);
  const status = await eventually(
    async () => {
      const res = await t.request("GET", `/v1/sources/${name}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.reorgs >= 1, `the reorg was seen: ${JSON.stringify(res.body)}`);
      const { events } = await api.readAll(path);
      const values = events.filter((e) => e.type === "evm.log").map((e) => e.payload.args.value);
      assert.ok(values.includes("4"), `the new fork's log arrived: ${JSON.stringify(values)}`);
      return res.body;
    },
    { what: "the reorg handled and the new fork appended", ...WAIT },
  );
  assert.equal(status.status, "running", JSON.stringify(status));
  const { events } = await api.readAll(path);
  const invalidated = new Set(events.filter((e) => e.type === INVALIDATED).flatMap((e) => e.payload.offsets));
  const userOffsets = users.map((e) => e.offset);
  assert.deepEqual(
    userOffsets.filter((offset) => invalidated.has(offset)),
    [],
    `no event of the new lifetime was invalidated: ${JSON.stringify([...invalidated])}`,
  );
  assert.equal((await api.infoOk(path)).streamId, second.streamId, "still the new lifetime");
  // The new lifetime holds exactly the new fork's logs of the reorganised blocks, after the users' events.
  const logs = events.filter((e) => e.type === "evm.log");
  assert.ok(logs.every((e) => e.offset > userOffsets.at(-1)), "the source's appends follow the users' events");
  const canonical = new Set((await anvil.logs(contract)).map((log) => `${log.blockHash}:${parseInt(log.logIndex, 16)}`));
  assert.ok(logs.every((e) => canonical.has(`${e.payload.blockHash}:${e.payload.logIndex}`)), "only canonical logs");
  // Another stream answers.
  await api.appendOk("/e2e-evm-lifetime/witness", { type: "ping", payload: {} });
});
