-- The price of the offer a shipment was ordered with, as the clerk chose it
-- (with VAT, in the offer's currency), for the managers' spend per carrier.
-- NULL: not known (ordered before this was stored, or found at the service).

-- +goose Up
ALTER TABLE shipments
    ADD COLUMN price_vat      numeric(12, 2) CHECK (price_vat >= 0),
    ADD COLUMN price_currency text CHECK (price_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT shipments_price_whole CHECK ((price_vat IS NULL) = (price_currency IS NULL));

-- +goose Down
ALTER TABLE shipments DROP CONSTRAINT shipments_price_whole, DROP COLUMN price_currency, DROP COLUMN price_vat;
