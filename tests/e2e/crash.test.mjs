// Crash recovery end to end (docs/design.md §3 rules 3–4, §6 rules 3, 6 and 9,
// §7 rule 4): the whole Tributary process group — Node, Miniflare and its
// workerd child — is SIGKILLed while a source stream is appending and copying
// under load, then restarted on the same persisted SQLite. Every data event
// the source committed must appear on the receiving stream exactly once, in
// source-offset order: a crash repeats work (the in-flight batch is retried
// and collapses onto the copies' derived idempotency keys), never skips it.
//
// The server runs in its own process (tests/e2e/server.mjs), spawned detached
// so that `process.kill(-pid, "SIGKILL")` reaches the whole group. No
// process of the group may outlive the test.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { freshStateDir } from "./harness.mjs";
import { liveGroupMembers, servers, startServer } from "./server_process.mjs";
import { eventually, lastHop, rawRequest, streamApi } from "./delivery_helpers.mjs";


const dirs = [];
after(async () => {
  for (const server of servers) await server.kill().catch(() => {});
  for (const server of servers) assert.deepEqual(liveGroupMembers(server.pgid), [], "no orphan workerd");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const BATCHES = 31;
const PER_BATCH = 20;
/** Batches sent at once and acknowledged before the kill. */
const BEFORE_KILL = 25;
/**
 * Then one batch of this many events alone, and the kill as soon as it is
 * acknowledged: its copies are still being made when the kill lands (a
 * copy of this many takes tens of milliseconds; the kill follows the
 * acknowledgement within one turn of the test's event loop). Without it,
 * the source copies the small batches as they arrive and often has B
 * caught up when the kill lands.
 */
const LAST_ACKNOWLEDGED = 600;
/** The rest (batches BEFORE_KILL + 1 ..) are sent as the kill lands. */
const sizeOf = (b) => (b === BEFORE_KILL ? LAST_ACKNOWLEDGED : PER_BATCH);
const PER_ROUND = Array.from({ length: BATCHES }, (_, b) => sizeOf(b)).reduce((sum, size) => sum + size, 0);
/**
 * Whether a kill landed mid-copy is only known after the restart (a read of
 * B before the kill would itself give B time to catch up). A round whose kill
 * cannot be shown to have landed before B caught up is followed by another
 * round of load and kill, up to this many.
 */
const MAX_ROUNDS = 3;
/** A's events that are not data: the configure event and one noise event. */
const NON_DATA = 2;

const batchBody = (round, b) => ({
  events: Array.from({ length: sizeOf(b) }, (_, i) => ({
    type: "data",
    payload: { round, batch: b, i },
    idempotencyKey: `crash-r${round}-b${b}-e${i}`,
  })),
});

test("§3, §6 rules 3/6/9, §7 rule 4: SIGKILL of the whole process group mid-copy, restart on the same storage: every source data event lands on B exactly once, in source-offset order", { timeout: 300_000 }, async (t) => {
  const dir = freshStateDir("tributary-crash-");
  dirs.push(dir);
  const A = "/e2e-crash/source";
  const B = "/e2e-crash/receiver";

  let server = await startServer(dir);
  let api = streamApi({ request: (method, path, opts) => rawRequest(server.url, method, path, opts) });

  const configured = await api.subscribeFromOk(B, { sourcePath: A, subscriptionKey: "k", filter: { eventTypes: ["data"] } });
  assert.equal(configured.subscriptionConfiguredEvent.offset, 1);
  // Noise the filter skips: the cursor also advances over non-matching events.
  await api.appendOk(A, { type: "noise", payload: { n: 0 } });
  const lifetime = await api.infoOk(A);

  let round = 0;
  let landedMidCopy = false;
  while (!landedMidCopy && round < MAX_ROUNDS) {
    const r = round++;
    // Load: the first batches all at once, then the large one; as soon as
    // it is acknowledged, send the remaining ones and SIGKILL the group in
    // the same turn — the source's alarm is copying, and those last appends
    // lose their responses.
    const acknowledged = new Map(); // batch → the events its 201 reported
    const send = (b) =>
      api.append(A, batchBody(r, b)).then(
        (res) => {
          assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 500));
          acknowledged.set(b, res.body.events);
        },
        () => {}, // the connection died with the server: re-sent after the restart
      );
    await Promise.all(Array.from({ length: BEFORE_KILL }, (_, b) => send(b)));
    await send(BEFORE_KILL);
    assert.ok(acknowledged.has(BEFORE_KILL), `round ${r}: the large batch was acknowledged before the kill`);
    const inFlight = Array.from({ length: BATCHES - BEFORE_KILL - 1 }, (_, k) => send(BEFORE_KILL + 1 + k));
    await new Promise((resolve) => setImmediate(resolve)); // let the requests leave
    await Promise.all([server.kill(), ...inFlight]);
    // The whole group is gone: whatever B commits from now on, the restarted instance commits.
    const killedAt = Date.now();
    const maxAcknowledged = Math.max(...[...acknowledged.values()].map((events) => events.at(-1).offset));

    // Restart on the same storage (a new port).
    server = await startServer(dir);
    api = streamApi({ request: (method, path, opts) => rawRequest(server.url, method, path, opts) });

    // §3 rule 3: everything acknowledged survived, in the same lifetime.
    const aAtRestart = await api.infoOk(A);
    assert.equal(aAtRestart.streamId, lifetime.streamId, "the same lifetime after the restart");
    assert.ok(
      aAtRestart.head >= maxAcknowledged,
      `round ${r}: acknowledged appends survived the kill: head ${aAtRestart.head}, acknowledged up to ${maxAcknowledged}`,
    );
    const aData = aAtRestart.head - NON_DATA;
    // The kill landed mid-copy when a copy of an event A committed before it
    // was committed on B after it (B's createdAt is its commit time). B's
    // head read after the restart cannot show it: the restarted A resumes
    // copying at once, before any read of B is answered.
    const copiedAfterKill = await eventually(
      async () => {
        const copies = (await api.readAll(B)).events.filter((e) => e.type === "data" && lastHop(e).offset <= aAtRestart.head);
        assert.equal(copies.length, aData, `round ${r}: B copies what A held at the restart`);
        return copies.filter((e) => Date.parse(e.createdAt) > killedAt).length;
      },
      { timeoutMs: 90_000, intervalMs: 100, what: `round ${r}: B caught up with A's ${aData} data events` },
    );
    landedMidCopy = copiedAfterKill > 0;
    t.diagnostic(
      `round ${r}: killed with ${acknowledged.size}/${BATCHES} appends acknowledged (up to offset ${maxAcknowledged}); ` +
        `A held ${aData} data events, of which B copied ${copiedAfterKill} after the restart` +
        `${landedMidCopy ? " — the kill landed mid-copy" : ""}`,
    );

    // Re-send every batch with the same idempotency keys: acknowledged ones are
    // deduplicated to exactly what was committed; lost ones commit now, or were
    // committed before the kill and are deduplicated (all-or-nothing).
    for (let b = 0; b < BATCHES; b++) {
      const res = await api.append(A, batchBody(r, b));
      if (acknowledged.has(b)) {
        assert.equal(res.status, 200, `round ${r} batch ${b} survived the kill: ${JSON.stringify(res.body).slice(0, 500)}`);
        assert.deepEqual(res.body.deduplicated, Array(sizeOf(b)).fill(true));
        assert.deepEqual(res.body.events, acknowledged.get(b), `round ${r} batch ${b}: the originally committed events`);
      } else {
        assert.ok([200, 201].includes(res.status), `round ${r} batch ${b}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
        assert.deepEqual(res.body.deduplicated, Array(sizeOf(b)).fill(res.status === 200), "all-or-nothing");
      }
    }
    await api.infoOk(A); // poke: the object re-arms its alarm on its first request after a restart
  }
  assert.ok(landedMidCopy, `in ${MAX_ROUNDS} rounds, no kill was shown to land before B caught up`);

  const total = round * PER_ROUND;
  const aData = (await api.readAll(A)).events.filter((e) => e.type === "data");
  assert.equal(aData.length, total, "each source event committed once despite the retried appends");
  assert.equal(new Set(aData.map((e) => e.idempotencyKey)).size, total);

  // A batch in flight at the kill is retried (§6 rule 6): by the new object
  // instance, and at the latest once its in-flight deadline (30 s for a copy)
  // passes — so allow well beyond that.
  await eventually(
    async () => {
      const count = (await api.readAll(B)).events.filter((e) => e.type === "data").length;
      assert.ok(count >= total, `${count} of ${total} on B`);
    },
    { timeoutMs: 90_000, intervalMs: 100, what: `all ${total} copies on B` },
  );
  const entry = await api.caughtUp(A, "k", { timeoutMs: 30_000 });
  assert.equal(entry.deliveryHalted, undefined);

  // Exactly once, in source-offset order, each copy carrying the event it names.
  const bData = (await api.readAll(B)).events.filter((e) => e.type === "data");
  assert.equal(bData.length, total, "no duplicates");
  assert.deepEqual(
    bData.map((e) => lastHop(e).offset),
    aData.map((e) => e.offset),
    "every source data event exactly once, in source-offset order",
  );
  for (let n = 0; n < total; n++) {
    assert.deepEqual(bData[n].payload, aData[n].payload);
    const hop = lastHop(bData[n]);
    assert.equal(hop.streamId, lifetime.streamId);
    assert.equal(hop.subscriptionKey, "k");
    assert.equal(hop.cursorChangedAtSourceOffset, 1, "one run throughout: a crash starts no new run");
  }
  assert.equal(new Set(bData.map((e) => e.idempotencyKey)).size, total);
  const record = (await api.infoOk(B)).state.subscriptions.inbound.bySourcePath[A].k;
  assert.equal(record.numEventsReceived, total, "the fence record counted each copy once");

  await server.kill();
  assert.deepEqual(liveGroupMembers(server.pgid), []);
});
