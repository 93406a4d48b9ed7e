-- What the desk writes back to the shop: an order's tracking number when its
-- shipment has one, its status when the parcel is handed over, the tracking
-- number cleared after a storno. A write is recorded by the statement that
-- stores the change causing it, once per event (event_key), and sent by the
-- pollers' worker with the outbox's columns: leased, retried, kept when it
-- fails for good with the shop's answer (last_error, a catalog text).

-- +goose Up
CREATE TABLE shop_writes (
    id              bigserial PRIMARY KEY,
    event_key       text NOT NULL UNIQUE CHECK (char_length(event_key) BETWEEN 1 AND 200),
    order_code      text NOT NULL REFERENCES shop_orders (code),
    shipment_id     bigint REFERENCES shipments (id) ON DELETE SET NULL,
    kind            text NOT NULL CHECK (kind IN ('tracking', 'status')),
    tracking_number text NOT NULL DEFAULT '',
    status_id       int,
    quiet           boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL,
    state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
    attempts        int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    leased_until    timestamptz,
    leased_by       text NOT NULL DEFAULT '',
    last_error      text NOT NULL DEFAULT '',
    sent_at         timestamptz,
    CONSTRAINT shop_writes_status CHECK (kind <> 'status' OR status_id IS NOT NULL)
);
CREATE INDEX shop_writes_due_idx ON shop_writes (next_attempt_at, id) WHERE state IN ('queued', 'sending');
CREATE INDEX shop_writes_order_idx ON shop_writes (order_code, id);
CREATE INDEX shop_writes_failed_idx ON shop_writes (id) WHERE state = 'failed';

-- +goose Down
DROP TABLE shop_writes;
