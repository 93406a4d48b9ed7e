package storage_test

import (
	"context"
	"testing"

	"shipdesk/storage/pgtest"
)

// A dashboard that ran on the sandbox when its carriers had neutral codes
// (G1, G2A … G7) finds its carrier table, rules, shipments and pickups under
// the carriers' own codes after migrating; a carrier already known under its
// new code keeps that row, a manager's name stays, the parcel-point cache of
// the old codes goes.
func TestFormerSandboxCarrierCodesAreMapped(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	if err := db.MigrateDownTo(ctx, 22, quietLog()); err != nil { // before 00023
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `
INSERT INTO carriers (code, name, label_free, cod_packages) VALUES
    ('G1', 'G1 Parcel', true, 'single_to_sk'), ('G3A', 'Expres', false, ''), ('G2A', 'G2 Alpha', NULL, ''),
    ('PPL', 'PPL', NULL, 'single_with_point'), ('OTHER', 'Other', NULL, '');
INSERT INTO ship_rules (name, position, choice, carriers, carrier, service, service_id) VALUES
    ('Named', 1, 'service', '[]', 'g3a', 'Express', 701),
    ('Among', 2, 'cheapest', '["G1", "OTHER", "g2dsk"]', '', '', 0);
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id) VALUES
    (gen_random_uuid(), 'OLD-1', 'created', '{"shipments": [{"carrier": "G3A", "reference": "OLD-1"}]}', 'G3A', 701),
    (gen_random_uuid(), 'NEW-1', 'created', '{"shipments": [{"carrier": "OTHER"}]}', 'OTHER', 1);
INSERT INTO pickups (request_key, contact_id, pickup_date, time_from, time_to, packages, weight, carrier) VALUES
    ('k1', 1, '2026-11-24', '08:00', '16:00', 1, 1, 'G5'), ('k2', 1, '2026-11-24', '08:00', '16:00', 1, 1, '');
INSERT INTO parcel_points (id, carrier, code, name, search) VALUES (1, 'G1', 'G100001', 'Point', 'point'), (2, 'PPL', 'PPL--1', 'Point', 'point');
`); err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateUp(ctx, quietLog()); err != nil {
		t.Fatal(err)
	}
	carriers, err := db.Carriers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"OTHER", "Other"}, {"PPL", "PPL"}, {"UPS", "Expres"}, {"ZASILKOVNA", "Zásilkovna"}}
	if len(carriers) != len(want) {
		t.Fatalf("carriers %+v", carriers)
	}
	for i := range want {
		if carriers[i].Code != want[i][0] || carriers[i].Name != want[i][1] {
			t.Errorf("carrier %d: %+v, want %v", i, carriers[i], want[i])
		}
	}
	c, err := db.CarrierByCode(ctx, "ZASILKOVNA")
	if err != nil || !c.LabelFree.Bool || c.CODPackages != "single_to_sk" {
		t.Errorf("ZASILKOVNA keeps what G1 knew: %+v %v", c, err)
	}
	var named, among string
	if err := db.SQL().QueryRowContext(ctx, `SELECT (SELECT carrier FROM ship_rules WHERE name = 'Named'), (SELECT carriers::text FROM ship_rules WHERE name = 'Among')`).Scan(&named, &among); err != nil {
		t.Fatal(err)
	}
	if named != "UPS" || among != `["ZASILKOVNA", "OTHER", "GLS-SK"]` {
		t.Errorf("rules: %q %s", named, among)
	}
	var old, oldRequest, other, pickup string
	if err := db.SQL().QueryRowContext(ctx, `SELECT (SELECT carrier FROM shipments WHERE reference = 'OLD-1'), (SELECT request::text FROM shipments WHERE reference = 'OLD-1'),
    (SELECT carrier FROM shipments WHERE reference = 'NEW-1'), (SELECT carrier FROM pickups WHERE request_key = 'k1')`).Scan(&old, &oldRequest, &other, &pickup); err != nil {
		t.Fatal(err)
	}
	if old != "UPS" || oldRequest != `{"shipments": [{"carrier": "UPS", "reference": "OLD-1"}]}` || other != "OTHER" || pickup != "BALIKOVNA" {
		t.Errorf("shipments and pickups: %q %s %q %q", old, oldRequest, other, pickup)
	}
	var points int
	var left string
	if err := db.SQL().QueryRowContext(ctx, `SELECT count(*), max(code) FROM parcel_points`).Scan(&points, &left); err != nil || points != 1 || left != "PPL--1" {
		t.Errorf("parcel points %d %q %v", points, left, err)
	}
}
