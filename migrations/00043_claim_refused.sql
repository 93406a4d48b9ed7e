-- +goose Up
-- When the desk or the service refused a claim's step (its commission or its
-- return parcel) for a reason a retry will not fix, as opposed to a service
-- that did not answer: such a claim is on the agents' queue at once, and its
-- customer's page says that the shop will be in touch. Cleared by the next
-- step that succeeds.
ALTER TABLE claims ADD COLUMN refused_at timestamptz;

-- +goose Down
ALTER TABLE claims DROP COLUMN refused_at;
