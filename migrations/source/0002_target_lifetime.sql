-- The target stream's lifetime (docs/design.md §15, §3 rule 6): the `streamId`
-- the window's offsets (`source_blocks.offsets`) and the pending batches'
-- offsets belong to, learned from each append answer. NULL until the first
-- append, and after the target was found recreated (the window's offsets
-- are then cleared: they name events of a lifetime that is gone).
ALTER TABLE source_state ADD COLUMN target_stream_id TEXT;
