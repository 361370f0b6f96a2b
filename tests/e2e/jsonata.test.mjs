// The official JSONata suite (../shared/conformance/jsonata, beside the repo),
// sampled by group and run inside workerd through `POST /v1/jsonata/evaluate`:
// the wasm build of our JSONata module must behave exactly as the native one
// (tests/jsonata_conformance.rs). Every case of each group in GROUPS runs;
// the same rules as the native runner:
// - input: `data` when present (null is JSON null), else `dataset` (a file in
//   datasets/; null = undefined input, sent as no `input` key);
// - expectation: `result` (deep-equal, numbers with a relative tolerance,
//   array order ignored when the case says `unordered`), `undefinedResult`
//   (200 without a `result` key), or `code` / `error.code` (422 whose
//   details.jsonataCode is that code);
// - a case whose file, expression file or dataset is missing or unparseable
//   is skipped (a lone UTF-16 surrogate counts as unparseable, as natively).
// Every sampled case must pass, except the cases that fail natively
// (KNOWN_NATIVE_FAILURES) and the workerd-only allowlist (WORKERD_ALLOWLIST).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startTributary, ROOT } from "./harness.mjs";

const SUITE = join(ROOT, "..", "shared", "conformance", "jsonata");

/** The sampled groups (names as in the suite, typos included). */
const GROUPS = [
  "fields",
  "quoted-selectors",
  "missing-paths",
  "object-constructor",
  "array-constructor",
  "predicates",
  "simple-array-selectors",
  "multiple-array-selectors",
  "wildcards",
  "flattening",
  "null",
  "comparison-operators",
  "boolean-expresssions",
  "conditionals",
  "string-concat",
  "function-string",
  "function-substring",
  "function-uppercase",
  "function-lowercase",
  "function-exists",
  "function-contains",
  "function-number",
  "function-keys",
  "function-merge",
  "function-sum",
];

/**
 * The cases that fail in the native runner (`cargo test --test
 * jsonata_conformance`), with why. None is in GROUPS today; they are listed
 * so that widening GROUPS keeps the comparison native-vs-wasm. A listed case
 * may pass (a fix); it is then reported, not failed.
 */
const KNOWN_NATIVE_FAILURES = new Map([
  ["comments/case002", "unclosed comment has no code (S0106 expected)"],
  ["flattening/large#0", "needs 400 009 steps, over our 100 000-step budget: U1001"],
  ["flattening/large#1", "needs 400 009 steps, over our 100 000-step budget: U1001"],
  ["performance/case000", "needs 328 706 steps, over our 100 000-step budget: U1001"],
  ["performance/case001", "needs 329 474 steps, over our 100 000-step budget: U1001"],
  ["range-operator/case021", "10 000 000 range items, over our 100 000-step budget: U1001"],
  ["range-operator/case024", "10 000 000 range items, over our 100 000-step budget: U1001"],
  ["errors/case012", "T1006 wrapped as 'Invalid syntax: T1006' and lost"],
  ["errors/case013", "T1006 wrapped as 'Invalid syntax: T1006' and lost"],
  ["errors/case014", "T1008 wrapped as 'Invalid syntax: T1008' and lost"],
  ["errors/case022", "S0209 wrapped as 'Invalid syntax: S0209' and lost"],
  ["errors/case023", "S0210 wrapped as 'Invalid syntax: S0210' and lost"],
  ["errors/case024", "S0201 wrapped as 'Invalid syntax: S0201' and lost"],
  ["function-signatures/case028", "T0410 wrapped as 'Signature validation failed: T0410' and lost"],
  ["literals/case008", "S0102 wrapped as 'Invalid number: S0102' and lost"],
  ["parent-operator/errors#2", "T1006 wrapped as 'Invalid syntax: T1006' and lost"],
  ["parent-operator/errors#3", "T1006 wrapped as 'Invalid syntax: T1006' and lost"],
  ["tail-recursion/case001", "needs more than our 200-deep stack: D1011"],
  ["tail-recursion/case002", "D1011 (our depth cap) where the reference runner says U1001"],
  ["tail-recursion/case005", "D1011 (our depth cap) where the reference runner says U1001"],
  ["token-conversion/case002", "S0201 wrapped as 'Invalid syntax: S0201' and lost"],
  ["token-conversion/case003", "S0213 wrapped as 'Invalid syntax: S0213' and lost"],
]);

