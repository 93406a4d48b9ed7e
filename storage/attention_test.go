package storage_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

var prague = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		panic(err)
	}
	return loc
}()

// praguAt is a moment of the shop's zone.
func pragueAt(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, prague)
	if err != nil {
		panic(err)
	}
	return t
}

// attnShipment stores a shipment created a day before now and sets what the
// case needs; it returns its id.
func attnShipment(t *testing.T, db *storage.DB, carrier, set string, args ...any) int64 {
	t.Helper()
	var id int64
	err := db.SQL().QueryRow(`INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, tracking_number,
    status, label_mode, label_status, created_at, ordered_at)
VALUES (gen_random_uuid(), 'REF-' || gen_random_uuid(), 'created', '{}', $1, 1, $1 || floor(random() * 1e9)::text,
    'INTRANSIT', 'PRINT', 'READY', $2, $2) RETURNING id`, carrier, pragueAt("2026-11-19 09:00")).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	if set != "" {
		if _, err := db.SQL().Exec(`UPDATE shipments SET `+set+` WHERE id = $1`, append([]any{id}, args...)...); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func attnEvent(t *testing.T, db *storage.DB, shipment int64, at time.Time, status string) {
	t.Helper()
	if _, err := db.SQL().Exec(`INSERT INTO tracking_events (shipment_id, package_index, occurred, status, name) VALUES ($1, 0, $2, $3, $3)`,
		shipment, at, status); err != nil {
		t.Fatal(err)
	}
}

func attnCommission(t *testing.T, db *storage.DB, set string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := db.SQL().QueryRow(`INSERT INTO commissions (request_key, reference, state, type, status, customer_name, request, created_at)
VALUES (gen_random_uuid(), 'RC-' || gen_random_uuid(), 'created', 'warranty', 'processing', 'Jana', '{}', $1) RETURNING id`,
		pragueAt("2026-11-01 09:00")).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`UPDATE commissions SET `+set+` WHERE id = $1`, append([]any{id}, args...)...); err != nil {
		t.Fatal(err)
	}
	return id
}

// openItems are the open items at now as "kind:record" strings.
func openItems(t *testing.T, db *storage.DB, now time.Time) []string {
	t.Helper()
	items, err := db.AttentionItems(context.Background(), storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnOpen})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprintf("%s:%d", it.Kind, it.RecordID))
	}
	slices.Sort(out)
	return out
}

func has(items []string, kind string, id int64) bool {
	return slices.Contains(items, fmt.Sprintf("%s:%d", kind, id))
}

