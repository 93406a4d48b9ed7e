package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lib/pq"
)

// Where a kept order stands (shop_orders.state). Whether it is shipped by us
// is not a state: its parcels' shipments say it.
const (
	ShopWaiting   = "waiting"   // in a status whose orders are shipped
	ShopElsewhere = "elsewhere" // waiting, and its notes carry a tracking number not ours
	ShopOther     = "other"     // in a status whose orders are not shipped (yet, or any more)
	ShopCancelled = "cancelled" // cancelled in the shop
	ShopGone      = "gone"      // the shop has it no more
)

// ShopOrder is an order of the shop as the desk keeps it (table
// shop_orders): the columns the inbox shows and filters by, whether it can
// ship as it is (Problems: catalog texts, a JSON array), and a cleaned copy
// of the whole order (Doc, package shop's Order).
type ShopOrder struct {
	Code              string          `db:"code" json:"code"`
	Revision          int             `db:"revision" json:"-"`
	CreatedAt         time.Time       `db:"created_at" json:"created_at"`
	ChangedAt         time.Time       `db:"changed_at" json:"changed_at"`
	State             string          `db:"state" json:"state"`
	Ready             bool            `db:"ready" json:"ready"`
	Problems          json.RawMessage `db:"problems" json:"problems"`
	StatusID          int             `db:"status_id" json:"status_id"`
	StatusName        string          `db:"status_name" json:"status_name"`
	ShippingGUID      string          `db:"shipping_guid" json:"shipping_guid"`
	ShippingName      string          `db:"shipping_name" json:"shipping_name"`
	PaymentGUID       string          `db:"payment_guid" json:"payment_guid"`
	PointCode         string          `db:"point_code" json:"point_code"`
	PointName         string          `db:"point_name" json:"point_name"`
	Recipient         string          `db:"recipient" json:"recipient"`
	City              string          `db:"city" json:"city"`
	Country           string          `db:"country" json:"country"`
	COD               bool            `db:"cod" json:"cod"`
	CODAmount         *float64        `db:"cod_amount" json:"cod_amount"`
	Currency          string          `db:"currency" json:"currency"`
	WeightKg          *float64        `db:"weight_kg" json:"weight_kg"`
	TrackingElsewhere string          `db:"tracking_elsewhere" json:"tracking_elsewhere"`
	Doc               json.RawMessage `db:"doc" json:"doc"`
	StoredAt          time.Time       `db:"stored_at" json:"stored_at"`
	// Shipment is the order's live shipment of ours, when it has one (read,
	// never stored).
	Shipment *int64 `db:"shipment_id" json:"-"`
}

const shopOrderColumns = `o.code, o.revision, o.created_at, o.changed_at, o.state, o.ready, o.problems, o.status_id, o.status_name,
o.shipping_guid, o.shipping_name, o.payment_guid, o.point_code, o.point_name, o.recipient, o.city, o.country, o.cod, o.cod_amount,
o.currency, o.weight_kg, o.tracking_elsewhere, o.doc, o.stored_at`

// liveShipmentOf is the newest shipment of ours, not cancelled, of any of
// the order o's parcels.
const liveShipmentOf = `(SELECT s.id FROM shop_parcels p JOIN shipments s ON s.reference = p.reference
    WHERE p.order_code = o.code AND s.state <> 'missing' AND s.cancelled_at IS NULL ORDER BY s.id DESC LIMIT 1)`

