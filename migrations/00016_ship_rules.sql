-- The managers' rules that choose an offer for a shipment (package shiprules):
-- tried from the lowest position; empty conditions hold for every shipment.
-- The columns map one to one onto shiprules.Rule; the two code lists are JSON
-- arrays. The desk validates a rule before it is stored; the checks here keep
-- what the chooser cannot follow out of the table all the same.

-- +goose Up
CREATE TABLE ship_rules (
    id                  bigserial PRIMARY KEY,
    name                text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
    -- Unique, checked at the end of each statement, so two rules swap places in one update.
    position            integer NOT NULL,
    countries           jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(countries) = 'array'),
    cod                 text NOT NULL DEFAULT 'any' CHECK (cod IN ('any', 'yes', 'no')),
    weight_min_kg       double precision CHECK (weight_min_kg >= 0 AND weight_min_kg <= 1000),
    weight_max_kg       double precision CHECK (weight_max_kg >= 0 AND weight_max_kg <= 1000),
    longest_side_max_cm double precision CHECK (longest_side_max_cm >= 0 AND longest_side_max_cm <= 500),
    dims_sum_max_cm     double precision CHECK (dims_sum_max_cm >= 0 AND dims_sum_max_cm <= 1500),
    delivery            text NOT NULL DEFAULT 'any' CHECK (delivery IN ('any', 'point', 'door')),
    choice              text NOT NULL CHECK (choice IN ('cheapest', 'fastest', 'service')),
    carriers            jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(carriers) = 'array'),
    carrier             text NOT NULL DEFAULT '',
    service             text NOT NULL DEFAULT '',
    service_id          integer NOT NULL DEFAULT 0 CHECK (service_id >= 0),
    edited_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ship_rules_position_key UNIQUE (position) DEFERRABLE INITIALLY IMMEDIATE,
    CONSTRAINT ship_rules_weight_order CHECK (weight_min_kg IS NULL OR weight_max_kg IS NULL OR weight_min_kg <= weight_max_kg)
);

-- +goose Down
DROP TABLE ship_rules;
