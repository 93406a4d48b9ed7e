-- Carrier groups were the sandbox's invention: the real service never sends one.
-- What the dashboard must know of a carrier beyond its offers (can it hand over
-- label-free, does cash on delivery allow several packages) lives in this table:
-- filled from the carriers seen in offers, learnt from shipments/validate, and
-- edited by managers. Lists and reports group by carrier.

-- +goose Up
ALTER TABLE carriers DROP COLUMN carrier_group;
ALTER TABLE carriers
    ADD COLUMN name         text NOT NULL DEFAULT '',
    -- NULL: not known yet, so the service is asked (shipments/validate) before offering it.
    ADD COLUMN label_free   boolean,
    -- The spec's COD limits on several packages: '' none known, 'single' one package only,
    -- 'single_with_point' one package when a point is used, 'single_to_sk' one package from CZ to SK.
    ADD COLUMN cod_packages text NOT NULL DEFAULT ''
        CHECK (cod_packages IN ('', 'single', 'single_with_point', 'single_to_sk')),
    ADD COLUMN edited_at    timestamptz;

DROP INDEX shipments_group_created_idx;
ALTER TABLE shipments DROP COLUMN carrier_group;
CREATE INDEX shipments_carrier_created_idx ON shipments (carrier, created_at DESC, id DESC);

ALTER TABLE shipments ADD COLUMN insured_value numeric(12, 2);

-- +goose Down
ALTER TABLE shipments DROP COLUMN insured_value;
DROP INDEX shipments_carrier_created_idx;
ALTER TABLE shipments ADD COLUMN carrier_group text NOT NULL DEFAULT '';
CREATE INDEX shipments_group_created_idx ON shipments (carrier_group, created_at DESC, id DESC);
ALTER TABLE carriers DROP COLUMN edited_at, DROP COLUMN cod_packages, DROP COLUMN label_free, DROP COLUMN name;
ALTER TABLE carriers ADD COLUMN carrier_group text NOT NULL DEFAULT '';
