-- +goose Up
-- A customer's mail comes from the shop: the name it is sent under and the
-- address replies go to, as they were when the mail was recorded ('' : the
-- outbox's own name, no Reply-To).
ALTER TABLE mail_outbox
    ADD COLUMN from_name text NOT NULL DEFAULT '',
    ADD COLUMN reply_to text NOT NULL DEFAULT '';

-- The day the service expects a parcel delivered, as its last detail said
-- (the recipient's tracking page shows it while the parcel is on its way).
ALTER TABLE shipments ADD COLUMN expected_delivery date;

-- +goose Down
ALTER TABLE shipments DROP COLUMN expected_delivery;
ALTER TABLE mail_outbox DROP COLUMN from_name, DROP COLUMN reply_to;
