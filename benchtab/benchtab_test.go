package benchtab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRatioKeepsTheTwoFiguresAndTheGoal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SHIPDESK_BENCH_DIR", dir)
	r := Ratio(t, "list / SQL", Duration("page p50", 3*time.Millisecond), Duration("SQL p50", 2*time.Millisecond), "≤ 2")
	if r != 1.5 {
		t.Fatalf("ratio %v, want 1.5", r)
	}
	got, err := os.ReadFile(filepath.Join(dir, "list-SQL.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "| list / SQL | 1.50 | ≤ 2 | page p50 3 ms / SQL p50 2 ms |\n"
	if string(got) != want {
		t.Fatalf("row %q, want %q", got, want)
	}
}

func TestNoteKeepsPlainFigures(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SHIPDESK_BENCH_DIR", dir)
	Note(t, "import 10000 rows", Duration("time", 1500*time.Millisecond), MiB("peak heap", 3<<20))
	got, _ := os.ReadFile(filepath.Join(dir, "import-10000-rows.md"))
	if !strings.Contains(string(got), "time 1500 ms; peak heap 3 MiB") {
		t.Fatalf("row %q", got)
	}
}

func TestPeakHeapSeesWhatWorkHolds(t *testing.T) {
	var keep []byte
	peak := PeakHeap(func() {
		keep = make([]byte, 64<<20)
		for i := range keep {
			keep[i] = 1
		}
		time.Sleep(20 * time.Millisecond)
	})
	if peak < 64<<20 {
		t.Fatalf("peak %d, want at least 64 MiB", peak)
	}
	_ = keep
}
