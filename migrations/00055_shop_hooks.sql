-- The shop's webhooks: the address they are registered at and the key the
-- shop signs them with, sealed like the token, so that every instance and
-- every restart checks the signatures with the same key.

-- +goose Up
ALTER TABLE shop_connections
    ADD COLUMN hooks_url       text NOT NULL DEFAULT '' CHECK (char_length(hooks_url) <= 600),
    ADD COLUMN hook_key_sealed bytea;

-- +goose Down
ALTER TABLE shop_connections
    DROP COLUMN hook_key_sealed,
    DROP COLUMN hooks_url;
