// Starts the built worker (durable-objects/build) in workerd through
// Miniflare's Node API, on a real localhost port, with SQLite persisted in a
// directory of the caller's choosing, so tests can stop and restart it.
import { Log, LogLevel, Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TOKEN = "e2e-token";
export const OTHER_TOKEN = "e2e-other-token";
/** A scoped token of project-a holding only `read` (§2 Scopes). */
export const READ_TOKEN = "e2e-read-token";

export function freshStateDir(prefix = "tributary-e2e-") {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The signing key every e2e deployment uses (WEBHOOK_SIGNING_KEY). */
export const SIGNING_KEY = "e2e-signing-key";

/**
 * Miniflare options for the built worker. `allowInsecureWebhooks` sets
 * ALLOW_INSECURE_WEBHOOKS (local receivers); `itx` adds the JS test service
 * (tests/e2e/itx_service.mjs) bound as ITX_TEST. `onLog({timestamp, level,
 * message})` receives every console line of the workers (the log receiver's
 * lines, §15.1), through Miniflare's structured logs. `storageBudgetBytes`
 * sets STORAGE_BUDGET_BYTES (§16; unset: the deployment default, 9 GB).
 * `analytics` binds Miniflare's Analytics Engine dataset as METRICS (§11).
 * `onTail({event, logs})` receives each invocation of the worker as the
 * platform's tail sees it — its event (an alarm has `scheduledTime`) and
 * every console line it wrote (`logs`, each the `console.log` arguments) —
 * through a tail worker (TAIL_WORKER), so a test can tell invocations apart.
 * The Durable Streams face (§17): `dsAnonymousGrant` sets DS_ANONYMOUS_GRANT (what a protocol
 * request without Authorization is granted: one API_TOKENS value, a project id or
 * `{project, scopes}`, written as JSON; local conformance runs only), `dsLongPollTimeoutMs` sets
 * DS_LONG_POLL_TIMEOUT_MS, `corsAllowedOrigins` sets CORS_ALLOWED_ORIGINS (`*` or a comma list).
 * `floor` adds the benches' platform floor (bench/floor/worker.mjs, issue 33): bare JS Durable
 * Objects in the same workerd, answering `/floor/*` on the same socket (a Miniflare route).
 * `consoleAssets: false` leaves out the console's static assets (the benches: Miniflare puts its
 * asset router, a JS worker of its own, in front of every request of a worker with assets; the
 * platform does not bill that hop to the worker, and the floor never takes it).
 * `buildDir` runs another copy of the build (default `TRIBUTARY_BUILD_DIR`, else
 * durable-objects/build): tests/e2e/platform_calls.mjs makes one that counts its calls.
 */
export function workerOptions({
  persistDir,
  bench = false,
  allowInsecureWebhooks = false,
  itx = false,
  onLog,
  onTail,
  storageBudgetBytes,
  analytics = false,
  dsAnonymousGrant,
  dsLongPollTimeoutMs,
  corsAllowedOrigins,
  floor = false,
  consoleAssets = true,
  buildDir = process.env.TRIBUTARY_BUILD_DIR ?? join(ROOT, "durable-objects", "build"),
} = {}) {
  const durableObjects = {
    STREAM: { className: "StreamObject", useSQLite: true },
    PROJECT: { className: "ProjectObject", useSQLite: true },
    PROCESSOR: { className: "ProcessorObject", useSQLite: true },
    SOURCE: { className: "SourceObject", useSQLite: true },
  };
  if (bench) durableObjects.BENCH_BASELINE = { className: "BenchBaseline", useSQLite: true };
  const bindings = {
    API_TOKENS: JSON.stringify({
      [TOKEN]: "project-a",
      [OTHER_TOKEN]: "project-b",
      [READ_TOKEN]: { project: "project-a", scopes: ["read"] },
    }),
    ITX_SERVICES: "X,ITX_TEST",
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
  };
  if (allowInsecureWebhooks) bindings.ALLOW_INSECURE_WEBHOOKS = "true";
  if (storageBudgetBytes !== undefined) bindings.STORAGE_BUDGET_BYTES = String(storageBudgetBytes);
  if (dsAnonymousGrant !== undefined) bindings.DS_ANONYMOUS_GRANT = JSON.stringify(dsAnonymousGrant);
  if (dsLongPollTimeoutMs !== undefined) bindings.DS_LONG_POLL_TIMEOUT_MS = String(dsLongPollTimeoutMs);
  if (corsAllowedOrigins !== undefined) bindings.CORS_ALLOWED_ORIGINS = corsAllowedOrigins;
  const tributary = {
    name: "tributary",
    modules: true,
    modulesRoot: buildDir,
    scriptPath: join(buildDir, "index.js"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-07-01",
    durableObjects,
    bindings,
  };
  // The console's static assets (wrangler.toml [assets], run_worker_first).
  if (consoleAssets) {
    tributary.assets = {
      directory: join(ROOT, "console"),
      binding: "ASSETS",
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
    };
  }
  if (analytics) tributary.analyticsEngineDatasets = { METRICS: { dataset: "tributary_deliveries" } };
  const shared = { durableObjectsPersist: persistDir, cf: false, host: "127.0.0.1", port: 0 };
  // TRIBUTARY_E2E_LOG=1 shows the workers' console output (structured logs).
  if (process.env.TRIBUTARY_E2E_LOG) shared.log = new Log(LogLevel.DEBUG);
  if (onLog) shared.handleStructuredLogs = onLog;
  // TRIBUTARY_INSPECTOR_PORT=n opens workerd's V8 inspector there (bench/profile.mjs).
  if (process.env.TRIBUTARY_INSPECTOR_PORT) shared.inspectorPort = Number(process.env.TRIBUTARY_INSPECTOR_PORT);
  const workers = [tributary];
  if (itx) {
    tributary.serviceBindings = { ITX_TEST: "itx-test" };
    workers.push({
      name: "itx-test",
      modules: true,
      scriptPath: join(ROOT, "tests", "e2e", "itx_service.mjs"),
      compatibilityDate: "2026-07-01",
    });
  }
  if (floor) {
    workers.push({
      name: "floor",
      modules: true,
      scriptPath: join(ROOT, "bench", "floor", "worker.mjs"),
      compatibilityDate: "2026-07-01",
      routes: ["127.0.0.1/floor/*"],
      // The contract floor of an append looks its token up as Tributary does (§2).
      bindings: { API_TOKENS: bindings.API_TOKENS },
      durableObjects: {
        FLOOR_INSERT: { className: "FloorInsert", useSQLite: true },
        FLOOR_STREAM: { className: "FloorStream", useSQLite: true },
        FLOOR_APPEND: { className: "FloorAppend", useSQLite: true },
        // Tributary's own objects behind a JS entry (bench/hops.mjs).
        ...(bench
          ? {
              TRIBUTARY_BASELINE: { className: "BenchBaseline", scriptName: "tributary", useSQLite: true },
              TRIBUTARY_STREAM: { className: "StreamObject", scriptName: "tributary", useSQLite: true },
            }
          : {}),
      },
    });
  }
  if (onTail) {
    tributary.tails = ["invocation-tail"];
    workers.push({
      name: "invocation-tail",
      modules: true,
      script: TAIL_WORKER,
      compatibilityDate: "2026-07-01",
      serviceBindings: {
        SINK: async (request) => {
          onTail(await request.json());
          return new Response(null, { status: 204 });
        },
      },
    });
  }
  if (workers.length === 1) return { ...shared, ...tributary };
  return { ...shared, workers };
}

/** A tail worker handing each trace's event and log lines to the test (`onTail`). */
const TAIL_WORKER = `export default {
  async tail(traces, env) {
    for (const trace of traces) {
      const logs = (trace.logs ?? []).map((log) => log.message);
      await env.SINK.fetch("http://sink/", { method: "POST", body: JSON.stringify({ event: trace.event, logs }) });
    }
  },
};`;

/** A running Tributary: `url`, `stop()`, `restart()`, and a JSON client. */
export async function startTributary({ persistDir = freshStateDir(), ...options } = {}) {
  let mf = new Miniflare(workerOptions({ persistDir, ...options }));
  let url = (await mf.ready).toString().replace(/\/$/, "");
  const handle = {
    persistDir,
    get url() {
      return url;
    },
    async stop() {
      await mf.dispose();
    },
    async restart() {
      await mf.dispose();
      mf = new Miniflare(workerOptions({ persistDir, ...options }));
      url = (await mf.ready).toString().replace(/\/$/, "");
    },
    /** The Miniflare instance (e.g. to reach the ITX test service). */
    get miniflare() {
      return mf;
    },
    async cleanup() {
      await mf.dispose().catch(() => {});
      rmSync(persistDir, { recursive: true, force: true });
    },
    /** Raw request: returns {status, body (parsed JSON or text), headers}. */
    async request(method, path, { body, token = TOKEN, rawBody, headers = {} } = {}) {
      const init = { method, headers: { ...headers } };
      if (token !== null) init.headers.authorization = `Bearer ${token}`;
      if (rawBody !== undefined) init.body = rawBody;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers["content-type"] = "application/json";
      }
      const response = await fetch(`${url}${path}`, init);
      const text = await response.text();
      let parsed = text;
      try {
        parsed = text.length ? JSON.parse(text) : null;
      } catch {}
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
  return handle;
}

/** `/v1/streams{path}/-/{action}` */
export const streamUrl = (path, action) => `/v1/streams${path}${action ? `/-/${action}` : ""}`;
