-- A batch row that was ordered already (by an earlier batch, the form, or an
-- earlier row of the same file) is recognised when it is read:
--   known  already ordered: never priced, ordered or sent as a draft until
--          the clerk says it is a new parcel (new_parcel)
-- A row is matched by our reference, or, when it has none, by its
-- fingerprint: the recipient and the content, normalised (desk.Fingerprint).
-- Rows imported before this migration have no fingerprint: only their
-- reference matches.

-- +goose Up
ALTER TABLE batch_rows DROP CONSTRAINT batch_rows_state_check;
ALTER TABLE batch_rows ADD CONSTRAINT batch_rows_state_check
    CHECK (state IN ('problem', 'ready', 'pricing', 'priced', 'ordering', 'ordered', 'failed', 'known'));
ALTER TABLE batch_rows ADD COLUMN reference text NOT NULL DEFAULT '';
ALTER TABLE batch_rows ADD COLUMN fingerprint text NOT NULL DEFAULT '';
ALTER TABLE batch_rows ADD COLUMN new_parcel boolean NOT NULL DEFAULT false;
-- What the row was recognised as: a shipment, or (while that has none yet)
-- a line of a batch, this one or another.
ALTER TABLE batch_rows ADD COLUMN known_shipment bigint REFERENCES shipments (id) ON DELETE SET NULL;
ALTER TABLE batch_rows ADD COLUMN known_batch bigint REFERENCES batches (id) ON DELETE SET NULL;
ALTER TABLE batch_rows ADD COLUMN known_line integer NOT NULL DEFAULT 0;
UPDATE batch_rows SET reference = COALESCE(parsed->>'reference', '');
CREATE INDEX batch_rows_ordered_reference_idx ON batch_rows (reference)
    WHERE reference <> '' AND state IN ('ordering', 'ordered');
CREATE INDEX batch_rows_ordered_fingerprint_idx ON batch_rows (fingerprint)
    WHERE fingerprint <> '' AND state IN ('ordering', 'ordered');

-- +goose Down
DROP INDEX batch_rows_ordered_fingerprint_idx;
DROP INDEX batch_rows_ordered_reference_idx;
UPDATE batch_rows SET state = 'failed' WHERE state = 'known';
ALTER TABLE batch_rows DROP COLUMN known_line;
ALTER TABLE batch_rows DROP COLUMN known_batch;
ALTER TABLE batch_rows DROP COLUMN known_shipment;
ALTER TABLE batch_rows DROP COLUMN new_parcel;
ALTER TABLE batch_rows DROP COLUMN fingerprint;
ALTER TABLE batch_rows DROP COLUMN reference;
ALTER TABLE batch_rows DROP CONSTRAINT batch_rows_state_check;
ALTER TABLE batch_rows ADD CONSTRAINT batch_rows_state_check
    CHECK (state IN ('problem', 'ready', 'pricing', 'priced', 'ordering', 'ordered', 'failed'));
