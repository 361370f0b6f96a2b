-- `delivery_journal` (docs/design.md §13) as one b-tree keyed by
-- (subscription_key, event_offset), its primary key: a rowid table kept that
-- key in a second b-tree beside the rows, so every journal write and every
-- prune changed a page of each (3.2 more pages written to SQLite's log a
-- webhook delivery, `bench/syscalls.sh`; docs/benchmarks.md, issue 33,
-- twenty-ninth round). Nothing reads a journal row's rowid. The rows are
-- copied as they are; the migration runs as one transaction
-- (`schema::migrations::apply_files`), so a failure leaves the old table.
CREATE TABLE delivery_journal_by_key (
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  retraction_dead_lettered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subscription_key, event_offset)
) WITHOUT ROWID;
INSERT INTO delivery_journal_by_key (subscription_key, event_offset, delivery_id, retraction_dead_lettered)
  SELECT subscription_key, event_offset, delivery_id, retraction_dead_lettered FROM delivery_journal;
DROP TABLE delivery_journal;
ALTER TABLE delivery_journal_by_key RENAME TO delivery_journal;
