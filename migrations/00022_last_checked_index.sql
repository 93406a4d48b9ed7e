-- The home page says how old its picture of the parcels is: the latest time
-- the service was asked about a shipment, read from the end of this index.

-- +goose Up
CREATE INDEX shipments_last_checked_idx ON shipments (last_checked_at);

-- +goose Down
DROP INDEX shipments_last_checked_idx;
