package workdays

import (
	"testing"
	"time"
)

func TestEasterAndHolidays(t *testing.T) {
	for year, want := range map[int]string{2024: "2024-03-31", 2025: "2025-04-20", 2026: "2026-04-05", 2027: "2027-03-28"} {
		if got := easterSunday(year).Format(time.DateOnly); got != want {
			t.Errorf("Easter %d: %s, want %s", year, got, want)
		}
	}
	h := Holidays(2026)
	if len(h) != 13 || h[11].Format(time.DateOnly) != "2026-04-03" || h[12].Format(time.DateOnly) != "2026-04-06" {
		t.Errorf("holidays of 2026: %v", h)
	}
}

func TestSinceCountsWeekdaysWithoutHolidays(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		t.Helper()
		x, err := time.ParseInLocation("2006-01-02 15:04", s, prague)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, c := range []struct {
		from, to string
		want     int
	}{
		{"2026-11-20 16:00", "2026-11-20 23:00", 0}, // the same Friday
		{"2026-11-20 16:00", "2026-11-22 12:00", 0}, // Friday to Sunday: the weekend
		{"2026-11-20 16:00", "2026-11-23 08:00", 1}, // Friday to Monday
		{"2026-11-20 16:00", "2026-11-25 08:00", 3}, // Friday to Wednesday
		{"2026-11-23 23:30", "2026-11-26 00:10", 3}, // late Monday to just past Wednesday midnight
		{"2026-04-02 10:00", "2026-04-07 10:00", 1}, // Maundy Thursday to Tuesday: Good Friday, Easter Monday
		{"2026-12-23 10:00", "2026-12-28 10:00", 1}, // Christmas
		{"2026-11-20 23:30", "2026-11-23 00:30", 1}, // zone: 23:30 in Prague is still Friday
	} {
		if got := Since(at(c.from), at(c.to), prague); got != c.want {
			t.Errorf("%s → %s: %d working days, want %d", c.from, c.to, got, c.want)
		}
	}
	// The zone decides the day: 23:30 UTC on Sunday is already Monday in Prague.
	fri := time.Date(2026, 11, 20, 23, 30, 0, 0, time.UTC)
	if got := Since(fri, fri.Add(48*time.Hour), time.UTC); got != 0 {
		t.Errorf("Friday night to Sunday night counted in UTC: %d", got)
	}
	if got := Since(fri, fri.Add(48*time.Hour), prague); got != 1 {
		t.Errorf("Saturday 00:30 to Monday 00:30 in Prague: %d", got)
	}
}