// Each rule of the queue finds its records and leaves the others alone.
func TestAttentionRulesPerKind(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	now := pragueAt("2026-11-25 10:00") // a Wednesday
	if _, err := db.SQL().Exec(`INSERT INTO carriers (code, stuck_days) VALUES ('PPL', 3), ('UPS', 2)`); err != nil {
		t.Fatal(err)
	}
	failed := attnShipment(t, db, "PPL", `label_status = 'FAILED', status = 'EXPORTED'`)
	failedDelivered := attnShipment(t, db, "PPL", `label_status = 'FAILED', status = 'DELIVERED'`)
	// Last news on Friday: Monday, Tuesday, Wednesday make 3 working days, PPL's limit.
	stuckPPL := attnShipment(t, db, "PPL", "")
	attnEvent(t, db, stuckPPL, pragueAt("2026-11-20 16:00"), "INTRANSIT")
	// Last news on Monday: 2 working days, under PPL's 3 but UPS's 2.
	quietPPL := attnShipment(t, db, "PPL", "")
	attnEvent(t, db, quietPPL, pragueAt("2026-11-23 10:00"), "INTRANSIT")
	stuckUPS := attnShipment(t, db, "UPS", "")
	attnEvent(t, db, stuckUPS, pragueAt("2026-11-23 10:00"), "INTRANSIT")
	// A carrier the table does not know waits the default 3 days.
	stuckUnknown := attnShipment(t, db, "TOPTRANS", "")
	attnEvent(t, db, stuckUnknown, pragueAt("2026-11-20 08:00"), "ONPICKUP")
	deliveredOld := attnShipment(t, db, "PPL", `status = 'DELIVERED', tracking_done = true`)
	attnEvent(t, db, deliveredOld, pragueAt("2026-11-10 10:00"), "DELIVERED")
	cancelledOld := attnShipment(t, db, "PPL", `cancelled_at = $2`, pragueAt("2026-11-19 10:00"))
	attnEvent(t, db, cancelledOld, pragueAt("2026-11-10 10:00"), "INTRANSIT")
	// Out for delivery, then back on the way.
	notDelivered := attnShipment(t, db, "PPL", "")
	attnEvent(t, db, notDelivered, pragueAt("2026-11-25 08:00"), "ONDELIVERY")
	attnEvent(t, db, notDelivered, pragueAt("2026-11-25 09:00"), "INTRANSIT")
	onDelivery := attnShipment(t, db, "PPL", `status = 'ONDELIVERY'`)
	attnEvent(t, db, onDelivery, pragueAt("2026-11-25 08:00"), "ONDELIVERY")
	returning := attnShipment(t, db, "PPL", `returned = true`)
	attnEvent(t, db, returning, pragueAt("2026-11-25 09:00"), "INTRANSIT")
	codReturning := attnShipment(t, db, "PPL", `returned = true, cod_value = 1250, cod_currency = 'CZK'`)
	attnEvent(t, db, codReturning, pragueAt("2026-11-25 09:00"), "INTRANSIT")
	twice := attnShipment(t, db, "PPL", `duplicates = '{PPL000000999}'`)
	attnEvent(t, db, twice, pragueAt("2026-11-25 09:00"), "INTRANSIT")
	unknown := attnShipment(t, db, "PPL", `state = 'unknown', tracking_number = NULL, status = ''`)
	ordering := attnShipment(t, db, "PPL", `state = 'ordering', tracking_number = NULL, status = '', settles_at = $2`, now.Add(time.Minute))
	var refused, ordered int64
	for state, id := range map[string]*int64{"failed": &refused, "ordered": &ordered} {
		if err := db.SQL().QueryRow(`INSERT INTO pickups (request_key, state, contact_id, address, pickup_date, time_from, time_to, packages, weight, updated_at)
VALUES (gen_random_uuid()::text, $1, 1, 'Sklad, Brno', '2026-11-26', '08:00', '16:00', 1, 2, $2) RETURNING id`, state, now).Scan(id); err != nil {
			t.Fatal(err)
		}
	}
	claimDue := attnCommission(t, db, `deadline_at = $2`, now.Add(50*time.Hour))
	claimOverdue := attnCommission(t, db, `deadline_at = $2`, now.Add(-30*time.Hour))
	claimCalm := attnCommission(t, db, `deadline_at = $2`, now.Add(20*24*time.Hour))
	commissionTwice := attnCommission(t, db, `duplicates = '{R-2}'`)
	commissionLost := attnCommission(t, db, `state = 'unknown'`)

	got := openItems(t, db, now)
	for _, c := range []struct {
		kind string
		id   int64
		want bool
	}{
		{storage.AttnLabelFailed, failed, true},
		{storage.AttnLabelFailed, failedDelivered, false},
		{storage.AttnStuck, stuckPPL, true},
		{storage.AttnStuck, quietPPL, false},
		{storage.AttnStuck, stuckUPS, true},
		{storage.AttnStuck, stuckUnknown, true},
		{storage.AttnStuck, deliveredOld, false},
		{storage.AttnStuck, cancelledOld, false},
		{storage.AttnDeliveryFailed, notDelivered, true},
		{storage.AttnDeliveryFailed, onDelivery, false},
		{storage.AttnReturning, returning, true},
		{storage.AttnCODReturned, codReturning, true},
		{storage.AttnReturning, codReturning, false},
		{storage.AttnDuplicate, twice, true},
		{storage.AttnUncertain, unknown, true},
		{storage.AttnUncertain, ordering, false}, // still within its settle window
		{storage.AttnPickupRefused, refused, true},
		{storage.AttnPickupRefused, ordered, false},
		{storage.AttnClaimDue, claimDue, true},
		{storage.AttnClaimDue, claimOverdue, true},
		{storage.AttnClaimDue, claimCalm, false},
		{storage.AttnCommissionDuplicate, commissionTwice, true},
		{storage.AttnCommissionUncertain, commissionLost, true},
	} {
		if has(got, c.kind, c.id) != c.want {
			t.Errorf("%s of %d in the queue: %v, want %v", c.kind, c.id, !c.want, c.want)
		}
	}
	if n := len(got); n != 14 {
		t.Errorf("%d open items, want 14: %v", n, got)
	}

	// The facts the sentences are made of.
	items, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: []string{storage.AttnStuck, storage.AttnClaimDue, storage.AttnCODReturned},
		Show: storage.AttnOpen})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		switch {
		case it.RecordID == stuckPPL && (it.Days != 3 || it.DaysLimit != 3 || it.Carrier != "PPL"):
			t.Errorf("stuck PPL: %d days, limit %d, %s", it.Days, it.DaysLimit, it.Carrier)
		case it.RecordID == stuckUPS && (it.Days != 2 || it.DaysLimit != 2):
			t.Errorf("stuck UPS: %d days, limit %d", it.Days, it.DaysLimit)
		case it.Kind == storage.AttnClaimDue && it.RecordID == claimDue && it.Days != 2:
			t.Errorf("claim due: %d days left", it.Days)
		case it.Kind == storage.AttnClaimDue && it.RecordID == claimOverdue && it.Days != -2:
			t.Errorf("claim overdue: %d days", it.Days)
		case it.Kind == storage.AttnCODReturned && (it.Amount == nil || *it.Amount != 1250 || it.Currency != "CZK"):
			t.Errorf("COD returned: %v %s", it.Amount, it.Currency)
		}
	}
	// Past its settle window the order's outcome needs a person.
	if !has(openItems(t, db, now.Add(2*time.Minute)), storage.AttnUncertain, ordering) {
		t.Error("an order past its settle window is not in the queue")
	}
	// The same silence seen on Monday morning: a weekend is not a stuck parcel.
	if monday := openItems(t, db, pragueAt("2026-11-23 09:00")); has(monday, storage.AttnStuck, stuckPPL) {
		t.Error("a parcel silent since Friday is stuck on Monday")
	}
	counts, err := db.AttentionCounts(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(counts, storage.KindCount{Kind: storage.AttnStuck, Count: 3}) {
		t.Errorf("counts: %v", counts)
	}
}

