package web_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"shipdesk/storage"
)

// pgCounter stands between the tests' PostgreSQL and every connection made
// after countStatements: it passes the bytes on unchanged and counts what the
// clients ask, statements (Execute and simple Query messages) and round
// trips (Sync and simple Query: each waits for the server's answer). The
// change feed's own connection (its pings) is not counted.
type pgCounter struct {
	statements, roundTrips atomic.Int64
}

// countStatements sends the test's new database connections (through
// TEST_DATABASE_URL) over a counter on a socket of its own.
func countStatements(tb testing.TB) *pgCounter {
	tb.Helper()
	u, err := url.Parse(os.Getenv("TEST_DATABASE_URL"))
	q := u.Query()
	if err != nil || q.Get("host") == "" || q.Get("port") != "" {
		tb.Skip("counting statements needs TEST_DATABASE_URL over the default Unix socket")
	}
	server := filepath.Join(q.Get("host"), ".s.PGSQL.5432")
	dir, err := os.MkdirTemp("", "pgcount")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, ".s.PGSQL.5432"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	c := &pgCounter{}
	go func() {
		for {
			client, err := l.Accept()
			if err != nil {
				return
			}
			go c.pass(client, server)
		}
	}()
	q.Set("host", dir)
	u.RawQuery = q.Encode()
	tb.Setenv("TEST_DATABASE_URL", u.String())
	return c
}

// pass joins a client to the server, counting the client's messages.
func (c *pgCounter) pass(client net.Conn, server string) {
	defer client.Close()
	up, err := net.Dial("unix", server)
	if err != nil {
		return
	}
	defer up.Close()
	go func() {
		_, _ = io.Copy(client, up)
		client.Close()
	}()
	r := io.TeeReader(client, up)
	var head [5]byte
	// The startup message: its length, then the protocol and the parameters.
	if _, err := io.ReadFull(r, head[:4]); err != nil {
		return
	}
	startup := make([]byte, binary.BigEndian.Uint32(head[:4])-4)
	if _, err := io.ReadFull(r, startup); err != nil {
		return
	}
	counted := !bytes.Contains(startup, []byte("application_name\x00"+storage.FeedApplicationName+"\x00"))
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		if counted {
			switch head[0] {
			case 'Q':
				c.statements.Add(1)
				c.roundTrips.Add(1)
			case 'E':
				c.statements.Add(1)
			case 'S':
				c.roundTrips.Add(1)
			}
		}
		if _, err := io.CopyN(io.Discard, r, int64(binary.BigEndian.Uint32(head[1:]))-4); err != nil {
			return
		}
	}
}
