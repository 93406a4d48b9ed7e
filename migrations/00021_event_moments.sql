-- Every recorded time is a moment. Tracking events were kept as the carrier's
-- local date and time (timestamp); the service writes them in Prague's local
-- time, so that is how the old rows are read.

-- +goose Up
ALTER TABLE tracking_events ALTER COLUMN occurred TYPE timestamptz USING occurred AT TIME ZONE 'Europe/Prague';
COMMENT ON COLUMN tracking_events.occurred IS 'when it happened (the service writes Prague local time; desk.EventsOf reads it so)';

-- +goose Down
ALTER TABLE tracking_events ALTER COLUMN occurred TYPE timestamp USING occurred AT TIME ZONE 'Europe/Prague';
