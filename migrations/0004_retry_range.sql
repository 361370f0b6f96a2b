-- The offset range of a batch awaiting retry (docs/design.md §8): a retried digest
-- resends exactly the same events under the same delivery id, even when more
-- events were committed meanwhile. Set when a retry is scheduled; cleared when
-- the batch completes or a new run starts.
ALTER TABLE subscription_runtime ADD COLUMN retry_through_offset INTEGER;
