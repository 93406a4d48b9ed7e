package workbench

import (
	"context"
	"strings"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func pragueAt(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.ParseInLocation("2006-01-02 15:04", s, i18n.Prague)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// A refund is due 14 calendar days after the withdrawal came, at the same
// time of day, whether summer time ends or begins in between.
func TestRefundDueAcrossSummerTime(t *testing.T) {
	for _, c := range []struct {
		received, due string
		elapsed       time.Duration
	}{
		{"2026-10-20 10:00", "2026-11-03 10:00", 14*24*time.Hour + time.Hour}, // summer time ends on 25 October
		{"2026-03-20 10:00", "2026-04-03 10:00", 14*24*time.Hour - time.Hour}, // and begins on 29 March
		{"2026-11-10 23:30", "2026-11-24 23:30", 14 * 24 * time.Hour},
	} {
		received := pragueAt(t, c.received)
		due := RefundDue(received)
		if !due.Equal(pragueAt(t, c.due)) || due.Sub(received) != c.elapsed {
			t.Errorf("received %s: due %s (%v later), want %s", c.received, due, due.Sub(received), c.due)
		}
	}
	if d := CalendarDays(pragueAt(t, "2026-11-01 23:50"), pragueAt(t, "2026-11-16 00:10")); d != 15 {
		t.Errorf("calendar days: %d, want 15", d)
	}
}

// withdrawalBench is a workbench on a fresh database at a frozen moment,
// with a commission, a delivered shipment and two staff members.
type withdrawalBench struct {
	w                 *Workbench
	db                *storage.DB
	commission        int64
	manager, agent    *identity.Staff
	deliveredShipment string
}

func newWithdrawalBench(t *testing.T, now time.Time) withdrawalBench {
	t.Helper()
	db := pgtest.New(t)
	b := withdrawalBench{w: New(db, nil, clock.Frozen(now), nil), db: db, deliveredShipment: "DR1234567890"}
	b.commission = insertCommission(t, db)
	for _, role := range []identity.Role{identity.Manager, identity.Agent} {
		var id int64
		if err := db.SQL().QueryRow(`INSERT INTO users (username, role, password_hash) VALUES ($1, $1, 'x') RETURNING id`,
			string(role)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		st := &identity.Staff{ID: id, Username: string(role), Role: role}
		if role == identity.Manager {
			b.manager = st
		} else {
			b.agent = st
		}
	}
	var ship int64
	if err := db.SQL().QueryRow(`INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, tracking_number,
    status, label_mode, label_status, created_at, ordered_at)
VALUES (gen_random_uuid(), 'REF-1', 'created', '{}', 'X', 1, $1, 'DELIVERED', 'PRINT', 'READY', $2, $2) RETURNING id`,
		b.deliveredShipment, pragueAt(t, "2026-10-30 09:00")).Scan(&ship); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`INSERT INTO tracking_events (shipment_id, package_index, occurred, status, name)
VALUES ($1, 0, $2, 'DELIVERED', 'DELIVERED')`, ship, pragueAt(t, "2026-11-01 10:00")); err != nil {
		t.Fatal(err)
	}
	return b
}

func insertCommission(t *testing.T, db *storage.DB) int64 {
	t.Helper()
	var id int64
	if err := db.SQL().QueryRow(`INSERT INTO commissions (request_key, reference, state, type, status, customer_name, request, created_at)
VALUES (gen_random_uuid(), 'RC-' || gen_random_uuid(), 'created', 'withdrawal', 'new', 'Jana Nováková', '{}', now()) RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A withdrawal received more than 14 days after delivery (from tracking) is
// late; its refund is due 14 days after it was received; a form posted
// twice records it once, and a commission holds one withdrawal.
func TestRecordWithdrawal(t *testing.T) {
	ctx := context.Background()
	now := pragueAt(t, "2026-11-25 10:00")
	b := newWithdrawalBench(t, now)
	in := WithdrawalInput{Key: "k1", Amount: "1 250 Kč", Account: " 19-2000145399 / 0800", Received: "20. 11. 2026",
		Shipment: b.deliveredShipment, By: b.agent.ID}
	got, err := b.w.RecordWithdrawal(ctx, b.commission, in)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Late || got.DeliveredAt == nil || !got.DeliveredAt.Equal(pragueAt(t, "2026-11-01 10:00")) || got.ShipmentID == nil {
		t.Errorf("late %v, delivered %v, shipment %v", got.Late, got.DeliveredAt, got.ShipmentID)
	}
	if got.Amount != 1250 || got.Currency != "CZK" || got.Account != "19-2000145399/0800" {
		t.Errorf("amount %v %s, account %q", got.Amount, got.Currency, got.Account)
	}
	if !got.ReceivedAt.Equal(pragueAt(t, "2026-11-20 12:00")) || !got.DueAt.Equal(pragueAt(t, "2026-12-04 12:00")) {
		t.Errorf("received %v, due %v", got.ReceivedAt, got.DueAt)
	}
	again, err := b.w.RecordWithdrawal(ctx, b.commission, in)
	if err != nil || again.ID != got.ID {
		t.Errorf("the same form again: %d, %v; want %d", again.ID, err, got.ID)
	}
	in.Key = "k2"
	if _, err := b.w.RecordWithdrawal(ctx, b.commission, in); apperr.CodeOf(err) != apperr.Conflict {
		t.Errorf("a second withdrawal on the commission: %v", err)
	}

	// Within 14 days of a typed delivery day, received today: in time, due in 14 days.
	other := insertCommission(t, b.db)
	inTime, err := b.w.RecordWithdrawal(ctx, other, WithdrawalInput{Key: "k3", Amount: "1.250", Currency: "EUR",
		Account: "cz65 0800 0000 1920 0014 5399", Delivered: "2026-11-11"})
	if err != nil {
		t.Fatal(err)
	}
	if inTime.Late || !inTime.ReceivedAt.Equal(now) || !inTime.DueAt.Equal(now.AddDate(0, 0, 14)) || inTime.Amount != 1250 ||
		inTime.Account != "CZ6508000000192000145399" {
		t.Errorf("in time: %+v", inTime)
	}
}

// Every field's problem is said on its field, and nothing is stored.
func TestWithdrawalBadInput(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.English)
	b := newWithdrawalBench(t, pragueAt(t, "2026-11-25 10:00"))
	good := WithdrawalInput{Key: "k", Amount: "100", Account: "19-2000145399/0800"}
	for _, c := range []struct {
		name  string
		edit  func(*WithdrawalInput)
		field string
	}{
		{"no amount", func(in *WithdrawalInput) { in.Amount = "" }, "amount"},
		{"zero", func(in *WithdrawalInput) { in.Amount = "0" }, "amount"},
		{"negative", func(in *WithdrawalInput) { in.Amount = "-5" }, "amount"},
		{"NaN", func(in *WithdrawalInput) { in.Amount = "NaN" }, "amount"},
		{"infinity", func(in *WithdrawalInput) { in.Amount = "Inf" }, "amount"},
		{"exponent", func(in *WithdrawalInput) { in.Amount = "1e3" }, "amount"},
		{"three decimals", func(in *WithdrawalInput) { in.Amount = "12,345" }, "amount"},
		{"oversized amount", func(in *WithdrawalInput) { in.Amount = strings.Repeat("9", 60) }, "amount"},
		{"too much", func(in *WithdrawalInput) { in.Amount = "20 000 000" }, "amount"},
		{"NUL in amount", func(in *WithdrawalInput) { in.Amount = "1\x0000" }, "amount"},
		{"bad modulo 11", func(in *WithdrawalInput) { in.Account = "19-2000145398/0800" }, "account"},
		{"bad IBAN", func(in *WithdrawalInput) { in.Account = "CZ6608000000192000145399" }, "account"},
		{"no bank code", func(in *WithdrawalInput) { in.Account = "2000145399" }, "account"},
		{"not UTF-8", func(in *WithdrawalInput) { in.Account = "\xff\xfe/0800" }, "account"},
		{"script", func(in *WithdrawalInput) { in.Account = "<script>alert(1)</script>" }, "account"},
		{"SQL", func(in *WithdrawalInput) { in.Account = "1'; DROP TABLE withdrawals;--" }, "account"},
		{"oversized account", func(in *WithdrawalInput) { in.Account = strings.Repeat("1", 5000) }, "account"},
		{"currency", func(in *WithdrawalInput) { in.Currency = "USD" }, "currency"},
		{"received tomorrow", func(in *WithdrawalInput) { in.Received = "26. 11. 2026" }, "received"},
		{"received no day", func(in *WithdrawalInput) { in.Received = "včera" }, "received"},
		{"control characters in note", func(in *WithdrawalInput) { in.Note = "a\x1bb" }, "note"},
		{"unknown shipment", func(in *WithdrawalInput) { in.Shipment = "NOPE1" }, "shipment"},
		{"delivered after received", func(in *WithdrawalInput) { in.Delivered = "2026-11-25"; in.Received = "2026-11-24" }, "delivered"},
		{"no key", func(in *WithdrawalInput) { in.Key = "" }, "form"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := good
			c.edit(&in)
			_, err := b.w.RecordWithdrawal(ctx, b.commission, in)
			fields := apperr.FieldsOf(ctx, err)
			if apperr.CodeOf(err) != apperr.Invalid || fields[c.field] == "" {
				t.Errorf("%v: fields %v, want a problem of %s", err, fields, c.field)
			}
		})
	}
	if _, found, err := b.w.WithdrawalOf(ctx, b.commission); found || err != nil {
		t.Errorf("a withdrawal was stored: %v %v", found, err)
	}
}

// A refund is marked paid once, by a manager: who and when stay as first
// recorded.
func TestMarkRefundPaidOnce(t *testing.T) {
	ctx := context.Background()
	now := pragueAt(t, "2026-11-25 10:00")
	b := newWithdrawalBench(t, now)
	wd, err := b.w.RecordWithdrawal(ctx, b.commission, WithdrawalInput{Key: "k", Amount: "99,50", Account: "2000145399/0800"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.w.MarkRefundPaid(ctx, b.agent, wd.ID); apperr.CodeOf(err) != apperr.Forbidden {
		t.Errorf("an agent marked it paid: %v", err)
	}
	due, err := b.w.RefundsDue(ctx, false)
	if err != nil || len(due) != 1 || due[0].ID != wd.ID {
		t.Fatalf("refunds due: %v %v", due, err)
	}
	paid, err := b.w.MarkRefundPaid(ctx, b.manager, wd.ID)
	if err != nil || paid.PaidAt == nil || !paid.PaidAt.Equal(now) || paid.PaidByName == nil || *paid.PaidByName != "manager" {
		t.Fatalf("paid: %+v %v", paid, err)
	}
	later := New(b.db, nil, clock.Frozen(now.Add(time.Hour)), nil)
	if _, err := later.MarkRefundPaid(ctx, b.manager, wd.ID); apperr.CodeOf(err) != apperr.Conflict {
		t.Errorf("paid twice: %v", err)
	}
	again, _ := b.db.WithdrawalByID(ctx, wd.ID)
	if !again.PaidAt.Equal(now) {
		t.Errorf("the second mark moved the time to %v", again.PaidAt)
	}
	if due, _ := b.w.RefundsDue(ctx, false); len(due) != 0 {
		t.Errorf("a paid refund is still due: %v", due)
	}
	if list, _ := b.w.RefundsDue(ctx, true); len(list) != 1 {
		t.Errorf("paid list: %v", list)
	}
}
