// A Tributary in its own process, for tests that kill it (crash.test.mjs):
// `node tests/e2e/server.mjs <persistDir>` starts the built worker in workerd
// (through the harness) with its SQLite persisted in <persistDir>, prints
// `{"url": "http://127.0.0.1:<port>"}` as one JSON line on stdout, and stays
// alive until killed. Spawn it detached so the whole process group —
// Miniflare's workerd child included — can be killed at once.
import { startTributary } from "./harness.mjs";

const persistDir = process.argv[2];
if (!persistDir) {
  process.stderr.write("usage: node tests/e2e/server.mjs <persistDir>\n");
  process.exit(2);
}
const tributary = await startTributary({ persistDir });
process.stdout.write(`${JSON.stringify({ url: tributary.url, pid: process.pid })}\n`);

// Stay alive; a graceful stop (SIGTERM/SIGINT) disposes workerd first.
setInterval(() => {}, 1 << 30);
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    tributary.stop().finally(() => process.exit(0));
  });
}