// StoreShopOrders keeps orders as read from the shop, a thousand to a
// statement: a new order is added with its first parcel (its code as the
// reference, a request key of its own), a kept one is replaced unless what
// is kept is newer (a webhook's read and the sync's may cross), its revision
// counted up when its content changed.
func (db *DB) StoreShopOrders(ctx context.Context, orders []ShopOrder) error {
	for chunk := range slices.Chunk(orders, 1000) {
		doc, err := json.Marshal(chunk)
		if err != nil {
			return fmt.Errorf("encode %d shop orders: %w", len(chunk), err)
		}
		_, err = db.x.ExecContext(ctx, `
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(code text, created_at timestamptz, changed_at timestamptz, state text,
        ready boolean, problems jsonb, status_id int, status_name text, shipping_guid text, shipping_name text, payment_guid text,
        point_code text, point_name text, recipient text, city text, country text, cod boolean, cod_amount numeric, currency text,
        weight_kg double precision, tracking_elsewhere text, doc jsonb, stored_at timestamptz)),
o AS (
    INSERT INTO shop_orders (code, created_at, changed_at, state, ready, problems, status_id, status_name, shipping_guid, shipping_name,
        payment_guid, point_code, point_name, recipient, city, country, cod, cod_amount, currency, weight_kg, tracking_elsewhere, doc, stored_at)
    SELECT code, created_at, changed_at, state, ready, problems, status_id, status_name, shipping_guid, shipping_name,
        payment_guid, point_code, point_name, recipient, city, country, cod, cod_amount, currency, weight_kg, tracking_elsewhere, doc, stored_at
    FROM r
    ON CONFLICT (code) DO UPDATE SET created_at = EXCLUDED.created_at, changed_at = EXCLUDED.changed_at, state = EXCLUDED.state,
        ready = EXCLUDED.ready, problems = EXCLUDED.problems, status_id = EXCLUDED.status_id, status_name = EXCLUDED.status_name,
        shipping_guid = EXCLUDED.shipping_guid, shipping_name = EXCLUDED.shipping_name, payment_guid = EXCLUDED.payment_guid,
        point_code = EXCLUDED.point_code, point_name = EXCLUDED.point_name, recipient = EXCLUDED.recipient, city = EXCLUDED.city,
        country = EXCLUDED.country, cod = EXCLUDED.cod, cod_amount = EXCLUDED.cod_amount, currency = EXCLUDED.currency,
        weight_kg = EXCLUDED.weight_kg, tracking_elsewhere = EXCLUDED.tracking_elsewhere, doc = EXCLUDED.doc, stored_at = EXCLUDED.stored_at,
        revision = shop_orders.revision + CASE WHEN shop_orders.doc IS DISTINCT FROM EXCLUDED.doc THEN 1 ELSE 0 END
    WHERE shop_orders.changed_at <= EXCLUDED.changed_at
    RETURNING code, stored_at)
INSERT INTO shop_parcels (reference, order_code, parcel, request_key, created_at)
SELECT code, code, 1, gen_random_uuid()::text, stored_at FROM o
ON CONFLICT DO NOTHING`, string(doc))
		if err != nil {
			return fmt.Errorf("store %d shop orders: %w", len(chunk), err)
		}
	}
	return nil
}

// ShopOrderByCode reads a kept order, with its live shipment.
func (db *DB) ShopOrderByCode(ctx context.Context, code string) (ShopOrder, error) {
	var o ShopOrder
	err := sqlxGet(ctx, db, &o, `SELECT `+shopOrderColumns+`, `+liveShipmentOf+` AS shipment_id FROM shop_orders o WHERE o.code = $1`, code)
	return o, wrapf(notFound(err, "shop.err.no_order", code), "shop order %s", code)
}

// ShopOrdersByCode reads kept orders, in the order of codes; codes not kept
// are left out.
func (db *DB) ShopOrdersByCode(ctx context.Context, codes []string) ([]ShopOrder, error) {
	var out []ShopOrder
	err := sqlxSelect(ctx, db, &out, `SELECT `+shopOrderColumns+`, `+liveShipmentOf+` AS shipment_id
FROM unnest($1::text[]) WITH ORDINALITY AS c(code, n) JOIN shop_orders o ON o.code = c.code ORDER BY c.n`, pq.Array(codes))
	return out, wrapf(err, "%d shop orders", len(codes))
}

// ShopKnown is when a kept order last changed, and when it was read so.
type ShopKnown struct {
	Changed, Stored time.Time
}

