-- +goose Up
-- A batch's page asks every two seconds for its counts per state and its
-- shipments: both are read from these narrow indexes instead of the rows,
-- whose files and offers make a 5,000-row batch several megabytes.
CREATE INDEX batch_rows_state_idx ON batch_rows (batch_id, state);
CREATE INDEX batch_rows_shipment_idx ON batch_rows (batch_id, line, id) INCLUDE (shipment_id) WHERE shipment_id IS NOT NULL;

-- +goose Down
DROP INDEX batch_rows_shipment_idx;
DROP INDEX batch_rows_state_idx;
