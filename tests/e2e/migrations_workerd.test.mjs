// Every stream migration file runs in workerd's own SQLite, as a stream
// object runs it: each file's statements in one `transactionSync`, under
// the platform's authorizer (src/schema/migrations.rs `apply_files`). The
// native tests run the same files in rusqlite; this holds them to what the
// platform allows too (a `DROP TABLE` and an `ALTER TABLE … RENAME`, migration
// 0017), with rows in the tables they rebuild.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";

const dir = fileURLToPath(new URL("../../migrations/", import.meta.url));
const files = readdirSync(dir)
  .filter((name) => /^\d{4}_.*\.sql$/.test(name))
  .sort();

/** As `statements` in src/schema/migrations.rs: comment lines dropped, split at `;` ending a line. */
const statements = (sql) =>
  sql
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join("\n")
    .split(";\n")
    .map((statement) => statement.trim().replace(/;$/, "").trim())
    .filter(Boolean);

const script = `
export class Migrated {
  constructor(ctx) { this.ctx = ctx; }
  async fetch(request) {
    const sql = this.ctx.storage.sql;
    const { files, before } = await request.json();
    const applied = [];
    for (const { name, statements } of files) {
      if (before[name]) for (const statement of before[name]) sql.exec(statement);
      try {
        this.ctx.storage.transactionSync(() => { for (const statement of statements) sql.exec(statement); });
      } catch (error) {
        return Response.json({ applied, failed: name, error: String(error) }, { status: 500 });
      }
      applied.push(name);
    }
    const journal = sql.exec("SELECT subscription_key, event_offset, delivery_id, retraction_dead_lettered FROM delivery_journal ORDER BY event_offset").toArray();
    const created = sql.exec("SELECT sql FROM sqlite_master WHERE name = 'delivery_journal'").one().sql;
    return Response.json({ applied, journal, created });
  }
}
export default { fetch(request, env) { return env.MIGRATED.get(env.MIGRATED.idFromName("one")).fetch(request); } };
`;

test("every stream migration runs in workerd's SQLite, one transaction a file, and 0017 keeps the journal's rows", async () => {
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: "2025-01-01",
    durableObjects: { MIGRATED: { className: "Migrated", useSQLite: true } },
  });
  try {
    const body = {
      files: files.map((name) => ({ name, statements: statements(readFileSync(dir + name, "utf8")) })),
      // Journal rows for 0017 to carry over, written before it runs.
      before: {
        "0017_journal_without_rowid.sql": [
          "INSERT INTO delivery_journal (subscription_key, event_offset, delivery_id, retraction_dead_lettered) VALUES ('k', 1, 'dlv_1', 0), ('k', 2, 'dlv_2', 1)",
        ],
      },
    };
    assert.ok(files.includes("0017_journal_without_rowid.sql"), files.join(", "));
    const response = await mf.dispatchFetch("http://migrations/", { method: "POST", body: JSON.stringify(body) });
    const answer = await response.json();
    assert.equal(response.status, 200, JSON.stringify(answer));
    assert.deepEqual(answer.applied, files);
    assert.deepEqual(answer.journal, [
      { subscription_key: "k", event_offset: 1, delivery_id: "dlv_1", retraction_dead_lettered: 0 },
      { subscription_key: "k", event_offset: 2, delivery_id: "dlv_2", retraction_dead_lettered: 1 },
    ]);
    assert.match(answer.created, /WITHOUT ROWID$/);
  } finally {
    await mf.dispose();
  }
});
