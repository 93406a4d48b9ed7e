-- Withdrawals from a purchase (odstoupení od smlouvy) recorded on a commission,
-- and the refund each one owes. A refund is due 14 calendar days after the
-- withdrawal was received (civil code §1831 with §1829); a withdrawal received
-- more than 14 days after the purchase was delivered is late, kept as it was
-- judged when recorded. A withdrawal is recorded once per form (request_key)
-- and once per commission; a refund is marked paid once, with who and when.

-- +goose Up
CREATE TABLE withdrawals (
    id            bigserial PRIMARY KEY,
    request_key   text NOT NULL UNIQUE,
    commission_id bigint NOT NULL UNIQUE REFERENCES commissions (id) ON DELETE CASCADE,
    shipment_id   bigint REFERENCES shipments (id) ON DELETE SET NULL,
    received_at   timestamptz NOT NULL,
    delivered_at  timestamptz,
    late          boolean NOT NULL DEFAULT false,
    amount        numeric(12,2) NOT NULL CHECK (amount > 0),
    currency      text NOT NULL CHECK (currency IN ('CZK', 'EUR')),
    account       text NOT NULL CHECK (char_length(account) BETWEEN 4 AND 64),
    due_at        timestamptz NOT NULL,
    paid_at       timestamptz,
    paid_by       bigint REFERENCES users (id) ON DELETE SET NULL,
    note          text NOT NULL DEFAULT '' CHECK (char_length(note) <= 1000),
    created_by    bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL,
    CHECK (paid_by IS NULL OR paid_at IS NOT NULL)
);
CREATE INDEX withdrawals_open_idx ON withdrawals (due_at, id) WHERE paid_at IS NULL;
CREATE INDEX withdrawals_paid_idx ON withdrawals (paid_at DESC, id DESC) WHERE paid_at IS NOT NULL;

-- +goose Down
DROP TABLE withdrawals;
