package storage

import "context"

// OpenTwoRoundTrips opens a pool as lib/pq does by default, each statement
// with parameters described by the server before it is bound: the
// round-trip benchmark's yardstick.
func OpenTwoRoundTrips(ctx context.Context, url string) (*DB, error) { return open(ctx, url, false) }

// ShopInboxSQL and ShopInboxFacetsSQL are the inbox's statements, for the
// test that reads their plans.
func ShopInboxSQL(q ShopInboxQuery) (string, []any) {
	stmt, args, _ := shopInboxSQL(q)
	return stmt, args
}

var ShopInboxFacetsSQL = shopInboxFacetsSQL