/** Cases that pass natively but may fail in workerd, with why. Empty. */
const WORKERD_ALLOWLIST = new Map([]);

const CONCURRENCY = 4;
const CASE_TIMEOUT_MS = 30_000;
const TOLERANCE = 1e-9;
const SHOW = 100;

const truncate = (text) => (text.length <= SHOW ? text : `${text.slice(0, SHOW)}…`);

/** Whether every string (and key) in `value` is well-formed UTF-16. */
const wellFormed = (value) =>
  typeof value === "string"
    ? value.isWellFormed()
    : Array.isArray(value)
      ? value.every(wellFormed)
      : value !== null && typeof value === "object"
        ? Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v))
        : true;

/**
 * A suite file as {value} or {error}. A file holding a lone UTF-16 surrogate
 * counts as unparseable: JavaScript reads it but serde_json (and so the
 * native runner and our endpoint) cannot.
 */
function readJson(path) {
  const name = path.slice(SUITE.length + 1);
  let value;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { error: `${name}: ${error.message}` };
  }
  if (!wellFormed(value)) return { error: `${name}: lone UTF-16 surrogate` };
  return { value };
}

/** Structural equality: key order ignored, numbers within a relative tolerance. */
function jsonEqual(expected, got, unordered = false) {
  if (typeof expected === "number" && typeof got === "number") {
    if (expected === got) return true;
    const scale = Math.max(Math.abs(expected), Math.abs(got), Number.MIN_VALUE);
    return Math.abs(expected - got) <= TOLERANCE * scale;
  }
  if (Array.isArray(expected) || Array.isArray(got)) {
    if (!Array.isArray(expected) || !Array.isArray(got) || expected.length !== got.length) return false;
    if (!unordered) return expected.every((x, i) => jsonEqual(x, got[i]));
    const used = new Array(got.length).fill(false);
    return expected.every((x) => {
      const i = got.findIndex((y, j) => !used[j] && jsonEqual(x, y));
      if (i < 0) return false;
      used[i] = true;
      return true;
    });
  }
  if (expected && got && typeof expected === "object" && typeof got === "object") {
    const keys = Object.keys(expected);
    return (
      keys.length === Object.keys(got).length &&
      keys.every((k) => Object.hasOwn(got, k) && jsonEqual(expected[k], got[k]))
    );
  }
  return expected === got;
}

/** The sampled cases: {id, group, body, expected, unordered}, and the skipped ones. */
function loadCases() {
  const datasets = new Map();
  const dataset = (name) => {
    if (!datasets.has(name)) datasets.set(name, readJson(join(SUITE, "datasets", `${name}.json`)));
    return datasets.get(name);
  };
  const cases = [];
  const skipped = [];
  for (const group of GROUPS) {
    const dir = join(SUITE, "groups", group);
    assert.ok(existsSync(dir), `group ${group} is not in the suite at ${SUITE}`);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
      const stem = file.slice(0, -".json".length);
      const parsed = readJson(join(dir, file));
      if (parsed.error) {
        skipped.push(`${group}/${stem}: ${parsed.error}`);
        continue;
      }
      const list = Array.isArray(parsed.value)
        ? parsed.value.map((c, i) => [`${group}/${stem}#${i}`, c])
        : [[`${group}/${stem}`, parsed.value]];
      for (const [id, c] of list) {
        let expression = c.expr;
        if (typeof expression !== "string" && typeof c["expr-file"] === "string") {
          const path = join(dir, c["expr-file"]);
          if (!existsSync(path)) {
            skipped.push(`${id}: expr-file ${c["expr-file"]} is missing`);
            continue;
          }
          expression = readFileSync(path, "utf8");
        }
        if (typeof expression !== "string") {
          skipped.push(`${id}: no expression`);
          continue;
        }
        const body = { expression };
        if ("data" in c) body.input = c.data;
        else if (c.dataset !== null && c.dataset !== undefined) {
          const input = dataset(c.dataset);
          if (input.error) {
            skipped.push(`${id}: ${input.error}`);
            continue;
          }
          body.input = input.value;
        }
        if (c.bindings && typeof c.bindings === "object") body.bindings = c.bindings;
        let expected;
        const code = c.code ?? c.error?.code;
        if (typeof code === "string") expected = { code };
        else if (c.undefinedResult === true) expected = { undefined: true };
        else if ("result" in c) expected = { result: c.result };
        else {
          skipped.push(`${id}: no expectation`);
          continue;
        }
        cases.push({ id, group, body, expected, unordered: c.unordered === true });
      }
    }
  }
  return { cases, skipped };
}

