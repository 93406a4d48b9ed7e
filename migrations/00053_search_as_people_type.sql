-- +goose Up
-- Search as people type. The list's text filter reads the recipient, town
-- and notes folded as storage.Fold folds what is typed (lower case, Czech
-- and Slovak letters without their accents: "novakova" finds "Nováková"),
-- still through the trigram index. A reference is found by its beginning in
-- any case, and the scan box finds a reference typed with spaces for its
-- dashes ("OBJ 1001") and a tracking number by its last digits. Rewrites the
-- shipments table once.
ALTER TABLE shipments DROP COLUMN search_text;
ALTER TABLE shipments ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (translate(lower(recipient_name || ' ' || recipient_city || ' ' || notes_search),
        'áäčďéěíĺľňóôöřŕšťúůüýž', 'aacdeeillnooorrstuuuyz')) STORED;
CREATE INDEX shipments_search_text_idx ON shipments USING gin (search_text gin_trgm_ops);
CREATE INDEX shipments_reference_upper_prefix_idx ON shipments (upper(reference) text_pattern_ops);
CREATE INDEX shipments_reference_squeezed_idx ON shipments (upper(translate(reference, ' -_/.', '')) text_pattern_ops);
CREATE INDEX shipments_tracking_reversed_idx ON shipments (reverse(tracking_number) text_pattern_ops);

-- +goose Down
DROP INDEX shipments_tracking_reversed_idx;
DROP INDEX shipments_reference_squeezed_idx;
DROP INDEX shipments_reference_upper_prefix_idx;
ALTER TABLE shipments DROP COLUMN search_text;
ALTER TABLE shipments ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (lower(recipient_name || ' ' || recipient_city || ' ' || notes_search)) STORED;
CREATE INDEX shipments_search_text_idx ON shipments USING gin (search_text gin_trgm_ops);
