-- A claim's status page is opened by a key that only its customer holds, so
-- the database keeps the keys' hashes only (sha256 of the key in the link,
-- as claim_links keeps a one-time link's): each mail that carries the page's
-- link makes a key of its own, all of them the claim's. The keys stored in
-- plain text until now become their hashes, so the links already mailed keep
-- working; the attention queue, which named a stuck (or refused) claim by its key, names
-- it by its id. A mail carrying a key is kept whole until keep_until, then,
-- once sent (or failed for good), only its record stays.

-- +goose Up
CREATE TABLE claim_status_keys (
    key_hash   bytea PRIMARY KEY,               -- sha256 of the key in a status page's link
    claim_id   bigint NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL
);
CREATE INDEX claim_status_keys_claim_idx ON claim_status_keys (claim_id);

INSERT INTO claim_status_keys (key_hash, claim_id, created_at)
SELECT sha256(convert_to(status_token, 'UTF8')), id, created_at FROM claims;

UPDATE attention_actions a SET occurrence = c.id::text
FROM claims c WHERE a.kind IN ('claim_stuck', 'claim_refused') AND a.record_id = c.id AND a.occurrence = c.status_token;

ALTER TABLE claims DROP COLUMN status_token;

ALTER TABLE mail_outbox ADD COLUMN keep_until timestamptz;
-- The mail already queued with a link of the claim page: kept a day.
UPDATE mail_outbox SET keep_until = created_at + interval '1 day'
WHERE event_key LIKE 'claim-link:%' OR event_key LIKE 'claim-handover:%'
   OR (event_key LIKE 'confirmation:%' AND body LIKE '%/claim/status/%');
-- What the upkeep drops next: kept whole, with a key.
CREATE INDEX mail_outbox_keep_idx ON mail_outbox (keep_until) WHERE keep_until IS NOT NULL AND body <> '';

-- +goose Down
-- A key cannot come back from its hash: the claims get keys no link holds,
-- and the links mailed stop opening their pages.
DROP INDEX mail_outbox_keep_idx;
ALTER TABLE mail_outbox DROP COLUMN keep_until;
ALTER TABLE claims ADD COLUMN status_token text;
UPDATE claims SET status_token = 'revoked-' || id;
ALTER TABLE claims ALTER COLUMN status_token SET NOT NULL, ADD CONSTRAINT claims_status_token_key UNIQUE (status_token);
UPDATE attention_actions a SET occurrence = c.status_token
FROM claims c WHERE a.kind IN ('claim_stuck', 'claim_refused') AND a.record_id = c.id AND a.occurrence = c.id::text;
DROP TABLE claim_status_keys;
