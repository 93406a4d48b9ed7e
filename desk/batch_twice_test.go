package desk_test

import (
	"context"
	"strings"
	"testing"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/orderfile"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

const twiceHeader = "reference;first_name;surname;company;street;city;zip;country;phone;email;weight_kg;length_cm;width_cm;height_cm;" +
	"cod_amount;cod_currency;insured_value;point_code;note;customs_reason;customs_contents;customs_hs_code;customs_origin;" +
	"customs_quantity;customs_value;customs_currency\n"

// twiceFile: line 2 has a reference; line 3 none; line 4 is line 3 again,
// written differently (case, spaces, diacritics, the phone's prefix);
// line 5 repeats line 2's reference; line 6 is another parcel to line 3's
// recipient (heavier).
const twiceFile = twiceHeader +
	"TW-1;Jana;Nováková;;Vinohradská 12;Praha;120 00;CZ;+420 731 204 118;jana@example.cz;1,2;30;20;10;;;;;;;;;;;;\n" +
	";Petr;Dvořák;;Masarykova 427/31;Brno;602 00;CZ;+420 604 887 312;petr@example.cz;2,5;40;30;15;499;CZK;;;;;;;;;;\n" +
	";PETR;Dvorak;;masarykova 427 / 31;BRNO;60200;CZ;604887312;Petr@Example.cz;2,5;40;30;15;499;CZK;;;;;;;;;;\n" +
	"TW-1;Jana;Nováková;;Vinohradská 12;Praha;120 00;CZ;+420 731 204 118;jana@example.cz;1,2;30;20;10;;;;;;;;;;;;\n" +
	";Petr;Dvořák;;Masarykova 427/31;Brno;602 00;CZ;+420 604 887 312;petr@example.cz;7;40;30;15;499;CZK;;;;;;;;;;\n"

func importTwice(t *testing.T, d *desk.Desk, e *desktest.Env) (int64, map[int]storage.BatchRow) {
	t.Helper()
	res, err := d.ImportBatch(context.Background(), desk.BatchImport{FileName: "twice.csv", ContentType: "text/csv", Data: []byte(twiceFile),
		Handover: desk.HandoverOnDemand}, 0)
	if err != nil || res.Mapping != nil {
		t.Fatalf("import: %+v %v", res, err)
	}
	byLine := map[int]storage.BatchRow{}
	for _, r := range desktest.SettledBatch(t, e.DB, res.Batch.ID) {
		byLine[r.Line] = r
	}
	return res.Batch.ID, byLine
}

func shipmentCount(t *testing.T, e *desktest.Env) int {
	t.Helper()
	var n int
	if err := e.DB.SQL().QueryRow(`SELECT count(*) FROM shipments`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Rows repeated within a file, and a whole file imported again after it was
// ordered, are known: by reference, or, without one, by the recipient and
// the content; never priced or ordered. A known row taken as a new parcel
// gets a reference of its own and is ordered.
func TestBatchNeverOrdersTwice(t *testing.T) {
	d, e := batchDesk(t)
	ctx := context.Background()
	first, rows := importTwice(t, d, e)
	for line, want := range map[int]string{2: storage.RowPriced, 3: storage.RowPriced, 4: storage.RowKnown, 5: storage.RowKnown, 6: storage.RowPriced} {
		if got := rows[line].State; got != want {
			t.Errorf("first import, line %d: %s, want %s (%s)", line, got, want, rows[line].Problems)
		}
	}
	for line, of := range map[int]int{4: 3, 5: 2} {
		r := rows[line]
		if r.KnownBatch == nil || *r.KnownBatch != first || r.KnownLine != of || r.KnownShipment != nil {
			t.Errorf("line %d is known as %v line %d shipment %v, want line %d of this batch", line, r.KnownBatch, r.KnownLine, r.KnownShipment, of)
		}
	}
	if n, err := d.OrderBatch(ctx, first); err != nil || n != 3 {
		t.Fatalf("order the first: %d %v", n, err)
	}
	rows = map[int]storage.BatchRow{}
	for _, r := range desktest.SettledBatch(t, e.DB, first) {
		rows[r.Line] = r
	}
	for _, line := range []int{2, 3, 6} {
		if rows[line].State != storage.RowOrdered {
			t.Fatalf("line %d: %s %s", line, rows[line].State, rows[line].Error)
		}
	}
	shipments := shipmentCount(t, e)

	// The same file again: every row is known, as the shipment it was ordered as.
	second, again := importTwice(t, d, e)
	for line, as := range map[int]int{2: 2, 3: 3, 4: 3, 5: 2, 6: 6} {
		r := again[line]
		if r.State != storage.RowKnown || r.KnownShipment == nil || *r.KnownShipment != *rows[as].ShipmentID {
			t.Errorf("second import, line %d: %s as %v, want shipment %d", line, r.State, r.KnownShipment, *rows[as].ShipmentID)
		}
	}
	if _, err := d.OrderBatch(ctx, second); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("ordering the second: %v", err)
	}
	if n, err := d.PriceBatch(ctx, second); n != 0 {
		t.Errorf("priced %d rows of the second (%v)", n, err)
	}
	if got := shipmentCount(t, e); got != shipments {
		t.Fatalf("%d shipments after the second batch, want %d", got, shipments)
	}
	// Editing a known row is refused: its reference cannot be changed to ship it again.
	cells := desk.ReadBatchRow(again[2]).Cells
	cells[orderfile.Reference] = "TW-1-X"
	if _, err := d.EditRow(ctx, second, again[2].ID, cells); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("edit of a known row: %v", err)
	}

	// A new parcel needs its own reference, free.
	if got := d.SuggestReference(ctx, "TW-1"); got != "TW-1-2" {
		t.Errorf("suggested %q", got)
	}
	for _, bad := range []string{"", "TW-1", "a\x00b", "\xff", strings.Repeat("x", 65)} {
		if _, err := d.NewParcel(ctx, second, again[2].ID, bad); !apperr.Is(err, apperr.Invalid) || apperr.ProblemsOf(err)["reference"].IsZero() {
			t.Errorf("new parcel with reference %q: %v", bad, err)
		}
	}
	if _, err := d.NewParcel(ctx, second, again[2].ID, "TW-1-2"); err != nil {
		t.Fatal(err)
	}
	// Without a reference one is made for it.
	if _, err := d.NewParcel(ctx, second, again[3].ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NewParcel(ctx, second, again[3].ID, "X"); !apperr.Is(err, apperr.Conflict) {
		t.Errorf("a row taken as a new parcel twice: %v", err)
	}
	desktest.SettledBatch(t, e.DB, second)
	if n, err := d.OrderBatch(ctx, second); err != nil || n != 2 {
		t.Fatalf("order the new parcels: %d %v", n, err)
	}
	for _, r := range desktest.SettledBatch(t, e.DB, second) {
		want := storage.RowKnown
		if r.ID == again[2].ID || r.ID == again[3].ID {
			want = storage.RowOrdered
		}
		if r.State != want {
			t.Errorf("line %d: %s, want %s (%s)", r.Line, r.State, want, r.Error)
		}
		if r.ID == again[2].ID {
			s, err := e.DB.ShipmentByID(ctx, *r.ShipmentID)
			if err != nil || s.Reference != "TW-1-2" {
				t.Errorf("the new parcel's shipment: %q %v", s.Reference, err)
			}
		}
	}
	if got := shipmentCount(t, e); got != shipments+2 {
		t.Errorf("%d shipments, want %d", got, shipments+2)
	}
}

// A row whose reference was ordered after the file was imported (through
// the form, another batch) is known when it is about to be ordered.
func TestBatchRowOrderedMeanwhileIsKnown(t *testing.T) {
	d, e := batchDesk(t)
	ctx := context.Background()
	id, rows := importTwice(t, d, e)
	s, _, _, err := e.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: "TW-1", Request: []byte("{}"),
		Carrier: "x"}, e.Clock.Now(), e.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.OrderBatch(ctx, id); err != nil {
		t.Fatal(err)
	}
	for _, r := range desktest.SettledBatch(t, e.DB, id) {
		if r.ID == rows[2].ID && (r.State != storage.RowKnown || r.KnownShipment == nil || *r.KnownShipment != s.ID) {
			t.Errorf("line 2: %s as %v, want shipment %d (%s)", r.State, r.KnownShipment, s.ID, r.Error)
		}
	}
}

// The reference of a shipment is taken: a second order with it is told
// which shipment has it (not a fault of ours).
func TestReferenceTakenNamesTheShipment(t *testing.T) {
	e := desktest.Start(t)
	ctx := context.Background()
	s, _, _, err := e.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: "TAKEN-1", Request: []byte("{}"),
		Carrier: "x"}, e.Clock.Now(), e.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = e.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: "TAKEN-1", Request: []byte("{}"),
		Carrier: "x"}, e.Clock.Now(), e.Clock.Now())
	if !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("second order with the reference: %v", err)
	}
	if got := apperr.TextOf(err); got.Key != "rec.reference_taken" || len(got.Args) != 2 || got.Args[1] != s.ID {
		t.Errorf("says %+v, want the shipment %d", got, s.ID)
	}
}
