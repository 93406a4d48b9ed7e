package storage_test

import (
	"context"
	"strings"
	"testing"

	"shipdesk/migrations"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// The list finds what people type: a reference by its beginning in any case,
// a name or town without its accents (through the trigram index, plan
// checked), and the scan box a reference typed with spaces for its dashes
// and a tracking number by its last digits.
func TestSearchFindsWhatPeopleType(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 30)
	if _, err := db.SQL().Exec(`UPDATE shipments SET reference = 'OBJ-2026-' || id WHERE id <= 10`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`UPDATE shipments SET recipient_name = 'Jana Nováková', recipient_city = 'Plzeň' WHERE id IN (11, 12)`); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		filter storage.ListFilter
		want   int
	}{
		{storage.ListFilter{Reference: "OBJ-2026"}, 10},
		{storage.ListFilter{Reference: "obj-2026-1"}, 2}, // OBJ-2026-1 and OBJ-2026-10
		{storage.ListFilter{Reference: "OBJ-2026-3"}, 1},
		{storage.ListFilter{Reference: "OBJ_%"}, 0},
		{storage.ListFilter{Text: "novakova"}, 2},
		{storage.ListFilter{Text: "NOVÁKOVÁ"}, 2},
		{storage.ListFilter{Text: "plzen"}, 2},
		{storage.ListFilter{Text: "Plzeň"}, 2},
	} {
		page, err := db.ListShipments(ctx, f.filter)
		if err != nil || len(page.Shipments) != f.want {
			t.Errorf("%+v: %d found, want %d (%v)", f.filter, len(page.Shipments), f.want, err)
		}
	}
	for code, want := range map[string]string{"OBJ 2026 7": "OBJ-2026-7", "obj20267": "OBJ-2026-7", "00000017": "G300000017", "000017": "G300000017"} {
		found, _, err := db.Scan(ctx, code, 10)
		if err != nil || len(found) != 1 || (found[0].Reference != want && found[0].Tracking() != want) {
			t.Errorf("scan %q: %d found, want %s (%v)", code, len(found), want, err)
		}
	}
	if found, _, _ := db.Scan(ctx, "17", 10); len(found) != 0 {
		t.Errorf("two digits matched %d tracking numbers' ends", len(found))
	}
	plan := explain(t, db, storage.ListFilter{Text: "novakova"})
	if !strings.Contains(plan, "shipments_search_text_idx") {
		t.Errorf("the folded search does not use the trigram index:\n%s", plan)
	}
}

// explain is the plan of a text filter's rows when few of the newest match
// (its fallback: the index's way), with sequential scans off, so the plan
// shows the index a big table would use.
func explain(t *testing.T, db *storage.DB, f storage.ListFilter) string {
	t.Helper()
	_, fallback, args, err := f.ListSQL()
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.SQL().Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query("EXPLAIN "+fallback, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	return strings.Join(plan, "\n")
}

// The shipments' search text is folded in the database as Fold folds what is
// typed: the migration's translate names the same letters.
func TestTheStoredSearchTextFoldsAsFoldDoes(t *testing.T) {
	sql, err := migrations.FS.ReadFile("00053_search_as_people_type.sql")
	if err != nil {
		t.Fatal(err)
	}
	from, to := storage.FoldLetters()
	if !strings.Contains(string(sql), "'"+from+"', '"+to+"'") {
		t.Errorf("migration 00053 folds other letters than Fold (%s → %s)", from, to)
	}
	if got := storage.Fold("Žluťoučký kůň ÚPĚL ďábelské ódy"); got != "zlutoucky kun upel dabelske ody" {
		t.Errorf("Fold: %q", got)
	}
}
