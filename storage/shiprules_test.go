package storage_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"

	"shipdesk/apperr"
	"shipdesk/shiprules"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func kg(x float64) *float64 { return &x }

func ruleNames(t *testing.T, db *storage.DB) []string {
	t.Helper()
	rules, err := db.ShipRules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, r := range rules {
		out = append(out, r.Name)
	}
	return out
}

func addRule(t *testing.T, db *storage.DB, name string) int64 {
	t.Helper()
	id, err := db.SaveShipRule(context.Background(), shiprules.Rule{Name: name, COD: shiprules.CODAny, Delivery: shiprules.DeliveryAny, Choice: shiprules.Cheapest})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A rule is stored field for field and read back the same; an edit keeps
// its place, whatever position it claims.
func TestShipRuleRoundTrip(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	if rules, err := db.ShipRules(ctx); err != nil || len(rules) != 0 {
		t.Fatalf("a new table has %v, %v", rules, err)
	}
	first := addRule(t, db, "First")
	full := shiprules.Rule{Name: "Těžké na Slovensko", Countries: shiprules.Codes{"SK", "CZ"}, COD: shiprules.CODYes,
		WeightMinKg: kg(2.5), WeightMaxKg: kg(30), LongestMaxCm: kg(120), DimsSumMaxCm: kg(300), Delivery: shiprules.DeliveryDoor,
		Choice: shiprules.Cheapest, Carriers: shiprules.Codes{"PPL", "UPS"}}
	id, err := db.SaveShipRule(ctx, full)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.ShipRule(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	full.ID, full.Position = id, 2
	if !reflect.DeepEqual(got, full) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, full)
	}

	named := shiprules.Rule{ID: id, Position: 99, Name: "Named", COD: shiprules.CODAny, Delivery: shiprules.DeliveryPoint,
		Choice: shiprules.Named, Carrier: "UPS", Service: "Parcel", ServiceID: 12}
	if _, err := db.SaveShipRule(ctx, named); err != nil {
		t.Fatal(err)
	}
	got, _ = db.ShipRule(ctx, id)
	named.Position = 2
	if !reflect.DeepEqual(got, named) {
		t.Fatalf("edited\n%+v\nwant\n%+v", got, named)
	}
	all, err := db.ShipRules(ctx)
	if err != nil || len(all) != 2 || all[0].ID != first || all[1].ID != id {
		t.Fatalf("list %+v, %v", all, err)
	}
}

func TestShipRuleUnknownIsNotFound(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	if _, err := db.ShipRule(ctx, 404); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("read: %v", err)
	}
	if _, err := db.SaveShipRule(ctx, shiprules.Rule{ID: 404, Name: "x", COD: "any", Delivery: "any", Choice: "cheapest"}); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("save: %v", err)
	}
	if err := db.DeleteShipRule(ctx, 404); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("delete: %v", err)
	}
	if err := db.MoveShipRule(ctx, 404, true); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("move: %v", err)
	}
}

// What the chooser could not follow never reaches the table, even past the
// desk's checks.
func TestShipRuleTableRefusesNonsense(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	ok := shiprules.Rule{Name: "ok", COD: "any", Delivery: "any", Choice: "cheapest"}
	for name, change := range map[string]func(*shiprules.Rule){
		"no name":        func(r *shiprules.Rule) { r.Name = "" },
		"unknown choice": func(r *shiprules.Rule) { r.Choice = "random" },
		"unknown cod":    func(r *shiprules.Rule) { r.COD = "maybe" },
		"NaN weight":     func(r *shiprules.Rule) { r.WeightMaxKg = kg(math.NaN()) },
		"infinite side":  func(r *shiprules.Rule) { r.LongestMaxCm = kg(math.Inf(1)) },
		"negative":       func(r *shiprules.Rule) { r.WeightMinKg = kg(-1) },
		"min over max":   func(r *shiprules.Rule) { r.WeightMinKg, r.WeightMaxKg = kg(5), kg(2) },
	} {
		r := ok
		change(&r)
		if _, err := db.SaveShipRule(ctx, r); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	if got := ruleNames(t, db); len(got) != 0 {
		t.Errorf("stored %v", got)
	}
}

// Moving swaps a rule with its neighbour; the ends stay; a removal leaves
// the others in order, and moving still finds the neighbour across the gap.
func TestShipRulesMoveAndDelete(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	a, b, c := addRule(t, db, "A"), addRule(t, db, "B"), addRule(t, db, "C")
	steps := []struct {
		id   int64
		up   bool
		want string
	}{
		{c, true, "[A C B]"},
		{c, true, "[C A B]"},
		{c, true, "[C A B]"},  // first already
		{b, false, "[C A B]"}, // last already
		{c, false, "[A C B]"},
		{a, false, "[C A B]"},
	}
	for i, s := range steps {
		if err := db.MoveShipRule(ctx, s.id, s.up); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(ruleNames(t, db)); got != s.want {
			t.Fatalf("step %d: %s, want %s", i, got, s.want)
		}
	}
	if err := db.DeleteShipRule(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveShipRule(ctx, b, true); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ruleNames(t, db)); got != "[B C]" {
		t.Fatalf("after removal and move: %s", got)
	}
	addRule(t, db, "D")
	if got := fmt.Sprint(ruleNames(t, db)); got != "[B C D]" {
		t.Fatalf("a new rule goes last: %s", got)
	}
}

// Managers adding and moving rules at once never lose a rule nor share a
// position.
func TestShipRulesConcurrentWrites(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	first := addRule(t, db, "first")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := db.SaveShipRule(ctx, shiprules.Rule{Name: fmt.Sprint("r", i), COD: "any", Delivery: "any", Choice: "fastest"})
			errs <- err
		}()
		go func() {
			defer wg.Done()
			errs <- db.MoveShipRule(ctx, first, i%2 == 0)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	rules, err := db.ShipRules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 21 {
		t.Fatalf("%d rules", len(rules))
	}
	for i := 1; i < len(rules); i++ {
		if rules[i].Position <= rules[i-1].Position {
			t.Fatalf("positions %d then %d", rules[i-1].Position, rules[i].Position)
		}
	}
}
