// Shared pieces of the peer benchmarks (bench/peers.mjs): server processes
// that die with the bench, free localhost ports, a Server-Sent Events reader,
// the event every system appends, and small timing helpers.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { percentile } from "../lib.mjs";
import { cpuSnapshot } from "../cpu.mjs";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** 1-minute load average, and all three as text. */
export const load1 = () => os.loadavg()[0];
export const loadavgText = () => os.loadavg().map((v) => v.toFixed(2)).join(" / ");

export function fail(message) {
  throw new Error(`BENCH FAILED: peers: ${message}`);
}

/** {count, p50, p99, max} of a list of numbers. */
export function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

/**
 * The event every system appends, identical in content: Tributary gets it as
 * the request's event, JetStream and Durable Streams as the message's JSON.
 * `sentAt` (epoch ms) is added where a workload measures delivery latency.
 */
export function eventAt(seq, sentAt) {
  const payload = { seq, user: "user-000123", action: "page_view", url: "/products/widget-42?ref=bench" };
  if (sentAt !== undefined) payload.sentAt = sentAt;
  return { type: "data", payload };
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Directories to remove at exit whatever happens (see installSignalTeardown). */
const liveDirs = new Set();

/** A fresh temp directory, removed by removeDir() or, failing that, at exit. */
export function tempDir(prefix) {
  return trackDir(mkdtempSync(join(os.tmpdir(), prefix)));
}

/** Registers a directory to remove at exit if removeDir() has not by then. */
export function trackDir(dir) {
  liveDirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------
// Teardown: every server is stopped on normal exit, on error, and on SIGINT /
// SIGTERM. Child servers are started under `setpriv --pdeathsig TERM`, so the
// kernel stops them even if this process is killed outright.

const cleanups = new Set();

/** Registers `fn` (sync or async) to run at teardown; returns an unregister function. */
export function onTeardown(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

let teardown = null;

/**
 * Runs every registered teardown (latest first), once each. Concurrent and
 * later calls share the run in progress, so whoever calls it last still waits
 * for every server to be stopped and its directory removed.
 */
export function teardownAll() {
  if (teardown && cleanups.size === 0) return teardown;
  const previous = teardown ?? Promise.resolve();
  teardown = previous.then(async () => {
    const fns = [...cleanups].reverse();
    cleanups.clear();
    for (const fn of fns) {
      try {
        await fn();
      } catch (error) {
        console.error(`teardown: ${error?.message ?? error}`);
      }
    }
  });
  return teardown;
}

let interruptedBy = null;
/** The signal that interrupted the bench, or null. */
export const interrupted = () => interruptedBy;

let signalsInstalled = false;
export function installSignalTeardown() {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, async () => {
      interruptedBy = signal;
      console.error(`\n${signal}: stopping every peer server`);
      // Clients of the servers being stopped fail from here on: not news.
      process.on("unhandledRejection", () => {});
      process.on("uncaughtException", () => {});
      await teardownAll();
      process.exit(130);
    });
  }
  // Last resort for synchronous exits (Miniflare's own SIGINT/SIGTERM hook
  // stops workerd and exits at once): kill what still runs, remove the dirs.
  process.once("exit", () => {
    for (const child of liveChildren) {
      try {
        child.kill("SIGKILL");
      } catch {}
    }
    for (const dir of liveDirs) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {}
    }
  });
}

const liveChildren = new Set();

/**
 * Spawns a server process that dies with this one (setpriv --pdeathsig TERM),
 * its stdout and stderr appended to `logFile`. `onLine(line)` (optional) sees
 * every stdout line. Returns {child, stop(), exited}: stop() sends SIGTERM,
 * waits up to 5 s, then SIGKILL.
 */
export function spawnServer(command, args, { logFile, onLine, env } = {}) {
  const child = spawn("setpriv", ["--pdeathsig", "TERM", "--", command, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: env ?? process.env,
  });
  liveChildren.add(child);
  const log = logFile ? createWriteStream(logFile, { flags: "a" }) : null;
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    log?.write(chunk);
    if (!onLine) return;
    buffered += chunk.toString("utf8");
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      onLine(line);
    }
  });
  child.stderr.on("data", (chunk) => log?.write(chunk));
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      liveChildren.delete(child);
      log?.end();
      resolve({ code, signal });
    }),
  );
  child.once("error", (error) => log?.write(`spawn error: ${error.message}\n`));
  async function stop() {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    const result = await exited;
    clearTimeout(timer);
    return result;
  }
  return { child, stop, exited };
}

/** Removes a directory tree, ignoring errors. */
export function removeDir(dir) {
  liveDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------

/**
 * Reads a text/event-stream response body, calling `onEvent({event, id,
 * data})` for every dispatched event (comments skipped). Resolves when the
 * body ends or the request is aborted.
 */
export async function readSse(response, onEvent) {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let id;
  let data = [];
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer[newline] === "\r" ? 2 : 1));
        if (line === "") {
          if (data.length) onEvent({ event, id, data: data.join("\n") });
          event = "message";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
    }
  } catch (error) {
    if (error?.name !== "AbortError") throw error;
  }
}

/**
 * Bounded wait until `done()` is true, polling every `everyMs`; calls
 * `describe()` for the failure message after `seconds`.
 */
export async function waitUntil(done, { seconds, everyMs = 10, describe }) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline) fail(`timed out after ${seconds}s: ${describe ? await describe() : ""}`);
    await sleep(everyMs);
  }
}

/**
 * Copy fan-out's timed part, as each system in workerd runs it: the source's
 * appends through `appendAll`, each batch sent by `append(first, size)`,
 * then a bounded wait until every receiver's head (`headOf(name)`) reaches
 * the total. Returns the appends, the total, when the first append was sent
 * and workerd's CPU over both.
 */
export async function appendThenAwaitHeads({ receiving, headOf, append, appendAll, appendConcurrency, waitSeconds }) {
  const cpuBefore = cpuSnapshot();
  const firstAppendAt = Date.now();
  const appends = await appendAll((i, size) => append(i * size, size), appendConcurrency);
  const total = appends.requests * appends.size;
  const heads = new Map();
  await waitUntil(
    async () => {
      for (const name of receiving) if ((heads.get(name) ?? 0) < total) heads.set(name, await headOf(name));
      return receiving.every((name) => heads.get(name) >= total);
    },
    { seconds: waitSeconds, everyMs: 20, describe: () => receiving.map((n) => `${n} ${heads.get(n) ?? 0}/${total}`).join(", ") },
  );
  return { appends, total, firstAppendAt, workerdCpu: cpuSnapshot().workerd - cpuBefore.workerd };
}
