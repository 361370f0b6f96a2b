-- The first offset the instance's state folded since its last reset
-- (docs/design.md §16): after the stream was trimmed, a processor whose definition
-- changed refolds from the stream's first retained event, not from offset 1.
-- NULL until a fold after the reset folded an event.
ALTER TABLE processor_instance ADD COLUMN folded_from_offset INTEGER;
