-- The outbox of mail: a mail is recorded in the transaction of the change
-- that causes it, once per event (event_key), and sent later by the pollers'
-- worker, which claims it like any other due work (a lease) and keeps what
-- failed for good, with the reason, instead of losing it. Staff get an
-- e-mail address for the mail meant for them.

-- +goose Up
CREATE TABLE mail_outbox (
    id              bigserial PRIMARY KEY,
    event_key       text NOT NULL UNIQUE CHECK (char_length(event_key) BETWEEN 1 AND 200),
    recipient       text NOT NULL,
    recipient_name  text NOT NULL DEFAULT '',
    subject         text NOT NULL,
    body            text NOT NULL,
    body_html       text NOT NULL DEFAULT '',
    lang            text NOT NULL DEFAULT 'cs',
    message_id      text NOT NULL,
    created_at      timestamptz NOT NULL,
    state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
    attempts        int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    claimed_until   timestamptz,
    claimed_by      text NOT NULL DEFAULT '',
    last_error      text NOT NULL DEFAULT '',
    sent_at         timestamptz
);
-- The worker's claim reads mail still to send in the order it is due.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE state IN ('queued', 'sending');

CREATE TABLE mail_attachments (
    mail_id      bigint NOT NULL REFERENCES mail_outbox (id) ON DELETE CASCADE,
    position     int NOT NULL,
    name         text NOT NULL,
    content_type text NOT NULL,
    data         bytea NOT NULL,
    PRIMARY KEY (mail_id, position)
);

-- A staff member's e-mail address, and whether a manager gets the daily
-- attention summary by mail (the first mail the outbox carries).
ALTER TABLE users
    ADD COLUMN email         text NOT NULL DEFAULT '' CHECK (char_length(email) <= 200),
    ADD COLUMN daily_summary boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT users_summary_needs_email CHECK (NOT daily_summary OR email <> '');

-- +goose Down
ALTER TABLE users DROP CONSTRAINT users_summary_needs_email, DROP COLUMN daily_summary, DROP COLUMN email;
DROP TABLE mail_attachments;
DROP TABLE mail_outbox;
