-- The pollers take due shipments in this order: those never asked first, then
-- the longest due, by id. Indexed in that very order, with the due test as the
-- range, a claim reads one batch of index entries and stops, whatever the
-- number of shipments still moving; the old indexes (next_*_at alone, nulls
-- last) left every claim to sort all due shipments.

-- +goose Up
DROP INDEX shipments_track_due_idx;
CREATE INDEX shipments_track_due_idx ON shipments ((COALESCE(next_track_at, '-infinity'::timestamptz)), id)
    WHERE state = 'created' AND NOT tracking_done AND cancelled_at IS NULL;
DROP INDEX shipments_label_due_idx;
CREATE INDEX shipments_label_due_idx ON shipments ((COALESCE(next_label_check_at, '-infinity'::timestamptz)), id)
    WHERE state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL;

-- +goose Down
DROP INDEX shipments_label_due_idx;
CREATE INDEX shipments_label_due_idx ON shipments (next_label_check_at)
    WHERE state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL;
DROP INDEX shipments_track_due_idx;
CREATE INDEX shipments_track_due_idx ON shipments (next_track_at)
    WHERE state = 'created' AND NOT tracking_done AND cancelled_at IS NULL;
