-- +goose Up
-- The shop as its customers know it: one identity for every customer page,
-- mail and PDF (not the first sender, not the software's name).
CREATE TABLE shop_identity (
    id          int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    name        text NOT NULL DEFAULT '',
    web         text NOT NULL DEFAULT '',
    reply_email text NOT NULL DEFAULT '',
    phone       text NOT NULL DEFAULT '',
    logo        bytea,
    logo_type   text NOT NULL DEFAULT '',
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO shop_identity (id) VALUES (1);

-- A shipment's public tracking page is reached by this token alone: 256 bits
-- from PostgreSQL's strong random source, made with the row.
ALTER TABLE shipments
    ADD COLUMN track_token text NOT NULL
        DEFAULT replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
    ADD COLUMN no_customer_mail boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX shipments_track_token ON shipments (track_token);

-- +goose Down
DROP INDEX shipments_track_token;
ALTER TABLE shipments DROP COLUMN track_token, DROP COLUMN no_customer_mail;
DROP TABLE shop_identity;
