-- Internal notes on a shipment: written by the staff, never sent to the
-- service. A note is kept once per form (its request key), so a repeated
-- post adds nothing.
--
-- The lists show a shipment's notes without reading this table: the
-- shipment keeps how many it has and the latest one, and the text the list's
-- search reads (notes_search, every note's text) is part of the expression of
-- the trigram index the search already used, so a search by a note's word is
-- the same one index as a search by the recipient.

-- +goose Up
CREATE TABLE shipment_notes (
    id          bigserial PRIMARY KEY,
    request_key text NOT NULL UNIQUE,
    shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
    text        text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
    created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX shipment_notes_shipment_idx ON shipment_notes (shipment_id, id);

ALTER TABLE shipments
    ADD COLUMN note_count   int NOT NULL DEFAULT 0,
    ADD COLUMN last_note    text NOT NULL DEFAULT '',
    ADD COLUMN notes_search text NOT NULL DEFAULT '';

DROP INDEX shipments_recipient_trgm_idx;
CREATE INDEX shipments_recipient_trgm_idx ON shipments
    USING gin (lower(recipient_name || ' ' || recipient_city || ' ' || notes_search) gin_trgm_ops);

-- +goose Down
DROP INDEX shipments_recipient_trgm_idx;
CREATE INDEX shipments_recipient_trgm_idx ON shipments USING gin (lower(recipient_name || ' ' || recipient_city) gin_trgm_ops);
ALTER TABLE shipments DROP COLUMN note_count, DROP COLUMN last_note, DROP COLUMN notes_search;
DROP TABLE shipment_notes;
