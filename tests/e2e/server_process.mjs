// A Tributary in its own detached process group (tests/e2e/server.mjs, or
// scripts/local_server.mjs), for tests that SIGKILL it: the whole group —
// Node, Miniflare and its workerd child — dies at once, and no process of
// it may outlive the test.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { eventually } from "./delivery_helpers.mjs";

const SERVER = join(dirname(fileURLToPath(import.meta.url)), "server.mjs");
/** Every server started, so an `after` hook can kill what a failed test left. */
export const servers = [];

/** Live (non-zombie) processes whose process group is `pgid`. */
export function liveGroupMembers(pgid) {
  const members = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ... — comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, , pgrp] = fields;
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") members.push(Number(name));
  }
  return members;
}

/** A server process: `url`, `kill()` (SIGKILL to the whole group, waits until no member is alive). */
export async function startServer(persistDir) {
  return startProcess([SERVER, persistDir], {}, (line) => JSON.parse(line).url);
}

/**
 * `node ...args` (with `env` added) in its own process group, up once a
 * line on stdout names its URL (`urlOf(line)`, `undefined` for any other
 * line): `url`, `logged(pattern)`, `kill()`.
 */
export async function startProcess(args, env, urlOf) {
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const pgid = child.pid;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const lines = createInterface({ input: child.stdout });
  let timer;
  const url = await Promise.race([
    new Promise((resolve) => {
      const seen = (line) => {
        const url = urlOf(line);
        if (url === undefined) return;
        lines.off("line", seen);
        resolve(url);
      };
      lines.on("line", seen);
    }),
    exited.then((code) => {
      throw new Error(`server exited (${code}) before printing its URL: ${stderr}`);
    }),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  lines.on("line", () => {}); // keep draining workerd's log lines
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const server = {
    url,
    /** Resolves at the next line on stdout matching `pattern` (a request log, say). */
    logged(pattern) {
      return new Promise((resolve) => {
        const seen = (line) => {
          if (!pattern.test(line)) return;
          lines.off("line", seen);
          resolve(line);
        };
        lines.on("line", seen);
      });
    },
    pgid,
    killed: false,
    async kill() {
      if (!server.killed) {
        server.killed = true;
        try {
          process.kill(-pgid, "SIGKILL");
        } catch (error) {
          if (error.code !== "ESRCH") throw error;
        }
      }
      await exited;
      await eventually(
        () => assert.deepEqual(liveGroupMembers(pgid), [], `no process of group ${pgid} survives`),
        { timeoutMs: 10_000, what: `process group ${pgid} gone` },
      );
    },
  };
  servers.push(server);
  return server;
}

