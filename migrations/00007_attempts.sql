-- Exactly once under a slow or silent service. Every create call is an attempt,
-- recorded before it is sent with the time after which its outcome is settled:
-- the upstream time limit plus a settle window, since the service may still
-- create an order after we stopped waiting. "Not created" may be concluded only
-- once every attempt's deadline has passed (settles_at holds the latest).
-- Extra orders the service holds under one of our references are kept as
-- duplicates until someone cancels them. Activities (notes, messages) are
-- intents too: recorded before they are sent, never sent twice.

-- +goose Up
CREATE TABLE create_attempts (
    id            bigserial PRIMARY KEY,
    shipment_id   bigint REFERENCES shipments (id) ON DELETE CASCADE,
    commission_id bigint REFERENCES commissions (id) ON DELETE CASCADE,
    sent_at       timestamptz NOT NULL,
    deadline      timestamptz NOT NULL,
    outcome       text NOT NULL DEFAULT 'open' CHECK (outcome IN ('open', 'created', 'refused', 'unknown', 'adopted')),
    CHECK ((shipment_id IS NULL) <> (commission_id IS NULL))
);
CREATE INDEX create_attempts_shipment_idx ON create_attempts (shipment_id, id) WHERE shipment_id IS NOT NULL;
CREATE INDEX create_attempts_commission_idx ON create_attempts (commission_id, id) WHERE commission_id IS NOT NULL;

ALTER TABLE shipments
    ADD COLUMN settles_at timestamptz,
    ADD COLUMN duplicates text[] NOT NULL DEFAULT '{}';
ALTER TABLE commissions
    ADD COLUMN settles_at timestamptz,
    ADD COLUMN duplicates text[] NOT NULL DEFAULT '{}';
UPDATE shipments SET settles_at = created_at + interval '5 minutes' WHERE state IN ('ordering', 'unknown');
UPDATE commissions SET settles_at = created_at + interval '5 minutes' WHERE state IN ('ordering', 'unknown');
CREATE INDEX shipments_duplicates_idx ON shipments (id) WHERE cardinality(duplicates) > 0;
CREATE INDEX commissions_duplicates_idx ON commissions (id) WHERE cardinality(duplicates) > 0;

CREATE TABLE commission_activities (
    id            bigserial PRIMARY KEY,
    request_key   uuid NOT NULL UNIQUE,
    commission_id bigint NOT NULL REFERENCES commissions (id) ON DELETE CASCADE,
    public        boolean NOT NULL,
    text          text NOT NULL,
    state         text NOT NULL CHECK (state IN ('sending', 'sent', 'unknown')),
    remote_id     bigint,
    error         text NOT NULL DEFAULT '',
    created_by    bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commission_activities_commission_idx ON commission_activities (commission_id, id);

-- +goose Down
DROP TABLE commission_activities;
DROP INDEX commissions_duplicates_idx, shipments_duplicates_idx;
ALTER TABLE commissions DROP COLUMN duplicates, DROP COLUMN settles_at;
ALTER TABLE shipments DROP COLUMN duplicates, DROP COLUMN settles_at;
DROP TABLE create_attempts;
