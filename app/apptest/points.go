package apptest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"shipdesk/desk"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// pointsDB is a migrated database holding the parcel points of a sandbox
// answering in shapes, as the dashboard's refresh stores them with the test
// clock at its start: the real refresh, through real HTTP to a sandbox of
// its own, fills a template once; each test gets a copy.
func pointsDB(t testing.TB, shapes string) *storage.DB {
	t.Helper()
	key := fmt.Sprintf("parcel points: shapes %q, clock from %s", shapes, sandboxtest.Epoch.Format(time.RFC3339))
	db, _ := pgtest.Prepared(t, key, func(ctx context.Context, url string) error {
		sb := sandboxtest.StartShapes(t, shapes)
		up, err := upstreamOf(sb, 0)
		if err != nil {
			return err
		}
		db, err := storage.Open(ctx, url)
		if err != nil {
			return err
		}
		defer db.Close()
		n, err := desk.New(db, up.Shipping, up.Cart, sb.Clock, nil).RefreshPoints(ctx)
		if err == nil && n == 0 {
			err = fmt.Errorf("the sandbox listed no parcel points")
		}
		return err
	})
	return db
}