// A dismissed item leaves the open queue and comes back when its problem
// occurs anew; taking and notes stay with the item.
func TestAttentionDismissAndRecurrence(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	now := pragueAt("2026-11-25 10:00")
	var user int64
	if err := db.SQL().QueryRow(`INSERT INTO users (username, role, password_hash) VALUES ('clara', 'clerk', 'x') RETURNING id`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	stuck := attnShipment(t, db, "PPL", "")
	attnEvent(t, db, stuck, pragueAt("2026-11-20 16:00"), "INTRANSIT")
	failed := attnShipment(t, db, "PPL", `label_status = 'FAILED', tracking_number = 'PPL1'`)
	items, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnOpen})
	if err != nil || len(items) != 2 {
		t.Fatalf("items %v %v", items, err)
	}
	keyOf := func(kind string, id int64) storage.AttentionKey {
		for _, it := range items {
			if it.Kind == kind && it.RecordID == id {
				return storage.AttentionKey{Kind: kind, RecordID: id, Occurrence: it.Occurrence}
			}
		}
		t.Fatalf("no %s item of %d", kind, id)
		return storage.AttentionKey{}
	}
	stuckKey, failedKey := keyOf(storage.AttnStuck, stuck), keyOf(storage.AttnLabelFailed, failed)
	if err := db.TakeAttention(ctx, stuckKey, user, now); err != nil {
		t.Fatal(err)
	}
	if err := db.NoteAttention(ctx, stuckKey, user, "Called the depot", now); err != nil {
		t.Fatal(err)
	}
	mine, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnOpen, Who: storage.AttnMine, UserID: user})
	if err != nil || len(mine) != 1 || *mine[0].TakenName != "clara" || *mine[0].LastNote != "Called the depot" {
		t.Fatalf("mine: %+v %v", mine, err)
	}
	if un := openItems(t, db, now); len(un) != 2 {
		t.Errorf("open: %v", un)
	}
	for _, k := range []storage.AttentionKey{stuckKey, failedKey} {
		if err := db.DismissAttention(ctx, k, user, "solved", "", now); err != nil {
			t.Fatal(err)
		}
	}
	if open := openItems(t, db, now); len(open) != 0 {
		t.Errorf("dismissed items still open: %v", open)
	}
	dismissed, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnDismissed})
	if err != nil || len(dismissed) != 2 || dismissed[0].DismissReason != "solved" {
		t.Errorf("dismissed: %+v %v", dismissed, err)
	}
	// The summary of the day keeps today's dismissals; tomorrow's does not.
	day := pragueAt("2026-11-25 00:00")
	if s, _ := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnSummary, DismissedSince: day}); len(s) != 2 {
		t.Errorf("summary today: %d items", len(s))
	}
	if s, _ := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: storage.AttentionKinds, Show: storage.AttnSummary, DismissedSince: day.AddDate(0, 0, 1)}); len(s) != 0 {
		t.Errorf("summary tomorrow: %d items", len(s))
	}
	// A new event, then silence again: stuck anew. A new FAILED label after
	// ordering again (another tracking number): failed anew.
	attnEvent(t, db, stuck, pragueAt("2026-11-25 11:00"), "INTRANSIT")
	if _, err := db.SQL().Exec(`UPDATE shipments SET tracking_number = 'PPL2' WHERE id = $1`, failed); err != nil {
		t.Fatal(err)
	}
	later := pragueAt("2026-11-30 12:00") // Monday: Thursday, Friday, Monday
	if open := openItems(t, db, later); !has(open, storage.AttnStuck, stuck) || !has(open, storage.AttnLabelFailed, failed) {
		t.Errorf("recurred problems are not back: %v", open)
	}
	if err := db.RestoreAttention(ctx, stuckKey); err != nil {
		t.Fatal(err)
	}
	if found, err := db.AttentionItemAt(ctx, now, failedKey); err != nil || found {
		t.Errorf("the old FAILED occurrence is still an item: %v %v", found, err)
	}
}

