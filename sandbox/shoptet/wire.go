package shoptet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"shipdesk/sandbox/apijson"
)

// Shoptet's envelope: {"data", "errors", "metadata": {"requestId"}} on every
// answer, the sections it lacks null.
type envelope struct {
	Data     any        `json:"data"`
	Errors   []apiError `json:"errors"`
	Metadata metadata   `json:"metadata"`
}

type metadata struct {
	RequestID string `json:"requestId"`
}

// apiError is one of Shoptet's errors.
type apiError struct {
	Code     string `json:"errorCode"`
	Message  string `json:"message"`
	Instance string `json:"instance"`
}

// problem is a refusal: its status and errors.
type problem struct {
	status int
	errs   []apiError
	header map[string]string
}

func fail(status int, code, instance, format string, args ...any) *problem {
	return &problem{status: status, errs: []apiError{{Code: code, Message: fmt.Sprintf(format, args...), Instance: clip(instance)}}}
}

// invalidParam is a query parameter Shoptet cannot use.
func invalidParam(name, format string, args ...any) *problem {
	return fail(http.StatusBadRequest, "invalid-parameter", name, format, args...)
}

// invalidData is a body that does not match the request's schema.
func invalidData(instance, format string, args ...any) *problem {
	return fail(http.StatusUnprocessableEntity, "invalid-request-data", instance, format, args...)
}

func notFound(code string) *problem {
	return fail(http.StatusNotFound, "order-not-found", code, "Order \"%s\" not found.", clip(code))
}

type ctxKey struct{}

// withRequestID gives each request the id its answer's metadata and
// X-Request-ID header carry.
func withRequestID(r *http.Request, w http.ResponseWriter) *http.Request {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	h := hex.EncodeToString(b)
	id := h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
	w.Header().Set("X-Request-ID", id)
	return r.WithContext(context.WithValue(r.Context(), ctxKey{}, id))
}

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(ctxKey{}).(string)
	return id
}

// writeData answers 200 (or status) with data.
func writeData(w http.ResponseWriter, r *http.Request, status int, data any) {
	write(w, r, status, envelope{Data: data, Metadata: metadata{RequestID: requestID(r)}})
}

// writeProblem answers a refusal in Shoptet's error shape.
func writeProblem(w http.ResponseWriter, r *http.Request, p *problem) {
	for k, v := range p.header {
		w.Header().Set(k, v)
	}
	write(w, r, p.status, envelope{Errors: p.errs, Metadata: metadata{RequestID: requestID(r)}})
}

func write(w http.ResponseWriter, _ *http.Request, status int, body envelope) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(body)
}

// WriteUnavailable answers 503 as Shoptet does during maintenance: the
// sandbox's injected faults on /shoptet paths answer with it.
func WriteUnavailable(w http.ResponseWriter, r *http.Request) {
	if requestID(r) == "" {
		r = withRequestID(r, w)
	}
	writeProblem(w, r, fail(http.StatusServiceUnavailable, "service-unavailable", "unknown", "The system is under maintenance. Please try again in a few minutes."))
}

// text is a string written into JSON byte for byte: a shop's texts may hold
// invalid UTF-8 (which encoding/json would replace), and a client must meet
// them as the shop sends them. Quotes, backslashes and control characters
// are escaped, so the JSON stays well formed.
type text string

func (t text) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(t)+2)
	b = append(b, '"')
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			b = append(b, fmt.Sprintf(`\u%04x`, c)...)
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, size := utf8.DecodeRuneInString(string(t[i:]))
			if r == '\u2028' || r == '\u2029' {
				b = append(b, fmt.Sprintf(`\u%04x`, r)...)
			} else {
				b = append(b, t[i:i+size]...) // an invalid byte passes as it is (size 1)
			}
			i += size
			continue
		}
		i++
	}
	return append(b, '"'), nil
}

// orNull is a nullable text: "" answers null.
func orNull(s string) any {
	if s == "" {
		return nil
	}
	return text(s)
}

// timeLayout is Shoptet's ISO 8601 with the zone without a colon.
const timeLayout = "2006-01-02T15:04:05-0700"

// stamp is a moment as Shoptet writes it, in the shop's zone (Prague).
func stamp(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.In(apijson.Zone).Format(timeLayout)
}

// parseTime reads a moment of a query: Shoptet's form, RFC 3339, or a day.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{timeLayout, time.RFC3339, "2006-01-02T15:04:05-07", time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, apijson.Zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// cents reads a decimal such as "1299.00"; ok false when it is no number.
func cents(s string) (int64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f || f > 1e12 || f < -1e12 {
		return 0, false
	}
	if f < 0 {
		return int64(f*100 - 0.5), true
	}
	return int64(f*100 + 0.5), true
}

// money writes cents as "1299.00".
func money(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// milli reads a quantity such as "2.000" in thousandths.
func milli(s string) (int64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f != f || f > 1e9 || f < -1e9 {
		return 0, false
	}
	return int64(f*1000 + 0.5), true
}

func clip(s string) string {
	if len(s) > 64 {
		s = s[:64]
	}
	return strings.ToValidUTF8(s, "�")
}
