-- The public pages' throttles count in a sliding window: a row per admitted
-- hit and its moment, so a key never makes twice its limit across a fixed
-- window's boundary, and the wait until the next hit is admitted is known
-- (Retry-After). A refused hit stores nothing; hits are counted under an
-- advisory lock per key, so two at once cannot both take the last place.

-- A customer's ask for a claim link is recorded as it is answered, and
-- looked up afterwards by the pollers: the answer takes the same time and
-- says the same whether or not the purchase exists. An ask is deleted in the
-- transaction that records its link and mail (or finds it has none).

-- +goose Up
DROP TABLE public_counts;
CREATE TABLE throttle_hits (
    scope    text NOT NULL,
    key_hash bytea NOT NULL,
    at       timestamptz NOT NULL
);
CREATE INDEX throttle_hits_key_idx ON throttle_hits (scope, key_hash, at);
CREATE INDEX throttle_hits_at_idx ON throttle_hits (at);

CREATE TABLE claim_link_asks (
    id        bigserial PRIMARY KEY,
    reference text NOT NULL,
    email     text NOT NULL DEFAULT '',
    phone     text NOT NULL DEFAULT '',
    language  text NOT NULL,
    asked_at  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE claim_link_asks;
DROP TABLE throttle_hits;
CREATE TABLE public_counts (
    scope        text NOT NULL,
    key_hash     bytea NOT NULL,
    window_start timestamptz NOT NULL,
    hits         int NOT NULL,
    PRIMARY KEY (scope, key_hash, window_start)
);
