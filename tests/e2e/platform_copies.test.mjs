// The glue hands the platform views of the wasm instance's memory as bodies
// (durable-objects/src/internal/answers.js `respond`, object_fetch.js
// `objectFetch`) without copying them first: workerd copies a body out of
// the view it is handed while it builds the `Response` or the request,
// before the call returns. This pins that, in workerd itself, with the
// glue's own modules: a view changed right after the call does not change
// what is sent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";

const glue = (name) => ({
  type: "ESModule",
  path: name,
  contents: readFileSync(new URL(`../../durable-objects/src/internal/${name}`, import.meta.url), "utf8"),
});

/** The deployment's own compatibility date (wrangler.toml). */
const compatibilityDate = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8").match(/^compatibility_date = "([^"]+)"/m)?.[1];

const worker = `
import { configureAnswers, respond } from "./answers.js";
import { objectFetch } from "./object_fetch.js";

export class Echo {
  async fetch(request) { return new Response(await request.text()); }
}

export default {
  async fetch(request, env) {
    configureAnswers(JSON.stringify([["X-Content-Type-Options", "nosniff"]]), "x-internal");
    const answerMemory = new TextEncoder().encode('{"answer":1}');
    const answer = respond(200, "application/json", answerMemory, "", "");
    answerMemory.fill(0x20);
    const callMemory = new TextEncoder().encode('{"call":2}');
    const pending = objectFetch(env.ECHO.get(env.ECHO.idFromName("echo")), "https://echo.internal/", "POST", "[]", 1, callMemory, "");
    callMemory.fill(0x20);
    return Response.json({ answer: await answer.text(), call: await (await pending).text() });
  },
};
`;

test("workerd copies a body out of the view the glue hands it, before the call returns", async () => {
  assert.ok(compatibilityDate, "wrangler.toml names a compatibility date");
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: "worker.mjs", contents: worker }, glue("answers.js"), glue("object_fetch.js")],
    compatibilityDate,
    durableObjects: { ECHO: "Echo" },
  });
  try {
    const seen = await (await mf.dispatchFetch("http://localhost/")).json();
    assert.deepEqual(seen, { answer: '{"answer":1}', call: '{"call":2}' });
  } finally {
    await mf.dispose();
  }
});
