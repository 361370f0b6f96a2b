-- The send a subscription's row waits for (docs/design.md §6 rules 6, 7, 9):
-- each planned batch takes the next lease and carries it; a result is taken
-- only from the send holding the row's lease, and taking it, or giving the
-- send up as lost (its in-flight deadline passed), moves the lease on. A
-- late result of any other send of the run — a dead instance's send of the
-- same range, an answer already taken — changes nothing. Never reset, so
-- no two sends of one subscription share a lease.
ALTER TABLE subscription_runtime ADD COLUMN send_lease INTEGER NOT NULL DEFAULT 0;
