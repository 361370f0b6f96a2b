// The local server `scripts/dev` starts (scripts/local_server.mjs: the built
// worker in workerd through Miniflare, configured from wrangler.toml and
// .dev.vars) survives what killed `wrangler dev` (issue 29 item 8): uploads
// of 64 MiB sent in a row as fast as the socket takes them, each refused
// (413) before it ends, and clients that go away mid-upload. Under
// `wrangler dev` its proxy turned either into a fatal "Network connection
// lost" and the whole server exited; here a failed request fails alone.
// The server runs in its own process group with a fresh state directory.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { freshStateDir, ROOT, streamUrl } from "./harness.mjs";
import { liveGroupMembers, startProcess } from "./server_process.mjs";

/** The development token of .dev.vars. */
const DEV_TOKEN = "dev-token";
const MiB = 1024 * 1024;
let server;
let state;

before(async () => {
  state = freshStateDir("tributary-e2e-local-server-");
  const args = [join(ROOT, "scripts", "local_server.mjs")];
  const urlOf = (line) => line.match(/^Tributary on (http:\/\/127\.0\.0\.1:\d+) /)?.[1];
  server = await startProcess(args, { PORT: "0", TRIBUTARY_STATE: state }, urlOf);
});

after(async () => {
  await server?.kill();
  if (server) assert.deepEqual(liveGroupMembers(server.pgid), [], "no orphan workerd");
  rmSync(state, { recursive: true, force: true });
});

const request = async (method, path, body) => {
  const init = { method, headers: { authorization: `Bearer ${DEV_TOKEN}` } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
};

/** Another stream answers: an append, then a read of it. */
async function anotherStreamAnswers(name) {
  const path = `/e2e-local/${name}`;
  const appended = await request("POST", streamUrl(path, "events"), { type: "after" });
  assert.equal(appended.status, 201, JSON.stringify(appended.body));
  const read = await request("GET", streamUrl(path, "events"));
  assert.deepEqual(read.body.events.map((e) => e.type), ["after"]);
}

/**
 * One chunked upload of `size` bytes to `path`, written as fast as the
 * socket takes it (as curl or a proxy does), never pausing for an answer:
 * resolves to the status, or the error code when the server's early answer
 * and its close reached this client as a reset first.
 */
function blast(path, size) {
  const u = new URL(server.url);
  return new Promise((resolve) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method: "POST",
      path,
      agent: false,
      headers: { authorization: `Bearer ${DEV_TOKEN}`, "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    let done = false;
    const finish = (what) => {
      if (!done) {
        done = true;
        req.destroy();
        resolve(what);
      }
    };
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode));
      res.on("error", (error) => finish(error.code ?? error.message));
    });
    req.on("error", (error) => finish(error.code ?? error.message));
    const chunk = Buffer.alloc(64 * 1024, "x");
    let sent = 0;
    const pump = () => {
      while (sent < size && !done) {
        sent += chunk.length;
        if (!req.write(chunk)) return req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

test("issue 29: 64 MiB uploads in a row, each refused before it ends, leave the local server answering", { timeout: 120_000 }, async () => {
  const answers = [];
  for (let i = 0; i < 6; i++) {
    answers.push(await blast("/v1/jsonata/evaluate", 64 * MiB));
    // The server answers after each one (it did not exit).
    assert.equal((await request("GET", "/v1/token")).status, 200, `after upload ${i + 1}: ${answers}`);
  }
  // Each sender got its 413, or (the rest of its body unread) a reset; never a server error.
  for (const answer of answers) assert.ok([413, "ECONNRESET", "EPIPE"].includes(answer), `${answers}`);
  assert.ok(answers.includes(413), `${answers}`);
  await anotherStreamAnswers("after-uploads");
});

test("issue 29: clients that go away mid-upload leave the local server answering", { timeout: 60_000 }, async () => {
  const u = new URL(server.url);
  const path = streamUrl("/e2e-local/aborted", "events");
  for (let i = 0; i < 6; i++) {
    // An append announcing 1 MB, 5 KB of it sent, then the connection dropped;
    // the server's request log shows it handled (and failed) that request.
    const handled = server.logged(new RegExp(`POST ${path} \\d{3}`));
    await new Promise((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname, () => {
        const head = `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${DEV_TOKEN}\r\nContent-Length: 1000000\r\n\r\n`;
        socket.write(head + "x".repeat(5000), () => {
          socket.destroy();
          resolve();
        });
      });
      socket.on("error", reject);
    });
    await handled;
    assert.equal((await request("GET", "/v1/token")).status, 200, `after dropped upload ${i + 1}`);
  }
  // Nothing of the dropped appends was committed.
  assert.equal((await request("GET", streamUrl("/e2e-local/aborted"))).status, 404);
  await anotherStreamAnswers("after-aborts");
});
