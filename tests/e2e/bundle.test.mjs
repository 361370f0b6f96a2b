// What the built worker bundle holds, beyond what a request shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const glue = readFileSync(fileURLToPath(new URL("../../durable-objects/build/index.js", import.meta.url)), "utf8");

// vendor/js-sys/PATCHED.md: Rust futures are scheduled on a resolved
// promise's reaction. workerd's global `queueMicrotask` costs several times
// more a call, and a request crosses it on every await (issue 33). A js-sys
// upgrade that drops the patch brings the call back into the glue.
test("Rust futures are scheduled without workerd's queueMicrotask (vendor/js-sys/PATCHED.md)", () => {
  assert.ok(glue.includes("__wbindgen"), "durable-objects/build/index.js is wasm-bindgen's glue");
  assert.doesNotMatch(glue, /queueMicrotask/);
});
