-- +goose Up
-- Proofs of purchase kept from a failed form but never used are pruned after a
-- day; these indexes find them without reading every file.
CREATE INDEX uploads_kept_idx ON uploads (created_at) WHERE commission_id IS NULL;
CREATE INDEX commissions_upload_idx ON commissions (upload_id) WHERE upload_id IS NOT NULL;

-- +goose Down
DROP INDEX commissions_upload_idx;
DROP INDEX uploads_kept_idx;
