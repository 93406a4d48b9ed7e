-- +goose Up
-- Service orders (commissions) of the returns desk. A row is written before
-- commissions/create is called (state ordering), like shipments, so a lost answer
-- is reconciled by our reference and never ordered twice. The last full answer of
-- the service (history, activities, files, transport) is kept in raw.
CREATE TABLE commissions (
    id              bigserial PRIMARY KEY,
    request_key     uuid NOT NULL UNIQUE,
    reference       text NOT NULL,
    state           text NOT NULL CHECK (state IN ('ordering', 'created', 'unknown', 'missing')),
    remote_id       bigint UNIQUE,
    number          text NOT NULL DEFAULT '',
    type            text NOT NULL,
    status          text NOT NULL DEFAULT '',
    customer_name   text NOT NULL,
    customer_email  text NOT NULL DEFAULT '',
    product_label   text NOT NULL DEFAULT '',
    two_way         boolean NOT NULL DEFAULT false,
    upload_id       bigint,
    request         jsonb NOT NULL,
    raw             jsonb,
    error           text NOT NULL DEFAULT '',
    -- the statutory 30 days of a warranty claim; cleared once it is settled
    deadline_at     timestamptz,
    created_by      bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_synced_at  timestamptz,
    next_sync_at    timestamptz,
    claimed_until   timestamptz,
    claimed_by      text NOT NULL DEFAULT '',
    sync_failures   int NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX commissions_reference_key ON commissions (reference) WHERE state <> 'missing';
CREATE INDEX commissions_urgent_idx ON commissions (deadline_at ASC NULLS LAST, created_at DESC, id DESC);
CREATE INDEX commissions_status_idx ON commissions (status, created_at DESC, id DESC);
CREATE INDEX commissions_type_idx ON commissions (type, created_at DESC, id DESC);
CREATE INDEX commissions_customer_trgm_idx ON commissions USING gin (lower(customer_name || ' ' || customer_email) gin_trgm_ops);
CREATE INDEX commissions_product_trgm_idx ON commissions USING gin (lower(product_label) gin_trgm_ops);
CREATE INDEX commissions_sync_due_idx ON commissions (next_sync_at)
    WHERE state = 'created' AND status NOT IN ('closed', 'cancelled');

-- Proofs of purchase, kept so the agent can open them and so a token already
-- obtained is reused when creating the commission fails.
CREATE TABLE uploads (
    id            bigserial PRIMARY KEY,
    token         text UNIQUE,
    filename      text NOT NULL,
    content_type  text NOT NULL,
    size          bigint NOT NULL,
    sha256        bytea NOT NULL,
    data          bytea NOT NULL,
    commission_id bigint REFERENCES commissions (id) ON DELETE SET NULL,
    created_by    bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE commissions ADD CONSTRAINT commissions_upload_fk FOREIGN KEY (upload_id) REFERENCES uploads (id) ON DELETE SET NULL;

-- Product types and models as the returns API lists them, cached for the pickers.
CREATE TABLE product_types (
    id           bigint PRIMARY KEY,
    name         text NOT NULL,
    refreshed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE product_models (
    id           bigint PRIMARY KEY,
    type_id      bigint NOT NULL,
    brand        text NOT NULL DEFAULT '',
    name         text NOT NULL,
    refreshed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX product_models_type_idx ON product_models (type_id, brand, name);

-- +goose Down
ALTER TABLE commissions DROP CONSTRAINT commissions_upload_fk;
DROP TABLE product_models;
DROP TABLE product_types;
DROP TABLE uploads;
DROP TABLE commissions;
