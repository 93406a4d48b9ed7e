package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// A batch orders its rows a few at a time; these statements do for many
// rows what BeginShipment, RecordCreated and RowMatches do for one, each in
// one statement (one round trip for the rows together, not one each).

// Begun is an intent recorded by BeginShipments, with its first attempt.
type Begun struct {
	Shipment Shipment
	Attempt  int64
}

// intentRow is an intent as jsonb_populate_recordset reads it: its keys are
// the shipments table's columns.
type intentRow struct {
	RequestKey    string          `json:"request_key"`
	Reference     string          `json:"reference"`
	Request       json.RawMessage `json:"request"`
	Carrier       string          `json:"carrier"`
	ServiceID     int             `json:"service_id"`
	ServiceName   string          `json:"service_name"`
	RecipientName string          `json:"recipient_name"`
	RecipientCity string          `json:"recipient_city"`
	LabelLess     bool            `json:"label_less"`
	CODValue      *float64        `json:"cod_value"`
	CODCurrency   *string         `json:"cod_currency"`
	InsuredValue  *float64        `json:"insured_value"`
	CreatedBy     *int64          `json:"created_by"`
	PriceVAT      *float64        `json:"price_vat"`
	PriceCurrency *string         `json:"price_currency"`
	NoMail        bool            `json:"no_customer_mail"`
}

// BeginShipments records many intents to order, each with its first
// attempt, as BeginShipment does for one, in one statement: every intent is
// stored before any of them is sent. It answers by request key the intents
// it recorded; an intent recorded before under its key is not among them,
// and a statement refused as a whole (a reference taken) records none: the
// caller takes those one at a time (BeginShipment), which says why.
func (db *DB) BeginShipments(ctx context.Context, list []Shipment, sent, deadline time.Time) (map[string]Begun, error) {
	rows := make([]intentRow, len(list))
	for i, s := range list {
		rows[i] = intentRow{RequestKey: s.RequestKey, Reference: s.Reference, Request: json.RawMessage(s.Request.text()),
			Carrier: s.Carrier, ServiceID: s.ServiceID, ServiceName: s.ServiceName, RecipientName: s.RecipientName,
			RecipientCity: s.RecipientCity, LabelLess: s.LabelLess, CODValue: s.CODValue, CODCurrency: s.CODCurrency,
			InsuredValue: s.InsuredValue, CreatedBy: s.CreatedBy, PriceVAT: s.PriceVAT, PriceCurrency: s.PriceCurrency,
			NoMail: s.NoCustomerMail}
	}
	data, err := json.Marshal(rows)
	if err != nil {
		return nil, fmt.Errorf("encode %d orders: %w", len(list), err)
	}
	const q = `
WITH s AS (
    INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name,
        recipient_name, recipient_city, label_less, cod_value, cod_currency, insured_value, created_by, price_vat, price_currency,
        created_at, settles_at, no_customer_mail)
    SELECT request_key, reference, 'ordering', request, carrier, service_id, service_name,
        recipient_name, recipient_city, label_less, cod_value, cod_currency, insured_value, created_by, price_vat, price_currency, $2, $3,
        no_customer_mail
    FROM jsonb_populate_recordset(NULL::shipments, $1::jsonb)
    ON CONFLICT (request_key) DO NOTHING
    RETURNING ` + shipmentColumns + `),
a AS (INSERT INTO create_attempts (shipment_id, sent_at, deadline) SELECT id, $2, $3 FROM s RETURNING id, shipment_id)
SELECT s.*, a.id AS attempt_id FROM s JOIN a ON a.shipment_id = s.id`
	var got []struct {
		Shipment
		Attempt int64 `db:"attempt_id"`
	}
	if err := sqlxSelect(ctx, db, &got, q, string(data), sent, deadline); err != nil {
		return nil, fmt.Errorf("record %d orders: %w", len(list), err)
	}
	out := make(map[string]Begun, len(got))
	for _, g := range got {
		g.SettlesAt = &deadline
		out[g.RequestKey] = Begun{Shipment: g.Shipment, Attempt: g.Attempt}
	}
	return out, nil
}

// Created is a created order's answer, to be recorded (RecordRows) as
// RecordCreated records one.
type Created struct {
	Attempt int64
	Reply   Reply
	At      time.Time
}

