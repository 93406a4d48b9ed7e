package pgtest

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/clock"
)

// Proxy stands between the dashboard and PostgreSQL: it passes bytes, or
// cuts every connection and refuses new ones. Passing, it counts the
// statements the dashboard sends (stats), read off the wire as PostgreSQL
// receives them.
type Proxy struct {
	t      testing.TB
	url    string // the database's URL through the proxy, with DBNAME for the database
	target string // PostgreSQL's socket
	mu     sync.Mutex
	mode   proxyMode
	conns  map[net.Conn]bool
	stats  pgStats
}

type proxyMode int

const (
	proxyPass proxyMode = iota
	proxyCut
)

func (m proxyMode) String() string { return [...]string{"passing", "cut"}[m] }

// StartProxy listens on a Unix socket beside the test cluster's, which
// TEST_DATABASE_URL names by its directory (host=/…).
func StartProxy(t testing.TB) *Proxy {
	t.Helper()
	admin := mustParse(t, os.Getenv("TEST_DATABASE_URL"))
	q := admin.Query()
	host := q.Get("host")
	if !strings.HasPrefix(host, "/") {
		t.Fatalf("the proxy needs the test cluster on a Unix socket, TEST_DATABASE_URL has host %q", host)
	}
	port := admin.Port()
	if port == "" {
		port = "5432"
	}
	// A short directory: Unix socket paths are limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "pgp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ln, err := net.Listen("unix", filepath.Join(dir, ".s.PGSQL."+port))
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: filepath.Join(host, ".s.PGSQL."+port), conns: map[net.Conn]bool{}}
	q.Set("host", dir)
	u := *admin
	u.Path = "/DBNAME"
	u.RawQuery = q.Encode()
	p.url = u.String()
	t.Cleanup(func() {
		ln.Close()
		p.set(proxyCut)
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

// CountStatements starts a proxy that only counts (statements and round
// trips) and sends the test's new database connections, those made through
// TEST_DATABASE_URL from now on, over it.
func CountStatements(tb testing.TB) *Proxy {
	tb.Helper()
	admin := mustParse(tb, os.Getenv("TEST_DATABASE_URL"))
	p := StartProxy(tb)
	p.stats.countOnly = true
	tb.Setenv("TEST_DATABASE_URL", p.URLOf(strings.TrimPrefix(admin.Path, "/")))
	return p
}

// URLOf is the URL of database name through the proxy.
func (p *Proxy) URLOf(name string) string { return strings.Replace(p.url, "DBNAME", name, 1) }

// Cut closes every connection through the proxy and refuses new ones, as a
// database that has gone away; Pass lets them through again.
func (p *Proxy) Cut()  { p.set(proxyCut) }
func (p *Proxy) Pass() { p.set(proxyPass) }

// Statements and RoundTrips are what the proxy has counted in all.
func (p *Proxy) Statements() int64 { return p.stats.statements.Load() }
func (p *Proxy) RoundTrips() int64 { return p.stats.roundTrips.Load() }

// Take returns the statements counted since the last Take (by text) and
// their times, shortest first, and starts counting anew.
func (p *Proxy) Take() (Statements, []time.Duration) { return p.stats.take() }

func (p *Proxy) set(m proxyMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	if m == proxyCut {
		for c := range p.conns {
			c.Close()
		}
	}
}

func (p *Proxy) serve(client net.Conn) {
	p.mu.Lock()
	if p.mode == proxyCut {
		p.mu.Unlock()
		client.Close()
		return
	}
	p.mu.Unlock()
	server, err := net.Dial("unix", p.target)
	if err != nil {
		client.Close()
		return
	}
	p.mu.Lock()
	p.conns[client], p.conns[server] = true, true
	p.mu.Unlock()
	w := &pgWire{stats: &p.stats}
	done := make(chan struct{}, 2)
	go p.pipe(server, client, done, &pgStream{startup: true, msg: w.fromClient})
	var answers *pgStream // only the statements' times read the server's answers
	if !p.stats.countOnly {
		answers = &pgStream{msg: w.fromServer}
	}
	go p.pipe(client, server, done, answers)
	<-done
	client.Close()
	server.Close()
	<-done
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

// pipe copies from src to dst and hands what passes to the stream's reader,
// when it has one.
func (p *Proxy) pipe(dst net.Conn, src io.Reader, done chan<- struct{}, s *pgStream) {
	defer func() { done <- struct{}{} }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			cut := p.mode == proxyCut
			p.mu.Unlock()
			if cut {
				return
			}
			if s != nil {
				s.read(buf[:n])
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, net.ErrClosed) && !errors.Is(err, io.EOF) {
				p.t.Logf("proxy: %v", err)
			}
			return
		}
	}
}

// pgStream cuts one direction of the protocol into messages: a type byte and
// a length (the client's first message, the startup, has no type byte).
type pgStream struct {
	startup bool
	buf     []byte
	msg     func(typ byte, body []byte)
}

func (s *pgStream) read(b []byte) {
	s.buf = append(s.buf, b...)
	for {
		head := 5
		if s.startup {
			head = 4
		}
		if len(s.buf) < head {
			return
		}
		n := int(binary.BigEndian.Uint32(s.buf[head-4 : head]))
		if len(s.buf) < head-4+n {
			return
		}
		if s.startup {
			s.startup = false
		} else {
			s.msg(s.buf[0], s.buf[head:head-4+n])
		}
		s.buf = s.buf[head-4+n:]
	}
}

// pgWire follows one connection: a statement is a simple query ('Q') or an
// execution ('E') of the last parsed one ('P'); it takes from its first
// message to the server's ReadyForQuery ('Z') after it. A round trip is a
// simple query or a Sync ('S'): each waits for the server's answer.
type pgWire struct {
	stats  *pgStats
	mu     sync.Mutex
	parsed string
	since  *clock.Stopwatch // started at the statement's first message
	text   string           // the statement on its way, "" until it is executed
}

func (w *pgWire) fromClient(typ byte, body []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stats.count(typ)
	if w.stats.countOnly {
		return
	}
	switch typ {
	case 'Q', 'P':
		if w.since == nil {
			sw := clock.Start()
			w.since = &sw
		}
		text := string(body[:max(0, len(body)-1)])
		if typ == 'P' { // the statement's name, then its text
			_, text, _ = strings.Cut(text, "\x00")
			text, _, _ = strings.Cut(text, "\x00")
			w.parsed = text
			return
		}
		w.text = text
	case 'E':
		if w.since == nil {
			sw := clock.Start()
			w.since = &sw
		}
		w.text = w.parsed
	}
}

func (w *pgWire) fromServer(typ byte, _ []byte) {
	if typ != 'Z' {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.text == "" || w.since == nil {
		return
	}
	w.stats.add(w.text, w.since.Elapsed())
	w.text, w.since = "", nil
}

// pgStats are the statements counted, with how long each took to come
// back, and the statements and round trips in all. Counting only (countOnly), the texts and times are not kept: a
// benchmark of thousands of rows measures its heap beside them.
type pgStats struct {
	statements, roundTrips atomic.Int64
	countOnly              bool

	mu    sync.Mutex
	texts Statements
	took  []time.Duration
}

// Statements are statements counted by their text.
type Statements map[string]int

// Count is how many statements there were, but those whose text contains
// one of skip.
func (t Statements) Count(skip ...string) int {
	n := 0
	for text, c := range t {
		if !slices.ContainsFunc(skip, func(s string) bool { return strings.Contains(text, s) }) {
			n += c
		}
	}
	return n
}

// Containing is how many statements' text contains part.
func (t Statements) Containing(part string) int {
	return t.Count() - t.Count(part)
}

// count counts a client's message: a simple query is a statement and a
// round trip, an execution a statement, a Sync a round trip.
func (s *pgStats) count(typ byte) {
	switch typ {
	case 'Q':
		s.statements.Add(1)
		s.roundTrips.Add(1)
	case 'E':
		s.statements.Add(1)
	case 'S':
		s.roundTrips.Add(1)
	}
}

func (s *pgStats) add(text string, took time.Duration) {
	if s.countOnly {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.texts == nil {
		s.texts = Statements{}
	}
	s.texts[text]++
	s.took = append(s.took, took)
}

// take returns the statements counted since the last take (by text) and
// their times, and starts counting anew.
func (s *pgStats) take() (texts Statements, took []time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	texts, took = s.texts, s.took
	s.texts, s.took = nil, nil
	slices.Sort(took)
	return texts, took
}

func mustParse(tb testing.TB, s string) *url.URL {
	tb.Helper()
	u, err := url.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}
