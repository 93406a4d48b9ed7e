package shoptet

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"
)

// MaxBody is the largest request body the shop reads.
const MaxBody = 1 << 20

// MaxTrackingNumber is the longest trackingNumber Shoptet keeps.
const MaxTrackingNumber = 32

// readBody reads a JSON object body; its members stay raw for the route to
// check one by one.
func readBody(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, []byte, *problem) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, nil, fail(http.StatusRequestEntityTooLarge, "payload-too-large", "payload", "The request body is larger than %d bytes.", MaxBody)
	}
	if err != nil {
		return nil, nil, invalidData("payload", "The request body could not be read.")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
		return nil, nil, invalidData("payload", "The request body is not a JSON object.")
	}
	return obj, b, nil
}

// dataObject is the body's "data" object, with only the allowed members.
func dataObject(body map[string]json.RawMessage, allowed ...string) (map[string]json.RawMessage, *problem) {
	raw, ok := body["data"]
	if !ok {
		return nil, invalidData("data", "Missing value for \"data\".")
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(raw, &data); err != nil || data == nil {
		return nil, invalidData("data", "\"data\" must be an object.")
	}
	if len(data) == 0 {
		return nil, invalidData("data", "\"data\" must have at least one property.")
	}
	for k := range data {
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		if !known {
			return nil, invalidData("data."+k, "Unknown property \"%s\".", clip(k))
		}
	}
	return data, nil
}

// nullableText reads a string or null member: set false when absent.
func nullableText(data map[string]json.RawMessage, name string) (v *string, set bool, p *problem) {
	raw, ok := data[name]
	if !ok {
		return nil, false, nil
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, true, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false, invalidData("data."+name, "\"%s\" must be a string or null.", name)
	}
	return &s, true, nil
}

// patchNotes is PATCH /api/orders/{code}/notes.
func (s *Service) patchNotes(w http.ResponseWriter, r *http.Request) *problem {
	code := r.PathValue("code")
	body, raw, p := readBody(w, r)
	if p != nil {
		return p
	}
	data, p := dataObject(body, "customerRemark", "trackingNumber", "additionalFields", "eshopRemark")
	if p != nil {
		return p
	}
	type change struct {
		v   *string
		set bool
	}
	fields := map[string]change{}
	for _, name := range []string{"customerRemark", "trackingNumber", "eshopRemark"} {
		v, set, p := nullableText(data, name)
		if p != nil {
			return p
		}
		fields[name] = change{v, set}
	}
	if tn := fields["trackingNumber"].v; tn != nil && utf8.RuneCountInString(*tn) > MaxTrackingNumber {
		return invalidData("data.trackingNumber", "\"trackingNumber\" cannot be longer than %d characters.", MaxTrackingNumber)
	}
	additional, p := additionalFields(data)
	if p != nil {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.order(code)
	if o == nil {
		return notFound(code)
	}
	now := s.clock.Now()
	if s.locked("PATCH "+r.URL.Path+" "+string(raw), now) {
		return lockedProblem()
	}
	set := func(dst *string, c change) {
		if c.set {
			*dst = ""
			if c.v != nil {
				*dst = *c.v
			}
		}
	}
	set(&o.CustomerRemark, fields["customerRemark"])
	set(&o.EshopRemark, fields["eshopRemark"])
	if c := fields["trackingNumber"]; c.set {
		set(&o.TrackingNumber, c)
		s.note(o, now, "Číslo zásilky změněno: "+orDash(o.TrackingNumber), false)
	}
	for i, v := range additional {
		o.Additional[i-1] = v
	}
	s.touch(o, now, "order:update")
	writeData(w, r, http.StatusOK, nil)
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// additionalFields reads [{index 1..6, text}] into index → text.
func additionalFields(data map[string]json.RawMessage) (map[int]string, *problem) {
	raw, ok := data["additionalFields"]
	if !ok {
		return nil, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		return nil, invalidData("data.additionalFields", "\"additionalFields\" must be a list of at least one {index, text}.")
	}
	out := map[int]string{}
	for i, f := range list {
		at := "data.additionalFields[" + strconv.Itoa(i) + "]"
		var index int
		if err := json.Unmarshal(f["index"], &index); err != nil || index < 1 || index > 6 {
			return nil, invalidData(at+".index", "\"index\" must be 1 to 6.")
		}
		v, set, p := nullableText(f, "text")
		if p != nil || !set || len(f) != 2 {
			return nil, invalidData(at, "Each additional field has exactly \"index\" and \"text\" (a string or null).")
		}
		if v != nil && index <= 3 && utf8.RuneCountInString(*v) > 255 {
			return nil, invalidData(at+".text", "Additional fields 1 to 3 cannot be longer than 255 characters.")
		}
		out[index] = ""
		if v != nil {
			out[index] = *v
		}
	}
	return out, nil
}

// boolQuery reads a boolean query parameter (absent: false).
func boolQuery(r *http.Request, name string) (bool, *problem) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, invalidParam(name, "Invalid \"%s\" parameter. Expected true or false.", name)
	}
	return b, nil
}

// patchStatus is PATCH /api/orders/{code}/status: the status, the paid
// flag; the status's mail and text go to the customer unless suppressed.
func (s *Service) patchStatus(w http.ResponseWriter, r *http.Request) *problem {
	code := r.PathValue("code")
	quietMail, p := boolQuery(r, "suppressEmailSending")
	if p != nil {
		return p
	}
	quietText, p := boolQuery(r, "suppressSmsSending")
	if p != nil {
		return p
	}
	if _, p := boolQuery(r, "suppressDocumentGeneration"); p != nil {
		return p
	}
	body, raw, p := readBody(w, r)
	if p != nil {
		return p
	}
	data, p := dataObject(body, "statusId", "paid", "billingMethodId")
	if p != nil {
		return p
	}
	var statusID *int
	if v, ok := data["statusId"]; ok {
		var n int
		if err := json.Unmarshal(v, &n); err != nil {
			return invalidData("data.statusId", "\"statusId\" must be an integer.")
		}
		if _, known := statusOf(n); !known {
			return invalidData("data.statusId", "Invalid statusId \"%d\".", n)
		}
		statusID = &n
	}
	var paid *bool
	paidSet := false
	if v, ok := data["paid"]; ok {
		paidSet = true
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return invalidData("data.paid", "\"paid\" must be true, false or null.")
			}
			paid = &b
		}
	}
	if v, ok := data["billingMethodId"]; ok {
		var n int
		if err := json.Unmarshal(v, &n); err != nil || n < 1 || n > 4 {
			return invalidData("data.billingMethodId", "Invalid billingMethodId.")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.order(code)
	if o == nil {
		return notFound(code)
	}
	now := s.clock.Now()
	if s.locked("PATCH "+r.URL.Path+"?"+r.URL.RawQuery+" "+string(raw), now) {
		return lockedProblem()
	}
	wasPaid := o.Paid != nil && *o.Paid
	event := ""
	if statusID != nil && *statusID != o.Status {
		st, _ := statusOf(*statusID)
		o.Status = st.ID
		s.note(o, now, "Stav objednávky změněn na „"+st.Name+"“.", false)
		if st.Mails {
			s.mail(o, now, "Zákazníkovi odeslán e-mail o změně stavu na „"+st.Name+"“.", "E-mail zákazníkovi o stavu „"+st.Name+"“ nebyl odeslán (potlačeno).", quietMail, true)
		}
		if st.Texts {
			s.mail(o, now, "Zákazníkovi odeslána SMS o změně stavu na „"+st.Name+"“.", "SMS zákazníkovi o stavu „"+st.Name+"“ nebyla odeslána (potlačeno).", quietText, false)
		}
		if st.MarkAsPaid && !paidSet {
			t := true
			o.Paid = &t
		}
		event = "order:update"
		if st.ID == StatusCancelled {
			event = "order:cancel"
		}
	}
	if paidSet {
		o.Paid = paid
		event = "order:update"
	}
	if event != "" {
		s.touch(o, now, event)
		if !wasPaid && o.Paid != nil && *o.Paid {
			s.emit("order:paid", o.Code, now)
		}
	}
	writeData(w, r, http.StatusOK, m{"order": s.detailView(o, includes{})})
	return nil
}

// touch marks the order changed now and tells the webhooks.
func (s *Service) touch(o *Order, now time.Time, event string) {
	o.Changed = now
	s.emit(event, o.Code, now)
}

// note adds a line to the order's history.
func (s *Service) note(o *Order, now time.Time, line string, system bool) {
	s.nextHist++
	o.History = append(o.History, History{ID: s.nextHist, At: now, Text: line, System: system})
}

// mail records a mail (or text) to the customer, or that it was suppressed.
func (s *Service) mail(o *Order, now time.Time, sent, suppressed string, quiet, isMail bool) {
	s.nextHist++
	h := History{ID: s.nextHist, At: now, Text: sent, System: true}
	switch {
	case quiet:
		h.Text = suppressed
	case isMail:
		h.Mailed = true
	default:
		h.Texted = true
	}
	o.History = append(o.History, h)
}
