// Runs the Durable Streams server conformance suite (./conformance.vitest.mjs, vitest 4 from
// this directory's own node_modules) against a base URL, reads vitest's JSON report, and
// compares the tests not passed with the checked-in list, docs/durable-streams-conformance.md
// (issue 30, docs/design.md §17). Used by scripts/conformance and
// tests/e2e/durable_streams_conformance.test.mjs.
//
// The list holds one line per test not passed, `- <group> > <test> — <reason>` (test names may hold " — "; a reason may not), between the
// markers below; everything else in the file is prose the runner leaves alone.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const SUITE_DIR = dirname(fileURLToPath(import.meta.url));
export const LIST_FILE = join(SUITE_DIR, "..", "..", "docs", "durable-streams-conformance.md");
export const SUITE_VERSION = "0.3.6";
const VITEST = join(SUITE_DIR, "node_modules", "vitest", "vitest.mjs");
const BEGIN = "<!-- conformance list: begin (scripts/conformance --write rewrites it) -->";
const END = "<!-- conformance list: end -->";
const SEPARATOR = " — ";
/** The suite's outer describe, left out of the names. */
const ROOT_DESCRIBE = "Durable Streams Conformance";
/** A run's wall-clock bound (the suite takes well under a minute on a quiet machine). */
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

/** Whether the suite is installed (scripts/bootstrap installs it). */
export function suiteInstalled() {
  return existsSync(VITEST) && existsSync(join(SUITE_DIR, "node_modules", "@durable-streams", "server-conformance-tests", "package.json"));
}

/**
 * Runs the suite once against `baseUrl` (an origin: tests use `${baseUrl}/v1/stream/...`).
 * Returns {total, passed: [name], failed: [{name, message}], skipped: [name], seconds}.
 * `onOutput(chunk)` receives vitest's own progress output (the dot reporter).
 */
export async function runSuite({ baseUrl, longPollTimeoutMs = 500, onOutput = () => {} }) {
  if (!suiteInstalled()) throw new Error(`the conformance suite is not installed in ${SUITE_DIR}: run bash scripts/bootstrap`);
  const dir = mkdtempSync(join(tmpdir(), "tributary-conformance-"));
  const report = join(dir, "report.json");
  const started = performance.now();
  try {
    const args = [VITEST, "run", "--config", "vitest.config.mjs", "--reporter=dot", "--reporter=json", `--outputFile.json=${report}`];
    const env = { ...process.env, CONFORMANCE_TEST_URL: baseUrl, CONFORMANCE_LONG_POLL_MS: String(longPollTimeoutMs), NO_COLOR: "1", FORCE_COLOR: "0" };
    const { code, output } = await run(process.execPath, args, { cwd: SUITE_DIR, env, onOutput });
    if (!existsSync(report)) throw new Error(`vitest wrote no report (exit ${code}):\n${output.slice(-4000)}`);
    return { ...parseReport(JSON.parse(readFileSync(report, "utf8"))), seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(command, args, { cwd, env, onOutput }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (chunk) => {
      const text = chunk.toString();
      if (output.length < 1_000_000) output += text;
      onOutput(text);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`vitest ended by ${signal}:\n${output.slice(-4000)}`));
      else resolve({ code, output });
    });
  });
}

/** vitest's JSON report (Jest's shape) → names by outcome. */
export function parseReport(report) {
  const passed = [];
  const failed = [];
  const skipped = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      const name = testName(test);
      if (test.status === "passed") passed.push(name);
      else if (test.status === "failed") failed.push({ name, message: firstLine(test.failureMessages?.[0]) });
      else skipped.push(name);
    }
    // A file that failed to load has no assertions but a message.
    if ((file.assertionResults ?? []).length === 0 && file.message) throw new Error(`the suite did not load: ${file.message.slice(0, 2000)}`);
  }
  return { total: passed.length + failed.length, passed, failed, skipped };
}

function testName(test) {
  const path = [...(test.ancestorTitles ?? [])];
  if (path[0] === ROOT_DESCRIBE) path.shift();
  return [...path, test.title].join(" > ").replace(/\s+/g, " ");
}

function firstLine(message = "") {
  const line = message.split("\n").find((l) => l.trim()) ?? "failed";
  return line.trim().replace(/\s+/g, " ").slice(0, 200);
}

/** The checked-in list: Map name → reason. */
export function readList(file = LIST_FILE) {
  const list = new Map();
  if (!existsSync(file)) return list;
  const text = readFileSync(file, "utf8");
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${file}: the list markers are missing`);
  for (const line of text.slice(begin + BEGIN.length, end).split("\n")) {
    if (!line.startsWith("- ")) continue;
    const at = line.lastIndexOf(SEPARATOR);
    if (at < 0) throw new Error(`${file}: a listed test without a reason: ${line}`);
    list.set(line.slice(2, at), line.slice(at + SEPARATOR.length));
  }
  return list;
}

/**
 * A run against the list: `regressions` (failed, not listed), `nowPassing` (listed, passed:
 * take them off the list), `unknown` (listed, not in the suite: renamed or removed upstream).
 */
export function compare(result, list) {
  const ran = new Set([...result.passed, ...result.failed.map((f) => f.name)]);
  const passed = new Set(result.passed);
  return {
    regressions: result.failed.filter((f) => !list.has(f.name)),
    nowPassing: [...list.keys()].filter((name) => passed.has(name)),
    unknown: [...list.keys()].filter((name) => !ran.has(name)),
  };
}

/** One line of counts, as scripts/test prints it. */
export function summaryLine(label, result) {
  return `Durable Streams conformance ${SUITE_VERSION} against ${label}: ${result.passed.length} of ${result.total} passed, ${result.failed.length} failed${
    result.skipped.length ? `, ${result.skipped.length} not run` : ""
  } (${result.seconds.toFixed(1)} s)`;
}

/**
 * Rewrites the list in `file` from a run: every failed test, with its listed reason when it
 * had one, else the failure's first line (to be replaced by the real reason by hand).
 */
export function writeList(result, file = LIST_FILE) {
  const previous = readList(file);
  const text = readFileSync(file, "utf8");
  const lines = result.failed.map(({ name, message }) => `- ${name}${SEPARATOR}${previous.get(name) ?? `fails: ${message}`}`);
  const counts = `Passed: **${result.passed.length} of ${result.total}** (suite ${SUITE_VERSION}); not passed: ${result.failed.length}.`;
  const body = `${BEGIN}\n${counts}\n\n${lines.join("\n")}\n${END}`;
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  writeFileSync(file, `${text.slice(0, begin)}${body}${text.slice(end + END.length)}`);
}
