-- Every print of labels from the print queue, and every reprint: who printed
-- which shipments when, in which format, so the last batches can be printed
-- again (a jammed printer, a lost sheet).

-- +goose Up
CREATE TABLE print_batches (
    id          bigserial PRIMARY KEY,
    printed_by  bigint REFERENCES users (id) ON DELETE SET NULL,
    printed_at  timestamptz NOT NULL DEFAULT now(),
    -- A6: one label per page (thermal printers); A4: four labels to a sheet,
    -- the first at start_at (1 top left … 4 bottom right)
    format      text NOT NULL CHECK (format IN ('A6', 'A4')),
    start_at    int NOT NULL DEFAULT 1 CHECK (start_at BETWEEN 1 AND 4),
    labels      int NOT NULL CHECK (labels >= 0), -- label pages printed (a page per package)
    reprint_of  bigint REFERENCES print_batches (id) ON DELETE SET NULL
);
CREATE INDEX print_batches_recent_idx ON print_batches (printed_at DESC, id DESC);

-- The shipments of a batch, in the order they were printed.
CREATE TABLE print_batch_shipments (
    batch_id    bigint NOT NULL REFERENCES print_batches (id) ON DELETE CASCADE,
    position    int NOT NULL,
    shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
    PRIMARY KEY (batch_id, position)
);
CREATE INDEX print_batch_shipments_shipment_idx ON print_batch_shipments (shipment_id);

-- Labels being made: the print queue counts them while it waits.
CREATE INDEX shipments_labels_pending_idx ON shipments (id)
    WHERE state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL;

-- +goose Down
DROP INDEX shipments_labels_pending_idx;
DROP TABLE print_batch_shipments;
DROP TABLE print_batches;
