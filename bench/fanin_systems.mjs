// The systems bench/fanin.mjs runs side by side in one workerd: Tributary
// (subscribe-from into one target, §7) and the platform floor (issue 33,
// bench/floor/worker.mjs): bare JS Durable Objects whose sources copy into
// one target from their alarms, up to 1000 events a fetch, the target
// inserting a batch in one transaction — plain, and with the writes §6 and
// §7 ask of a copy batch (in-flight mark, provenance, key under a unique
// index, the batch's stamp checked against the source's fence row, which
// it writes). Each system answers the same questions, so one driver times
// them alike.
import { streamUrl } from "../tests/e2e/harness.mjs";
import { checkedFetch, parsePrometheus, metric } from "./lib.mjs";

export const KEY = "fanin";
const PAGE = 1000;
const jsonHeaders = { "content-type": "application/json" };

const fail = (message) => {
  throw new Error(`BENCH FAILED: fanin: ${message}`);
};

/** The event a source's `i`-th append carries. */
export const event = (source, i) => ({ type: "data", payload: { source, i } });

/**
 * Tributary: `t` is the harness's handle. Sources and targets are stream
 * paths under /bench/fanin-{label}/.
 */
export function tributarySystem(t, authJson) {
  async function getJson(path, allow404 = false) {
    const response = await t.request("GET", path);
    if (allow404 && response.status === 404) return null;
    if (response.status !== 200) fail(`GET ${path}: status ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    return response.body;
  }

  /** Every event of `path` (`expected` of them), paged and bounded. */
  async function readAll(path, expected) {
    const events = [];
    let after = 0;
    for (let page = 0; page <= expected / PAGE + 1; page++) {
      const body = await getJson(`${streamUrl(path, "events")}?after=${after}&limit=${PAGE}`);
      events.push(...body.events);
      if (body.events.length === 0 || body.nextAfter >= body.head) return events;
      after = body.nextAfter;
    }
    fail(`reading ${path}: more pages than ${expected} events need`);
  }

  return {
    name: "Tributary",
    names(label, count) {
      const root = `/bench/fanin-${label}`;
      return { target: `${root}/target`, sources: Array.from({ length: count }, (_, i) => `${root}/s${i}`) };
    },
    subscribe: (target, source) =>
      checkedFetch(
        `${t.url}${streamUrl(target, "subscribe-from")}`,
        { method: "POST", headers: authJson, body: JSON.stringify({ sourcePath: source, subscriptionKey: KEY, filter: { eventTypes: ["data"] }, start: "now" }) },
        201,
      ),
    append: (source, body) => checkedFetch(`${t.url}${streamUrl(source, "events")}`, { method: "POST", headers: authJson, body }, 201),
    head: async (target) => (await getJson(streamUrl(target), true))?.head ?? 0,
    async lastCopyAtMs(target, offset) {
      const last = await getJson(`${streamUrl(target, "events")}/${offset}`);
      return Date.parse(last.event?.createdAt);
    },
    /** Copy batches the target has committed (its metrics, since its object started). */
    async copyBatches(target) {
      const response = await t.request("GET", streamUrl(target, "metrics"));
      if (response.status !== 200) fail(`${target} metrics: status ${response.status}`);
      return metric(parsePrometheus(String(response.body)), "tributary_appends_total");
    },
    /** The halted subscriptions among `sources`, one card read each (`pool` runs the reads). */
    async halted(sources, pool) {
      const halted = [];
      await pool("halt check", sources.length, async (i) => {
        const card = await getJson(streamUrl(sources[i], "subscriptions"));
        const entry = card.subscriptions?.find((s) => s.subscriptionKey === KEY);
        if (!entry) return `${sources[i]}: no subscription ${KEY}`;
        if (entry.deliveryHalted) halted.push({ source: sources[i], halted: entry.deliveryHalted, lastError: entry.runtime?.lastError });
        return null;
      });
      return halted;
    },
    /**
     * Checks the target holds every source's events `0..perSource` once, in
     * source-offset order (§6 rule 9; appends to one source may commit in
     * any order when several are in flight, so `i` orders nothing); returns
     * its inbound fence count.
     */
    async verify(label, target, sources, perSource) {
      const copies = await readAll(target, sources.length * perSource);
      if (copies.length !== sources.length * perSource) fail(`${label}: target holds ${copies.length} events for ${sources.length * perSource} appended`);
      const lastOffset = new Array(sources.length).fill(0);
      const seen = sources.map(() => new Set());
      for (const copy of copies) {
        const { source, i } = copy.payload ?? {};
        const hop = copy.source?.copiedFrom?.at(-1);
        if (hop?.path !== sources[source] || hop?.subscriptionKey !== KEY) fail(`${label}: offset ${copy.offset} has hop ${JSON.stringify(hop)}`);
        if (!(hop.offset > lastOffset[source])) fail(`${label}: source ${source} offset ${hop.offset} copied after ${lastOffset[source]}`);
        if (seen[source].has(i)) fail(`${label}: source ${source} event i=${i} copied twice`);
        lastOffset[source] = hop.offset;
        seen[source].add(i);
      }
      if (seen.some((set) => set.size !== perSource)) fail(`${label}: a source copied fewer than ${perSource} events`);
      const info = await getJson(streamUrl(target));
      return info.inboundFenceCount ?? Object.values(info.state?.subscriptions?.inbound?.bySourcePath ?? {}).reduce((n, byKey) => n + Object.keys(byKey).length, 0);
    },
  };
}

/**
 * The floor (bench/floor/worker.mjs `FloorStream`), plain or `contract`
 * (the copy path with §6/§7's writes). Its objects are named
 * fanin-{variant}-{label}-…, one name a stream.
 */
export function floorSystem(url, contract) {
  const variant = contract ? "contract" : "plain";
  const base = (name) => `${url}/floor/stream/${encodeURIComponent(name)}`;
  async function getJson(path) {
    const response = await fetch(path);
    if (response.status !== 200) fail(`GET ${path}: status ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return response.json();
  }
  const head = async (target) => (contract ? (await getJson(`${base(target)}/copies`)).head : (await getJson(`${base(target)}/events?after=0&limit=1`)).head);

  return {
    name: contract ? "floor with §6/§7's writes" : "floor",
    names(label, count) {
      const root = `fanin-${variant}-${label}`;
      return { target: `${root}-target`, sources: Array.from({ length: count }, (_, i) => `${root}-s${i}`) };
    },
    subscribe: (target, source) =>
      checkedFetch(
        `${base(source)}/subscribe`,
        { method: "POST", headers: jsonHeaders, body: JSON.stringify({ key: KEY, copyTo: target, ...(contract ? { contract: `/${source}` } : {}) }) },
        201,
      ),
    append: (source, body) => checkedFetch(`${base(source)}/events`, { method: "POST", headers: jsonHeaders, body }, 201),
    head,
    async lastCopyAtMs(target, offset) {
      // A contract copy's commit time is its row's; the latest row is the last copy once the head is `offset`.
      if (contract) return (await getJson(`${base(target)}/copies?check=1`)).latestAtMs;
      const { events } = await getJson(`${base(target)}/events?after=${offset - 1}&limit=1`);
      return Date.parse(events[0]?.createdAt);
    },
    copyBatches: async () => null,
    halted: async () => [],
    /** The floor keeps no per-source order to check: the target holds exactly what was appended, each copy once. */
    async verify(label, target, sources, perSource) {
      const expected = sources.length * perSource;
      if (contract) {
        // Each copy's key is unique under the target's index: `rows` distinct copies.
        const { rows, head: copied } = await getJson(`${base(target)}/copies?check=1`);
        if (rows !== expected || copied !== expected) fail(`${label}: floor target holds ${rows} copies (head ${copied}) for ${expected} appended`);
        return null;
      }
      const seen = sources.map(() => new Set());
      let after = 0;
      for (let page = 0; page <= expected / PAGE + 1 && after < expected; page++) {
        const { events } = await getJson(`${base(target)}/events?after=${after}&limit=${PAGE}`);
        if (events.length === 0) break;
        for (const e of events) {
          if (seen[e.payload.source].has(e.payload.i)) fail(`${label}: floor source ${e.payload.source} event i=${e.payload.i} copied twice`);
          seen[e.payload.source].add(e.payload.i);
        }
        after = events.at(-1).offset;
      }
      if (after !== expected || seen.some((set) => set.size !== perSource)) fail(`${label}: floor target holds ${after} copies for ${expected} appended`);
      return null;
    },
  };
}
