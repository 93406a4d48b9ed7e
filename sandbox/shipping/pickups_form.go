package shipping

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"shipdesk/sandbox/apijson"
)

// The list form of pickups/add that real clients send (public-evidence.md):
// {"pickups": [{"date", "time_range": "08:00-16:00", "address": {"id": N}}]}.
// Its refusals are read by real clients either as errors.address[0] or as
// errors[0].message. One JSON value cannot be a list and a keyed object, but
// an object can hold both readings: "0", "1"… carry {field, message} (what
// errors[0] finds in JavaScript and PHP, whose arrays and objects index "0"
// alike) and each field name carries the list of its messages. The other form
// keeps the usual envelope's list.

// maxPickupsAdded is how many pickups one pickups/add may order.
const maxPickupsAdded = 10

type pickupItem struct {
	Date      string `json:"date"`
	TimeRange string `json:"time_range"`
	Address   struct {
		ID int64 `json:"id"`
	} `json:"address"`
	Packages int     `json:"packages"` // optional: 1
	Weight   float64 `json:"weight"`   // optional: not stated
	Carrier  string  `json:"carrier"`
	Note     string  `json:"note"`
}

// pickupFrom is the form an order service sends for one pickup:
// {"pickup_date": "2026-12-03", "from": {"id": 1}, "carrier": "ZASILKOVNA"}:
// the stored address's id, a day and a carrier; what it leaves out (the
// window, the packages, the weight) is the stored address's usual pickup.
type pickupFrom struct {
	PickupDate *string `json:"pickup_date"`
	From       *struct {
		ID int64 `json:"id"`
	} `json:"from"`
	TimeFrom string  `json:"time_from"`
	TimeTo   string  `json:"time_to"`
	Packages int     `json:"packages"`
	Weight   float64 `json:"weight"`
	Carrier  string  `json:"carrier"`
	Note     string  `json:"note"`
}

// The usual pickup at a stored address, for what the pickup_date form leaves
// out: the window most shops ask for and one parcel, its weight not stated.
const (
	usualPickupFrom = "08:00"
	usualPickupTo   = "16:00"
)

