// The two servers the conformance suite runs against: Tributary (the built worker in workerd
// through tests/e2e/harness.mjs, with the settings a local conformance run needs) and the
// Durable Streams reference server (@durable-streams/server from the root's node_modules, in
// memory, in this process), each {label, url, stop()}.
import { DurableStreamTestServer } from "@durable-streams/server";
import { startTributary } from "../e2e/harness.mjs";

/** The long-poll timeout both servers use in a conformance run (the suite's tests time out at 5 s). */
export const CONFORMANCE_LONG_POLL_MS = 500;

/**
 * Tributary as the suite needs it: requests without Authorization granted project-a
 * (DS_ANONYMOUS_GRANT, the suite sends no token), a short long-poll, CORS for any origin.
 */
export async function startTributaryForConformance() {
  const t = await startTributary({ dsAnonymousGrant: "project-a", dsLongPollTimeoutMs: CONFORMANCE_LONG_POLL_MS, corsAllowedOrigins: "*" });
  return { label: "Tributary (built worker in workerd)", url: t.url, stop: () => t.cleanup() };
}

/** The reference server, in memory, as upstream runs the suite against it. */
export async function startReferenceServer() {
  const server = new DurableStreamTestServer({ host: "127.0.0.1", port: 0, longPollTimeout: CONFORMANCE_LONG_POLL_MS });
  const url = (await server.start()).replace(/\/$/, "");
  return { label: "the Durable Streams reference server (@durable-streams/server, in memory)", url, stop: () => server.stop() };
}
