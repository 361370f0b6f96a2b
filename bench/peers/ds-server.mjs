// The Durable Streams reference server (@durable-streams/server), run as its
// own Node process for bench/peers.mjs so that it does not share the bench
// client's event loop (Tributary's workerd and nats-server are separate
// processes too).
//
//   node bench/peers/ds-server.mjs <dataDir>
//
// File-backed mode (`dataDir`): stream data in append-only segment files,
// fdatasync'd before each append is acknowledged, metadata in LMDB. Listens
// on 127.0.0.1, a port the OS picks; prints `READY <url>` once listening.
// Stops on SIGTERM / SIGINT, or when its stdin closes (the bench went away).
import { DurableStreamTestServer } from "@durable-streams/server";

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("usage: ds-server.mjs <dataDir>");
  process.exit(2);
}

const server = new DurableStreamTestServer({ host: "127.0.0.1", port: 0, dataDir, longPollTimeout: 30_000 });
const url = await server.start();
process.stdout.write(`READY ${url}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  const timer = setTimeout(() => process.exit(1), 5000);
  try {
    await server.stop();
  } finally {
    clearTimeout(timer);
    process.exit(0);
  }
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.on("error", stop);
process.stdin.resume();
