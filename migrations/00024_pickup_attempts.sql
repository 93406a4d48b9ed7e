-- Pickups are created at the service exactly once by the same protocol as
-- shipments and commissions: every pickups/add call is an attempt recorded
-- before it is sent, with its deadline, and "not ordered" is concluded only
-- after the last deadline (settles_at) has passed.

-- +goose Up
ALTER TABLE create_attempts ADD COLUMN pickup_id bigint REFERENCES pickups (id) ON DELETE CASCADE;
ALTER TABLE create_attempts DROP CONSTRAINT create_attempts_check;
ALTER TABLE create_attempts ADD CONSTRAINT create_attempts_one_owner CHECK (num_nonnulls(shipment_id, commission_id, pickup_id) = 1);
CREATE INDEX create_attempts_pickup_idx ON create_attempts (pickup_id, id) WHERE pickup_id IS NOT NULL;
ALTER TABLE pickups ADD COLUMN settles_at timestamptz;
UPDATE pickups SET settles_at = updated_at + interval '5 minutes' WHERE state = 'sent';

-- +goose Down
ALTER TABLE pickups DROP COLUMN settles_at;
DROP INDEX create_attempts_pickup_idx;
DELETE FROM create_attempts WHERE pickup_id IS NOT NULL;
ALTER TABLE create_attempts DROP CONSTRAINT create_attempts_one_owner;
ALTER TABLE create_attempts ADD CONSTRAINT create_attempts_check CHECK ((shipment_id IS NULL) <> (commission_id IS NULL));
ALTER TABLE create_attempts DROP COLUMN pickup_id;
