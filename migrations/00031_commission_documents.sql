-- Written confirmations of a claim (§19(2) and §19(5) of Act 634/1992): the
-- language the customer reads them in, the remedy the customer asks for, a
-- deadline extension agreed with the customer (kept apart from the 30 days
-- the service's answer sets, so a later sync does not undo it), and the PDFs
-- issued, each drawn once at its event and kept unchanged.

-- +goose Up
ALTER TABLE commissions
    ADD COLUMN language text NOT NULL DEFAULT 'cs' CHECK (language IN ('cs', 'en')),
    ADD COLUMN remedy text NOT NULL DEFAULT ''
        CHECK (remedy IN ('', 'repair', 'replacement', 'discount', 'withdrawal')),
    ADD COLUMN extended_to timestamptz,
    ADD COLUMN extension_agreed_on date,
    ADD COLUMN extensions int NOT NULL DEFAULT 0,
    ADD CONSTRAINT commissions_extension_whole CHECK ((extended_to IS NULL) = (extension_agreed_on IS NULL));

CREATE TABLE commission_documents (
    id            bigserial PRIMARY KEY,
    commission_id bigint NOT NULL REFERENCES commissions (id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('intake', 'settlement')),
    version       int NOT NULL CHECK (version > 0),
    created_at    timestamptz NOT NULL,
    created_by    bigint REFERENCES users (id) ON DELETE SET NULL,
    filename      text NOT NULL,
    pdf           bytea NOT NULL,
    sha256        bytea NOT NULL,
    UNIQUE (commission_id, kind, version)
);

-- +goose Down
DROP TABLE commission_documents;
ALTER TABLE commissions DROP CONSTRAINT commissions_extension_whole,
    DROP COLUMN extensions, DROP COLUMN extension_agreed_on, DROP COLUMN extended_to,
    DROP COLUMN remedy, DROP COLUMN language;