// request is the pickup in our own fields.
func (f pickupFrom) request() pickupReq {
	req := pickupReq{Date: deref(f.PickupDate), TimeFrom: f.TimeFrom, TimeTo: f.TimeTo, Packages: max(f.Packages, 1),
		Weight: f.Weight, Carrier: f.Carrier, Note: f.Note, weightOptional: true}
	if f.From != nil {
		req.AddressID = f.From.ID
	}
	if req.TimeFrom == "" && req.TimeTo == "" {
		req.TimeFrom, req.TimeTo = usualPickupFrom, usualPickupTo
	}
	return req
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// fromFormField names a field of ours as the pickup_date form calls it.
func fromFormField(field string) string {
	switch field {
	case "address_id":
		return "from.id"
	case "date":
		return "pickup_date"
	}
	return field
}

// pickupsAddReq is one of the three forms of the body: the list form
// (Pickups), the pickup_date form (from) or our fields (one).
type pickupsAddReq struct {
	Pickups []pickupItem
	from    *pickupFrom
	one     pickupReq
}

func (r *pickupsAddReq) UnmarshalJSON(b []byte) error {
	var list struct {
		Pickups []pickupItem `json:"pickups"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	if list.Pickups != nil {
		r.Pickups = list.Pickups
		return nil
	}
	var from pickupFrom
	if err := json.Unmarshal(b, &from); err != nil {
		return err
	}
	if from.PickupDate != nil || from.From != nil {
		r.from = &from
		return nil
	}
	return json.Unmarshal(b, &r.one)
}

var timeRangePattern = regexp.MustCompile(`^\s*(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})\s*$`)

// request is the item as our own fields, with the form's field names kept for
// the errors; a window that cannot be read stays empty and is refused there.
func (it pickupItem) request() pickupReq {
	req := pickupReq{AddressID: it.Address.ID, Date: it.Date, Packages: max(it.Packages, 1), Weight: it.Weight,
		Carrier: it.Carrier, Note: it.Note, weightOptional: true}
	if m := timeRangePattern.FindStringSubmatch(it.TimeRange); m != nil {
		req.TimeFrom, req.TimeTo = twoDigitHour(m[1]), twoDigitHour(m[2])
	}
	return req
}

func twoDigitHour(hhmm string) string {
	if len(hhmm) == 4 {
		return "0" + hhmm
	}
	return hhmm
}

// listFormField names a field of ours as the list form calls it.
func listFormField(field string) string {
	switch field {
	case "address_id":
		return "address"
	case "time_from", "time_to":
		return "time_range"
	}
	return field
}

// writeKeyedProblem answers field errors so that both errors[0].message and
// errors.<field>[0] read them, in the request's language.
func writeKeyedProblem(w http.ResponseWriter, r *http.Request, errs []apijson.FieldError) {
	lang := apijson.LangOf(r)
	problem := apijson.Invalid(errs...)
	keyed := map[string]any{}
	byField := map[string][]string{}
	for i, e := range apijson.ErrorsIn(errs, lang) {
		keyed[strconv.Itoa(i)] = e
		if name := e.Field[strings.LastIndex(e.Field, ".")+1:]; name != "" {
			byField[name] = append(byField[name], e.Message)
		}
	}
	for name, msgs := range byField {
		keyed[name] = msgs
	}
	apijson.WriteRaw(w, r, problem.Status, map[string]any{"status": problem.Status, "message": problem.Message.In(lang), "errors": keyed})
}

// addListedPickups checks and orders every pickup of the list form, or none.
func (s *Service) addListedPickups(w http.ResponseWriter, r *http.Request, acct *account, items []pickupItem) {
	var errs []apijson.FieldError
	switch {
	case len(items) == 0:
		errs = append(errs, apijson.Err("pickups", msgPickupsRequired))
	case len(items) > maxPickupsAdded:
		errs = append(errs, apijson.Err("pickups", msgPickupsMax, maxPickupsAdded))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	reqs := make([]pickupReq, len(items))
	contacts := make([]*contact, len(items))
	carriers := make([]*Carrier, len(items))
	for i, it := range items {
		reqs[i] = it.request()
		var itemErrs []apijson.FieldError
		contacts[i], carriers[i], itemErrs = s.checkPickup(acct, reqs[i], now)
		for _, e := range itemErrs {
			if it.TimeRange != "" && reqs[i].TimeFrom == "" && listFormField(e.Field) == "time_range" {
				e = apijson.Err(e.Field, msgTimeRangeShape)
			}
			e.Field = "pickups[" + strconv.Itoa(i) + "]." + listFormField(e.Field)
			if !slicesContainsField(errs, e) {
				errs = append(errs, e)
			}
		}
	}
	if len(errs) > 0 {
		writeKeyedProblem(w, r, errs)
		return
	}
	out := make([]*pickup, len(items))
	for i := range items {
		out[i] = s.storePickup(acct, reqs[i], contacts[i], carriers[i], now)
	}
	apijson.Write(w, r, http.StatusOK, pickupsOrderedMessage(out), out)
}

// slicesContainsField: a window refused at both ends is said once.
func slicesContainsField(errs []apijson.FieldError, e apijson.FieldError) bool {
	said := e.In(apijson.English).Message
	for _, x := range errs {
		if x.Field == e.Field && x.In(apijson.English).Message == said {
			return true
		}
	}
	return false
}

func pickupsOrderedMessage(out []*pickup) apijson.Text {
	numbers := make([]string, len(out))
	for i, p := range out {
		numbers[i] = p.Number
	}
	if len(out) == 1 {
		return msgPickupOrdered.With(numbers[0])
	}
	return msgPickupsOrdered.With(strings.Join(numbers, ", "))
}
