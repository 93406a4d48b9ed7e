-- +goose Up
-- The pollers' and batch workers' hold on a row is a lease; "claim" is the
-- customer's alone.
ALTER TABLE shipments RENAME COLUMN claimed_until TO leased_until;
ALTER TABLE shipments RENAME COLUMN claimed_by TO leased_by;
ALTER TABLE commissions RENAME COLUMN claimed_until TO leased_until;
ALTER TABLE commissions RENAME COLUMN claimed_by TO leased_by;
ALTER TABLE mail_outbox RENAME COLUMN claimed_until TO leased_until;
ALTER TABLE mail_outbox RENAME COLUMN claimed_by TO leased_by;
ALTER TABLE batch_rows RENAME COLUMN claimed_at TO leased_at;

-- +goose Down
ALTER TABLE batch_rows RENAME COLUMN leased_at TO claimed_at;
ALTER TABLE mail_outbox RENAME COLUMN leased_by TO claimed_by;
ALTER TABLE mail_outbox RENAME COLUMN leased_until TO claimed_until;
ALTER TABLE commissions RENAME COLUMN leased_by TO claimed_by;
ALTER TABLE commissions RENAME COLUMN leased_until TO claimed_until;
ALTER TABLE shipments RENAME COLUMN leased_by TO claimed_by;
ALTER TABLE shipments RENAME COLUMN leased_until TO claimed_until;
