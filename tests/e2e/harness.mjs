// Starts the built worker (durable-objects/build) in workerd through
// Miniflare's Node API, on a real localhost port, with SQLite persisted in a
// directory of the caller's choosing, so tests can stop and restart it.
import { Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const TOKEN = "e2e-token";
export const OTHER_TOKEN = "e2e-other-token";

export function freshStateDir(prefix = "tributary-e2e-") {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function workerOptions({ persistDir, bench = false } = {}) {
  const durableObjects = { STREAM: { className: "StreamObject", useSQLite: true } };
  if (bench) durableObjects.BENCH_BASELINE = { className: "BenchBaseline", useSQLite: true };
  return {
    modules: true,
    modulesRoot: join(ROOT, "durable-objects", "build"),
    scriptPath: join(ROOT, "durable-objects", "build", "index.js"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: "2026-07-01",
    durableObjects,
    bindings: { API_TOKENS: JSON.stringify({ [TOKEN]: "project-a", [OTHER_TOKEN]: "project-b" }) },
    durableObjectsPersist: persistDir,
    cf: false,
    host: "127.0.0.1",
    port: 0,
  };
}

/** A running Tributary: `url`, `stop()`, `restart()`, and a JSON client. */
export async function startTributary({ persistDir = freshStateDir(), bench = false } = {}) {
  let mf = new Miniflare(workerOptions({ persistDir, bench }));
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
      mf = new Miniflare(workerOptions({ persistDir, bench }));
      url = (await mf.ready).toString().replace(/\/$/, "");
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
