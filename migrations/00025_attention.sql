-- The "needs attention" queue is derived from the tables on every read; only
-- what people do with an item is stored here. An item is keyed by its kind,
-- its record and the occurrence that put it in the queue (the tracking number
-- of a failed label, the moment of the last tracking event of a stuck parcel,
-- a claim's deadline…), so a dismissed item comes back when the problem
-- happens anew.

-- +goose Up
CREATE TABLE attention_actions (
    id             bigserial PRIMARY KEY,
    kind           text NOT NULL,
    record_id      bigint NOT NULL,
    occurrence     text NOT NULL,
    taken_by       bigint REFERENCES users (id) ON DELETE SET NULL,
    taken_at       timestamptz,
    dismissed_by   bigint REFERENCES users (id) ON DELETE SET NULL,
    dismissed_at   timestamptz,
    dismiss_reason text NOT NULL DEFAULT '',
    dismiss_text   text NOT NULL DEFAULT '',
    UNIQUE (kind, record_id, occurrence)
);
CREATE INDEX attention_actions_dismissed_idx ON attention_actions (dismissed_at) WHERE dismissed_at IS NOT NULL;

CREATE TABLE attention_notes (
    id         bigserial PRIMARY KEY,
    action_id  bigint NOT NULL REFERENCES attention_actions (id) ON DELETE CASCADE,
    author     bigint REFERENCES users (id) ON DELETE SET NULL,
    written_at timestamptz NOT NULL,
    text       text NOT NULL
);
CREATE INDEX attention_notes_action_idx ON attention_notes (action_id, id);

-- +goose Down
DROP TABLE attention_notes;
DROP TABLE attention_actions;
