package apijson

import (
	"time"
	_ "time/tzdata" // the service's zone, also on a machine without zone files
)

// Zone is the service's time zone: a Czech service writes its dates and times
// in Prague's local time, as the real one does (and the returns desk reads them).
var Zone = mustZone("Europe/Prague")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is embedded: this cannot fail
	}
	return loc
}

// Stamp is a moment as the service writes it: "2006-01-02 15:04:05" in Zone.
func Stamp(t time.Time) string { return t.In(Zone).Format(time.DateTime) }

// Day and Clock are a moment's date and time of day in Zone, as tracking
// events carry them.
func Day(t time.Time) string   { return t.In(Zone).Format(time.DateOnly) }
func Clock(t time.Time) string { return t.In(Zone).Format(time.TimeOnly) }
