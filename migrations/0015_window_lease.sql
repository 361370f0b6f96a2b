-- The lease of a concurrent window slot's send (docs/design.md §6 rules 6,
-- 7; §8 `concurrency`), as `subscription_runtime.send_lease` is for a serial
-- subscription: raised each time the slot is sent and each time a result is
-- taken, and carried by the send's plan, so only the send in flight is
-- answered, once. A lost send resent after its deadline keeps its attempt
-- number; the lease tells the two sends apart. Written by the delivery spine.
ALTER TABLE delivery_window ADD COLUMN send_lease INTEGER NOT NULL DEFAULT 0;
