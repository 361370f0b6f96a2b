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
// How: tests/e2e/platform_calls.mjs makes a scratch copy of the build whose
// index.js wraps the imports handed to `new WebAssembly.Instance` with
// counters; bench/profile.mjs runs on it (`TRIBUTARY_BUILD_DIR`, the live
// build untouched) and (`PROFILE_MARKS=1`) sends `GET /__calls/start`
// before its measured work and `GET /__calls/end` after it. The figure is
// the difference ÷ the scenario's units: the entry, the objects, their
// alarms and every subrequest's handling in between (the two marks' own
// requests add a few dozen calls to the window, nothing a unit). Not a
// benchmark either: it says what a path does, not what it costs.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { instrumentedBuild, markIn, perUnit } from "../tests/e2e/platform_calls.mjs";

const args = process.argv.slice(2);
if (args.length === 0 || args[0].startsWith("floor-")) {
  throw new Error("usage: node bench/calls.mjs SCENARIO [ARGS...] (a Tributary scenario of bench/profile.mjs; the floor has no wasm to count)");
}
const top = Number(process.env.CALLS_TOP ?? 30);

const build = instrumentedBuild();
let run;
try {
  run = spawnSync("node", [join(import.meta.dirname, "profile.mjs"), ...args], {
    encoding: "utf8",
    env: { ...process.env, PROFILE_NONE: "1", PROFILE_MARKS: "1", TRIBUTARY_BUILD_DIR: build },
    maxBuffer: 256 << 20,
  });
} finally {
  rmSync(build, { recursive: true, force: true });
}
const output = `${run.stdout}\n${run.stderr}`;
if (run.status !== 0) throw new Error(`bench/profile.mjs ${args.join(" ")} exited ${run.status}:\n${output.slice(-3000)}`);

const lines = output.split("\n");
const [start, end] = [markIn(lines, "start"), markIn(lines, "end")];
if (!start || !end) throw new Error(`no start and end marks in the run's output:\n${output.slice(-3000)}`);
const summary = output.match(/^(\S+): (\d+) units in .*$/m);
if (!summary) throw new Error(`the scenario printed no units:\n${output.slice(-3000)}`);
const units = Number(summary[2]);

const { total, statements, rows } = perUnit(start, end, units);
console.log(summary[0]);
console.log(`platform calls a unit: ${total.toFixed(2)} (${rows.length} kinds); SQL statements a unit: ${statements.toFixed(2)}`);
for (const row of rows.slice(0, top)) console.log(`${row.perUnit.toFixed(2).padStart(8)}  ${row.name}  ${row.source}`);
if (rows.length > top) console.log(`(${rows.length - top} more kinds; CALLS_TOP=n shows more)`);
