package storage

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// ShopInboxQuery asks for a page of the clerk's inbox: the kept orders
// waiting to ship (or shipped elsewhere) that no shipment of ours carries,
// newest first, by the filters that are set.
type ShopInboxQuery struct {
	Shipping string // a shipping method's GUID
	Status   int    // one of the shop's statuses (0: any)
	Country  string
	// From and To bound the day the order was made (the caller's day in the
	// shop's zone); zero: no bound.
	From, To time.Time
	// After is where the page starts: the last order of the page before.
	After *ShopInboxCursor
	Limit int
}

// ShopInboxCursor is an order's place in the inbox's order.
type ShopInboxCursor struct {
	CreatedAt time.Time
	Code      string
}

// ShopInboxPage is a page of the inbox and where the next one starts (nil:
// this is the last).
type ShopInboxPage struct {
	Orders []ShopOrder
	Next   *ShopInboxCursor
}

// ShopInbox reads a page of the inbox by its keyset (created_at, code): the
// indexes of migration 00049 serve each filter in the page's order.
func (db *DB) ShopInbox(ctx context.Context, q ShopInboxQuery) (ShopInboxPage, error) {
	stmt, args, limit := shopInboxSQL(q)
	var page ShopInboxPage
	if err := sqlxSelect(ctx, db, &page.Orders, stmt, args...); err != nil {
		return page, fmt.Errorf("shop inbox: %w", err)
	}
	if len(page.Orders) > limit {
		page.Orders = page.Orders[:limit]
		last := page.Orders[limit-1]
		page.Next = &ShopInboxCursor{CreatedAt: last.CreatedAt, Code: last.Code}
	}
	return page, nil
}

// shopInboxSQL is the statement of an inbox's page, one row more than the
// page to tell whether another follows. It reads the columns the inbox
// shows, not the kept order's copy (doc: an order's page reads that).
func shopInboxSQL(q ShopInboxQuery) (stmt string, args []any, limit int) {
	limit = q.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	where := []string{`o.state IN ('waiting', 'elsewhere')`, `NOT EXISTS ` + strings.Replace(liveShipmentOf, "SELECT s.id", "SELECT", 1)}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if q.Shipping != "" {
		where = append(where, `o.shipping_guid = `+arg(q.Shipping))
	}
	if q.Status != 0 {
		where = append(where, `o.status_id = `+arg(q.Status))
	}
	if q.Country != "" {
		where = append(where, `o.country = `+arg(q.Country))
	}
	if !q.From.IsZero() {
		where = append(where, `o.created_at >= `+arg(q.From))
	}
	if !q.To.IsZero() {
		where = append(where, `o.created_at < `+arg(q.To))
	}
	if q.After != nil {
		where = append(where, `(o.created_at, o.code) < (`+arg(q.After.CreatedAt)+`, `+arg(q.After.Code)+`)`)
	}
	columns := strings.Replace(shopOrderColumns, "o.doc,", "'{}'::jsonb AS doc,", 1)
	stmt = `SELECT ` + columns + `, NULL::bigint AS shipment_id FROM shop_orders o WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY o.created_at DESC, o.code DESC LIMIT ` + arg(limit+1)
	return stmt, args, limit
}

// ShopFacet is one value of an inbox filter and how many orders of the
// inbox have it.
type ShopFacet struct {
	Value string `db:"value"`
	Name  string `db:"name"`
	Count int    `db:"count"`
}

// shopInboxFacetsSQL counts the inbox's orders by each filter in one pass
// over migration 00056's covering index (grouping sets; an order shipped by
// us is left out as the inbox leaves it), and names each shipping method
// and status as its newest order does: one row of the heap per value, not
// one per order.
var shopInboxFacetsSQL = `WITH f AS (SELECT o.shipping_guid, o.status_id, o.country, count(*) AS count FROM shop_orders o
    WHERE o.state IN ('waiting', 'elsewhere') AND NOT EXISTS ` + strings.Replace(liveShipmentOf, "SELECT s.id", "SELECT", 1) + `
    GROUP BY GROUPING SETS ((o.shipping_guid), (o.status_id), (o.country)))
SELECT 'shipping' AS facet, f.shipping_guid AS value, (SELECT x.shipping_name FROM shop_orders x
        WHERE x.state IN ('waiting', 'elsewhere') AND x.shipping_guid = f.shipping_guid ORDER BY x.created_at DESC, x.code DESC LIMIT 1) AS name, f.count
    FROM f WHERE f.shipping_guid IS NOT NULL
UNION ALL SELECT 'status', f.status_id::text, (SELECT x.status_name FROM shop_orders x
        WHERE x.state IN ('waiting', 'elsewhere') AND x.status_id = f.status_id ORDER BY x.created_at DESC, x.code DESC LIMIT 1), f.count
    FROM f WHERE f.status_id IS NOT NULL
UNION ALL SELECT 'country', f.country, f.country, f.count FROM f WHERE f.country IS NOT NULL
ORDER BY 1, 3`

// ShopInboxFacets are the values the inbox's filters offer: the shipping
// methods, statuses and countries of the orders in it.
func (db *DB) ShopInboxFacets(ctx context.Context) (shipping, statuses, countries []ShopFacet, err error) {
	var rows []struct {
		Facet string `db:"facet"`
		ShopFacet
	}
	err = sqlxSelect(ctx, db, &rows, shopInboxFacetsSQL)
	for _, r := range rows {
		switch r.Facet {
		case "shipping":
			shipping = append(shipping, r.ShopFacet)
		case "status":
			statuses = append(statuses, r.ShopFacet)
		default:
			countries = append(countries, r.ShopFacet)
		}
	}
	return shipping, statuses, countries, wrapf(err, "shop inbox facets")
}
