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
	limit := q.Limit
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	where := []string{`o.state IN ('waiting', 'elsewhere')`, `NOT EXISTS ` + strings.Replace(liveShipmentOf, "SELECT s.id", "SELECT", 1)}
	var args []any
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
	stmt := `SELECT ` + shopOrderColumns + `, NULL::bigint AS shipment_id FROM shop_orders o WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY o.created_at DESC, o.code DESC LIMIT ` + arg(limit+1)
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

// ShopFacet is one value of an inbox filter and how many orders of the
// inbox have it.
type ShopFacet struct {
	Value string `db:"value"`
	Name  string `db:"name"`
	Count int    `db:"count"`
}

// ShopInboxFacets are the values the inbox's filters offer: the shipping
// methods, statuses and countries of the orders in it.
func (db *DB) ShopInboxFacets(ctx context.Context) (shipping, statuses, countries []ShopFacet, err error) {
	var rows []struct {
		Facet string `db:"facet"`
		ShopFacet
	}
	err = sqlxSelect(ctx, db, &rows, `WITH o AS (SELECT o.shipping_guid, o.shipping_name, o.status_id, o.status_name, o.country FROM shop_orders o
    WHERE o.state IN ('waiting', 'elsewhere') AND NOT EXISTS `+strings.Replace(liveShipmentOf, "SELECT s.id", "SELECT", 1)+`)
SELECT 'shipping' AS facet, shipping_guid AS value, max(shipping_name) AS name, count(*) AS count FROM o GROUP BY shipping_guid
UNION ALL SELECT 'status', status_id::text, max(status_name), count(*) FROM o GROUP BY status_id
UNION ALL SELECT 'country', country, country, count(*) FROM o GROUP BY country
ORDER BY 1, 3`)
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
