// Where the platform's time in a bench/profile.mjs scenario comes from,
// from the kernel sampler's call stacks (issue 33). bench/perf_profile.sh
// says which code the isolate's thread was in (flat, self time); this says
// on whose behalf: workerd's C++, V8's compiled JavaScript and the wasm
// all keep frame pointers, so every sample's stack reaches from the leaf
// (a SQLite page, a deflate loop) through the platform API a script called
// (`SqlStorage::exec`, `fetchImpl`) to the Tributary function that called
// it. Counted once a sample, a frame's share is inclusive: everything that
// ran below it.
//
//   PERF_STACKS=/tmp/webhook.stacks bash bench/perf_profile.sh webhook 1 8000
//   PERF_STACKS=/tmp/floor.stacks PROFILE_CONTRACT=1 bash bench/perf_profile.sh floor-webhook 1 8000
//   node bench/perf_inclusive.mjs /tmp/webhook.stacks                     # the platform's API entries and Tributary's functions, inclusive
//   node bench/perf_inclusive.mjs /tmp/webhook.stacks /tmp/floor.stacks   # the platform's API entries beside the floor's, by the difference
//   node bench/perf_inclusive.mjs /tmp/webhook.stacks --match 'SqlStorage|sqlite3_step'
//   node bench/perf_inclusive.mjs /tmp/webhook.stacks --within 'SqlStorage::exec' --by 'JS:tributary::' --skip 'storage::|records::'
//                                                                          # each statement's cost, by the engine function that ran it
//   node bench/perf_inclusive.mjs /tmp/webhook.stacks --within 'SqlStorage::exec' --by 'sqlite3|Txn' --toward leaf
//
// A stacks file is `perf script -F comm,tid,ip,sym` of a `--call-graph=fp`
// recording, after a first line `# units N rate R` (bench/perf_profile.sh
// writes both). Figures are µs of workerd CPU a unit, as the flat profile's.
// Like the profiles it is not a benchmark: the sampler's unwinding costs
// the isolate time, so compare shares within one file or two files
// recorded alike, and measure a change with bench/ab_windows.mjs.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

const USAGE =
  "usage: node bench/perf_inclusive.mjs A.stacks [B.stacks] [--match REGEX] [--top N] | A.stacks --within REGEX --by REGEX [--skip REGEX] [--toward root|leaf]";
// One file: the platform's API entries and Tributary's functions; two: the
// platform's API entries, which both systems call.
const DEFAULT_MATCH = ["^workerd::api::|^JS:(tributary|worker|web_sys)", "^workerd::api::[A-Za-z]"];

/** The arguments: files and `--name value` options. */
function parse(argv) {
  const files = [];
  const options = { top: 40, toward: "root" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) {
      files.push(arg);
      continue;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
    options[arg.slice(2)] = value;
  }
  if (files.length < 1 || files.length > 2) throw new Error(USAGE);
  if ((options.within === undefined) !== (options.by === undefined)) throw new Error(`--within and --by go together\n${USAGE}`);
  if (!["root", "leaf"].includes(options.toward)) throw new Error(`--toward is root or leaf\n${USAGE}`);
  return { files, options };
}

/** A frame's name without what changes from build to build or says nothing (hashes, tiers, argument lists). */
function frameName(raw) {
  let name = raw.replace(/\+0x[0-9a-f]+ \(.*\)$/, "").replace(/ \(.*\)$/, "");
  name = name.replace(/::h[0-9a-f]{16}/g, "").replace(/-\d+-(turbofan|turboshaft|maglev|liftoff|sparkplug)$/, "");
  if (!name.startsWith("JS:")) name = name.replace(/\(.*$/, "");
  return name;
}

/** Calls `visit(frames)` for each of the file's samples on workerd's threads, frames leaf first; returns the header. */
async function samples(path, visit) {
  const header = { units: 0, rate: 0 };
  let frames = null;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.startsWith("# units ")) {
      const [, units, , rate] = line.slice(2).split(" ");
      header.units = Number(units);
      header.rate = Number(rate);
    } else if (line.trim() === "") {
      if (frames?.length) visit(frames);
      frames = null;
    } else if (!/^\s/.test(line)) {
      frames = line.startsWith("workerd") ? [] : null;
    } else if (frames) {
      const symbol = line.trim().split(/\s+/).slice(1).join(" ");
      frames.push(frameName(symbol || "?"));
    }
  }
  if (frames?.length) visit(frames);
  if (!(header.units > 0 && header.rate > 0)) throw new Error(`${path}: no '# units N rate R' line (write it with bench/perf_profile.sh's PERF_STACKS)`);
  return header;
}

