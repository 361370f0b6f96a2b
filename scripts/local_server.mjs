// The local server `scripts/dev` starts: the built worker
// (durable-objects/build) in workerd through Miniflare, configured from
// wrangler.toml and .dev.vars by wrangler's own reader, SQLite persisted in
// wrangler dev's layout (`<state>/v3`), so a state directory written by
// `wrangler dev` is read as it is.
//
// Not `wrangler dev` itself: its proxy in front of the worker exits the
// whole server when one proxied request fails at the network level — a
// client that goes away mid-upload, or an upload the worker answered (413)
// before it ended — and prints an empty `ERROR` (issue 29; upstream
// cloudflare/workers-sdk#15317, #15451, open for the pinned 4.115.0). Here
// clients reach workerd directly, as in the e2e harness: a failed request
// fails alone.
//
// PORT (default 8787; 0: any free port) and TRIBUTARY_STATE (default
// .tributary/state) choose where. It prints one line naming its URL, and
// stops on SIGINT or SIGTERM.
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv.length > 2) {
  process.stderr.write("usage: [PORT=8787] [TRIBUTARY_STATE=.tributary/state] node scripts/local_server.mjs\n");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8787);
const state = resolve(ROOT, process.env.TRIBUTARY_STATE ?? join(".tributary", "state"));

const { workerOptions, main } = unstable_getMiniflareWorkerOptions(join(ROOT, "wrangler.toml"));
const mf = new Miniflare({
  ...workerOptions,
  // wrangler dev's names: the worker is `name` of wrangler.toml, its
  // objects persist under `<state>/v3/do/tributary-<Class>`.
  name: "tributary",
  modules: true,
  scriptPath: main,
  modulesRoot: dirname(main),
  defaultPersistRoot: join(state, "v3"),
  host: "127.0.0.1",
  port,
  cf: false,
  log: new Log(LogLevel.INFO),
});
const url = (await mf.ready).toString().replace(/\/$/, "");
process.stdout.write(`Tributary on ${url} (state in ${state})\n`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    mf.dispose().finally(() => process.exit(0));
  });
}
