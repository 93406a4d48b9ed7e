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

// figure is one shipment of the money tests.
type figure struct {
	carrier, status      string
	cod                  float64 // 0: no cash on delivery
	codCurrency          string
	returned, cancelled  bool
	price                float64 // 0: price not known
	priceCurrency, state string
	daysAgo              int
}

func storeFigures(t *testing.T, db *storage.DB, now time.Time, rows []figure) {
	t.Helper()
	for i, r := range rows {
		var cod, price any
		var codCur, priceCur any
		if r.cod > 0 {
			cod, codCur = r.cod, r.codCurrency
		}
		if r.price > 0 {
			price, priceCur = r.price, r.priceCurrency
		}
		var cancelled any
		if r.cancelled {
			cancelled = now
		}
		state := r.state
		if state == "" {
			state = "created"
		}
		_, err := db.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, status, returned, cod_value, cod_currency,
    price_vat, price_currency, cancelled_at, created_at)
VALUES (gen_random_uuid(), 'FIG-' || $1::int, $2, '{}', $3, 1, $4, $5, $6, $7, $8, $9, $10, $11)`,
			i, state, r.carrier, r.status, r.returned, cod, codCur, price, priceCur, cancelled, now.AddDate(0, 0, -r.daysAgo))
		if err != nil {
			t.Fatalf("store %+v: %v", r, err)
		}
	}
}

// Cash on delivery is summed per currency (never CZK with EUR): collected
// when delivered, outstanding while on the way, lost when returned;
// cancelled shipments, shipments outside the period and orders the service
// never created are not counted.
func TestCODFiguresPerCurrency(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	now := time.Now()
	storeFigures(t, db, now, []figure{
		{carrier: "ZASILKOVNA", status: "DELIVERED", cod: 1500, codCurrency: "CZK"},
		{carrier: "PPL", status: "DELIVERED", cod: 250.5, codCurrency: "CZK"},
		{carrier: "ZASILKOVNA", status: "DELIVERED", cod: 40, codCurrency: "EUR"},
		{carrier: "ZASILKOVNA", status: "INTRANSIT", cod: 990, codCurrency: "CZK"},
		{carrier: "ZASILKOVNA", status: "CREATED", cod: 12.25, codCurrency: "EUR"},
		{carrier: "ZASILKOVNA", status: "DELIVERED", cod: 700, codCurrency: "CZK", returned: true},
		{carrier: "ZASILKOVNA", status: "INTRANSIT", cod: 300, codCurrency: "CZK", cancelled: true},
		{carrier: "ZASILKOVNA", status: "CANCELLED", cod: 300, codCurrency: "CZK"},
		{carrier: "ZASILKOVNA", status: "DELIVERED", cod: 5000, codCurrency: "CZK", daysAgo: 60},
		{carrier: "ZASILKOVNA", status: "", cod: 800, codCurrency: "CZK", state: "missing"},
		{carrier: "ZASILKOVNA", status: "DELIVERED"}, // no COD
		{carrier: "ZASILKOVNA", status: "DELIVERED", cod: 100, codCurrency: "PLN"},
	})
	got, err := db.CODReport(ctx, now.AddDate(0, 0, -30), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []storage.CODFigures{
		{Currency: "CZK", Collected: 1750.5, CollectedCount: 2, OnTheWay: 990, OnTheWayCount: 1, Returned: 700, ReturnedCount: 1},
		{Currency: "EUR", Collected: 40, CollectedCount: 1, OnTheWay: 12.25, OnTheWayCount: 1},
		{Currency: "PLN", Collected: 100, CollectedCount: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("COD %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("COD %s: %+v, want %+v", want[i].Currency, got[i], want[i])
		}
	}
	none, err := db.CODReport(ctx, now.AddDate(0, 0, -200), now.AddDate(0, 0, -100))
	if err != nil || len(none) != 0 {
		t.Errorf("an empty period: %+v %v", none, err)
	}
}

// The spend per carrier sums the prices of the chosen offers per currency;
// cancelled shipments count as shipments but not as spend; shipments without
// a price are counted as unknown.
func TestSpendPerCarrier(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	now := time.Now()
	storeFigures(t, db, now, []figure{
		{carrier: "UPS", status: "DELIVERED", price: 121, priceCurrency: "CZK"},
		{carrier: "UPS", status: "INTRANSIT", price: 99.5, priceCurrency: "CZK"},
		{carrier: "UPS", status: "INTRANSIT", price: 4.2, priceCurrency: "EUR"},
		{carrier: "UPS", status: "CANCELLED", price: 121, priceCurrency: "CZK"},
		{carrier: "UPS", status: "DELIVERED"}, // ordered before prices were kept
		{carrier: "ZASILKOVNA", status: "DELIVERED"},
		{carrier: "ZASILKOVNA", status: "INTRANSIT", cancelled: true},
		{carrier: "PPL", status: "DELIVERED", price: 80, priceCurrency: "CZK", daysAgo: 90},
	})
	got, err := db.SpendReport(ctx, now.AddDate(0, 0, -30), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("carriers %+v", got)
	}
	ups, zasilkovna := got[0], got[1] // in the order of the codes
	if zasilkovna.Carrier != "ZASILKOVNA" || zasilkovna.Shipments != 2 || zasilkovna.Unknown != 1 || len(zasilkovna.Spend) != 0 {
		t.Errorf("ZASILKOVNA: %+v", zasilkovna)
	}
	if ups.Carrier != "UPS" || ups.Shipments != 5 || ups.Unknown != 1 || len(ups.Spend) != 2 ||
		ups.Spend[0] != (storage.Amount{Currency: "CZK", Value: 220.5, Count: 2}) ||
		ups.Spend[1] != (storage.Amount{Currency: "EUR", Value: 4.2, Count: 1}) {
		t.Errorf("UPS: %+v", ups)
	}
}

// A price must come whole: an amount and its currency, neither negative nor
// a currency of another shape.
func TestPriceIsStoredWhole(t *testing.T) {
	db := pgtest.New(t)
	for name, q := range map[string]string{
		"amount alone":   `UPDATE shipments SET price_vat = 10`,
		"currency alone": `UPDATE shipments SET price_currency = 'CZK'`,
		"negative":       `UPDATE shipments SET price_vat = -1, price_currency = 'CZK'`,
		"currency shape": `UPDATE shipments SET price_vat = 1, price_currency = 'czk'`,
	} {
		seedShipments(t, db, 1)
		if _, err := db.SQL().Exec(q); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := db.SQL().Exec(`DELETE FROM shipments`); err != nil {
			t.Fatal(err)
		}
	}
}

// The days of the reports are the shop's calendar days, also across a change
// of summer time, whatever zone the database session uses.
func TestReportDaysAreLocalDays(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range []time.Time{
		time.Date(2026, 10, 24, 23, 30, 0, 0, prague), // 22:30 UTC: still the 24th here
		time.Date(2026, 10, 26, 0, 30, 0, 0, prague),  // after the clocks went back on the 25th
		time.Date(2026, 10, 26, 23, 59, 0, 0, prague),
		time.Date(2026, 10, 29, 12, 0, 0, 0, prague), // outside the period
	} {
		if _, err := db.SQL().Exec(`INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, created_at)
VALUES (gen_random_uuid(), 'DAY-' || $1::int, 'created', '{}', 'ZASILKOVNA', 1, $2)`, i, at); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := db.Report(ctx, time.Date(2026, 10, 23, 0, 0, 0, 0, prague), time.Date(2026, 10, 28, 0, 0, 0, 0, prague))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.PerDay {
		got = append(got, fmt.Sprintf("%s:%d", d.Key, d.Count))
	}
	want := []string{"2026-10-23:0", "2026-10-24:1", "2026-10-25:0", "2026-10-26:2", "2026-10-27:0"}
	if !slices.Equal(got, want) {
		t.Errorf("days %v, want %v", got, want)
	}
}
