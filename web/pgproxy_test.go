package web_test

import (
	"context"
	"strings"
	"testing"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// dbThroughProxy opens a new test database whose connections go through a
// new proxy.
func dbThroughProxy(tb testing.TB) (*storage.DB, *pgtest.Proxy) {
	tb.Helper()
	proxy := pgtest.StartProxy(tb)
	_, direct := pgtest.NewWithURL(tb)
	db, err := storage.Open(context.Background(), proxy.URLOf(strings.TrimPrefix(mustURL(tb, direct).Path, "/")))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, proxy
}
