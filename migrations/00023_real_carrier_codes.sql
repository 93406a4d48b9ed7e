-- The sandbox once named its carriers by neutral codes (G1, G2A … G7); like the
-- real service it now names them by the carriers' own codes. A dashboard that
-- ran on the sandbox keeps its carrier table, rules, shipments and pickups under
-- the new codes; the parcel-point cache of the old codes is dropped (the next
-- refresh fills it again). The real service never sent these codes: on its
-- data this changes nothing.

-- +goose Up
CREATE TEMPORARY TABLE former_carrier_codes (old text PRIMARY KEY, new text NOT NULL, old_name text NOT NULL, new_name text NOT NULL) ON COMMIT DROP;
INSERT INTO former_carrier_codes VALUES
    ('G1', 'ZASILKOVNA', 'G1 Parcel', 'Zásilkovna'),
    ('G2A', 'PPL', 'G2 Alpha', 'PPL'),
    ('G2B', 'DPD', 'G2 Beta', 'DPD'),
    ('G2C', 'WEDO', 'G2 Gamma', 'WE|DO'),
    ('G2DCZ', 'GLS', 'G2 Delta CZ', 'GLS'),
    ('G2DSK', 'GLS-SK', 'G2 Delta SK', 'GLS Slovakia'),
    ('G3A', 'UPS', 'G3 Express One', 'UPS'),
    ('G3B', 'FEDEX', 'G3 Express Two', 'FedEx'),
    ('G4', 'SPS', 'G4 Points', 'SPS'),
    ('G5', 'BALIKOVNA', 'G5 Post', 'Balíkovna'),
    ('G6', 'TOPTRANS', 'G6 Freight', 'TOPTRANS'),
    ('G7', 'LIFTAGO', 'G7 Same Day', 'Liftago');

-- A carrier already known under its new code keeps that row.
DELETE FROM carriers c USING former_carrier_codes f
WHERE upper(c.code) = f.old AND EXISTS (SELECT 1 FROM carriers n WHERE n.code = f.new);
UPDATE carriers c SET code = f.new, name = CASE WHEN c.name = f.old_name THEN f.new_name ELSE c.name END
FROM former_carrier_codes f WHERE upper(c.code) = f.old;

UPDATE ship_rules r SET carrier = f.new FROM former_carrier_codes f WHERE upper(r.carrier) = f.old;
UPDATE ship_rules r SET carriers = (
    SELECT jsonb_agg(COALESCE(f.new, e.code) ORDER BY e.i)
    FROM jsonb_array_elements_text(r.carriers) WITH ORDINALITY AS e(code, i)
    LEFT JOIN former_carrier_codes f ON f.old = upper(e.code))
WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(r.carriers) AS e(code)
              JOIN former_carrier_codes f ON f.old = upper(e.code));

UPDATE shipments s SET carrier = f.new,
    request = CASE WHEN upper(s.request #>> '{shipments,0,carrier}') = f.old
                   THEN jsonb_set(s.request, '{shipments,0,carrier}', to_jsonb(f.new)) ELSE s.request END
FROM former_carrier_codes f WHERE s.carrier IN (f.old, lower(f.old));

UPDATE pickups p SET carrier = f.new FROM former_carrier_codes f WHERE upper(p.carrier) = f.old;

DELETE FROM parcel_points p USING former_carrier_codes f WHERE upper(p.carrier) = f.old;

-- +goose Down
-- The old codes are not given back: the sandbox no longer knows them.
SELECT 1;
