// The Durable Streams server conformance suite (@durable-streams/server-conformance-tests,
// pinned in ./package.json) as one vitest file, so the run can pass the long-poll timeout the
// deployment under test uses. Run by ./conformance.mjs, which sets the environment.
import { runConformanceTests } from "@durable-streams/server-conformance-tests";

const baseUrl = process.env.CONFORMANCE_TEST_URL;
if (!baseUrl) throw new Error("CONFORMANCE_TEST_URL is required (tests/durable-streams/conformance.mjs sets it)");
runConformanceTests({ baseUrl, longPollTimeoutMs: Number(process.env.CONFORMANCE_LONG_POLL_MS ?? 500) });