// ShopChangesKnown says, of orders, when each kept one last changed and was
// read, to read only those changed since.
func (db *DB) ShopChangesKnown(ctx context.Context, codes []string) (map[string]ShopKnown, error) {
	var rows []struct {
		Code    string    `db:"code"`
		Changed time.Time `db:"changed_at"`
		Stored  time.Time `db:"stored_at"`
	}
	err := sqlxSelect(ctx, db, &rows, `SELECT code, changed_at, stored_at FROM shop_orders WHERE code = ANY($1)`, pq.Array(codes))
	out := make(map[string]ShopKnown, len(rows))
	for _, r := range rows {
		out[r.Code] = ShopKnown{Changed: r.Changed, Stored: r.Stored}
	}
	return out, wrapf(err, "known changes of %d shop orders", len(codes))
}

// ShopOrderPages walks every kept order in code order, a page at a time (a
// manager's new mapping judges them all again).
func (db *DB) ShopOrderPages(ctx context.Context, after string, limit int) ([]ShopOrder, error) {
	var out []ShopOrder
	err := sqlxSelect(ctx, db, &out, `SELECT `+shopOrderColumns+` FROM shop_orders o WHERE o.code > $1 AND o.state <> 'gone' ORDER BY o.code LIMIT $2`,
		after, limit)
	return out, wrapf(err, "shop orders after %q", after)
}

// RejudgeShopOrders stores a new judgement of kept orders (state, readiness
// and problems), unless the order changed since it was read.
func (db *DB) RejudgeShopOrders(ctx context.Context, orders []ShopOrder) error {
	codes, states, problems, revisions := make([]string, len(orders)), make([]string, len(orders)), make([]string, len(orders)), make([]int64, len(orders))
	ready := make([]bool, len(orders))
	for i, o := range orders {
		codes[i], states[i], problems[i], revisions[i], ready[i] = o.Code, o.State, string(o.Problems), int64(o.Revision), o.Ready
	}
	_, err := db.x.ExecContext(ctx, `UPDATE shop_orders o SET state = r.state, ready = r.ready, problems = r.problems
FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[]::jsonb[], $5::int[]) AS r(code, state, ready, problems, revision)
WHERE o.code = r.code AND o.revision = r.revision`, pq.Array(codes), pq.Array(states), pq.Array(ready), pq.Array(problems), pq.Array(revisions))
	return wrapf(err, "judge %d shop orders again", len(orders))
}

// MarkShopOrdersGone records that the shop has the orders no more, in one
// statement however many a sync found gone.
func (db *DB) MarkShopOrdersGone(ctx context.Context, codes []string, at time.Time) error {
	if len(codes) == 0 {
		return nil
	}
	_, err := db.x.ExecContext(ctx, `UPDATE shop_orders SET state = 'gone', ready = false, stored_at = $2 WHERE code = ANY($1)`, pq.Array(codes), at)
	return wrapf(err, "%d shop orders gone", len(codes))
}

// OurTrackingNumbers are the tracking numbers our shipments of the orders'
// parcels carry (cancelled ones too: a number we wrote and then cleared is
// still ours), per order.
func (db *DB) OurTrackingNumbers(ctx context.Context, codes []string) (map[string][]string, error) {
	var rows []struct {
		Code   string `db:"order_code"`
		Number string `db:"tracking_number"`
	}
	err := sqlxSelect(ctx, db, &rows, `SELECT p.order_code, s.tracking_number FROM shop_parcels p JOIN shipments s ON s.reference = p.reference
WHERE p.order_code = ANY($1) AND s.tracking_number IS NOT NULL`, pq.Array(codes))
	out := map[string][]string{}
	for _, r := range rows {
		out[r.Code] = append(out[r.Code], r.Number)
	}
	return out, wrapf(err, "our tracking numbers of %d orders", len(codes))
}

// ShopParcel is one parcel of an order: the reference its shipment carries
// and the request key that makes it one shipment.
type ShopParcel struct {
	Reference  string    `db:"reference"`
	OrderCode  string    `db:"order_code"`
	Parcel     int       `db:"parcel"`
	RequestKey string    `db:"request_key"`
	CreatedAt  time.Time `db:"created_at"`
	CreatedBy  *int64    `db:"created_by"`
}

