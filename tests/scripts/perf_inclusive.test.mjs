// bench/perf_inclusive.mjs reads `perf script` stacks as bench/perf_profile.sh
// writes them (PERF_STACKS): a small file whose figures are known by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = join(import.meta.dirname, "..", "..", "bench", "perf_inclusive.mjs");

/** A sample as `perf script -F comm,tid,ip,sym` prints it: its thread, then its frames leaf first. */
const sample = (comm, frames) =>
  `${comm}  1508 \n${frames.map((frame, i) => `\t    ${(0x1000 + i).toString(16)} ${frame} (/bin/workerd)`).join("\n")}\n\n`;

// 2 units at 1,000 samples a second: each sample is 500 µs a unit.
const TRIBUTARY =
  "# units 2 rate 1000\n" +
  sample("workerd", ["sqlite3VdbeExec+0x1c", "workerd::api::SqlStorage::exec(jsg::Lock&)+0x40", "JS:tributary::delivery::journal::h0123456789abcdef-214-turbofan+0x7"]) +
  sample("workerd", ["memcpy", "workerd::api::SqlStorage::exec(jsg::Lock&)+0x40", "workerd::api::SqlStorage::exec(jsg::Lock&)+0x90", "JS:tributary::delivery::ack-3-liftoff+0x2"]) +
  sample("workerd", ["workerd::api::fetchImpl+0x10", "JS:tributary::senders::send-9-turbofan+0x1"]) +
  sample("V8 DefaultWorke", ["workerd::api::SqlStorage::exec+0x1"]);
const FLOOR = "# units 2 rate 1000\n" + sample("workerd", ["workerd::api::SqlStorage::exec+0x1", "JS:^deliver floor.mjs:1:1"]);

function run(files, ...args) {
  const dir = mkdtempSync(join(tmpdir(), "perf-inclusive-"));
  try {
    const paths = files.map((text, i) => {
      const path = join(dir, `${i}.stacks`);
      writeFileSync(path, text);
      return path;
    });
    return execFileSync(process.execPath, [SCRIPT, ...paths, ...args], { encoding: "utf8" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figure printed beside `name`. */
const figure = (output, name) => {
  const line = output.split("\n").find((l) => l.trim().endsWith(name));
  assert.ok(line, `no line for ${name} in:\n${output}`);
  return line.trim().slice(0, -name.length).trim().split(/\s+/).map(Number);
};

test("perf_inclusive: a frame counts once a sample, from workerd's threads only, names without hashes and tiers", () => {
  const output = run([TRIBUTARY]);
  assert.match(output, /1500\.0 µs a unit sampled/);
  assert.deepEqual(figure(output, "workerd::api::SqlStorage::exec"), [1000], "two samples, the nested call counted once, the V8 thread's left out");
  assert.deepEqual(figure(output, "JS:tributary::delivery::journal"), [500]);
  assert.deepEqual(figure(output, "workerd::api::fetchImpl"), [500]);
});

test("perf_inclusive: beside a floor's profile, the platform's entries by the difference", () => {
  const output = run([TRIBUTARY, FLOOR]);
  assert.deepEqual(figure(output, "workerd::api::SqlStorage::exec"), [1000, 500, 500]);
  assert.deepEqual(figure(output, "workerd::api::fetchImpl"), [500, 0, 500]);
  assert.doesNotMatch(output, /JS:tributary/, "only the platform's entries, which both call");
});

test("perf_inclusive: --within attributes a frame's samples to the nearest frame --by matches", () => {
  const output = run([TRIBUTARY], "--within", "SqlStorage::exec", "--by", "^JS:");
  assert.match(output, /1000\.0 µs a unit/);
  assert.deepEqual(figure(output, "JS:tributary::delivery::journal"), [500]);
  assert.deepEqual(figure(output, "JS:tributary::delivery::ack"), [500]);
  const leaves = run([TRIBUTARY], "--within", "SqlStorage::exec", "--by", "^(sqlite3|memcpy)", "--toward", "leaf");
  assert.deepEqual(figure(leaves, "sqlite3VdbeExec"), [500]);
  assert.deepEqual(figure(leaves, "memcpy"), [500]);
});

test("perf_inclusive: a file without its units line, or options that do not go together, are refused", () => {
  assert.throws(() => run([TRIBUTARY.split("\n").slice(1).join("\n")]), /no '# units N rate R' line/);
  assert.throws(() => run([TRIBUTARY], "--within", "x"), /--within and --by go together/);
  assert.throws(() => run([TRIBUTARY], "--by", "x", "--within", "y", "--toward", "up"), /--toward is root or leaf/);
});
