// The floor's trimming (issue 33; the floor of bench/retention.mjs): the I/O
// docs/design.md §16 and §12 ask of retention by `maxEvents`, no more. Once
// the head passes `maxEvents` by a sixteenth, a round runs from the stream's
// alarm, at most one round a second; a round is steps of at most 2,000 rows,
// 4 steps an alarm (then the alarm again at once, until the log is back at
// its limit). Each step, in one transaction, sums the bytes of the rows it
// trims (a stream reports the bytes it holds), writes the snapshot row,
// deletes the rows and saves its progress. Its tables are made on first use,
// so the other floors' objects never pay for them.

/** §16 and §12's trimming, as Tributary's limits set it (src/limits.rs). */
const TRIM_STEP_ROWS = 2000;
const TRIM_STEPS_PER_TURN = 4;
const TRIM_SLACK_DIVISOR = 16;
const TRIM_INTERVAL_MS = 1000;

/** One FloorStream's retention: its `retention` row in memory and in SQLite. */
export class FloorRetention {
  constructor(ctx) {
    this.ctx = ctx;
    this.sql = ctx.storage.sql;
    /** {max_events, trimmed_through, trimmed_events, bytes_trimmed} once `configure` made the row; null before. */
    this.row = this.sql.exec("SELECT name FROM sqlite_master WHERE name = 'retention'").toArray().length
      ? this.sql.exec("SELECT max_events, trimmed_through, trimmed_events, bytes_trimmed FROM retention").one()
      : null;
    this.roundStartedAtMs = 0;
    this.roundOpen = false;
  }

  configure(maxEvents) {
    this.sql.exec(
      "CREATE TABLE IF NOT EXISTS retention (id INTEGER PRIMARY KEY CHECK (id = 1), max_events INTEGER NOT NULL, " +
        "trimmed_through INTEGER NOT NULL, trimmed_events INTEGER NOT NULL, bytes_trimmed INTEGER NOT NULL)",
    );
    this.sql.exec("CREATE TABLE IF NOT EXISTS snapshot (id INTEGER PRIMARY KEY CHECK (id = 1), through INTEGER NOT NULL, state TEXT NOT NULL)");
    this.sql.exec("INSERT OR REPLACE INTO retention (id, max_events, trimmed_through, trimmed_events, bytes_trimmed) VALUES (1, ?, 0, 0, 0)", maxEvents);
    this.row = { max_events: maxEvents, trimmed_through: 0, trimmed_events: 0, bytes_trimmed: 0 };
  }

  /** What the bench checks: every row acknowledged is held but the ones trimmed. */
  info(head) {
    const rows = this.sql.exec("SELECT count(*) AS n FROM events").one().n;
    const r = this.row ?? { trimmed_through: 0, trimmed_events: 0, bytes_trimmed: 0 };
    return { head, rows, trimmedThrough: r.trimmed_through, trimmedEvents: r.trimmed_events, bytesTrimmed: r.bytes_trimmed };
  }

  /** When the alarm should run for trimming, or null: at once within a round, else a second after the last round began. */
  dueAt(head) {
    if (!this.pending(head)) return null;
    return this.roundOpen ? Date.now() : Math.max(Date.now(), this.roundStartedAtMs + TRIM_INTERVAL_MS);
  }

  /** From the alarm: up to TRIM_STEPS_PER_TURN steps, when a round is due. */
  run(head) {
    const at = this.dueAt(head);
    if (at === null || at > Date.now()) return;
    if (!this.roundOpen) this.roundStartedAtMs = Date.now();
    this.roundOpen = true;
    for (let step = 0; step < TRIM_STEPS_PER_TURN && this.pending(head); step++) this.step(head);
    this.roundOpen = head - this.row.max_events > this.row.trimmed_through;
  }

  /** Within a round, anything past the limit; otherwise, past it by a sixteenth. */
  pending(head) {
    if (this.row === null) return false;
    const behind = head - this.row.max_events - this.row.trimmed_through;
    return behind > (this.roundOpen ? 0 : Math.max(1, Math.floor(this.row.max_events / TRIM_SLACK_DIVISOR)));
  }

  step(head) {
    const r = this.row;
    const through = Math.min(head - r.max_events, r.trimmed_through + TRIM_STEP_ROWS);
    this.ctx.storage.transactionSync(() => {
      const bytes = this.sql
        .exec("SELECT coalesce(sum(length(type) + length(payload)), 0) AS b FROM events WHERE seq > ? AND seq <= ?", r.trimmed_through, through)
        .one().b;
      this.sql.exec("INSERT OR REPLACE INTO snapshot (id, through, state) VALUES (1, ?, ?)", through, `{"retention":{"maxEvents":${r.max_events}}}`);
      const deleted = this.sql.exec("DELETE FROM events WHERE seq > ? AND seq <= ?", r.trimmed_through, through).rowsWritten;
      this.sql.exec(
        "UPDATE retention SET trimmed_through = ?, trimmed_events = ?, bytes_trimmed = ? WHERE id = 1",
        through,
        r.trimmed_events + deleted,
        r.bytes_trimmed + bytes,
      );
      r.trimmed_through = through;
      r.trimmed_events += deleted;
      r.bytes_trimmed += bytes;
    });
  }
}
