-- The shop whose orders the desk ships: one connection per installation, on
-- its platform (Shoptet today), with its private token sealed (AES-GCM under
-- a key derived from the session key: a copy of the database does not carry
-- a usable token, and nothing reads it back to a person), the statuses whose
-- orders are shipped, the status a handed-over parcel moves its order to,
-- and the sync's cursor and lease (the pollers' columns).

-- +goose Up
CREATE TABLE shop_connections (
    id              smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    platform        text NOT NULL CHECK (char_length(platform) BETWEEN 1 AND 40),
    base_url        text NOT NULL CHECK (char_length(base_url) BETWEEN 1 AND 500),
    token_sealed    bytea NOT NULL,
    shop_id         bigint NOT NULL DEFAULT 0,
    shop_name       text NOT NULL DEFAULT '',
    shop_url        text NOT NULL DEFAULT '',
    ship_statuses   int[] NOT NULL DEFAULT '{}',
    handover_status int,
    handover_quiet  boolean NOT NULL DEFAULT true,
    -- The last change the sync has stored; the next reads the changes after it.
    sync_from       timestamptz NOT NULL,
    next_sync_at    timestamptz NOT NULL,
    leased_until    timestamptz,
    leased_by       text NOT NULL DEFAULT '',
    sync_failures   int NOT NULL DEFAULT 0,
    synced_at       timestamptz,
    sync_error      text NOT NULL DEFAULT '',
    connected_at    timestamptz NOT NULL,
    connected_by    bigint REFERENCES users (id) ON DELETE SET NULL
);

-- The shop's own order statuses, as it last listed them.
CREATE TABLE shop_statuses (
    id       int PRIMARY KEY,
    name     text NOT NULL,
    final    boolean NOT NULL DEFAULT false,
    position int NOT NULL DEFAULT 0
);

-- The shop's shipping and payment methods, and what each means to the desk:
-- a shipping method ships by a service of the shipping service, by the offer
-- rules, or not by us (a personal pickup), or is not mapped yet; a payment
-- method is cash on delivery or not.
CREATE TABLE shop_methods (
    kind         text NOT NULL CHECK (kind IN ('shipping', 'payment')),
    guid         text NOT NULL CHECK (char_length(guid) BETWEEN 1 AND 100),
    name         text NOT NULL DEFAULT '',
    position     int NOT NULL DEFAULT 0,
    mapping      text NOT NULL DEFAULT 'unmapped' CHECK (mapping IN ('unmapped', 'service', 'rules', 'not_ours')),
    carrier      text NOT NULL DEFAULT '',
    service_id   int NOT NULL DEFAULT 0,
    service_name text NOT NULL DEFAULT '',
    to_point     boolean NOT NULL DEFAULT false,
    cod          boolean NOT NULL DEFAULT false,
    PRIMARY KEY (kind, guid),
    CONSTRAINT shop_methods_service CHECK (mapping <> 'service' OR (carrier <> '' AND service_id > 0))
);

-- +goose Down
DROP TABLE shop_methods;
DROP TABLE shop_statuses;
DROP TABLE shop_connections;
