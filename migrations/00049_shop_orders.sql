-- The shop's orders as the desk keeps them: a cleaned copy of each (doc), the
-- columns the clerk's inbox shows and filters by, and whether it can ship as
-- it is or what it lacks (problems, catalog texts). An order's parcels are
-- the references its shipments carry: the first is the order's code, a new
-- parcel for the order gets one of its own; each has the request key that
-- makes it one shipment however often it is shipped.

-- +goose Up
CREATE TABLE shop_orders (
    code               text PRIMARY KEY CHECK (char_length(code) BETWEEN 1 AND 60),
    revision           int NOT NULL DEFAULT 1,
    created_at         timestamptz NOT NULL,
    changed_at         timestamptz NOT NULL,
    state              text NOT NULL CHECK (state IN ('waiting', 'elsewhere', 'other', 'cancelled', 'gone')),
    ready              boolean NOT NULL DEFAULT false,
    problems           jsonb NOT NULL DEFAULT '[]',
    status_id          int NOT NULL DEFAULT 0,
    status_name        text NOT NULL DEFAULT '',
    shipping_guid      text NOT NULL DEFAULT '',
    shipping_name      text NOT NULL DEFAULT '',
    payment_guid       text NOT NULL DEFAULT '',
    point_code         text NOT NULL DEFAULT '',
    point_name         text NOT NULL DEFAULT '',
    recipient          text NOT NULL DEFAULT '',
    city               text NOT NULL DEFAULT '',
    country            text NOT NULL DEFAULT '',
    cod                boolean NOT NULL DEFAULT false,
    cod_amount         numeric,
    currency           text NOT NULL DEFAULT '',
    weight_kg          double precision,
    tracking_elsewhere text NOT NULL DEFAULT '',
    doc                jsonb NOT NULL,
    stored_at          timestamptz NOT NULL
);
-- The inbox, newest first, and its filters (keyset pages on created_at, code).
CREATE INDEX shop_orders_inbox_idx ON shop_orders (created_at DESC, code DESC) WHERE state IN ('waiting', 'elsewhere');
CREATE INDEX shop_orders_inbox_shipping_idx ON shop_orders (shipping_guid, created_at DESC, code DESC) WHERE state IN ('waiting', 'elsewhere');
CREATE INDEX shop_orders_inbox_status_idx ON shop_orders (status_id, created_at DESC, code DESC) WHERE state IN ('waiting', 'elsewhere');
CREATE INDEX shop_orders_inbox_country_idx ON shop_orders (country, created_at DESC, code DESC) WHERE state IN ('waiting', 'elsewhere');

CREATE TABLE shop_parcels (
    reference   text PRIMARY KEY CHECK (char_length(reference) BETWEEN 1 AND 64),
    order_code  text NOT NULL REFERENCES shop_orders (code),
    parcel      int NOT NULL CHECK (parcel >= 1),
    request_key text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL,
    created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    UNIQUE (order_code, parcel)
);

-- +goose Down
DROP TABLE shop_parcels;
DROP TABLE shop_orders;
