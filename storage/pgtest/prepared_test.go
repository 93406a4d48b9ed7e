package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strconv"
	"testing"
	"time"
)

// A prepared template is filled once per key and copied for each test: every
// copy holds what fill stored, and a copy's changes stay in that copy.
func TestPreparedFillsOnceAndCopies(t *testing.T) {
	key := "pgtest self-test " + rand.Text()
	fills := 0
	fill := func(ctx context.Context, url string) error {
		fills++
		db, err := sql.Open("postgres", url)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.ExecContext(ctx, `CREATE TABLE fixture (n int); INSERT INTO fixture VALUES (7)`)
		return err
	}
	a, _ := Prepared(t, key, fill)
	b, _ := Prepared(t, key, fill)
	if fills != 1 {
		t.Fatalf("fill ran %d times for one key, want 1", fills)
	}
	if _, err := a.SQL().Exec(`UPDATE fixture SET n = 8`); err != nil {
		t.Fatal(err)
	}
	var inA, inB int
	if err := a.SQL().QueryRow(`SELECT n FROM fixture`).Scan(&inA); err != nil || inA != 8 {
		t.Errorf("the changed copy holds %d (%v), want 8", inA, err)
	}
	if err := b.SQL().QueryRow(`SELECT n FROM fixture`).Scan(&inB); err != nil || inB != 7 {
		t.Errorf("the other copy holds %d (%v), want 7 as filled", inB, err)
	}
	Prepared(t, key+" other", fill)
	if fills != 2 {
		t.Errorf("fill ran %d times for two keys, want 2", fills)
	}
}

// Prepared templates older than preparedDrop are dropped when a new one is
// made; younger ones are kept.
func TestPreparedDropsStaleTemplates(t *testing.T) {
	admin, err := sql.Open("postgres", os.Getenv("TEST_DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var now time.Time // templates are aged on the cluster's clock
	if err := admin.QueryRow(`SELECT now()`).Scan(&now); err != nil {
		t.Fatal(err)
	}
	stamp := func(age time.Duration) string {
		return preparedHead + hex.EncodeToString([]byte(rand.Text()[:8])) + "_" + strconv.FormatInt(now.Add(-age).Unix(), 10)
	}
	stale, young := stamp(preparedDrop+time.Minute), stamp(preparedReuse+time.Minute)
	for _, n := range []string{stale, young} {
		if _, err := admin.Exec(`CREATE DATABASE ` + n); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _, _ = admin.Exec(`DROP DATABASE IF EXISTS ` + young) })
	Prepared(t, "pgtest self-test "+rand.Text(), func(context.Context, string) error { return nil })
	for n, want := range map[string]bool{stale: false, young: true} {
		var exists bool
		if err := admin.QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, n).Scan(&exists); err != nil || exists != want {
			t.Errorf("%s exists: %v (%v), want %v", n, exists, err, want)
		}
	}
}
