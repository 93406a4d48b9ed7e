-- The customer's side of a return: one-time links a customer asks for by the
-- reference of a parcel and the address it went to, the claims filed through
-- them (each becomes a commission, and a return parcel when the goods travel
-- with a hand-over code), the customer's messages and photos, and the hits
-- that throttle the public pages.

-- +goose Up
CREATE TABLE claim_links (
    id          bigserial PRIMARY KEY,
    token_hash  bytea NOT NULL UNIQUE,            -- sha256 of the token in the mailed link
    shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
    email       text NOT NULL,
    language    text NOT NULL CHECK (language IN ('cs', 'en')),
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz                       -- a link serves one claim
);
CREATE INDEX claim_links_shipment_idx ON claim_links (shipment_id);

CREATE TABLE claims (
    id            bigserial PRIMARY KEY,
    link_id       bigint NOT NULL UNIQUE REFERENCES claim_links (id),
    -- The status page's token: the customer's capability, carried in every
    -- mail of the claim (which the outbox keeps), so it is kept as it is.
    status_token  text NOT NULL UNIQUE,
    shipment_id   bigint NOT NULL REFERENCES shipments (id),
    request_key   text NOT NULL UNIQUE,           -- the commission's, one create per claim
    kind          text NOT NULL CHECK (kind IN ('withdrawal', 'defect')),
    remedy        text NOT NULL DEFAULT '' CHECK (remedy IN ('', 'repair', 'replacement', 'discount', 'withdrawal')),
    description   text NOT NULL DEFAULT '',
    type_id       bigint NOT NULL,
    model_id      bigint NOT NULL,
    product       text NOT NULL DEFAULT '',
    transport     text NOT NULL CHECK (transport IN ('code', 'courier', 'shop')),
    point_carrier text NOT NULL DEFAULT '',
    point_code    text NOT NULL DEFAULT '',
    point_name    text NOT NULL DEFAULT '',
    customer      jsonb NOT NULL,                 -- name, address, phone, e-mail as the customer confirmed them
    email         text NOT NULL,
    language      text NOT NULL CHECK (language IN ('cs', 'en')),
    refund_account text NOT NULL DEFAULT '',
    refund_amount text NOT NULL DEFAULT '',       -- as the customer typed it; the withdrawal reads it
    delivered_at  timestamptz,                    -- the purchase's delivery, from tracking
    late          boolean NOT NULL DEFAULT false, -- a withdrawal after its 14 days
    created_at    timestamptz NOT NULL,
    commission_id bigint UNIQUE REFERENCES commissions (id) ON DELETE SET NULL,
    return_key    text UNIQUE,                    -- the return parcel's request key
    return_shipment_id bigint UNIQUE REFERENCES shipments (id) ON DELETE SET NULL,
    handover_mailed boolean NOT NULL DEFAULT false,
    arrived_at    timestamptz,                    -- the return parcel delivered to the shop
    -- What failed last while creating its commission or parcel (for the
    -- queue), and when to try again.
    problem       text NOT NULL DEFAULT '',
    next_try_at   timestamptz NOT NULL,
    tries         int NOT NULL DEFAULT 0,
    CHECK ((transport = 'code') = (point_code <> '')),
    CHECK (kind = 'defect' OR remedy = '')
);
CREATE INDEX claims_due_idx ON claims (next_try_at)
    WHERE commission_id IS NULL OR (transport = 'code' AND return_shipment_id IS NULL)
       OR (transport = 'code' AND (NOT handover_mailed OR arrived_at IS NULL));
CREATE INDEX claims_commission_idx ON claims (commission_id);

-- The customer's files: photos and the proof of purchase (uploads keeps the
-- bytes, as for the agents' proofs).
CREATE TABLE claim_files (
    claim_id  bigint NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    upload_id bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    proof     boolean NOT NULL DEFAULT false,
    PRIMARY KEY (claim_id, upload_id)
);

-- The customer's replies from the status page; agents' public messages are
-- commission activities.
CREATE TABLE claim_messages (
    id          bigserial PRIMARY KEY,
    claim_id    bigint NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    request_key text NOT NULL UNIQUE,
    body        text NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX claim_messages_claim_idx ON claim_messages (claim_id, id);
ALTER TABLE claim_files ADD COLUMN message_id bigint REFERENCES claim_messages (id) ON DELETE CASCADE;

-- Hits on the public pages, by scope (an address, a purchase, a client) and
-- a hash of its key, counted over a window.
CREATE TABLE public_hits (
    scope    text NOT NULL,
    key_hash bytea NOT NULL,
    at       timestamptz NOT NULL
);
CREATE INDEX public_hits_idx ON public_hits (scope, key_hash, at);

-- +goose Down
DROP TABLE public_hits;
DROP TABLE claim_files;
DROP TABLE claim_messages;
DROP TABLE claims;
DROP TABLE claim_links;
