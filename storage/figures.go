package storage

import (
	"context"
	"fmt"
	"time"
)

// The managers' money figures over a period of creation dates, as the
// reports count shipments: those the service created, ordered in [from, to).
// Amounts stay in their currency; nothing here converts or adds currencies.

// CODFigures is cash on delivery in one currency.
type CODFigures struct {
	Currency string `db:"currency"`
	// Collected: delivered to the recipient (and not returned), so paid.
	Collected      float64 `db:"collected"`
	CollectedCount int     `db:"collected_count"`
	// OnTheWay: not delivered yet, not returned, not cancelled: still to be paid.
	OnTheWay      float64 `db:"on_the_way"`
	OnTheWayCount int     `db:"on_the_way_count"`
	// Returned: came back to the sender, so never paid.
	Returned      float64 `db:"returned"`
	ReturnedCount int     `db:"returned_count"`
}

// CODReport sums cash on delivery per currency, CZK first.
func (db *DB) CODReport(ctx context.Context, from, to time.Time) ([]CODFigures, error) {
	const (
		collected = `status = 'DELIVERED' AND NOT returned`
		onTheWay  = `NOT returned AND status NOT IN ('DELIVERED', 'CANCELLED') AND cancelled_at IS NULL`
	)
	var out []CODFigures
	err := sqlxSelect(ctx, db, &out, `
SELECT cod_currency AS currency,
    COALESCE(sum(cod_value) FILTER (WHERE `+collected+`), 0) AS collected,
    count(*) FILTER (WHERE `+collected+`) AS collected_count,
    COALESCE(sum(cod_value) FILTER (WHERE `+onTheWay+`), 0) AS on_the_way,
    count(*) FILTER (WHERE `+onTheWay+`) AS on_the_way_count,
    COALESCE(sum(cod_value) FILTER (WHERE returned), 0) AS returned,
    count(*) FILTER (WHERE returned) AS returned_count
FROM shipments
WHERE state = 'created' AND created_at >= $1 AND created_at < $2 AND cod_value IS NOT NULL AND cod_currency IS NOT NULL
GROUP BY cod_currency
ORDER BY cod_currency <> 'CZK', cod_currency`, from, to)
	return out, wrapf(err, "report cash on delivery")
}

// Amount is a sum in one currency over Count shipments.
type Amount struct {
	Currency string
	Value    float64
	Count    int
}

// CarrierSpend is what the shipments of one carrier cost: the prices of the
// offers they were ordered with, per currency. Cancelled shipments are not
// counted in the spend.
type CarrierSpend struct {
	Carrier   string   // "?" when not known
	Shipments int      // every shipment of the period, cancelled ones too
	Spend     []Amount // per currency, CZK first
	Unknown   int      // not cancelled, with no known price (ordered before prices were kept, or elsewhere)
}

// SpendReport counts the shipments and sums the prices per carrier, in
// carrier order.
func (db *DB) SpendReport(ctx context.Context, from, to time.Time) ([]CarrierSpend, error) {
	var rows []struct {
		Carrier   string   `db:"carrier"`
		Currency  *string  `db:"currency"`
		Cancelled bool     `db:"cancelled"`
		Count     int      `db:"count"`
		Sum       *float64 `db:"sum"`
	}
	err := sqlxSelect(ctx, db, &rows, `
SELECT COALESCE(NULLIF(carrier, ''), '?') AS carrier, price_currency AS currency,
    (status = 'CANCELLED' OR cancelled_at IS NOT NULL) AS cancelled, count(*) AS count, sum(price_vat) AS sum
FROM shipments
WHERE state = 'created' AND created_at >= $1 AND created_at < $2
GROUP BY 1, 2, 3
ORDER BY 1, price_currency IS NULL, price_currency <> 'CZK', price_currency`, from, to)
	if err != nil {
		return nil, fmt.Errorf("report spend per carrier: %w", err)
	}
	var out []CarrierSpend
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Carrier != r.Carrier {
			out = append(out, CarrierSpend{Carrier: r.Carrier})
		}
		c := &out[len(out)-1]
		c.Shipments += r.Count
		switch {
		case r.Cancelled:
		case r.Currency == nil || r.Sum == nil:
			c.Unknown += r.Count
		case len(c.Spend) > 0 && c.Spend[len(c.Spend)-1].Currency == *r.Currency:
			c.Spend[len(c.Spend)-1].Value += *r.Sum
			c.Spend[len(c.Spend)-1].Count += r.Count
		default:
			c.Spend = append(c.Spend, Amount{Currency: *r.Currency, Value: *r.Sum, Count: r.Count})
		}
	}
	return out, nil
}
