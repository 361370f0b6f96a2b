// scripts/conformance: the Durable Streams conformance suite against Tributary (default) or
// the reference server, once; prints the count of passed tests and compares the tests not
// passed with docs/durable-streams-conformance.md.
//
//   node tests/durable-streams/run.mjs [--reference] [--write] [--url <origin>]
//
// --reference  run against @durable-streams/server (proves the runner; not compared)
// --url        run against a server already listening there (compared with the list)
// --write      rewrite the list in docs/durable-streams-conformance.md from this run
//              (reasons already written are kept; new failures get their first message line)
// Exit status: 1 when a test fails that the list does not name (a regression). Listed tests that
// pass now, or that the suite no longer has, are reported (--write takes them off the list).
import { runSuite, readList, compare, summaryLine, writeList, LIST_FILE } from "./conformance.mjs";
import { startReferenceServer, startTributaryForConformance, CONFORMANCE_LONG_POLL_MS } from "./targets.mjs";

const args = process.argv.slice(2);
const reference = args.includes("--reference");
const write = args.includes("--write");
const urlAt = args.indexOf("--url");
const givenUrl = urlAt >= 0 ? args[urlAt + 1] : undefined;
for (const [i, arg] of args.entries()) {
  if (!["--reference", "--write", "--url"].includes(arg) && !(i === urlAt + 1 && urlAt >= 0)) {
    console.error(`conformance: unknown argument ${arg}`);
    process.exit(2);
  }
}
if (reference && write) {
  console.error("conformance: --write records Tributary's list; not with --reference");
  process.exit(2);
}

const server = givenUrl
  ? { label: givenUrl, url: givenUrl.replace(/\/$/, ""), stop: async () => {} }
  : reference
    ? await startReferenceServer()
    : await startTributaryForConformance();
let result;
try {
  console.log(`conformance: running the suite against ${server.label} at ${server.url} (long-poll ${CONFORMANCE_LONG_POLL_MS} ms)`);
  result = await runSuite({ baseUrl: server.url, longPollTimeoutMs: CONFORMANCE_LONG_POLL_MS, onOutput: (text) => process.stdout.write(text) });
} finally {
  await server.stop();
}

console.log(`\n${summaryLine(server.label, result)}`);
for (const name of result.skipped) console.log(`  not run (skipped by the suite itself): ${name}`);
if (reference) {
  for (const f of result.failed) console.log(`  failed: ${f.name} — ${f.message}`);
  process.exit(result.failed.length ? 1 : 0);
}
if (write) {
  writeList(result);
  console.log(`conformance: wrote ${result.failed.length} tests not passed to ${LIST_FILE}`);
}
const { regressions, nowPassing, unknown } = compare(result, readList());
for (const f of regressions) console.log(`  REGRESSION (not in the list): ${f.name} — ${f.message}`);
for (const name of nowPassing) console.log(`  passes now (take it off the list): ${name}`);
for (const name of unknown) console.log(`  listed but not in the suite: ${name}`);
process.exit(regressions.length ? 1 : 0);
