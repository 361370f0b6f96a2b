// Shared pieces for Tributary's benchmarks (append, and later copy throughput
// and webhooks): settings from the environment, a bounded timed load loop
// with a fixed number of in-flight requests and latency percentiles,
// Prometheus text parsing, table printing and wasm size.
//
// Benchmarks only ever talk to the local workerd started by the e2e harness.
import { appendFileSync, readFileSync } from "node:fs";
import os from "node:os";
import { gzipSync, constants as zlib } from "node:zlib";

/** A positive number from the environment, or `fallback`; anything else is fatal. */
export function envNumber(name, fallback, { integer = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? "integer" : "number"}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The settings every load-generating bench shares. */
export function loadSettings() {
  return {
    seconds: envNumber("BENCH_SECONDS", 5),
    warmupSeconds: envNumber("BENCH_WARMUP_SECONDS", 1),
    concurrency: envNumber("BENCH_CONCURRENCY", 8, { integer: true }),
    maxRequests: envNumber("BENCH_MAX_REQUESTS", 500_000, { integer: true }),
  };
}

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Runs each of `runners` once a round for `count` rounds (round 1 first),
 * the runners taking turns and the order rotating each round, so none
 * always runs first; returns each runner's results in round order.
 */
export async function inRounds(count, runners) {
  const results = runners.map(() => []);
  for (let round = 1; round <= count; round++) {
    for (let turn = 0; turn < runners.length; turn++) {
      const k = (turn + round - 1) % runners.length;
      results[k].push(await runners[k](round));
    }
  }
  return results;
}

/** The middle of `values` (the mean of the two middle ones of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Mean, sample standard deviation and standard error of the mean of `values`. */
export function spread(values) {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance = values.length > 1 ? values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1) : 0;
  return { mean, sd: Math.sqrt(variance), error: Math.sqrt(variance / values.length), count: values.length };
}

/** Whether `ratio` is more than two standard errors away from 1. */
export const resolvedFromOne = (ratio, error) => Math.abs(ratio - 1) > 2 * error;

/**
 * Two systems measured in the same rounds: the median over the rounds of
 * a ÷ b (round by round, so a drift of the host falls on both), its range,
 * and a note saying so for an aim.
 */
export function pairedRatio(a, b) {
  const ratios = a.map((value, round) => value / b[round]);
  const [min, max] = [Math.min(...ratios), Math.max(...ratios)];
  return { median: median(ratios), min, max, note: `median of ${ratios.length} paired rounds, ${fmt(min, 2)}–${fmt(max, 2)}` };
}

/** The item whose `measure` is the median of `items` (the lower middle of an even count): a whole run, not a mean of runs. */
export function medianBy(items, measure) {
  return [...items].sort((a, b) => measure(a) - measure(b))[Math.floor((items.length - 1) / 2)];
}

/**
 * One checked request: `fetch(url, init)`, body always read. `expectStatus` is
 * the only success status; `checkBody(text)` may return a problem string.
 * Resolves to null on success, otherwise a one-line failure description
 * (network errors included).
 */
export async function checkedFetch(url, init, expectStatus, checkBody) {
  let response;
  let text;
  try {
    response = await fetch(url, init);
    text = await response.text(); // always drain: keeps the connection reusable
  } catch (error) {
    return `${init.method ?? "GET"} ${url}: ${error.cause?.message ?? error.message}`;
  }
  if (response.status !== expectStatus) {
    return `${init.method ?? "GET"} ${url}: status ${response.status} (expected ${expectStatus}): ${text.slice(0, 300)}`;
  }
  if (checkBody) {
    const problem = checkBody(text);
    if (problem) return `${init.method ?? "GET"} ${url}: ${problem}: ${text.slice(0, 300)}`;
  }
  return null;
}

/**
 * Runs `send(i)` (i = 0, 1, ...) from `concurrency` workers, each keeping one
 * request in flight, until `seconds` have passed or `maxRequests` were
 * started, whichever comes first; in-flight requests are awaited and count.
 * `send` resolves to null on success or to a failure description. The run
 * also stops early after `maxFailures` failures.
 *
 * Returns {requests, failures, failureSamples, seconds, latenciesMs (sorted),
 * p50, p99, stoppedBy}. `seconds` spans from the first request's start to
 * the last response.
 */
