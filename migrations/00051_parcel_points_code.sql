-- +goose Up
-- The shop's orders name their parcel point by its code alone (the carrier
-- is the checkout's, in the platform's words): a sync looks up its orders'
-- points by code, any carrier, in one statement.
CREATE INDEX parcel_points_code_idx ON parcel_points (code);

-- +goose Down
DROP INDEX parcel_points_code_idx;
