// What the worker's wasm asks of the platform in one bench/profile.mjs
// scenario, counted call by call (issue 33): every import of the built
// module (a header read, a `Response` made, a SQL statement, a promise
// awaited) is one crossing from wasm into JavaScript and, behind most, the
// runtime. Unlike a CPU figure the count does not move with the host's
// load, so a change that removes work shows it exactly, and one that adds
// work cannot hide in the noise.
//
//   node bench/calls.mjs append 3000          # any Tributary scenario of bench/profile.mjs, with its arguments
//   node bench/calls.mjs webhook 1 3000
//   CALLS_TOP=60 node bench/calls.mjs fanout 10 4000
//
// How: a copy of durable-objects/build whose index.js wraps the imports
// handed to `new WebAssembly.Instance` with counters, swapped in for the
// run (as bench/ab.mjs swaps builds) and restored after. bench/profile.mjs
// (PROFILE_MARKS=1) sends `GET /__calls/start` before its measured work
// and `GET /__calls/end` after it; the wrapped `Request.url` read of each
// prints the counts so far. The figure is their difference ÷ the
// scenario's units: the entry, the objects, their alarms and every
// subrequest's handling in between (the two marks' own requests add a few
// dozen calls to the window, nothing a unit). Not a benchmark either: it
// says what a path does, not what it costs.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
if (args.length === 0 || args[0].startsWith("floor-")) {
  throw new Error("usage: node bench/calls.mjs SCENARIO [ARGS...] (a Tributary scenario of bench/profile.mjs; the floor has no wasm to count)");
}
const top = Number(process.env.CALLS_TOP ?? 30);

/** Prepended to index.js: count each import's calls; print them when a mark request's URL is read. */
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

const live = join(import.meta.dirname, "..", "durable-objects", "build");
if (!existsSync(join(live, "index.js"))) throw new Error("no build: run `bash scripts/build` first");
const kept = mkdtempSync(join(tmpdir(), "tributary-calls-"));
cpSync(live, kept, { recursive: true });
let run;
try {
  writeFileSync(join(live, "index.js"), COUNTER + readFileSync(join(kept, "index.js"), "utf8"));
  run = spawnSync("node", [join(import.meta.dirname, "profile.mjs"), ...args], {
    encoding: "utf8",
    env: { ...process.env, PROFILE_NONE: "1", PROFILE_MARKS: "1" },
    maxBuffer: 256 << 20,
  });
} finally {
  rmSync(live, { recursive: true, force: true });
  cpSync(kept, live, { recursive: true });
  rmSync(kept, { recursive: true, force: true });
}
const output = `${run.stdout}\n${run.stderr}`;
if (run.status !== 0) throw new Error(`bench/profile.mjs ${args.join(" ")} exited ${run.status}:\n${output.slice(-3000)}`);

const marks = new Map();
for (const line of output.split("\n")) {
  const at = line.indexOf("CALLS ");
  if (at === -1) continue;
  const rest = line.slice(at + 6);
  const space = rest.indexOf(" ");
  marks.set(rest.slice(0, space), JSON.parse(rest.slice(space + 1)));
}
const [start, end] = [marks.get("start"), marks.get("end")];
if (!start || !end) throw new Error(`no start and end marks in the run's output:\n${output.slice(-3000)}`);
const summary = output.match(/^(\S+): (\d+) units in .*$/m);
if (!summary) throw new Error(`the scenario printed no units:\n${output.slice(-3000)}`);
const units = Number(summary[2]);

/** An import's name without wasm-bindgen's hash, and what it does (the start of its JavaScript). */
const label = (name) => `${name.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "")}  ${end.sources[name]}`;
const rows = Object.keys(end.counts)
  .map((name) => ({ name, perUnit: (end.counts[name] - (start.counts[name] ?? 0)) / units }))
  .filter((row) => row.perUnit > 0)
  .sort((a, b) => b.perUnit - a.perUnit);
const total = rows.reduce((sum, row) => sum + row.perUnit, 0);
const statements = rows.filter((row) => /^__wbg_(sqlExec|exec)_/.test(row.name)).reduce((sum, row) => sum + row.perUnit, 0);
console.log(summary[0]);
console.log(`platform calls a unit: ${total.toFixed(2)} (${rows.length} kinds); SQL statements a unit: ${statements.toFixed(2)}`);
for (const row of rows.slice(0, top)) console.log(`${row.perUnit.toFixed(2).padStart(8)}  ${label(row.name)}`);
if (rows.length > top) console.log(`(${rows.length - top} more kinds; CALLS_TOP=n shows more)`);