export async function runLoad({ send, seconds, concurrency, maxRequests, maxFailures = 20, startIndex = 0 }) {
  const latencies = [];
  const failureSamples = [];
  let started = 0;
  let failures = 0;
  let stoppedBy = "time";
  const begin = process.hrtime.bigint();
  const deadline = begin + BigInt(Math.round(seconds * 1e9));

  async function worker() {
    for (;;) {
      if (failures >= maxFailures) {
        stoppedBy = "failures";
        return;
      }
      if (started >= maxRequests) {
        stoppedBy = "maxRequests";
        return;
      }
      const before = process.hrtime.bigint();
      if (before >= deadline) return;
      const i = startIndex + started++;
      const problem = await send(i);
      const after = process.hrtime.bigint();
      latencies.push(Number(after - before) / 1e6);
      if (problem !== null) {
        failures++;
        if (failureSamples.length < 5) failureSamples.push(problem);
      }
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = Number(process.hrtime.bigint() - begin) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    failureSamples,
    seconds: elapsed,
    latenciesMs: latencies,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    stoppedBy,
  };
}

/** Throws (with samples) when a load run had any failed request. */
export function assertNoFailures(label, result) {
  if (result.failures === 0) return;
  const samples = result.failureSamples.map((s) => `  - ${s}`).join("\n");
  throw new Error(
    `BENCH FAILED: ${label}: ${result.failures} of ${result.requests} requests failed` +
      `${result.stoppedBy === "failures" ? " (stopped early)" : ""}\n${samples}`,
  );
}

/**
 * Warm-up (results checked, then discarded) followed by the measured run.
 * `onMeasureStart()` (optional) runs between the two, e.g. to snapshot metrics.
 */
export async function warmThenMeasure(label, { send, seconds, warmupSeconds, concurrency, maxRequests, onMeasureStart }) {
  const warm = await runLoad({ send, seconds: warmupSeconds, concurrency, maxRequests });
  assertNoFailures(`${label} (warm-up)`, warm);
  if (onMeasureStart) await onMeasureStart();
  const measured = await runLoad({ send, seconds, concurrency, maxRequests, startIndex: warm.requests });
  assertNoFailures(label, measured);
  return { warmup: warm, measured };
}

/** Prometheus text exposition → Map(metric name (with labels, if any) → number). */
export function parsePrometheus(text) {
  const metrics = new Map();
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)/.exec(trimmed);
    if (match) metrics.set(match[1], Number(match[2]));
  }
  return metrics;
}

/** `metrics.get(name)`, failing loudly when the metric is absent. */
export function metric(metrics, name) {
  const value = metrics.get(name);
  if (value === undefined || Number.isNaN(value)) throw new Error(`metric ${name} missing from metrics output`);
  return value;
}

/** Fixed-point formatting that keeps NaN/Infinity readable. */
export function fmt(value, digits = 0) {
  if (typeof value !== "number") return String(value);
  if (!Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * Prints a plain-text table. `columns` is [{title, align?: "left"|"right"}],
 * `rows` arrays of already formatted cells (numbers are right-aligned by default).
 */
export function printTable(columns, rows, out = console.log) {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = columns.map((column, i) => Math.max(column.title.length, ...cells.map((row) => row[i].length)));
  const align = columns.map((column, i) => column.align ?? (i === 0 ? "left" : "right"));
  const line = (row) =>
    row.map((cell, i) => (align[i] === "left" ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd();
  out(line(columns.map((c) => c.title)));
  out(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of cells) out(line(row));
}

/** Raw and gzip (level 9) size of a file, in bytes. */
export function fileSizes(path) {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: zlib.Z_BEST_COMPRESSION }).length };
}

/**
 * Reports one of issue 20's aims: prints `AIM <label>: <measured> (aim <op>
 * <target>) — met | not met` and, when BENCH_AIMS_FILE is set (scripts/bench
 * sets it), appends the same as one JSON line so `bench/aims.mjs` prints every
 * aim of the run in one table. `op` is ">=" or "<="; `note` says what the
 * figure is (e.g. "ratio in one run", "ms p50").
 */
export function reportAim(label, measured, op, target, note = "", { floor } = {}) {
  if (op !== ">=" && op !== "<=") throw new Error(`reportAim: op must be >= or <=, got ${op}`);
  const meets = (value) => Number.isFinite(value) && (op === ">=" ? value >= target : value <= target);
  const met = meets(measured);
  // `floor`: the platform floor's own figure of the same measure (issue 33). An aim the floor
  // itself misses cannot be met on this platform; it is shown as argued from that figure,
  // and the ratio to the floor (its own aim row) is the aim that counts.
  const argued = !met && Number.isFinite(floor) && !meets(floor);
  const shown = Number.isFinite(measured) ? (Math.abs(measured) >= 100 ? measured.toFixed(0) : measured.toFixed(2)) : String(measured);
  const floorText = Number.isFinite(floor) ? `; the floor's own: ${floor.toFixed(2)}` : "";
  console.log(`AIM ${label}: ${shown} (aim ${op === ">=" ? "≥" : "≤"} ${target}${note ? `, ${note}` : ""}${floorText}) — ${met ? "met" : argued ? "not reachable: the floor's own misses it" : "NOT MET"}`);
  const file = process.env.BENCH_AIMS_FILE;
  if (file) appendFileSync(file, `${JSON.stringify({ label, measured, op, target, note, met, floor, argued, load1: os.loadavg()[0] })}\n`);
  return met;
}
