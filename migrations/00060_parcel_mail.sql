-- +goose Up
-- The customer's mail at each step of a parcel: which steps mail, and the
-- managers' own wording of each (empty: the catalog's default). One row per
-- step; a step without a row mails with the default wording.
CREATE TABLE parcel_mail_settings (
    event      text PRIMARY KEY,
    enabled    boolean NOT NULL DEFAULT true,
    subject_cs text NOT NULL DEFAULT '',
    body_cs    text NOT NULL DEFAULT '',
    subject_en text NOT NULL DEFAULT '',
    body_en    text NOT NULL DEFAULT '',
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- How many days a parcel waits at a point, as the shop tells its customers
-- (the service does not say).
CREATE TABLE parcel_mail_options (
    id              int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    point_wait_days int NOT NULL DEFAULT 7 CHECK (point_wait_days BETWEEN 1 AND 30)
);
INSERT INTO parcel_mail_options (id) VALUES (1);

-- +goose Down
DROP TABLE parcel_mail_options;
DROP TABLE parcel_mail_settings;
