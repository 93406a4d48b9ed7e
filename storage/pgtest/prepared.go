package pgtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/storage"
)

// A prepared template is used while it is younger than preparedReuse and
// dropped once older than preparedDrop: a test copies the template it picked
// right away, and no test process outlives its 30-minute limit, so nothing
// still copies a template by the time it is dropped.
const (
	preparedReuse = 20 * time.Minute
	preparedDrop  = time.Hour
	preparedHead  = "tmplp_"
)

// Prepared returns a migrated database, closed and dropped when t ends, that
// holds what fill put into a template once: fixtures that take the real code
// a second or more to load (the service's parcel points through the real
// refresh) are loaded once per test process and copied for each test. key
// names everything the fixture's content depends on besides the code (the
// sandbox's shapes, the test clock's start); the running test binary's build
// ID is part of the template's name too, so changed code never meets a
// template made by other code. fill gets the URL of the template being made
// and must close every connection it opens.
func Prepared(t testing.TB, key string, fill func(ctx context.Context, url string) error) (*storage.DB, string) {
	t.Helper()
	base := migrated(t)
	id, err := binaryID()
	if err != nil {
		t.Fatalf("prepared database: %v", err)
	}
	sum := sha256.Sum256([]byte(id + "\x00" + key))
	prefix := preparedHead + hex.EncodeToString(sum[:8]) + "_"

	name := findOrMake(t, prefix,
		func(ctx context.Context, q querier) (string, error) {
			return youngTemplate(ctx, q, prefix)
		},
		func(ctx context.Context, conn *sql.Conn, admin string) (string, error) {
			return makeTemplate(ctx, conn, admin, prefix, base, fill)
		})
	url := create(t, name)
	return open(t, url), url
}

// makeTemplate publishes a template under prefix, filled by fill, and drops
// the templates too old for anyone to copy still. The caller holds prefix's
// lock.
func makeTemplate(ctx context.Context, conn *sql.Conn, admin, prefix, base string, fill func(ctx context.Context, url string) error) (string, error) {
	var now time.Time // the templates' ages are read on the cluster's clock
	if err := conn.QueryRowContext(ctx, `SELECT now()`).Scan(&now); err != nil {
		return "", fmt.Errorf("the cluster's clock: %w", err)
	}
	names, err := preparedTemplates(ctx, conn)
	if err != nil {
		return "", err
	}
	name := prefix + strconv.FormatInt(now.Unix(), 10)
	if err := publish(ctx, conn, admin, name, base, fill); err != nil {
		return "", err
	}
	for _, n := range names {
		if made, ok := preparedAt(n); ok && now.Sub(made) > preparedDrop {
			_, _ = conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n) // in use: left for the next
		}
	}
	return name, nil
}

// youngTemplate names the newest template under prefix still young enough to
// be reused ("" when none is), aged on the cluster's clock.
func youngTemplate(ctx context.Context, q querier, prefix string) (string, error) {
	var now time.Time
	if err := q.QueryRowContext(ctx, `SELECT now()`).Scan(&now); err != nil {
		return "", fmt.Errorf("the cluster's clock: %w", err)
	}
	names, err := preparedTemplates(ctx, q)
	if err != nil {
		return "", err
	}
	name := ""
	for _, n := range names {
		if made, ok := preparedAt(n); ok && strings.HasPrefix(n, prefix) && now.Sub(made) < preparedReuse {
			name = n
		}
	}
	return name, nil
}

// preparedTemplates lists the prepared templates on the cluster, oldest first.
func preparedTemplates(ctx context.Context, q querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY right(datname, 10)`, preparedHead)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// preparedAt reads when a prepared template was made from its name.
func preparedAt(name string) (time.Time, bool) {
	i := strings.LastIndexByte(name, '_')
	sec, err := strconv.ParseInt(name[i+1:], 10, 64)
	if i < 0 || err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// binaryID is the Go build ID of the running test binary, which the
// toolchain derives from its code.
func binaryID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := elf.Open(exe)
	if err != nil {
		return "", fmt.Errorf("build ID of %s: %w", exe, err)
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", errors.New("build ID of " + exe + ": no .note.go.buildid section")
	}
	b, err := s.Data()
	if err != nil {
		return "", fmt.Errorf("build ID of %s: %w", exe, err)
	}
	return string(b), nil
}
