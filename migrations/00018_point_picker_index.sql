-- The point picker's search reads a carrier's points from this index alone:
-- its conditions (fit, weight, words) and its order (city, name, id) are all
-- here, so a search of one letter among a carrier's ten thousand points
-- reads the index's few hundred pages, not the table's every page; only the
-- fifteen points it shows are read from the table.

-- +goose Up
CREATE INDEX parcel_points_pick_idx ON parcel_points (carrier, country)
    INCLUDE (search, lim_small, lim_mid, lim_large, max_weight, city, name, id);

-- +goose Down
DROP INDEX parcel_points_pick_idx;
