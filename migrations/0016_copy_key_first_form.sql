-- The copy runs whose idempotency keys keep their first form (docs/design.md
-- §7 rule 4): every run this stream had when the keys took their ordered
-- form (`copy:` + the run's hash + the offset). The source computes a copy's
-- key on every attempt, so a run begun before must keep the form it began
-- with, or a retry after the deploy would not collapse into the append it
-- retries. Written once, by this migration; read by the copy's shaping
-- (src/copy.rs, `Stream::copy_key_form`); dropped with the stream. One row per
-- (subscription_key, run_offset) of `subscription_runtime` at the time.
CREATE TABLE IF NOT EXISTS copy_key_first_form_runs (
  subscription_key TEXT NOT NULL,
  run_offset INTEGER NOT NULL,
  PRIMARY KEY (subscription_key, run_offset)
) WITHOUT ROWID;
INSERT OR IGNORE INTO copy_key_first_form_runs (subscription_key, run_offset)
  SELECT subscription_key, run_offset FROM subscription_runtime;
