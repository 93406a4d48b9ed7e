package i18n

import (
	"context"
	"testing"
	"time"
)

// AppendDateTime writes what DateTime writes, in both languages and zones,
// over years, months, both sides of daylight saving time and midnight.
func TestAppendDateTimeWritesWhatDateTimeWrites(t *testing.T) {
	utc := time.FixedZone("", 0)
	moments := []time.Time{{}, time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC),
		time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999, utc), time.Date(2026, 11, 22, 14, 5, 9, 0, Prague), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	for at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() < 2028; at = at.Add(7*time.Hour + 13*time.Minute) {
		moments = append(moments, at)
	}
	for _, lang := range []Lang{Czech, English} {
		for _, zone := range []*time.Location{Prague, time.UTC, time.FixedZone("", -9*3600-30*60)} {
			ctx := context.WithValue(WithLang(context.Background(), lang), ZoneKey{}, zone)
			buf := []byte("x;")
			for _, m := range moments {
				want := DateTime(ctx, m)
				buf = AppendDateTime(ctx, buf[:2], m)
				if got := string(buf[2:]); got != want {
					t.Fatalf("%s in %s, %v: %q, want %q", lang, zone, m, got, want)
				}
			}
		}
	}
}
