// Forks (docs/design.md §18, issue 31) against the built worker in workerd, over HTTP as a client
// calls them: a three-level chain (a fork of a fork) read across every boundary, catch-up and
// live; deletes in every order (soft delete 410 on both faces, 409 on re-creation, the last
// release purging up the chain); a prefix token refused outside its prefix; hostile headers.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { Miniflare } from "miniflare";
import { freshStateDir, workerOptions } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";
import { parsePrometheus, sample } from "./prometheus_text.mjs";

const P = "project-forks";
const TOKENS = {
  full: P,
  app: { project: P, scopes: ["read", "append", "manage"], prefix: "/app/" },
  append: { project: P, scopes: ["read", "append"] },
};

let w;
before(async () => {
  const dir = freshStateDir("tributary-e2e-forks-");
  const options = workerOptions({ persistDir: dir, dsLongPollTimeoutMs: 1000 });
  options.bindings.API_TOKENS = JSON.stringify(TOKENS);
  const mf = new Miniflare(options);
  const url = (await mf.ready).toString().replace(/\/$/, "");
  w = {
    url,
    async cleanup() {
      await mf.dispose().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
after(async () => {
  await w?.cleanup();
});

let counter = 0;
const fresh = (name) => `/forks/${name}-${process.pid}-${++counter}`;
const offset = (n) => `0000000000000000_${String(n).padStart(16, "0")}`;

async function call(method, path, { token = "full", headers = {}, body } = {}) {
  const response = await fetch(`${w.url}/v1/stream${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, headers: response.headers };
}

const text = { "content-type": "text/plain" };
const put = (path, body, headers = {}) => call("PUT", path, { headers: { ...text, ...headers }, body });
const post = (path, body) => call("POST", path, { headers: text, body });
const fork = (path, from, headers = {}, token = "full") =>
  call("PUT", path, { token, headers: { "stream-forked-from": `/v1/stream${from}`, ...headers } });
const read = (path, query = "offset=-1") => call("GET", `${path}?${query}`);

test("a three-level chain reads the same log from every starting point, catch-up and long-poll", async () => {
  const [a, b, c] = [fresh("a"), fresh("b"), fresh("c")];
  assert.equal((await put(a, "A1")).status, 201);
  assert.equal((await post(a, "A2")).status, 204);
  const forked = await fork(b, a);
  assert.equal(forked.status, 201);
  assert.equal(forked.headers.get("stream-next-offset"), offset(2));
  await post(a, "-after-b");
  await post(b, "B3");
  assert.equal((await fork(c, b)).status, 201);
  await post(b, "-after-c");
  await post(c, "C4");
  const whole = await read(c);
  assert.equal(whole.status, 200);
  assert.equal(whole.text, "A1A2B3C4");
  assert.equal(whole.headers.get("stream-up-to-date"), "true");
  for (const [after, expected] of [[1, "A2B3C4"], [2, "B3C4"], [3, "C4"], [4, ""]]) {
    assert.equal((await read(c, `offset=${offset(after)}`)).text, expected, `after ${after}`);
  }
  // Long-poll below the fork point answers the inherited data at once.
  const inherited = await read(c, `offset=${offset(1)}&live=long-poll`);
  assert.equal(inherited.status, 200);
  assert.equal(inherited.text, "A2B3C4");
  // At the tail it waits for the fork's own append, not its sources'.
  const waiting = read(c, `offset=${offset(4)}&live=long-poll`);
  await post(b, "-not-c");
  await post(c, "C5");
  const woke = await waiting;
  assert.equal(woke.status, 200);
  assert.equal(woke.text, "C5");
  // Info names the source, its lifetime and the fork point; the source counts its forks.
  const info = await fetch(`${w.url}/v1/streams${c}`, { headers: { authorization: "Bearer full" } }).then((r) => r.json());
  assert.equal(info.forkedFrom.path, b);
  assert.equal(info.forkedFrom.forkPoint, 3);
  const sourceInfo = await fetch(`${w.url}/v1/streams${b}`, { headers: { authorization: "Bearer full" } }).then((r) => r.json());
  assert.equal(sourceInfo.forks, 1);
  assert.equal(info.forkedFrom.streamId, sourceInfo.streamId);
});

test("an SSE tail of a fork opens with its inherited data and follows its own appends", async () => {
  const [s, f] = [fresh("sse-src"), fresh("sse-fork")];
  await put(s, "old");
  await fork(f, s);
  const controller = new AbortController();
  const response = await fetch(`${w.url}/v1/stream${f}?offset=-1&live=sse`, {
    headers: { authorization: "Bearer full" },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = response.body.getReader();
  let seen = "";
  const decoder = new TextDecoder();
  const until = async (needle) => {
    for (let i = 0; i < 50 && !seen.includes(needle); i++) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value);
    }
    assert.ok(seen.includes(needle), `SSE carried ${needle}: ${seen}`);
  };
  await until("data:old");
  await post(f, "new");
  await until("data:new");
  controller.abort();
});

test("deletes in every order: soft delete is 410 on both faces, 409 on re-creation, and the last fork purges the chain", async () => {
  const [a, b, c] = [fresh("del-a"), fresh("del-b"), fresh("del-c")];
  await put(a, "a");
  await fork(b, a);
  await fork(c, b);
  // Middle first: b is soft-deleted, c still reads through it.
  assert.equal((await call("DELETE", b)).status, 204);
  for (const method of ["GET", "HEAD", "POST", "DELETE"]) {
    assert.equal((await call(method, b, { headers: text, body: method === "POST" ? "x" : undefined })).status, 410, method);
  }
  assert.equal((await put(b, "")).status, 409);
  const native = await fetch(`${w.url}/v1/streams${b}`, { headers: { authorization: "Bearer full" } });
  assert.equal(native.status, 410);
  assert.equal((await fork(fresh("x"), b)).status, 409, "a soft-deleted stream is not forked");
  assert.equal((await read(c)).text, "a");
  // Then the root: a is soft-deleted too.
  assert.equal((await call("DELETE", a)).status, 204);
  assert.equal((await read(a)).status, 410);
  assert.equal((await read(c)).text, "a");
  // The last fork goes: b, then a, are purged (asynchronously, PROTOCOL §4.2).
  assert.equal((await call("DELETE", c)).status, 204);
  await eventually(async () => assert.equal((await read(b)).status, 404), { what: "b purged" });
  await eventually(async () => assert.equal((await read(a)).status, 404), { what: "a purged" });
  assert.equal((await put(a, "again")).status, 201, "the path is free again");

  // Leaf first: nothing soft-deleted, the edge released.
  const [s, f] = [fresh("leaf-s"), fresh("leaf-f")];
  await put(s, "s");
  await fork(f, s);
  assert.equal((await call("DELETE", f)).status, 204);
  await eventually(
    async () =>
      assert.equal(
        (await fetch(`${w.url}/v1/streams${s}`, { headers: { authorization: "Bearer full" } }).then((r) => r.json())).forks,
        0,
      ),
    { what: "the edge released" },
  );
  assert.equal((await call("DELETE", s)).status, 204);
  assert.equal((await read(s)).status, 404);
});

test("a prefix token forks only within its prefix; forking needs manage", async () => {
  const outside = fresh("outside");
  await put(outside, "secret");
  const inside = `/app/fork-${process.pid}-${++counter}`;
  const refused = await fork(inside, outside, {}, "app");
  assert.equal(refused.status, 403);
  assert.match(refused.text, /forbidden_scope/);
  assert.equal((await read(inside)).status, 404, "nothing was created");
  const appSource = `/app/src-${process.pid}-${++counter}`;
  await put(appSource, "mine");
  assert.equal((await fork(`/elsewhere-${counter}`, appSource, {}, "app")).status, 403);
  assert.equal((await fork(inside, appSource, {}, "app")).status, 201);
  assert.equal((await read(inside)).text, "mine");
  assert.equal((await fork(fresh("by-appender"), appSource, {}, "append")).status, 403, "append alone cannot fork");
});

test("hostile fork headers are refused and change nothing", async () => {
  const s = fresh("hostile");
  await put(s, "hello");
  const cases = [
    [{ "stream-fork-offset": offset(99) }, 400, "offset past the tail"],
    [{ "stream-fork-offset": "not-an-offset" }, 400, "malformed offset"],
    [{ "stream-fork-offset": "-1" }, 400, "a sentinel is not a fork point"],
    [{ "stream-fork-offset": offset(0), "stream-fork-sub-offset": "6" }, 400, "sub-offset past the message"],
    [{ "stream-fork-sub-offset": "01" }, 400, "sub-offset with a leading zero"],
    [{ "stream-fork-sub-offset": "-2" }, 400, "negative sub-offset"],
    [{ "content-type": "application/json" }, 409, "content type differs from the source"],
  ];
  for (const [headers, status, why] of cases) {
    const target = fresh("hostile-fork");
    const answer = await fork(target, s, headers);
    assert.equal(answer.status, status, `${why}: ${answer.text}`);
    assert.equal((await read(target)).status, 404, `${why}: no fork was created`);
  }
  const self = fresh("self");
  assert.equal((await fork(self, self)).status, 400, "a stream cannot fork itself");
  assert.equal((await fork(fresh("f"), "/../etc")).status, 400, "a malformed source path");
  const info = await fetch(`${w.url}/v1/streams${s}`, { headers: { authorization: "Bearer full" } }).then((r) => r.json());
  assert.equal(info.forks, 0, "no refused fork left an edge");
});

test("the native route forks as the protocol does: POST /v1/streams/{path}/-/fork {from, at}", async () => {
  const s = fresh("native-src");
  await put(s, "one");
  await post(s, "two");
  const f = fresh("native-fork");
  const native = (path, body, token = "full") =>
    fetch(`${w.url}/v1/streams${path}/-/fork`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const created = await native(f, { from: s, at: 1 });
  assert.equal(created.status, 201);
  const info = await created.json();
  assert.equal(info.forkedFrom.path, s);
  assert.equal(info.forkedFrom.forkPoint, 1);
  assert.equal(info.head, 1);
  assert.equal((await read(f)).text, "one");
  assert.equal((await native(f, { from: s, at: 1 })).status, 200, "the same fork again");
  assert.equal((await native(f, { from: s, at: 2 })).status, 409, "another fork point");
  for (const bad of [{}, { from: s, at: -1 }, { from: "relative" }, { from: s, extra: 1 }]) {
    assert.equal((await native(fresh("native-bad"), bad)).status, 400, JSON.stringify(bad));
  }
  assert.equal((await native(fresh("native-missing"), { from: fresh("nowhere") })).status, 404);
  assert.equal((await native(`/app/n-${counter}`, { from: s }, "app")).status, 403, "outside the prefix");
});

test("the catalog and the metrics count a soft-deleted source apart; the purge takes it out of both (§14, §18)", async () => {
  // Under /app/, so the prefix token's listing is checked too.
  const base = `/app/catalog-${process.pid}-${++counter}`;
  const [s, f] = [`${base}/src`, `${base}/fork`];
  const native = async (route, token = "full") => {
    const response = await fetch(`${w.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, route);
    return response;
  };
  const listed = async (softDeleted) => {
    const query = `prefix=${encodeURIComponent(`${base}/`)}${softDeleted ? `&softDeleted=${softDeleted}` : ""}`;
    const body = await (await native(`/v1/streams?${query}`)).json();
    return body.streams.map((entry) => `${entry.path}${entry.softDeleted ? " (soft-deleted)" : ""}`);
  };
  const scrape = async () => parsePrometheus(await (await native(`/v1/metrics?prefix=${encodeURIComponent(`${base}/`)}`)).text());
  const sourceHead = (families) => sample(families, "tributary_stream_head", { stream: s });

  assert.equal((await put(s, "S1")).status, 201);
  assert.equal((await fork(f, s)).status, 201);
  await eventually(
    async () => {
      assert.deepEqual(await listed(), [f, s]);
      const families = await scrape();
      assert.equal(sourceHead(families), 1);
      assert.equal(sample(families, "tributary_metrics_streams_soft_deleted", {}), 0);
    },
    { what: "both streams listed and reported live" },
  );

  assert.equal((await call("DELETE", s)).status, 204);
  assert.equal((await call("GET", s)).status, 410, "soft-deleted");
  await eventually(
    async () => {
      assert.deepEqual(await listed(), [f], "left out of the default listing");
      assert.deepEqual(await listed("include"), [f, `${s} (soft-deleted)`]);
      assert.deepEqual(await listed("only"), [`${s} (soft-deleted)`]);
      const families = await scrape();
      assert.equal(sourceHead(families), undefined, "its series are no longer shown");
      assert.equal(sample(families, "tributary_metrics_streams_soft_deleted", {}), 1);
      assert.equal(sample(families, "tributary_metrics_streams_reported", {}), 1, "only the fork");
    },
    { what: "the source listed and counted apart" },
  );
  const [entry] = (await (await native(`/v1/streams?prefix=${encodeURIComponent(s)}&softDeleted=only`)).json()).streams;
  assert.equal(entry.softDeleted, true);
  const narrowed = await (await native(`/v1/streams?prefix=${encodeURIComponent(base)}&softDeleted=only`, "app")).json();
  assert.deepEqual(narrowed.streams, [entry], "a prefix token's listing asks as it was asked");
  assert.ok(!Number.isNaN(Date.parse(entry.softDeletedAt)), JSON.stringify(entry));
  const bad = await fetch(`${w.url}/v1/streams?softDeleted=yes`, { headers: { authorization: "Bearer full" } });
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).error.details.parameter, "softDeleted");

  // The last fork goes: its release purges the source, which leaves the catalog and the scrape.
  assert.equal((await call("DELETE", f)).status, 204);
  await eventually(
    async () => {
      assert.deepEqual(await listed("include"), []);
      const families = await scrape();
      assert.equal(sample(families, "tributary_metrics_streams_soft_deleted", {}), 0);
      assert.equal(sample(families, "tributary_metrics_streams_reported", {}), 0);
    },
    { what: "the purged source gone from the catalog and the metrics" },
  );
  assert.equal((await call("GET", s)).status, 404, "purged");
});
