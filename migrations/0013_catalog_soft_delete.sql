-- Whether the project's catalog acknowledged the soft delete (docs/design.md
-- §14, §18): 1 once it lists the lifetime apart. Until then the stream owes
-- the catalog a registration naming the soft delete; the row (and so this
-- column) leaves with the purge, whose unregistration follows as for any
-- destroy. Written by the stream object when the project object acknowledges.
ALTER TABLE fork_soft_delete ADD COLUMN catalog_acknowledged INTEGER NOT NULL DEFAULT 0;
