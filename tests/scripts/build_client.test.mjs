// The TypeScript client as a user installs it (issue 32): the tarball
// `scripts/build-client` packs, installed with npm into a scratch project
// outside the repository (a default `npm init` project, then set to ESM as
// the README says), brings its own dependency and imports — from an .mjs
// file and from a .ts file run by Node 22's type stripping — and verifies
// a signed delivery (docs/design.md §9) while refusing a tampered one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = join(root, "target", "client");

function tarball() {
  const find = () => (existsSync(out) ? readdirSync(out).filter((name) => /^tributary-client-.*\.tgz$/.test(name)) : []);
  if (find().length === 0) execFileSync("bash", [join(root, "scripts", "build-client")], { stdio: "inherit" });
  const found = find();
  assert.equal(found.length, 1, `one tarball in ${out}`);
  return join(out, found[0]);
}

/** The Standard Webhooks test vector's secret (docs/design.md §9). */
const vector = { secret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD" };

test("the packed client installs into a project outside the repository and imports as ESM", () => {
  const packed = tarball();
  const listing = execFileSync("tar", ["-tzf", packed], { encoding: "utf8" });
  assert.match(listing, /package\/dist\/index\.js/);
  assert.match(listing, /package\/dist\/index\.d\.ts/);
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", packed, "package/package.json"], { encoding: "utf8" }));
  assert.ok(manifest.dependencies?.standardwebhooks, "the tarball declares its dependency");

  const project = mkdtempSync(join(tmpdir(), "tributary-client-install-"));
  assert.ok(!project.startsWith(root), "the scratch project is outside the repository");
  try {
    const npm = (...args) => execFileSync("npm", args, { cwd: project, encoding: "utf8" });
    npm("init", "-y");
    npm("install", "--no-audit", "--no-fund", "--prefer-offline", packed);
    assert.ok(existsSync(join(project, "node_modules", "standardwebhooks")), "npm installed the client's own dependency");
    assert.ok(!readFileSync(join(project, "package.json"), "utf8").includes("file:/work"), "no link back into a checkout");

    // Signs a delivery with the client's own dependency (installed beside it)
    // and verifies it with the client; a tampered body must not verify.
    const check = `
      const { Tributary, TributaryError, verifyWebhook } = await import("@tributary/client");
      const { Webhook } = await import("standardwebhooks");
      const client = new Tributary({ baseUrl: "http://127.0.0.1:1", token: "t" });
      const id = "msg_" + "1".repeat(27);
      const body = JSON.stringify({ type: "event", deliveryId: id, event: { offset: 1 } });
      const now = new Date();
      const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": new Webhook(${JSON.stringify(vector.secret)}).sign(id, now, body) };
      const verified = verifyWebhook(${JSON.stringify(vector.secret)}, headers, body);
      let tampered = "verified";
      try { verifyWebhook(${JSON.stringify(vector.secret)}, headers, body.replace("1}", "2}")); }
      catch (error) { tampered = error instanceof TributaryError ? error.code : String(error); }
      console.log(JSON.stringify({ client: typeof client.streams.append, offset: verified.event.offset, tampered }));
    `;
    writeFileSync(join(project, "check.mjs"), check);
    const fromMjs = JSON.parse(execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(fromMjs, { client: "function", offset: 1, tampered: "invalid_signature" });

    npm("pkg", "set", "type=module");
    writeFileSync(join(project, "check.ts"), `const label: string = "ts";\n${check}`);
    const fromTs = JSON.parse(execFileSync(process.execPath, ["check.ts"], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(fromTs, fromMjs);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
