-- How many working days a parcel of a carrier may go without a new tracking
-- event before it needs a person (the "needs attention" queue); managers
-- edit it in the carrier table.

-- +goose Up
ALTER TABLE carriers ADD COLUMN stuck_days int NOT NULL DEFAULT 3 CHECK (stuck_days BETWEEN 1 AND 30);

-- +goose Down
ALTER TABLE carriers DROP COLUMN stuck_days;
