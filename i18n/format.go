package i18n

import (
	"context"
	"math"
	"strings"
	"time"
	_ "time/tzdata" // the shop's time zone, also on a machine without zone files

	xmessage "golang.org/x/text/message"
)

// Formats out: Czech writes 1 299,50 Kč, 22. 11. 2026 and 14:05; English keeps
// its own (CZK 1,299.50, 22 Nov 2026, 14:05). Times are shown in the shop's
// time zone (SHIPDESK_TZ), carried in the request's context.

// ZoneKey is the context key of the time zone (WithZone); the web server's
// request state answers it itself.
type ZoneKey struct{}

// WithZone returns ctx carrying the time zone times are shown in.
func WithZone(ctx context.Context, loc *time.Location) context.Context {
	return context.WithValue(ctx, ZoneKey{}, loc)
}

// ZoneOf is the request's time zone; Europe/Prague by default.
func ZoneOf(ctx context.Context) *time.Location {
	if loc, ok := ctx.Value(ZoneKey{}).(*time.Location); ok && loc != nil {
		return loc
	}
	return Prague
}

// Prague is the shop's default time zone.
var Prague = mustZone("Europe/Prague")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is embedded: this cannot fail
	}
	return loc
}

// Number writes x with decimals places, grouped as the language groups
// thousands: "1 299,50" (with no-break spaces), "1,299.50".
func Number(ctx context.Context, x float64, decimals int) string {
	return xmessage.NewPrinter(LangOf(ctx).Tag()).Sprintf("%.*f", decimals, x)
}

// Int writes a whole number grouped: "12 345", "12,345".
func Int(ctx context.Context, n int64) string {
	return xmessage.NewPrinter(LangOf(ctx).Tag()).Sprintf("%d", n)
}

var symbols = map[string]string{"CZK": "Kč", "EUR": "€"}

// Money writes an amount with its currency: "1 299 Kč", "1 299,50 Kč", "12,50 €"
// in Czech; "CZK 1,299.50", "€12.50" in English. Whole amounts go without
// decimals in Czech, as shops write prices.
func Money(ctx context.Context, value float64, currency string) string {
	decimals := 2
	lang := LangOf(ctx)
	if lang == Czech && value == math.Trunc(value) {
		decimals = 0
	}
	n := Number(ctx, value, decimals)
	sym, ok := symbols[currency]
	switch {
	case lang == Czech && ok:
		return n + "\u00a0" + sym
	case lang == Czech:
		return n + "\u00a0" + currency
	case currency == "EUR":
		return "€" + n
	}
	return strings.TrimSpace(currency + "\u00a0" + n)
}

// Date writes a day: "22. 11. 2026", "22 Nov 2026".
func Date(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return dayIn(ctx, t.In(ZoneOf(ctx)))
}

// Day writes a calendar day that has no time zone (a date of the service,
// "2026-11-22"), as Date does; text that is no date is shown as it is.
func Day(ctx context.Context, iso string) string {
	d, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return iso
	}
	return dayIn(ctx, d)
}

func dayIn(ctx context.Context, t time.Time) string {
	if LangOf(ctx) == Czech {
		return t.Format("2. 1. 2006")
	}
	return t.Format("2 Jan 2006")
}

// DateTime writes a moment in the shop's time zone, 24-hour: "22. 11. 2026 14:05",
// "22 Nov 2026, 14:05".
func DateTime(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(ZoneOf(ctx))
	if LangOf(ctx) == Czech {
		return t.Format("2. 1. 2006 15:04")
	}
	return t.Format("2 Jan 2006, 15:04")
}

// Clock writes the time of day in the shop's time zone: "14:05:09".
func Clock(ctx context.Context, t time.Time) string {
	return t.In(ZoneOf(ctx)).Format("15:04:05")
}

// Deadline writes a moment something is awaited until, as DateTime does but
// rounded up to the whole minute, so that "after 14:06" is never before it:
// "22. 11. 2026 14:06", "22 Nov 2026, 14:06".
func Deadline(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	if up := t.Truncate(time.Minute); !up.Equal(t) {
		t = up.Add(time.Minute)
	}
	return DateTime(ctx, t)
}
