// scripts/cite-design (issue 32): rewrites "DESIGN.md §N" citations and
// paths to the contract outside the repository into "docs/design.md", in a
// scratch git work tree, and a second run changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const script = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "scripts", "cite-design");

const before = {
  "src/a.rs": "//! The fence (DESIGN.md §7), and DESIGN.md\n//! §15.1 on a wrapped line.\n",
  "README.md": "The contract is `../shared/DESIGN.md` (cited as §N).\nSee /work/shared/DESIGN.md §3.\n",
  "docs/guide.md": "Rules in (`../../shared/DESIGN.md` §17) and docs/design.md §2 already.\n",
  "docs/design.md": "# The reference, which mentions DESIGN.md once\n",
  "CHANGELOG.md": "- moved DESIGN.md into docs/\n",
  "notes.txt": "docs/durable-streams-design.md and MY_DESIGN.md stay.\n",
};
const after = {
  "src/a.rs": "//! The fence (docs/design.md §7), and docs/design.md\n//! §15.1 on a wrapped line.\n",
  "README.md": "The contract is `docs/design.md` (cited as §N).\nSee docs/design.md §3.\n",
  "docs/guide.md": "Rules in (`docs/design.md` §17) and docs/design.md §2 already.\n",
  "docs/design.md": before["docs/design.md"],
  "CHANGELOG.md": before["CHANGELOG.md"],
  "notes.txt": before["notes.txt"],
};

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), "cite-design-"));
  for (const [name, text] of Object.entries(before)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: dir });
  execFileSync("git", ["add", "."], { cwd: dir });
  return dir;
}

const read = (dir) => Object.fromEntries(Object.keys(before).map((name) => [name, readFileSync(join(dir, name), "utf8")]));

test("cite-design rewrites citations to docs/design.md, and a second run changes nothing", () => {
  const dir = scratch();
  try {
    const first = execFileSync("bash", [script, dir], { encoding: "utf8" });
    assert.match(first, /3 files rewritten/);
    assert.deepEqual(read(dir), after);
    const second = execFileSync("bash", [script, dir], { encoding: "utf8" });
    assert.match(second, /0 files rewritten/);
    assert.deepEqual(read(dir), after);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