const describeExpected = (e) =>
  "code" in e ? `error ${e.code}` : e.undefined ? "undefined" : JSON.stringify(e.result);

/** Runs one case over HTTP: null when it passes, else why it failed. */
async function runCase(t, c) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), CASE_TIMEOUT_MS);
  });
  const res = await Promise.race([t.request("POST", "/v1/jsonata/evaluate", { body: c.body }), timeout]);
  clearTimeout(timer);
  if (res.timedOut) return `no answer within ${CASE_TIMEOUT_MS / 1000}s`;
  let got;
  let passed = false;
  if (res.status === 200 && res.body && typeof res.body === "object") {
    if (Object.hasOwn(res.body, "result")) {
      got = JSON.stringify(res.body.result);
      passed = "result" in c.expected && jsonEqual(c.expected.result, res.body.result, c.unordered);
    } else {
      got = "undefined";
      passed = c.expected.undefined === true;
    }
  } else if (res.status === 422 && res.body?.error) {
    const code = res.body.error.details?.jsonataCode ?? null;
    got = `error ${code ?? "(no code)"}: ${res.body.error.message}`;
    passed = "code" in c.expected && code === c.expected.code;
  } else {
    got = `HTTP ${res.status} ${JSON.stringify(res.body)}`;
  }
  return passed ? null : `expected ${truncate(describeExpected(c.expected))} vs got ${truncate(String(got))}`;
}

let t;
before(async () => {
  t = await startTributary();
});
after(async () => {
  await t?.cleanup();
});

test("the JSONata suite's sampled groups behave in workerd as natively", async () => {
  const { cases, skipped } = loadCases();
  const failures = new Map(); // id -> why
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      const why = await runCase(t, c);
      if (why !== null) failures.set(c.id, why);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  const passed = cases.length - failures.size;
  const byGroup = new Map();
  for (const c of cases) {
    if (!failures.has(c.id)) continue;
    if (!byGroup.has(c.group)) byGroup.set(c.group, []);
    byGroup.get(c.group).push(`${c.id}: ${failures.get(c.id)}`);
  }
  const lines = [];
  for (const [group, list] of byGroup) {
    lines.push(`-- ${group}: ${list.length} failed`, ...list.map((line) => `   ${line}`));
  }
  for (const line of skipped) lines.push(`skipped ${line}`);
  const fixed = cases.filter((c) => KNOWN_NATIVE_FAILURES.has(c.id) && !failures.has(c.id));
  for (const c of fixed) lines.push(`note: ${c.id} passes; drop it from KNOWN_NATIVE_FAILURES`);
  lines.push(`jsonata in workerd: ${passed} passed, ${failures.size} failed, ${skipped.length} skipped`);
  console.log(lines.join("\n"));

  const unexpected = [...failures].filter(([id]) => !KNOWN_NATIVE_FAILURES.has(id) && !WORKERD_ALLOWLIST.has(id));
  assert.deepEqual(
    unexpected.map(([id, why]) => `${id}: ${why}`),
    [],
    "cases that pass natively must pass in workerd",
  );
  // Guard against sampling nothing (a moved suite, a renamed group).
  assert.ok(cases.length >= 400, `only ${cases.length} cases sampled`);
});
