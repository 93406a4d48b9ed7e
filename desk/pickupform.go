package desk

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/requestkey"
	"shipdesk/textin"
)

// The courier pickup form: what the clerk typed, read and checked before
// anything is sent. The service checks again (its 30-day limit, the address,
// the carrier) and its field errors land on the same fields.

// PickupForm is the pickup form as typed.
type PickupForm struct {
	Key       string
	ContactID int64
	Date      string // YYYY-MM-DD
	TimeFrom  string // HH:MM
	TimeTo    string
	Packages  string
	Weight    string
	Carrier   string
	Note      string
}

// Limits of the pickup form; the window rules are the service's documented ones.
const (
	pickupEarliest  = "07:00"
	pickupLatest    = "18:00"
	pickupMinWindow = 2 * time.Hour
	maxPickupNote   = 255
	maxPickupPkgs   = 100
	maxPickupWeight = 3000.0
)

var (
	clockShape   = regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`)
	dayShape     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	carrierShape = regexp.MustCompile(`^[A-Za-z0-9_-]{1,20}$`)
)

// NextWorkday is the first Monday-to-Friday day after today.
func NextWorkday(today time.Time) time.Time {
	d := today.AddDate(0, 0, 1)
	for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// BlankPickup is a new form: the next working day, a morning window, one package.
func BlankPickup(today time.Time) PickupForm {
	return PickupForm{Key: requestkey.New(), Date: NextWorkday(today).Format("2006-01-02"), TimeFrom: "09:00", TimeTo: "12:00", Packages: "1"}
}

// Values are the form's fields as typed, for the page.
func (f PickupForm) Values() map[string]string {
	v := map[string]string{"key": f.Key, "date": f.Date, "time_from": f.TimeFrom, "time_to": f.TimeTo,
		"packages": f.Packages, "weight": f.Weight, "carrier": f.Carrier, "note": f.Note}
	if f.ContactID > 0 {
		v["address"] = strconv.FormatInt(f.ContactID, 10)
	}
	return v
}

// cleanText reads a one-line field (textin.Line), its problem on the field.
func cleanText(v url.Values, p apperr.Problems, name string, limit int) string {
	return textin.NewFields(v, p).Line(name, limit)
}

// ParsePickupForm reads and checks the posted form against today's date.
func ParsePickupForm(v url.Values, today time.Time) (PickupForm, apperr.Problems) {
	p := apperr.Problems{}
	f := PickupForm{
		Key:      strings.ToLower(cleanText(v, p, "key", 40)),
		Date:     cleanText(v, p, "date", 20),
		TimeFrom: cleanText(v, p, "time_from", 5),
		TimeTo:   cleanText(v, p, "time_to", 5),
		Packages: cleanText(v, p, "packages", 6),
		Weight:   cleanText(v, p, "weight", 12),
		Carrier:  cleanText(v, p, "carrier", 20),
		Note:     cleanText(v, p, "note", maxPickupNote),
	}
	if f.Key != "" && !requestkey.Valid(f.Key) {
		p.Add("form", "pick.err.damaged")
		f.Key = ""
	}
	if id, err := strconv.ParseInt(v.Get("address"), 10, 64); err == nil && id > 0 {
		f.ContactID = id
	} else {
		p.Add("address", "pick.err.address_list")
	}
	f.Date = isoDay(f.Date) // typed the Czech way (14. 12. 2026) or ISO
	f.checkDate(p, today)
	f.checkWindow(p)
	if n, err := strconv.Atoi(f.Packages); err != nil || n < 1 || n > maxPickupPkgs {
		p.Add("packages", "pick.err.packages", maxPickupPkgs)
	}
	number(p, "weight", f.Weight, true, maxPickupWeight, "kg")
	if f.Carrier != "" && !carrierShape.MatchString(f.Carrier) {
		p.Add("carrier", "pick.err.carrier")
	}
	return f, p
}

func (f PickupForm) checkDate(p apperr.Problems, today time.Time) {
	d, err := time.Parse("2006-01-02", f.Date)
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case f.Date == "":
		p.Add("date", "form.required")
	case !dayShape.MatchString(f.Date) || err != nil:
		p.Add("date", "pick.err.date_format")
	case d.Before(day):
		p.Add("date", "pick.err.past")
	case d.Weekday() == time.Saturday || d.Weekday() == time.Sunday:
		p.Add("date", "pick.err.weekend")
	}
}

func (f PickupForm) checkWindow(p apperr.Problems) {
	okFrom, okTo := clockShape.MatchString(f.TimeFrom), clockShape.MatchString(f.TimeTo)
	if !okFrom {
		p.Add("time_from", "pick.err.time_from")
	}
	if !okTo {
		p.Add("time_to", "pick.err.time_to")
	}
	if !okFrom || !okTo {
		return
	}
	from, _ := time.Parse("15:04", f.TimeFrom)
	to, _ := time.Parse("15:04", f.TimeTo)
	switch {
	case f.TimeFrom < pickupEarliest || f.TimeFrom > pickupLatest:
		p.Add("time_from", "pick.err.hours", pickupEarliest, pickupLatest)
	case f.TimeTo > pickupLatest || f.TimeTo < pickupEarliest:
		p.Add("time_to", "pick.err.hours", pickupEarliest, pickupLatest)
	case !to.After(from):
		p.Add("time_to", "pick.err.window_order")
	case to.Sub(from) < pickupMinWindow:
		p.Add("time_to", "pick.err.window_short")
	}
}

// request is the pickups/add body of a checked form.
func (f PickupForm) request() shipping.PickupRequest {
	n, _ := strconv.Atoi(f.Packages)
	w, _ := strconv.ParseFloat(strings.Replace(f.Weight, ",", ".", 1), 64)
	return shipping.PickupRequest{AddressID: f.ContactID, Date: f.Date, TimeFrom: f.TimeFrom, TimeTo: f.TimeTo,
		Packages: n, Weight: w, Carrier: f.Carrier, Note: f.Note}
}

// PickupField names the form field of a field path in the service's answer.
func PickupField(path string) string {
	switch path {
	case "address_id", "address":
		return "address"
	case "date", "time_from", "time_to", "packages", "weight", "carrier", "note":
		return path
	}
	return "form"
}
