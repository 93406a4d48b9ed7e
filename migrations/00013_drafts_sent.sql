-- What the service filled in on a cart draft that the clerk did not give
-- (sender, packages, service, pickup point), as it answered it, so the draft's
-- page can say it in words; and the list of drafts sent reads who sent each.

-- +goose Up
ALTER TABLE cart_drafts ADD COLUMN filled jsonb NOT NULL DEFAULT '[]';
CREATE INDEX cart_drafts_created_idx ON cart_drafts (created_at DESC, id DESC);

-- +goose Down
DROP INDEX cart_drafts_created_idx;
ALTER TABLE cart_drafts DROP COLUMN filled;
