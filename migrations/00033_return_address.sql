-- The return address: which of our senders a customer's return parcel goes
-- to. NULL is the default sender (the first of the address book); a sender
-- removed from the address book falls back to it.

-- +goose Up
ALTER TABLE shipping_settings
    ADD COLUMN return_sender_id bigint REFERENCES senders (id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE shipping_settings DROP COLUMN return_sender_id;