// A refund due within 3 days or overdue and not paid is in the managers'
// queue, with its amount and due date; one due later or paid is not.
func TestAttentionRefundDue(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	now := pragueAt("2026-11-25 10:00")
	refund := func(due time.Time, paid bool) int64 {
		t.Helper()
		commission := attnCommission(t, db, `type = 'withdrawal', deadline_at = NULL`)
		var paidAt *time.Time
		if paid {
			paidAt = &now
		}
		var id int64
		if err := db.SQL().QueryRow(`INSERT INTO withdrawals (request_key, commission_id, received_at, amount, currency, account, due_at,
    paid_at, created_at) VALUES (gen_random_uuid()::text, $1, $2, 1250.5, 'CZK', '2000145399/0800', $3, $4, $2) RETURNING id`,
			commission, due.AddDate(0, 0, -14), due, paidAt).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	soon := refund(pragueAt("2026-11-27 12:00"), false)
	overdue := refund(pragueAt("2026-11-23 09:00"), false)
	later := refund(pragueAt("2026-12-05 12:00"), false)
	paid := refund(pragueAt("2026-11-20 12:00"), true)
	got := openItems(t, db, now)
	for _, c := range []struct {
		id   int64
		want bool
	}{{soon, true}, {overdue, true}, {later, false}, {paid, false}} {
		if has(got, storage.AttnRefundDue, c.id) != c.want {
			t.Errorf("refund %d in the queue: %v, want %v (%v)", c.id, !c.want, c.want, got)
		}
	}
	items, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: []string{storage.AttnRefundDue}, Show: storage.AttnOpen})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Amount == nil || *it.Amount != 1250.5 || it.Currency != "CZK" || it.Deadline == nil || it.Detail != "Jana" {
			t.Errorf("refund item: %+v", it)
		}
		if it.RecordID == soon && it.Days != 2 || it.RecordID == overdue && it.Days != -3 {
			t.Errorf("refund %d: %d days", it.RecordID, it.Days)
		}
	}
	counts, err := db.AttentionCounts(ctx, now)
	if err != nil || !slices.Contains(counts, storage.KindCount{Kind: storage.AttnRefundDue, Count: 2}) {
		t.Errorf("counts: %v %v", counts, err)
	}
}
