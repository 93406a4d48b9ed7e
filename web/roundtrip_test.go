package web_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/identity"
)

// A statement with parameters reaches PostgreSQL in one round trip: parsed,
// bound and run together, instead of waiting for the server to describe it
// first (which doubles every query's wait and the server's work). JSON
// parameters are stored as the JSON they are, and binary ones (a session's
// token hash) still find their row.
func TestStatementsWithParametersTakeOneRoundTrip(t *testing.T) {
	t.Parallel()
	db, proxy := dbThroughProxy(t)
	ctx := context.Background()
	statements, roundTrips := proxy.Statements(), proxy.RoundTrips()

	detail := map[string]any{"reason": "ünïcode \"quoted\" <b>", "n": 3}
	if err := db.Audit(ctx, nil, "system", "test.roundtrip", "target", detail, "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	entries, err := db.ListAudit(ctx, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ShipmentByReference(ctx, "NO-SUCH-REFERENCE"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("a missing shipment: %v", err)
	}
	u, err := db.CreateUser(ctx, "roundtrip", identity.Clerk, "not-a-hash")
	if err != nil {
		t.Fatal(err)
	}
	token := []byte{0, 1, 2, 0xff, '\'', 0} // bytes no text could carry
	if err := db.CreateSession(ctx, token, u.ID, time.Now().Add(time.Hour), "127.0.0.1", "test"); err != nil {
		t.Fatal(err)
	}
	if s, err := db.LiveSession(ctx, token, time.Hour); err != nil || s.Username != "roundtrip" {
		t.Errorf("the session by its token hash: %+v, %v", s, err)
	}

	gotStatements := proxy.Statements() - statements
	gotRoundTrips := proxy.RoundTrips() - roundTrips
	if gotStatements != 6 || gotRoundTrips != 6 {
		t.Errorf("6 statements with parameters took %d statements in %d round trips, want 6 in 6", gotStatements, gotRoundTrips)
	}
	if len(entries) != 1 {
		t.Fatalf("audit entries: %d, want 1", len(entries))
	}
	var stored map[string]any
	if err := json.Unmarshal(entries[0].Detail, &stored); err != nil {
		t.Fatal(err)
	}
	if stored["reason"] != detail["reason"] || stored["n"] != float64(3) {
		t.Errorf("stored detail %v, want %v", stored, detail)
	}
}
