-- How many rows `delivery_journal` holds for the subscription (docs/design.md
-- §13): pruning to the journal depth then reads only the rows it removes,
-- not the whole depth on every delivery. NULL means not counted yet (rows
-- journaled before this column, or a count a retraction made stale): the
-- next journal write counts them once. Written by the delivery spine in the
-- same write as the journal rows.
ALTER TABLE subscription_runtime ADD COLUMN journal_rows INTEGER;
