// EVM source benchmark (docs/design.md §15) against a local anvil node and the
// built worker in workerd (localhost only):
//
//  - catch-up: a chain of BENCH_EVM_BLOCKS blocks (5000) with
//    BENCH_EVM_LOGS_PER_BLOCK Transfer logs each (10), read by a source from
//    `startBlock: 0`; blocks and logs ingested per second, from the PUT to
//    the source's checkpoint passing the head (finalized blocks are read by
//    `eth_getLogs` range, the last finalityDepth = 64 by block hash);
//  - head-to-stream latency under `pollMs: 250`: BENCH_EVM_LATENCY_BLOCKS
//    (30) single-log blocks mined ~0–500 ms apart; latency is the evm.log
//    event's `createdAt` (the stream's commit) minus the moment the block's
//    transaction was sent (anvil mines on receipt);
//  - correctness, checked: the stream holds exactly the chain's logs, once,
//    in order.
//
// Settings (environment): BENCH_EVM_BLOCKS (5000), BENCH_EVM_LOGS_PER_BLOCK
// (10), BENCH_EVM_LATENCY_BLOCKS (30), BENCH_EVM_WAIT_SECONDS (900).
import { startTributary } from "../tests/e2e/harness.mjs";
import { startAnvil, CHAIN_ID, TRANSFER } from "../tests/e2e/anvil.mjs";
import { envNumber, percentile, printTable, fmt } from "./lib.mjs";

const blocks = envNumber("BENCH_EVM_BLOCKS", 5000, { integer: true });
const logsPerBlock = envNumber("BENCH_EVM_LOGS_PER_BLOCK", 10, { integer: true });
const latencyBlocks = envNumber("BENCH_EVM_LATENCY_BLOCKS", 30, { integer: true });
const waitSeconds = envNumber("BENCH_EVM_WAIT_SECONDS", 900);
const PATH = "/bench/evm/transfers";
const NAME = "bench-transfers";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fail = (message) => {
  throw new Error(`BENCH FAILED: evm_source: ${message}`);
};

async function readAll(t) {
  const events = [];
  let after = 0;
  for (let page = 0; page < 100_000; page++) {
    const res = await t.request("GET", `/v1/streams${PATH}/-/events?after=${after}&limit=1000`);
    if (res.status === 404) return events;
    if (res.status !== 200) fail(`range read: ${res.status} ${JSON.stringify(res.body)}`);
    events.push(...res.body.events);
    if (res.body.events.length === 0 || res.body.nextAfter >= res.body.head) return events;
    after = res.body.nextAfter;
  }
  return events;
}

async function status(t) {
  const res = await t.request("GET", `/v1/sources/${NAME}`);
  if (res.status !== 200) fail(`GET source: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function main() {
  console.log(
    `evm source bench: catch-up of ${blocks} blocks x ${logsPerBlock} logs from startBlock 0, ` +
      `then head-to-stream latency of ${latencyBlocks} blocks under pollMs 250`,
  );
  const [t, anvil] = await Promise.all([startTributary({ allowInsecureWebhooks: true, consoleAssets: false }), startAnvil()]);
  try {
    const contract = await anvil.deployEmitter();
    const mineStart = Date.now();
    await anvil.emitMany(contract, blocks, logsPerBlock);
    const head = await anvil.head();
    console.log(`chain: ${head + 1} blocks mined in ${fmt((Date.now() - mineStart) / 1000, 1)} s`);
    const expectedLogs = blocks * logsPerBlock;

    const body = {
      kind: "evm",
      rpcUrls: [anvil.url],
      chainId: CHAIN_ID,
      targetStream: PATH,
      filters: [{ address: [contract], event: TRANSFER }],
      startBlock: 0,
      pollMs: 250,
    };
    const started = Date.now();
    const put = await t.request("PUT", `/v1/sources/${NAME}`, { body });
    if (put.status !== 201) fail(`PUT: ${put.status} ${JSON.stringify(put.body)}`);
    let caughtUp;
    const deadline = started + waitSeconds * 1000;
    while (Date.now() < deadline) {
      const got = await status(t);
      if (got.lastError) console.log(`  (source error seen: ${got.lastError})`);
      if (got.nextBlock > head && got.eventsAppended === expectedLogs) {
        caughtUp = Date.now();
        break;
      }
      await sleep(100);
    }
    if (!caughtUp) fail(`no catch-up within ${waitSeconds} s: ${JSON.stringify(await status(t))}`);
    const seconds = (caughtUp - started) / 1000;

    const events = await readAll(t);
    const logs = events.filter((event) => event.type === "evm.log");
    if (logs.length !== expectedLogs) fail(`${logs.length} evm.log events, expected ${expectedLogs}`);
    const chain = await anvil.logs(contract);
    for (let i = 0; i < chain.length; i++) {
      if (logs[i].payload.blockHash !== chain[i].blockHash || logs[i].payload.logIndex !== parseInt(chain[i].logIndex, 16)) {
        fail(`event ${i} is not the chain's log ${i}`);
      }
    }
    if (new Set(logs.map((event) => event.idempotencyKey)).size !== logs.length) fail("duplicate keys");

    // Head-to-stream latency.
    const latencies = [];
    let after = events.at(-1)?.offset ?? 0;
    for (let i = 0; i < latencyBlocks; i++) {
      await sleep(Math.floor(Math.random() * 500));
      const sentAt = Date.now();
      await anvil.rpc("eth_sendTransaction", [anvil.tx(contract, "0x" + "33".repeat(20), "0x" + "44".repeat(20), 1)]);
      let event;
      for (let wait = 0; wait < 100 && !event; wait++) {
        const res = await t.request("GET", `/v1/streams${PATH}/-/events?after=${after}&limit=10&waitMs=10000`);
        event = res.body?.events?.find((e) => e.type === "evm.log");
      }
      if (!event) fail(`latency block ${i} never reached the stream`);
      after = event.offset;
      latencies.push(Date.parse(event.createdAt) - sentAt);
    }
    latencies.sort((a, b) => a - b);
    const final = await status(t);

    console.log("");
    printTable(
      [{ title: "catch-up (startBlock 0)" }, { title: "value" }],
      [
        ["blocks", fmt(head + 1)],
        ["logs appended", fmt(expectedLogs)],
        ["seconds (PUT → checkpoint past head)", fmt(seconds, 1)],
        ["blocks / s", fmt((head + 1) / seconds, 0)],
        ["logs / s", fmt(expectedLogs / seconds, 0)],
      ],
    );
    console.log("");
    printTable(
      [{ title: "head → stream (pollMs 250)" }, { title: "ms" }],
      [
        ["samples", fmt(latencies.length)],
        ["p50", fmt(percentile(latencies, 50))],
        ["p90", fmt(percentile(latencies, 90))],
        ["p99", fmt(percentile(latencies, 99))],
        ["max", fmt(latencies.at(-1))],
      ],
    );
    console.log(
      `\nsource: eventsAppended ${final.eventsAppended}, invalidations ${final.invalidations}, reorgs ${final.reorgs}, lastError ${final.lastError}`,
    );
  } finally {
    await t.cleanup();
    await anvil.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
