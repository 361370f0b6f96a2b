// What the worker's wasm asks of the platform, counted call by call (issue
// 33). Every import of the built module is one crossing from wasm into
// JavaScript and, behind most, the runtime: a header read, a `Response`
// made, a SQL statement, a promise awaited. A count does not move with
// the host's load, so it can be a budget (tests/e2e/platform_calls.test.mjs)
// and a figure (bench/calls.mjs) where a CPU time cannot.
//
// `instrumentedBuild()` copies the build into a scratch directory whose
// index.js wraps the imports handed to `new WebAssembly.Instance` with
// counters; run it with the harness's `buildDir`. A request whose URL holds
// `/__calls/{name}` (any method, any answer) makes the worker print
// `CALLS {name} {counts}` when the wasm reads that URL. The difference
// between two marks counts everything in between: the entry, the objects,
// their alarms and their subrequests, and a few dozen calls of the marks'
// own requests.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";

/** Prepended to index.js: each import's calls counted, printed when a mark request's URL is read. */
const COUNTER = `
{
  const counts = Object.create(null);
  const sources = Object.create(null);
  const wrap = (imports) => {
    for (const module of Object.keys(imports)) {
      const table = imports[module];
      for (const name of Object.keys(table)) {
        const real = table[name];
        if (typeof real !== "function") continue;
        counts[name] = 0;
        sources[name] = String(real).replace(/^function\\s*\\([^)]*\\)\\s*\\{/, "").slice(0, 70);
        const mark = name.startsWith("__wbg_url_");
        table[name] = function (...values) {
          counts[name]++;
          if (mark) {
            const url = values.find((value) => value !== null && typeof value === "object" && typeof value.url === "string")?.url ?? "";
            const at = url.indexOf("/__calls/");
            if (at !== -1) console.log("CALLS " + url.slice(at + 9) + " " + JSON.stringify({ counts, sources }));
          }
          return real.apply(this, values);
        };
      }
    }
    return imports;
  };
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Instance, { construct: (target, [module, imports]) => new target(module, wrap(imports ?? {})) });
}
`;

/** A scratch copy of `from` (the built worker) whose imports count their calls; returns its directory. */
export function instrumentedBuild(from = join(ROOT, "durable-objects", "build")) {
  const dir = mkdtempSync(join(tmpdir(), "tributary-calls-"));
  cpSync(from, dir, { recursive: true });
  writeFileSync(join(dir, "index.js"), COUNTER + readFileSync(join(from, "index.js"), "utf8"));
  return dir;
}

/** The counts of mark `name` in `lines` of the worker's output (the last one printed), or undefined. */
export function markIn(lines, name) {
  let found;
  for (const line of lines) {
    const at = line.indexOf(`CALLS ${name} `);
    if (at !== -1) found = JSON.parse(line.slice(at + 7 + name.length));
  }
  return found;
}

/**
 * The calls between marks `start` and `end` ÷ `units`: `total`, `statements`
 * (SQL statements: the driver's `sqlExec` and the platform's `exec`) and
 * `rows` ({name, perUnit, source}, most frequent first; `name` without
 * wasm-bindgen's hash, `source` the start of the import's JavaScript).
 */
export function perUnit(start, end, units) {
  const rows = Object.keys(end.counts)
    .map((name) => ({
      name: name.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, ""),
      raw: name,
      perUnit: (end.counts[name] - (start.counts[name] ?? 0)) / units,
      source: end.sources[name],
    }))
    .filter((row) => row.perUnit > 0)
    .sort((a, b) => b.perUnit - a.perUnit);
  const total = rows.reduce((sum, row) => sum + row.perUnit, 0);
  const statements = rows.filter((row) => /^__wbg_(sqlExec|exec)_/.test(row.raw)).reduce((sum, row) => sum + row.perUnit, 0);
  return { total, statements, rows };
}
