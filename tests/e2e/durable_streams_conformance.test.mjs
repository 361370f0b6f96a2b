// The Durable Streams server conformance suite (@durable-streams/server-conformance-tests 0.3.6,
// installed by scripts/bootstrap in tests/durable-streams) against the built worker in workerd
// (issue 30, docs/design.md §17): requests without a token are granted project-a
// (DS_ANONYMOUS_GRANT: the suite sends none), long-polls time out after 500 ms. Prints the
// count of passed tests; fails when a test fails that docs/durable-streams-conformance.md does
// not list; reports listed tests that pass now (take them off: scripts/conformance --write).
// The same run by hand: scripts/conformance (or --reference for the reference server).
import { test } from "node:test";
import assert from "node:assert/strict";
import { runSuite, readList, compare, summaryLine, LIST_FILE } from "../durable-streams/conformance.mjs";
import { startTributaryForConformance, CONFORMANCE_LONG_POLL_MS } from "../durable-streams/targets.mjs";

test("the Durable Streams conformance suite fails no test that docs/durable-streams-conformance.md does not list", { timeout: 15 * 60 * 1000 }, async () => {
  const server = await startTributaryForConformance();
  let result;
  try {
    result = await runSuite({ baseUrl: server.url, longPollTimeoutMs: CONFORMANCE_LONG_POLL_MS });
  } finally {
    await server.stop();
  }
  console.log(summaryLine(server.label, result));
  const { regressions, nowPassing, unknown } = compare(result, readList());
  for (const name of nowPassing) console.log(`  passes now, take it off ${LIST_FILE}: ${name}`);
  for (const name of unknown) console.log(`  listed in ${LIST_FILE} but not in the suite: ${name}`);
  assert.ok(result.total >= 332, `the suite ran ${result.total} tests, expected its 332`);
  assert.deepEqual(
    regressions.map((f) => `${f.name} — ${f.message}`),
    [],
    `tests failing that ${LIST_FILE} does not list (regressions, or new failures to explain there)`,
  );
});
