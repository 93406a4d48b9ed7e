package storage

import "testing"

// A statement counts as a write unless it is a plain SELECT: a read written
// otherwise only costs a moment without kept pages, a write taken for a
// read would hide it behind one.
func TestMayWrite(t *testing.T) {
	for q, want := range map[string]bool{
		`SELECT 1`:                                          false,
		"\n\t  select id FROM shipments":                    false,
		`(SELECT 1) UNION (SELECT 2)`:                       false,
		`INSERT INTO notes (text) VALUES ($1) RETURNING id`: true,
		`UPDATE shipments SET status = $2 WHERE id = $1`:    true,
		`WITH moved AS (UPDATE batch_rows SET state = 'x' RETURNING id) SELECT count(*) FROM moved`: true,
		`DELETE FROM sessions`: true,
		``:                     true,
	} {
		if got := mayWrite(q); got != want {
			t.Errorf("mayWrite(%q) = %v, want %v", q, got, want)
		}
	}
}

// The mark only moves forward, whatever order writes end in.
func TestWriteMarkMovesForward(t *testing.T) {
	m := newWriteMark()
	m.wrote()
	first := m.last.Load()
	m.last.Store(first + 1_000_000_000) // a later write already marked
	m.wrote()
	if got := m.last.Load(); got != first+1_000_000_000 {
		t.Fatalf("the mark went back: %d", got)
	}
}
