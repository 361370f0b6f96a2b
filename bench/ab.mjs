// Two builds side by side (issue 33): one command run again and again, the
// builds alternating (A B, B A, A B, …), and one figure read from each
// run's output. Each pair of neighbouring runs gives a ratio B ÷ A, so a
// drift of the machine over the minutes falls on both sides of it; the
// ratios are summarised as mean ± standard error. For a change whose
// effect is near a single run's spread: on the 2-core machine one workerd
// process's copy fan-out rate moves ±9 % from the next, while the ratio of
// neighbouring runs moves ±4 %, so ten pairs resolve about 3 %.
//
//   cp -r durable-objects/build /tmp/build-a      # after `bash scripts/build` of each revision
//   node bench/ab.mjs /tmp/build-a /tmp/build-b [--runs 6] [--figure REGEX] -- node bench/profile.mjs fanout 10 8000
//
// --figure: a regex whose first group is the number to compare (default:
//   `= N/s`, as bench/profile.mjs prints its rate); a run printing it more
//   than once counts the mean of its matches.
// Each run swaps the build into `durable-objects/build` and puts the one
// that was there back at the end, also when a run fails.
// Not a benchmark of its own: it says which of two builds a figure favours,
// and by how much the runs resolve.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvedFromOne, spread } from "./lib.mjs";

const args = process.argv.slice(2);
const dash = args.indexOf("--");
if (dash < 2) throw new Error("usage: node bench/ab.mjs BUILD_A BUILD_B [--runs N] [--figure REGEX] -- COMMAND...");
const [buildA, buildB, ...options] = args.slice(0, dash);
const command = args.slice(dash + 1);
const option = (name, fallback) => {
  const at = options.indexOf(name);
  return at === -1 ? fallback : options[at + 1];
};
const runs = Number(option("--runs", "6"));
if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error(`--runs must be 1..100, got ${option("--runs")}`);
const figure = new RegExp(option("--figure", "= ([0-9.]+)/s"), "g");
for (const build of [buildA, buildB]) {
  if (!existsSync(join(build, "index_bg.wasm"))) throw new Error(`${build} holds no build (index_bg.wasm)`);
}

const live = join(import.meta.dirname, "..", "durable-objects", "build");
const kept = mkdtempSync(join(tmpdir(), "tributary-ab-"));
cpSync(live, kept, { recursive: true });
/** Each run's figure, in run order, per build. */
const samples = { A: [], B: [] };
try {
  for (let run = 0; run < runs; run++) {
    for (const name of run % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      rmSync(live, { recursive: true, force: true });
      cpSync(name === "A" ? buildA : buildB, live, { recursive: true });
      const done = spawnSync(command[0], command.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 });
      if (done.status !== 0) throw new Error(`run ${run + 1} (${name}) exited ${done.status}:\n${done.stdout.slice(-2000)}`);
      const found = [...done.stdout.matchAll(figure)].map((match) => Number(match[1]));
      if (found.length === 0 || found.some((value) => !Number.isFinite(value))) throw new Error(`run ${run + 1} (${name}) printed no figure /${figure.source}/:\n${done.stdout.slice(-2000)}`);
      samples[name].push(found.reduce((sum, value) => sum + value, 0) / found.length);
      console.log(`run ${run + 1} ${name}: ${found.join(", ")}`);
    }
  }
} finally {
  rmSync(live, { recursive: true, force: true });
  cpSync(kept, live, { recursive: true });
  rmSync(kept, { recursive: true, force: true });
}

const show = (s, digits = 1) => `${s.mean.toFixed(digits)} ± ${s.error.toFixed(digits)} (${s.count})`;
console.log(`A ${buildA}: ${show(spread(samples.A))}`);
console.log(`B ${buildB}: ${show(spread(samples.B))}`);
const ratios = spread(samples.B.map((b, run) => b / samples.A[run]));
const resolved = runs > 1 && resolvedFromOne(ratios.mean, ratios.error);
console.log(`B ÷ A, run by run: ${show(ratios, 3)}${resolved ? "" : " (within two standard errors of 1: not resolved)"}`);
