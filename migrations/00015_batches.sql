-- Batches: a day's orders imported from a file, checked by the new-shipment
-- form's rules, priced, ordered and printed together. Each row is one
-- shipment to be; its request key makes its order happen once, whoever
-- presses "order" and however often.
--   problem   the row has problems to fix before anything else
--   ready     checked; waiting to be priced
--   pricing   queued or being priced (claimed_at: by whom since when)
--   priced    an offer is chosen; waiting for the clerk's order
--   ordering  queued or being ordered
--   ordered   a shipment is recorded for it (shipment_id)
--   failed    the order was refused; error says why; fixed and ordered again

-- +goose Up
CREATE TABLE batches (
    id          bigserial PRIMARY KEY,
    source      text NOT NULL,
    file_name   text NOT NULL DEFAULT '',
    sender_id   bigint REFERENCES senders (id) ON DELETE SET NULL,
    handover    text NOT NULL,
    created_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batches_created_idx ON batches (created_at DESC, id DESC);

CREATE TABLE batch_rows (
    id          bigserial PRIMARY KEY,
    batch_id    bigint NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
    line        integer NOT NULL,
    raw         jsonb NOT NULL,              -- the cells as read and as edited: {field: text}
    parsed      jsonb NOT NULL,              -- the values read from them (orderfile.Order)
    problems    jsonb NOT NULL DEFAULT '[]', -- [{field, text}]
    state       text NOT NULL CHECK (state IN ('problem', 'ready', 'pricing', 'priced', 'ordering', 'ordered', 'failed')),
    request_key text NOT NULL UNIQUE,
    offers      jsonb NOT NULL DEFAULT '[]', -- the offers of the last pricing, with why each was or was not chosen
    chosen      text NOT NULL DEFAULT '',    -- the chosen offer's choice ('' : none)
    chosen_by   text NOT NULL DEFAULT '',    -- rule, or clerk when overridden
    error       text NOT NULL DEFAULT '',     -- why the order failed (apperr.Text)
    claimed_at  timestamptz,                 -- pricing/ordering: when a worker took it (NULL: queued)
    shipment_id bigint REFERENCES shipments (id) ON DELETE SET NULL,
    draft_id    bigint REFERENCES cart_drafts (id) ON DELETE SET NULL,
    drafting    boolean NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX batch_rows_batch_idx ON batch_rows (batch_id, id);
CREATE INDEX batch_rows_work_idx ON batch_rows (batch_id) WHERE state IN ('pricing', 'ordering');

-- The column mapping of a source's files, kept under the source's name.
CREATE TABLE batch_mappings (
    source     text PRIMARY KEY,
    mapping    jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- An uploaded file waiting for its column mapping (deleted when imported).
CREATE TABLE batch_uploads (
    id          bigserial PRIMARY KEY,
    file_name   text NOT NULL DEFAULT '',
    data        bytea NOT NULL,
    created_by  bigint REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE batch_uploads;
DROP TABLE batch_mappings;
DROP TABLE batch_rows;
DROP TABLE batches;