/** µs of workerd CPU a unit for `count` samples. */
const perUnit = (count, header) => (count * 1e6) / header.rate / header.units;

/** Inclusive samples of every frame matching `match`, each counted once a sample. */
async function inclusive(path, match) {
  const counts = new Map();
  let total = 0;
  const header = await samples(path, (frames) => {
    total++;
    for (const name of new Set(frames)) if (match.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  });
  const figures = new Map([...counts].map(([name, count]) => [name, perUnit(count, header)]));
  return { figures, total: perUnit(total, header) };
}

/** The samples with a frame matching `within`, by the nearest frame matching `by` (and not `skip`) toward the root or the leaf. */
async function attributed(path, within, by, skip, toward) {
  const counts = new Map();
  let inside = 0;
  const header = await samples(path, (frames) => {
    // The outermost frame matching `within`: nested calls of it count once.
    let at = -1;
    for (let i = frames.length - 1; i >= 0; i--) if (within.test(frames[i])) { at = i; break; }
    if (at < 0) return;
    inside++;
    const range = toward === "root" ? frames.slice(at) : frames.slice(0, at + 1).reverse();
    const owner = range.find((name) => by.test(name) && !(skip && skip.test(name))) ?? "(no frame matching --by)";
    counts.set(owner, (counts.get(owner) ?? 0) + 1);
  });
  return { figures: new Map([...counts].map(([name, count]) => [name, perUnit(count, header)])), total: perUnit(inside, header) };
}

const shown = (name) => (name.length > 150 ? `${name.slice(0, 147)}...` : name);
const fixed = (n) => n.toFixed(1).padStart(8);

const { files, options } = parse(process.argv.slice(2));
const top = Number(options.top);
if (options.within !== undefined) {
  const skip = options.skip === undefined ? null : new RegExp(options.skip);
  const { figures, total } = await attributed(files[0], new RegExp(options.within), new RegExp(options.by), skip, options.toward);
  console.log(`samples within /${options.within}/: ${total.toFixed(1)} µs a unit, by the nearest frame toward the ${options.toward} matching /${options.by}/:`);
  for (const [name, us] of [...figures].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fixed(us)}  ${shown(name)}`);
} else {
  const match = new RegExp(options.match ?? DEFAULT_MATCH[files.length - 1]);
  const a = await inclusive(files[0], match);
  if (files.length === 1) {
    console.log(`${files[0]}: ${a.total.toFixed(1)} µs a unit sampled; inclusive µs a unit of frames matching /${match.source}/:`);
    for (const [name, us] of [...a.figures].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${fixed(us)}  ${shown(name)}`);
  } else {
    const b = await inclusive(files[1], match);
    console.log(`A ${files[0]}: ${a.total.toFixed(1)} µs a unit sampled; B ${files[1]}: ${b.total.toFixed(1)}`);
    console.log(`inclusive µs a unit of frames matching /${match.source}/, by |A − B|:`);
    console.log(`${"A".padStart(8)}${"B".padStart(9)}${"A − B".padStart(9)}`);
    const names = new Set([...a.figures.keys(), ...b.figures.keys()]);
    const rows = [...names].map((name) => [name, a.figures.get(name) ?? 0, b.figures.get(name) ?? 0]);
    rows.sort((x, y) => Math.abs(y[1] - y[2]) - Math.abs(x[1] - x[2]));
    const signed = (n) => `${n >= 0 ? "+" : ""}${n.toFixed(1)}`.padStart(8);
    for (const [name, ua, ub] of rows.slice(0, top)) console.log(`${fixed(ua)} ${fixed(ub)} ${signed(ua - ub)}  ${shown(name)}`);
  }
}
