-- +goose Up
-- Courier pickups ordered from the desk. The intent is recorded before
-- pickups/add is called and the outcome after: a double submit finds the first
-- record by its request key, and a pickup whose answer was lost stays "sent"
-- until pickups/list shows whether the service has it.
CREATE TABLE pickups (
    id          bigserial PRIMARY KEY,
    request_key text NOT NULL UNIQUE,
    state       text NOT NULL DEFAULT 'sent' CHECK (state IN ('sent', 'ordered', 'failed')),
    contact_id  bigint NOT NULL,
    address     text NOT NULL DEFAULT '',
    pickup_date date NOT NULL,
    time_from   text NOT NULL,
    time_to     text NOT NULL,
    packages    integer NOT NULL CHECK (packages > 0),
    weight      numeric(10,3) NOT NULL CHECK (weight > 0),
    carrier     text NOT NULL DEFAULT '',
    note        text NOT NULL DEFAULT '',
    upstream_id bigint UNIQUE,
    number      text NOT NULL DEFAULT '',
    error       text NOT NULL DEFAULT '',
    created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pickups_date_idx ON pickups (pickup_date, time_from);

-- +goose Down
DROP TABLE pickups;
