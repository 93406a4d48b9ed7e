-- The inbox's filters count its orders by shipping method, status and
-- country on every page: this index holds what they count (and the code the
-- check for our own shipment needs), so the count reads it alone, not the
-- orders' rows with their kept copies.

-- +goose Up
CREATE INDEX shop_orders_inbox_facets_idx ON shop_orders (shipping_guid, status_id, country) INCLUDE (code)
    WHERE state IN ('waiting', 'elsewhere');

-- +goose Down
DROP INDEX shop_orders_inbox_facets_idx;
