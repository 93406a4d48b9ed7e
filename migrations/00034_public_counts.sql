-- The public pages' throttles count in fixed windows, one row per scope, key
-- and window, raised only while under the limit: a refused request stores
-- nothing, and two at once cannot both take the last place (the row's lock).

-- A customer names a purchase by its reference in any case: found by an
-- index, not by reading every shipment, however hard the page is hit.

-- +goose Up
CREATE INDEX shipments_reference_upper_idx ON shipments (upper(reference));
DROP TABLE public_hits;
CREATE TABLE public_counts (
    scope        text NOT NULL,
    key_hash     bytea NOT NULL,
    window_start timestamptz NOT NULL,
    hits         int NOT NULL,
    PRIMARY KEY (scope, key_hash, window_start)
);

-- +goose Down
DROP INDEX shipments_reference_upper_idx;
DROP TABLE public_counts;
CREATE TABLE public_hits (
    scope    text NOT NULL,
    key_hash bytea NOT NULL,
    at       timestamptz NOT NULL
);
CREATE INDEX public_hits_idx ON public_hits (scope, key_hash, at);