// recordCreated records many created orders as RecordCreated does, in one
// statement; those bound to another order meanwhile (none, unless the
// reconciler adopted one) are recorded one at a time, as duplicates, and
// returned.
func (db *DB) recordCreated(ctx context.Context, ids []int64, list []Created) (duplicates []int64, err error) {
	attempts, orderIDs, at := make([]int64, len(list)), make([]int64, len(list)), make([]int64, len(list))
	tracking, numbers, tokens := make([]string, len(list)), make([]string, len(list)), make([]string, len(list))
	statuses, modes, labels, packages := make([]string, len(list)), make([]string, len(list)), make([]string, len(list)), make([]string, len(list))
	for i, c := range list {
		p, err := c.Reply.Packages.Value()
		if err != nil {
			return nil, fmt.Errorf("encode packages of shipment %d: %w", ids[i], err)
		}
		attempts[i], orderIDs[i], at[i] = c.Attempt, c.Reply.OrderID, c.At.UnixMicro()
		tracking[i], numbers[i], tokens[i] = c.Reply.TrackingNumber, c.Reply.OrderNumber, c.Reply.OrderToken
		statuses[i], modes[i], labels[i], packages[i] = c.Reply.Status, c.Reply.LabelMode, c.Reply.LabelStatus, p.(string)
	}
	var recorded []int64
	err = sqlxSelect(ctx, db, &recorded, `
WITH u AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
        $9::text[], $10::text[]::jsonb[], $11::bigint[])
    AS u(id, attempt, tracking, order_id, order_number, order_token, status, label_mode, label_status, packages, at)),
a AS (UPDATE create_attempts c SET outcome = 'created' FROM u WHERE c.id = u.attempt),
x AS (UPDATE shipments s SET state = 'created', tracking_number = u.tracking, order_id = NULLIF(u.order_id, 0),
    order_number = COALESCE(NULLIF(u.order_number, ''), s.order_number), order_token = COALESCE(NULLIF(u.order_token, ''), s.order_token),
    status = u.status, label_mode = u.label_mode, label_status = u.label_status, packages = u.packages, error = '',
    ordered_at = COALESCE(s.ordered_at, 'epoch'::timestamptz + u.at * interval '1 microsecond'),
    last_checked_at = 'epoch'::timestamptz + u.at * interval '1 microsecond'
FROM u WHERE s.id = u.id AND (s.tracking_number IS NULL OR s.tracking_number = u.tracking)
RETURNING s.id, s.reference, s.tracking_number, s.status, s.cancelled_at, s.last_checked_at),
w AS (`+shopWritesOf+`)
SELECT id FROM x`, pqArray(ids), pqArray(attempts), pqArray(tracking), pqArray(orderIDs), pqArray(numbers), pqArray(tokens),
		pqArray(statuses), pqArray(modes), pqArray(labels), pqArray(packages), pqArray(at))
	if err != nil {
		return nil, fmt.Errorf("record %d created orders: %w", len(list), err)
	}
	done := make(map[int64]bool, len(recorded))
	for _, id := range recorded {
		done[id] = true
	}
	for i, id := range ids {
		if done[id] {
			continue
		}
		_, duplicate, err := db.RecordCreated(ctx, id, list[i].Attempt, list[i].Reply, list[i].At)
		if err != nil {
			return duplicates, err
		}
		if duplicate {
			duplicates = append(duplicates, id)
		}
	}
	return duplicates, nil
}

// RowMatch asks what a batch row about to be ordered repeats, as RowMatches does.
type RowMatch struct {
	Key, Reference, Fingerprint string
	Row                         int64
}

// RowMatched is what RowMatchesOf found for one row.
type RowMatched struct {
	Keyed   bool
	Matches []OrderedMatch
}

// RowMatchesOf asks RowMatches for many rows in one statement, answering
// them in order.
func (db *DB) RowMatchesOf(ctx context.Context, asks []RowMatch) ([]RowMatched, error) {
	keys, refs, prints, rows := make([]string, len(asks)), make([]string, len(asks)), make([]string, len(asks)), make([]int64, len(asks))
	for i, a := range asks {
		keys[i], refs[i], prints[i], rows[i] = a.Key, a.Reference, a.Fingerprint, a.Row
	}
	var found []struct {
		OrderedMatch
		Keyed bool  `db:"keyed"`
		Ask   int64 `db:"ask"`
	}
	err := sqlxSelect(ctx, db, &found, `SELECT q.i AS ask, m.reference, m.fingerprint, m.shipment_id, m.batch_id, m.line, m.row_id, m.keyed FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
    WITH ORDINALITY AS q(key, ref, print, before, i)
CROSS JOIN LATERAL (
    SELECT reference, '' AS fingerprint, id AS shipment_id, 0::bigint AS batch_id, 0 AS line, 0::bigint AS row_id,
        COALESCE(request_key = NULLIF(q.key, '')::uuid, false) AS keyed, CASE WHEN request_key = NULLIF(q.key, '')::uuid THEN 0 ELSE 1 END AS k, id AS o
    FROM shipments WHERE (q.ref <> '' AND reference = q.ref AND state <> 'missing') OR request_key = NULLIF(q.key, '')::uuid
    UNION ALL
    SELECT reference, fingerprint, shipment_id, batch_id, line, id, false, 2, id FROM batch_rows
    WHERE (reference <> '' AND reference = q.ref OR fingerprint <> '' AND fingerprint = q.print)
        AND state IN ('ordering', 'ordered') AND id <> q.before AND (state = 'ordered' OR id < q.before)
) AS m ORDER BY q.i, m.k, m.o`, pqArray(keys), pqArray(refs), pqArray(prints), pqArray(rows))
	if err != nil {
		return nil, wrapf(err, "match %d ordered rows", len(asks))
	}
	out := make([]RowMatched, len(asks))
	for _, m := range found {
		r := &out[m.Ask-1]
		if m.Keyed {
			r.Keyed, r.Matches = true, nil
		}
		if !r.Keyed {
			r.Matches = append(r.Matches, m.OrderedMatch)
		}
	}
	return out, nil
}
