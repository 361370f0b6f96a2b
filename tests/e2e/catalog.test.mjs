// The stream catalog end to end (docs/design.md §14): `GET /v1/streams` lists a
// project's streams in path order, paged, project-isolated. Streams register
// each lifetime and unregister on destroy from their alarm until the project
// object acknowledges; a restart right after an append (before or after the
// registration, whichever the race gives) still ends with the stream listed.
// Every expectation is polled for; nothing is asserted after a fixed sleep.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startTributary, streamUrl, OTHER_TOKEN } from "./harness.mjs";
import { eventually } from "./delivery_helpers.mjs";

let t;
before(async () => {
  t = await startTributary();
});
after(async () => {
  await t?.cleanup();
});

const list = async (query = "", token) => {
  const res = await t.request("GET", `/v1/streams${query}`, token ? { token } : {});
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const paths = (body) => body.streams.map((stream) => stream.path);
const append = async (path) => {
  const res = await t.request("POST", streamUrl(path, "events"), { body: { type: "t" } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.event;
};
const listed = (prefix, expected) =>
  eventually(
    async () => {
      const body = await list(`?prefix=${encodeURIComponent(prefix)}`);
      assert.deepEqual(paths(body), expected);
      return body;
    },
    { what: `the catalog under ${prefix} to be ${JSON.stringify(expected)}` },
  );

test("§14: create, delete and recreate: the catalog follows each lifetime", async () => {
  const path = "/catalog/life/orders";
  await append(path);
  const info = (await t.request("GET", streamUrl(path))).body;
  const first = await listed("/catalog/life/", [path]);
  assert.equal(first.streams[0].streamId, info.streamId);
  assert.equal(first.streams[0].streamCreatedAt, info.streamCreatedAt);
  assert.equal((await t.request("DELETE", streamUrl(path))).status, 204);
  await listed("/catalog/life/", []);
  await append(path);
  const second = await listed("/catalog/life/", [path]);
  assert.notEqual(second.streams[0].streamId, info.streamId, "the new lifetime is listed");
});

test("§14: prefix filter and paging in path order", async () => {
  const names = ["/catalog/page/c", "/catalog/page/a", "/catalog/page/b/deep", "/catalog/page/b", "/catalog/other/x"];
  for (const name of names) await append(name);
  await listed("/catalog/page/", ["/catalog/page/a", "/catalog/page/b", "/catalog/page/b/deep", "/catalog/page/c"]);
  const first = await list(`?prefix=${encodeURIComponent("/catalog/page/")}&limit=2`);
  assert.deepEqual(paths(first), ["/catalog/page/a", "/catalog/page/b"]);
  assert.equal(first.nextAfter, "/catalog/page/b");
  const next = await list(`?prefix=${encodeURIComponent("/catalog/page/")}&limit=2&after=${encodeURIComponent(first.nextAfter)}`);
  assert.deepEqual(paths(next), ["/catalog/page/b/deep", "/catalog/page/c"]);
  for (const bad of ["?limit=0", "?limit=1001", "?nope=1", "?limit=x"]) {
    const res = await t.request("GET", `/v1/streams${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.error.code, "invalid_parameter");
  }
  assert.equal((await t.request("POST", "/v1/streams")).status, 405);
});

test("§14: another project's token sees nothing of this project's streams", async () => {
  await append("/catalog/isolated/a");
  await listed("/catalog/isolated/", ["/catalog/isolated/a"]);
  const other = await list(`?prefix=${encodeURIComponent("/catalog/isolated/")}`, OTHER_TOKEN);
  assert.deepEqual(other.streams, []);
  const unauthorized = await t.request("GET", "/v1/streams", { token: "nope" });
  assert.equal(unauthorized.status, 401);
});

test("§14: a restart right after an append still ends with the stream listed (registration retried from the alarm)", async () => {
  const path = "/catalog/crash/a";
  await append(path);
  await t.restart();
  await listed("/catalog/crash/", [path]);
  // And a destroy followed at once by a restart is unregistered too.
  assert.equal((await t.request("DELETE", streamUrl(path))).status, 204);
  await t.restart();
  await listed("/catalog/crash/", []);
});
