-- +goose Up
-- Shipments found at the service that shipdesk did not order (origin 'service'),
-- and the pollers' schedule: when the label and the tracking are next due, which
-- instance holds a shipment for the cycle under way, how often in a row it failed.
ALTER TABLE shipments
    ADD COLUMN origin              text NOT NULL DEFAULT 'shipdesk' CHECK (origin IN ('shipdesk', 'service')),
    ADD COLUMN next_label_check_at timestamptz,
    ADD COLUMN next_track_at       timestamptz,
    ADD COLUMN claimed_until       timestamptz,
    ADD COLUMN claimed_by          text NOT NULL DEFAULT '',
    ADD COLUMN poll_failures       int NOT NULL DEFAULT 0,
    ADD COLUMN delivered_at        timestamptz,
    -- the tracking poller saw the final state (DELIVERED or CANCELLED): no more polls;
    -- a detail answer may see DELIVERED first, and the last events must still come
    ADD COLUMN tracking_done       boolean NOT NULL DEFAULT false;

-- References identify our own orders; shipments found at the service may share one.
DROP INDEX shipments_reference_key;
CREATE UNIQUE INDEX shipments_reference_key ON shipments (reference) WHERE state <> 'missing' AND origin = 'shipdesk';
CREATE INDEX shipments_reference_idx ON shipments (reference text_pattern_ops);

-- Work of the pollers: only shipments that still move are in these indexes.
CREATE INDEX shipments_label_due_idx ON shipments (next_label_check_at)
    WHERE state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL;
CREATE INDEX shipments_track_due_idx ON shipments (next_track_at)
    WHERE state = 'created' AND NOT tracking_done AND cancelled_at IS NULL;

-- The list's filters and the scan box.
CREATE INDEX shipments_status_created_idx ON shipments (status, created_at DESC, id DESC);
CREATE INDEX shipments_group_created_idx ON shipments (carrier_group, created_at DESC, id DESC);
CREATE INDEX shipments_label_created_idx ON shipments (label_status, created_at DESC, id DESC);
CREATE INDEX shipments_recipient_sort_idx ON shipments (recipient_name, id);
CREATE INDEX shipments_recipient_trgm_idx ON shipments USING gin (lower(recipient_name || ' ' || recipient_city) gin_trgm_ops);
CREATE INDEX shipments_tracking_prefix_idx ON shipments (tracking_number text_pattern_ops);
CREATE INDEX shipments_packages_idx ON shipments USING gin (packages jsonb_path_ops);

-- Tracking events as the carriers report them, one list per package; the same
-- event seen again is not stored twice.
CREATE TABLE tracking_events (
    shipment_id   bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
    package_index int NOT NULL,
    occurred      timestamp NOT NULL, -- the carrier's local date and time
    status        text NOT NULL,
    name          text NOT NULL,
    location      text NOT NULL DEFAULT '',
    seen_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (shipment_id, package_index, occurred, status, name)
);

-- Carrier groups as the offers name them, so shipments found at the service (whose
-- list entries carry only the carrier) still sort into their group.
CREATE TABLE carriers (
    code          text PRIMARY KEY,
    carrier_group text NOT NULL,
    seen_at       timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE carriers;
DROP TABLE tracking_events;
DROP INDEX shipments_packages_idx, shipments_tracking_prefix_idx, shipments_recipient_trgm_idx,
    shipments_recipient_sort_idx, shipments_label_created_idx, shipments_group_created_idx,
    shipments_status_created_idx, shipments_track_due_idx, shipments_label_due_idx, shipments_reference_idx;
DROP INDEX shipments_reference_key;
CREATE UNIQUE INDEX shipments_reference_key ON shipments (reference) WHERE state <> 'missing';
ALTER TABLE shipments DROP COLUMN origin, DROP COLUMN next_label_check_at, DROP COLUMN next_track_at,
    DROP COLUMN claimed_until, DROP COLUMN claimed_by, DROP COLUMN poll_failures, DROP COLUMN delivered_at,
    DROP COLUMN tracking_done;
