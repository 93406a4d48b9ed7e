// Package workdays counts working days in the shop's time zone: Monday to
// Friday, without Czech public holidays. The "needs attention" queue counts a
// parcel's silence in them, so a weekend or Easter is not a stuck parcel.
package workdays

import "time"

// fixed are the Czech public holidays that fall on the same date every year.
var fixed = [][2]int{
	{1, 1}, {5, 1}, {5, 8}, {7, 5}, {7, 6}, {9, 28}, {10, 28}, {11, 17}, {12, 24}, {12, 25}, {12, 26},
}

// Holidays are the Czech public holidays of year, as dates at midnight UTC
// (calendar days, no zone moves them): the fixed ones, Good Friday and Easter
// Monday.
func Holidays(year int) []time.Time {
	out := make([]time.Time, 0, len(fixed)+2)
	for _, md := range fixed {
		out = append(out, time.Date(year, time.Month(md[0]), md[1], 0, 0, 0, 0, time.UTC))
	}
	easter := easterSunday(year)
	return append(out, easter.AddDate(0, 0, -2), easter.AddDate(0, 0, 1))
}

// Around are the holidays of the year before t's, t's and the next: enough
// for any silence the queue counts.
func Around(t time.Time) []time.Time {
	var out []time.Time
	for y := t.Year() - 1; y <= t.Year()+1; y++ {
		out = append(out, Holidays(y)...)
	}
	return out
}

// easterSunday is Easter Sunday of the Gregorian calendar (the anonymous
// Gregorian algorithm, "Meeus/Jones/Butcher").
func easterSunday(year int) time.Time {
	a := year % 19
	b, c := year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
}

// Since counts the working days after the day of from up to and including
// the day of to, both read in loc: from a Friday's event to the Monday after
// is one working day, to the Wednesday three.
func Since(from, to time.Time, loc *time.Location) int {
	holidays := map[time.Time]bool{}
	for _, h := range Around(to) {
		holidays[h] = true
	}
	day := func(t time.Time) time.Time {
		y, m, d := t.In(loc).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	n := 0
	for d, last := day(from).AddDate(0, 0, 1), day(to); !d.After(last); d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday && !holidays[d] {
			n++
		}
	}
	return n
}
