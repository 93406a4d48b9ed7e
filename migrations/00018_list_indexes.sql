-- Indexes that keep the shipments list and the point picker close to their
-- bare SQL on a large database.
--
-- A carrier and a status together (delivered by G3A) are one range of
-- shipments_carrier_status_idx, in the list's order: the page's rows are its
-- first fifty, and the filter's count (up to 2 000) reads the index alone,
-- where otherwise it reads the table until 2 000 of one in twenty match.
--
-- The point picker's search reads a carrier's points from
-- parcel_points_pick_idx alone: its conditions (fit, weight, words) and its
-- order (city, name, id) are all there, so a search among a carrier's ten
-- thousand points reads the index's few hundred pages, not the table's every
-- page, and a search of words too short for the trigram index (one or two
-- letters, which most points match) walks it in order and stops at the
-- page's end instead of sorting every match; only the fifteen points it
-- shows are read from the table.

-- +goose Up
CREATE INDEX shipments_carrier_status_idx ON shipments (carrier, status, created_at DESC, id DESC);
CREATE INDEX parcel_points_pick_idx ON parcel_points (carrier, country, city, name, id)
    INCLUDE (search, lim_small, lim_mid, lim_large, max_weight);

-- +goose Down
DROP INDEX parcel_points_pick_idx;
DROP INDEX shipments_carrier_status_idx;
