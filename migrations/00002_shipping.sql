-- +goose Up
-- Trigram indexes make parcel-point search by any part of a name or address fast.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Sender addresses: the service's stored pickup addresses (contact_id, used as
-- from.id) and our own. At most one is the default.
CREATE TABLE senders (
    id         bigserial PRIMARY KEY,
    label      text NOT NULL,
    contact_id bigint UNIQUE,
    company    text NOT NULL DEFAULT '',
    firstname  text NOT NULL DEFAULT '',
    surname    text NOT NULL DEFAULT '',
    street     text NOT NULL DEFAULT '',
    city       text NOT NULL DEFAULT '',
    zip        text NOT NULL DEFAULT '',
    country    text NOT NULL DEFAULT 'CZ',
    phone      text NOT NULL DEFAULT '',
    email      text NOT NULL DEFAULT '',
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX senders_one_default ON senders (is_default) WHERE is_default;

CREATE TABLE recipients (
    id         bigserial PRIMARY KEY,
    company    text NOT NULL DEFAULT '',
    firstname  text NOT NULL DEFAULT '',
    surname    text NOT NULL DEFAULT '',
    street     text NOT NULL DEFAULT '',
    city       text NOT NULL DEFAULT '',
    zip        text NOT NULL DEFAULT '',
    country    text NOT NULL DEFAULT 'CZ',
    phone      text NOT NULL DEFAULT '',
    email      text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipients_name_idx ON recipients (surname, firstname);

CREATE TABLE package_presets (
    id     bigserial PRIMARY KEY,
    name   text NOT NULL UNIQUE,
    weight numeric(8,3) NOT NULL CHECK (weight > 0),
    width  numeric(8,1) NOT NULL DEFAULT 0,
    height numeric(8,1) NOT NULL DEFAULT 0,
    length numeric(8,1) NOT NULL DEFAULT 0
);

-- One row of shop settings: COD bank details prefilled into every COD shipment.
CREATE TABLE shipping_settings (
    id            int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    cod_currency  text NOT NULL DEFAULT 'CZK',
    bank_account  text NOT NULL DEFAULT '',
    bank_code     text NOT NULL DEFAULT '',
    bank_currency text NOT NULL DEFAULT '',
    updated_at    timestamptz NOT NULL DEFAULT now()
);
INSERT INTO shipping_settings (id) VALUES (1);

-- Parcel points cached from parcelpoints/list; search is the folded text that
-- the trigram index serves.
CREATE TABLE parcel_points (
    id           bigint PRIMARY KEY,
    carrier      text NOT NULL,
    code         text NOT NULL,
    name         text NOT NULL,
    street       text NOT NULL DEFAULT '',
    city         text NOT NULL DEFAULT '',
    zip          text NOT NULL DEFAULT '',
    country      text NOT NULL DEFAULT '',
    is_locker    boolean NOT NULL DEFAULT false,
    location_id  bigint NOT NULL DEFAULT 0,
    max_length   real NOT NULL DEFAULT 0,
    max_width    real NOT NULL DEFAULT 0,
    max_height   real NOT NULL DEFAULT 0,
    max_weight   real NOT NULL DEFAULT 0,
    -- the size limits sorted, so "does a package fit, turned any way" is three comparisons
    lim_small    real NOT NULL DEFAULT 0,
    lim_mid      real NOT NULL DEFAULT 0,
    lim_large    real NOT NULL DEFAULT 0,
    search       text NOT NULL,
    refreshed_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (carrier, code)
);
CREATE INDEX parcel_points_search_idx ON parcel_points USING gin (search gin_trgm_ops);
CREATE INDEX parcel_points_carrier_zip_idx ON parcel_points (carrier, zip);

-- Shipments ordered through shipdesk. A row is written before shipments/create is
-- called (state ordering), so a crash or a lost answer never loses an order:
--   ordering  the call is under way
--   created   the service confirmed it
--   unknown   the answer was lost; reconciled by shipments/list with our reference
--   missing   reconciliation found nothing: the clerk may order again
CREATE TABLE shipments (
    id              bigserial PRIMARY KEY,
    request_key     uuid NOT NULL UNIQUE,
    reference       text NOT NULL,
    state           text NOT NULL CHECK (state IN ('ordering', 'created', 'unknown', 'missing')),
    request         jsonb NOT NULL,
    carrier         text NOT NULL,
    carrier_group   text NOT NULL DEFAULT '',
    service_id      int NOT NULL,
    service_name    text NOT NULL DEFAULT '',
    recipient_name  text NOT NULL DEFAULT '',
    recipient_city  text NOT NULL DEFAULT '',
    label_less      boolean NOT NULL DEFAULT false,
    cod_value       numeric(12,2),
    cod_currency    text,
    tracking_number text UNIQUE,
    order_id        bigint,
    order_number    text,
    order_token     text,
    status          text NOT NULL DEFAULT '',
    label_mode      text NOT NULL DEFAULT '',
    label_status    text NOT NULL DEFAULT '',
    packages        jsonb NOT NULL DEFAULT '[]',
    returned        boolean NOT NULL DEFAULT false,
    error           text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    ordered_at      timestamptz,
    last_checked_at timestamptz,
    printed_at      timestamptz,
    cancelled_at    timestamptz
);
-- The reference identifies a shipment at the service (reconciliation asks by it),
-- so it is unique among shipments that exist or may exist.
CREATE UNIQUE INDEX shipments_reference_key ON shipments (reference) WHERE state <> 'missing';
CREATE INDEX shipments_created_idx ON shipments (created_at DESC, id DESC);
CREATE INDEX shipments_print_queue_idx ON shipments (id) WHERE label_status = 'READY' AND printed_at IS NULL AND cancelled_at IS NULL;
CREATE INDEX shipments_unsettled_idx ON shipments (state) WHERE state IN ('ordering', 'unknown');

-- Drafts sent to the provider's shipment manager through the cart API.
CREATE TABLE cart_drafts (
    id          bigserial PRIMARY KEY,
    draft_id    bigint NOT NULL,
    reference   text NOT NULL DEFAULT '',
    recipient   text NOT NULL DEFAULT '',
    warnings    jsonb NOT NULL DEFAULT '[]',
    defaults    jsonb NOT NULL DEFAULT '[]',
    modified    text NOT NULL DEFAULT '',
    created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE cart_drafts;
DROP TABLE shipments;
DROP TABLE parcel_points;
DROP TABLE shipping_settings;
DROP TABLE package_presets;
DROP TABLE recipients;
DROP TABLE senders;