// ShopParcels lists an order's parcels, the first first.
func (db *DB) ShopParcels(ctx context.Context, code string) ([]ShopParcel, error) {
	var out []ShopParcel
	err := sqlxSelect(ctx, db, &out, `SELECT reference, order_code, parcel, request_key, created_at, created_by FROM shop_parcels
WHERE order_code = $1 ORDER BY parcel`, code)
	return out, wrapf(err, "parcels of shop order %s", code)
}

// AddShopParcel adds a new parcel to an order, numbered after its last, with
// the reference ref(n) and a new request key. A parcel added at the same
// moment by someone else takes the number first: the caller asks again.
func (db *DB) AddShopParcel(ctx context.Context, code string, ref func(n int) string, key string, at time.Time, by *int64) (ShopParcel, error) {
	var p ShopParcel
	err := db.InTx(ctx, func(tx *DB) error {
		var n int
		if err := sqlxGet(ctx, tx, &n, `SELECT COALESCE(max(parcel), 0) + 1 FROM shop_parcels WHERE order_code = $1`, code); err != nil {
			return err
		}
		return sqlxGet(ctx, tx, &p, `INSERT INTO shop_parcels (reference, order_code, parcel, request_key, created_at, created_by)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING reference, order_code, parcel, request_key, created_at, created_by`, ref(n), code, n, key, at, by)
	})
	return p, wrapf(conflict(err, "shop.err.parcel_taken", code), "new parcel of shop order %s", code)
}

// PointsByCodes finds the points of any carrier with any of the codes.
func (db *DB) PointsByCodes(ctx context.Context, codes []string) ([]ParcelPoint, error) {
	var out []ParcelPoint
	if len(codes) == 0 {
		return nil, nil
	}
	err := sqlxSelect(ctx, db, &out, `SELECT `+pointColumns+` FROM parcel_points WHERE code = ANY($1) ORDER BY code, carrier`, pq.Array(codes))
	return out, wrapf(err, "points of %d codes", len(codes))
}

// PointsAtZip lists a carrier's points at a postal code (typed with its
// space or without), for finding a point by its address.
func (db *DB) PointsAtZip(ctx context.Context, carrier, zip string) ([]ParcelPoint, error) {
	plain := strings.ReplaceAll(zip, " ", "")
	spaced := plain
	if len(plain) == 5 {
		spaced = plain[:3] + " " + plain[3:]
	}
	var out []ParcelPoint
	err := sqlxSelect(ctx, db, &out, `SELECT `+pointColumns+` FROM parcel_points WHERE carrier = $1 AND zip IN ($2, $3) ORDER BY code LIMIT 200`,
		carrier, plain, spaced)
	return out, wrapf(err, "points of %s at %s", carrier, zip)
}

// ShopParcelByKey finds the parcel a request key was given to.
func (db *DB) ShopParcelByKey(ctx context.Context, key string) (ShopParcel, error) {
	var p ShopParcel
	err := sqlxGet(ctx, db, &p, `SELECT reference, order_code, parcel, request_key, created_at, created_by FROM shop_parcels WHERE request_key = $1`, key)
	return p, wrapf(notFound(err, "shop.err.no_parcel"), "shop parcel by key")
}

// ShopOrderOfReference reads the kept order a shipment's reference is a
// parcel of (NotFound: the shipment was no shop order's).
func (db *DB) ShopOrderOfReference(ctx context.Context, reference string) (ShopOrder, error) {
	var o ShopOrder
	err := sqlxGet(ctx, db, &o, `SELECT `+shopOrderColumns+`, NULL::bigint AS shipment_id FROM shop_parcels p JOIN shop_orders o ON o.code = p.order_code
WHERE p.reference = $1`, reference)
	return o, wrapf(notFound(err, "shop.err.no_order", reference), "shop order of reference %s", reference)
}
