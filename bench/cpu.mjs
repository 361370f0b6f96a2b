// CPU used by each side of a bench run on one machine: this Node process
// (readers and appenders, process.cpuUsage) and the workerd process(es)
// Miniflare started under it (utime + stime from /proc/<pid>/stat), so a
// figure that moved can be told apart from a side that ran out of cores.
import { readdirSync, readFileSync } from "node:fs";
import { warmThenMeasure } from "./lib.mjs";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;
/** Bound on the /proc entries one snapshot reads (§12 spirit: every loop bounded). */
const MAX_PROC_ENTRIES = 100_000;

/** {pid, ppid, comm, cpuSeconds} of one /proc/<pid>/stat, or null when it is gone. */
function procStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // `comm` is in parentheses and may hold spaces: split after its last ")".
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const fields = text.slice(close + 2).split(" ");
  // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
  return { pid, ppid: Number(fields[1]), comm, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
}

/** The pids of every process named `name` descending from this Node process. */
export function descendantsNamed(name) {
  const stats = readdirSync("/proc")
    .slice(0, MAX_PROC_ENTRIES)
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => procStat(Number(entry)))
    .filter((stat) => stat !== null);
  const children = new Map();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const found = [];
  const queue = [process.pid];
  for (let seen = 0; queue.length > 0 && seen < stats.length; seen++) {
    for (const child of children.get(queue.shift()) ?? []) {
      if (child.comm === name) found.push(child.pid);
      queue.push(child.pid);
    }
  }
  return found;
}

/** CPU seconds so far: {node, workerd} (workerd summed over its processes). */
export function cpuSnapshot() {
  const usage = process.cpuUsage();
  const workerd = descendantsNamed("workerd")
    .map(procStat)
    .reduce((sum, stat) => sum + (stat?.cpuSeconds ?? 0), 0);
  return { node: (usage.user + usage.system) / 1e6, workerd };
}

/** CPU each side used between two snapshots, per wall second too. */
export function cpuBetween(before, after, wallSeconds) {
  const node = after.node - before.node;
  const workerd = after.workerd - before.workerd;
  return { node, workerd, nodeShare: node / wallSeconds, workerdShare: workerd / wallSeconds };
}

/** "node 1.23 s (0.41 core), workerd 2.10 s (0.70 core)". */
export function cpuText(cpu) {
  return `node ${cpu.node.toFixed(2)} s (${cpu.nodeShare.toFixed(2)} core), workerd ${cpu.workerd.toFixed(2)} s (${cpu.workerdShare.toFixed(2)} core)`;
}

/**
 * `warmThenMeasure` (bench/lib.mjs) that also takes workerd's CPU seconds
 * over the measured run: `measured.workerdCpu`. CPU per request moves far
 * less with the machine's load than requests per second do.
 */
export async function warmThenMeasureCpu(label, options) {
  let before;
  const runs = await warmThenMeasure(label, {
    ...options,
    onMeasureStart: async () => {
      if (options.onMeasureStart) await options.onMeasureStart();
      before = cpuSnapshot();
    },
  });
  runs.measured.workerdCpu = cpuSnapshot().workerd - before.workerd;
  return runs;
}
