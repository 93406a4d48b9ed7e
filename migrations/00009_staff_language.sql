-- Each staff member's language, saved with the account (NULL: the installation's
-- default, SHIPDESK_LANG).

-- +goose Up
ALTER TABLE users ADD COLUMN lang text CHECK (lang IN ('cs', 'en'));

-- +goose Down
ALTER TABLE users DROP COLUMN lang;
