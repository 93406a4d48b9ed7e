package views

import (
	"context"
	"strings"
	"time"

	"shipdesk/i18n"
)

// View models of the courier pickups page.

// PickupsView is the Shipping → Pickups page.
type PickupsView struct {
	Form      Form
	Addresses []Option // the service's stored addresses
	NoAddress string   // why there are none to choose from
	Coming    []PickupRow
	Past      []PickupRow
	ShowPast  bool
	Carrier   PickupCarrierField // the carriers of the chosen address
}

// PickupCarrierField is the carrier select: "any carrier" and the carriers
// that collect from the chosen address; Failed says why there are no more.
type PickupCarrierField struct {
	Form    Form
	Options []Option
	Failed  string
}

// PickupRow is one pickup in the list.
type PickupRow struct {
	ID       int64
	Day      string // plainly: "út 24. 11. 2026", "Tuesday 24 November 2026"
	When     string // "today", "tomorrow" or "": shown from the catalog
	Window   string
	Address  string
	Packages int
	Weight   string
	Carrier  string
	Note     string
	Number   string
	State    string
	Error    string
}

// PlainDay writes a date the way people say it, and whether it is today or
// tomorrow.
func PlainDay(day, today time.Time) (string, string) {
	y1, m1, d1 := day.Date()
	y2, m2, d2 := today.Date()
	a := time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC)
	b := time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC)
	when := ""
	switch a.Sub(b) {
	case 0:
		when = "today"
	case 24 * time.Hour:
		when = "tomorrow"
	}
	return a.Format("Monday 2 January 2006"), when
}

var czechWeekdays = [...]string{"neděle", "pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota"}

// PlainDayIn is PlainDay in the request's language: "úterý 24. 11. 2026" in
// Czech, "Tuesday 24 November 2026" in English.
func PlainDayIn(ctx context.Context, day, today time.Time) (string, string) {
	text, when := PlainDay(day, today)
	if i18n.LangOf(ctx) == i18n.Czech {
		y, m, d := day.Date()
		a := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		text = czechWeekdays[a.Weekday()] + " " + a.Format("2. 1. 2006")
	}
	return text, when
}

func pickupStateText(ctx context.Context, state string) (string, string) {
	switch state {
	case "ordered":
		return T(ctx, "pick.state.ordered"), "badge-ok"
	case "failed":
		return T(ctx, "pick.state.failed"), "badge-bad"
	}
	return T(ctx, Uncertain), "badge-warn"
}

// generalError is the form's problem that no field shows, unless the summary
// above the form says it already.
func generalError(f Form) string {
	if e := f.Error("form"); e != "" && !strings.Contains(f.Message, e) {
		return e
	}
	return ""
}

// describedBy names the carrier select's hint and, with a problem, its error.
func (c PickupCarrierField) describedBy() string {
	if c.Form.HasError("carrier") {
		return "carrier-hint " + errorID("carrier")
	}
	return "carrier-hint"
}
