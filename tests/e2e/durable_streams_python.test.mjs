// The Durable Streams Python client (PyPI durable-streams, in target/py-venv by
// scripts/bootstrap) against Tributary's protocol face (issue 30, docs/design.md §17), with the real
// bearer token: tests/e2e/ds_python_client.py runs one scenario per test and prints what it
// observed; the assertions are here. TRIBUTARY_DS_TARGET=reference runs them against the
// reference server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, TOKEN } from "./harness.mjs";
import { startFace, freshPath } from "./durable_streams_helpers.mjs";

const PYTHON = join(ROOT, "target", "py-venv", "bin", "python");
const SCRIPT = join(ROOT, "tests", "e2e", "ds_python_client.py");

let face;
before(async () => {
  assert.ok(existsSync(PYTHON), `${PYTHON} is missing: run bash scripts/bootstrap`);
  face = await startFace();
});
after(async () => {
  await face?.cleanup();
});

/** Runs one scenario of ds_python_client.py against a fresh stream; its observations. */
function python(scenario) {
  const url = face.streamUrl(freshPath(`py-${scenario}`));
  return new Promise((resolve, reject) => {
    execFile(PYTHON, [SCRIPT, scenario, url, TOKEN], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`python ${scenario} failed (${error.code ?? error.signal}):\n${stderr.slice(-4000)}`));
      resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
    });
  });
}

test("the Python client creates a JSON stream, appends and reads every message back", async () => {
  const seen = await python("json");
  assert.deepEqual(seen.items, [{ n: 1, text: "héllo" }, { n: 2 }, ["a list is one message"]]);
  assert.match(seen.contentType, /^application\/json/);
  assert.deepEqual(seen.afterTail, [], "nothing after the tail offset HEAD reports");
});

test("the Python client round-trips every byte value through a binary stream", async () => {
  const seen = await python("bytes");
  assert.equal(seen.read, seen.sent);
  assert.equal(Buffer.from(seen.read, "base64").length, 556);
});

test("the Python client follows live by long-poll, drops the connection, and resumes from its offset by SSE", async () => {
  const seen = await python("live");
  assert.deepEqual(seen.firstSession, [{ n: 1 }, { n: 2 }]);
  assert.deepEqual(seen.resumed, [{ n: 3 }, { n: 4 }, { n: 5 }], "exactly what was appended after the saved offset");
});

test("the Python client's appends with producer headers: a retry is deduplicated, a stale epoch refused", async () => {
  const seen = await python("producer");
  const [first, second, third] = seen.offsets;
  assert.ok(first < second && second < third, `offsets grow: ${seen.offsets}`);
  assert.equal(seen.duplicate.acknowledged, true);
  if (seen.duplicate.nextOffset !== null) assert.ok(seen.duplicate.nextOffset >= third, `a duplicate's offset is not behind the tail: ${seen.duplicate.nextOffset}`);
  assert.deepEqual(seen.stale, { type: "DurableStreamError", status: 403 });
  assert.deepEqual(seen.items, [{ seq: 0 }, { seq: 1 }, { seq: 2 }, { epoch: 1 }]);
});
