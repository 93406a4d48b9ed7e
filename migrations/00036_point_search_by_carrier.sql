-- The point picker searches one carrier's points: its words' trigrams and the
-- carrier in one index, so a town's name (which every carrier's points share)
-- finds that carrier's points without reading the others' from the table.
-- It takes the place of the trigram index over every carrier's points.

-- +goose Up
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX parcel_points_carrier_search_idx ON parcel_points USING gin (carrier, search gin_trgm_ops);
DROP INDEX parcel_points_search_idx;

-- +goose Down
CREATE INDEX parcel_points_search_idx ON parcel_points USING gin (search gin_trgm_ops);
DROP INDEX parcel_points_carrier_search_idx;
