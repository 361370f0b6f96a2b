-- A soft-deleted stream (docs/design.md §14, §18): deleted while forks still
-- read it, its data kept for them. NULL for a live stream; the time of the
-- soft delete otherwise. Written when the stream registers its soft delete;
-- the row leaves with the unregistration of the purge. GET /v1/streams
-- leaves such rows out unless asked (`softDeleted=include|only`), and
-- GET /v1/metrics counts them apart (`tributary_metrics_streams_soft_deleted`)
-- instead of rendering their series.
ALTER TABLE streams ADD COLUMN soft_deleted_at_ms INTEGER;
