// A real local EVM node for the EVM source's end-to-end tests and bench
// (docs/design.md §15): anvil from the npm package @foundry-rs/anvil-linux-amd64,
// bound to 127.0.0.1 on a port the OS picked, plus a tiny log-emitting
// contract deployed as raw bytecode from an unlocked account.
//
// The emitter's runtime code reads calldata `from (32 bytes) | to (32 bytes)
// | count (32 bytes)` and emits `count` ERC-20 Transfer logs (LOG3 with the
// Transfer topic, `from` and `to` as topics, the value count, count-1, ...,
// 1 as data).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";

export const ANVIL = join(ROOT, "node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil");
export const CHAIN_ID = 31337;
export const TRANSFER = "Transfer(address indexed from, address indexed to, uint256 value)";
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

// PUSH1 0x40 CALLDATALOAD; loop: JUMPDEST DUP1 ISZERO PUSH1 end JUMPI; DUP1 PUSH1 0 MSTORE;
// PUSH1 0x20 CALLDATALOAD; PUSH1 0 CALLDATALOAD; PUSH32 topic; PUSH1 0x20 PUSH1 0 LOG3;
// PUSH1 1 SWAP1 SUB; PUSH1 loop JUMP; end: JUMPDEST STOP
const RUNTIME = [
  "6040", "35", // count
  "5b", "80", "15", "6040", "57", // loop: if count == 0 goto end
  "80", "6000", "52", // mem[0] = count
  "6020", "35", "6000", "35", // to, from
  "7f", TRANSFER_TOPIC.slice(2), // topic 0
  "6020", "6000", "a3", // LOG3(mem[0..32], topic0, from, to)
  "6001", "90", "03", // count - 1
  "6003", "56", // goto loop
  "5b", "00", // end: STOP
].join("");
// PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime.
const INIT = `0x60${(RUNTIME.length / 2).toString(16)}80600b6000396000f3${RUNTIME}`;

const word = (hex) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");

/** Calldata making the emitter log `count` transfers from `from` to `to`. */
export const emitData = (from, to, count) => `0x${word(from)}${word(to)}${word(count.toString(16))}`;

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts anvil; `rpc`, `batch`, `deployEmitter`, `emit`, `stop`. */
export async function startAnvil() {
  const port = await freePort();
  const child = spawn(ANVIL, ["--host", "127.0.0.1", "--port", String(port), "--silent", "--chain-id", String(CHAIN_ID)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const post = async (body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return response.json();
  };
  const rpc = async (method, params = []) => {
    const answer = await post({ jsonrpc: "2.0", id: ++id, method, params });
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  /** Several calls in one JSON-RPC batch; results in order. */
  const batch = async (calls) => {
    const first = id + 1;
    const answers = await post(calls.map(([method, params = []]) => ({ jsonrpc: "2.0", id: ++id, method, params })));
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    return calls.map(([method], i) => {
      const answer = byId.get(first + i);
      if (!answer || answer.error) throw new Error(`${method}: ${JSON.stringify(answer?.error)}`);
      return answer.result;
    });
  };
  for (let attempt = 0; ; attempt++) {
    try {
      await rpc("eth_chainId");
      break;
    } catch (error) {
      if (attempt > 100) throw new Error(`anvil did not start: ${error.message} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const [account] = await rpc("eth_accounts");
  /** The receipt of `hash`, once mined (automine answers before it lands). */
  const receipt = async (hash) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const found = await rpc("eth_getTransactionReceipt", [hash]);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`transaction ${hash} was not mined`);
  };
  const node = {
    url,
    port,
    account,
    rpc,
    receipt,
    batch,
    async deployEmitter() {
      const hash = await rpc("eth_sendTransaction", [{ from: account, data: INIT, gas: "0x100000" }]);
      return (await receipt(hash)).contractAddress;
    },
    /** A transaction request calling the emitter (for eth_sendTransaction or anvil_reorg). */
    tx: (contract, from, to, count) => ({
      from: account,
      to: contract,
      data: emitData(from, to, count),
      gas: `0x${(40_000 + count * 5_000).toString(16)}`,
    }),
    /** One transaction (one block, automine) emitting `count` transfers; its receipt. */
    async emit(contract, from, to, count) {
      const hash = await rpc("eth_sendTransaction", [node.tx(contract, from, to, count)]);
      return receipt(hash);
    },
    /**
     * `blocks` blocks of one emitter transaction each (`count` logs per
     * block): automine off, then per block one transaction and one
     * `evm_mine`, one request at a time (anvil neither keeps a batch's order
     * nor, automining, keeps concurrent transactions in separate blocks).
     */
    async emitMany(contract, blocks, count, from = "0x" + "11".repeat(20), to = "0x" + "22".repeat(20)) {
      await rpc("evm_setAutomine", [false]);
      try {
        for (let i = 0; i < blocks; i++) {
          await rpc("eth_sendTransaction", [node.tx(contract, from, to, count)]);
          await rpc("evm_mine", []);
        }
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
    },
    async head() {
      return parseInt(await rpc("eth_blockNumber"), 16);
    },
    /** The canonical logs of `contract` (every block). */
    async logs(contract) {
      return rpc("eth_getLogs", [{ address: contract, fromBlock: "0x0", toBlock: "latest" }]);
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
  return node;
}
