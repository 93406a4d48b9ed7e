-- How a claim ended: the agent's resolution, chosen when the commission is sent
-- back or closed, with its reason (required when rejected), who chose it and
-- when, and in how many days from lodging it was settled (on the service's
-- clock). Scanning an inbound parcel finds its commission by the number or by
-- the tracking number of the transport from the customer.

-- +goose Up
ALTER TABLE commissions
    ADD COLUMN resolution text NOT NULL DEFAULT ''
        CHECK (resolution IN ('', 'repaired', 'replaced', 'refunded', 'rejected')),
    ADD COLUMN resolution_reason text NOT NULL DEFAULT '',
    ADD COLUMN resolved_at timestamptz,
    ADD COLUMN resolved_by bigint REFERENCES users (id) ON DELETE SET NULL,
    ADD COLUMN settled_days int,
    ADD CONSTRAINT commissions_rejected_has_reason CHECK (resolution <> 'rejected' OR resolution_reason <> '');
CREATE INDEX commissions_resolved_idx ON commissions (resolved_at, resolution) WHERE resolution <> '';
CREATE INDEX commissions_number_idx ON commissions (upper(number));
CREATE INDEX commissions_shipments_idx ON commissions USING gin ((raw -> 'shipments') jsonb_path_ops);

-- +goose Down
DROP INDEX commissions_shipments_idx;
DROP INDEX commissions_number_idx;
DROP INDEX commissions_resolved_idx;
ALTER TABLE commissions DROP CONSTRAINT commissions_rejected_has_reason,
    DROP COLUMN settled_days, DROP COLUMN resolved_by, DROP COLUMN resolved_at,
    DROP COLUMN resolution_reason, DROP COLUMN resolution;
