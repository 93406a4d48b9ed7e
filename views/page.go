// Package views renders every page and fragment with templ. Components take plain
// view models built by the handlers. The shell (layout, sign-in, users, errors,
// connection) reads its text from the i18n catalog; the desks' pages (shipping,
// tracking, returns) are still written in English in their templates.
package views

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"shipdesk/i18n"
	"shipdesk/identity"
)

// Page is what the layout needs on every page.
type Page struct {
	Title   string
	Staff   *identity.Staff
	Area    identity.Area // highlighted navigation entry; empty for home
	Flashes []Flash
	Sandbox bool   // the dashboard talks to the simulator: say so on every page
	Path    string // this page, to come back to after a sandbox control
	// SandboxState is the simulator's time and faults, for the banner.
	SandboxState SandboxState
}

// SandboxState is what the sandbox banner says on each page.
type SandboxState struct {
	Now          time.Time // the simulated time
	Faults       SandboxFaults
	FaultsFailed bool // the sandbox did not say which faults it plays
}

// SandboxFaults are the faults the sandbox plays on every interface.
type SandboxFaults struct {
	LatencyMS                 int
	ErrorPercent, LostPercent float64
}

// On reports whether any fault is played.
func (f SandboxFaults) On() bool { return f.LatencyMS > 0 || f.ErrorPercent > 0 || f.LostPercent > 0 }

// Flash is a one-time message shown at the top of the next page.
type Flash struct {
	Kind string // "ok", "error" or "info"
	Text string
}

// langOf is the page's language, for <html lang>.
func langOf(ctx context.Context) string { return string(i18n.LangOf(ctx)) }

// otherLangs are the languages the page may switch to.
func otherLangs(ctx context.Context) []i18n.Lang {
	var out []i18n.Lang
	for _, l := range i18n.Langs {
		if l != i18n.LangOf(ctx) {
			out = append(out, l)
		}
	}
	return out
}

// T is the catalog lookup, short for templates.
func T(ctx context.Context, key string, args ...any) string { return i18n.T(ctx, key, args...) }

// navAreas are the areas the staff member may use, in navigation order.
func navAreas(s *identity.Staff) []identity.Area {
	if s == nil {
		return nil
	}
	var out []identity.Area
	for _, a := range identity.Areas {
		if s.Role.May(a) {
			out = append(out, a)
		}
	}
	return out
}

func areaHref(a identity.Area) string { return "/" + string(a) }

func roleName(ctx context.Context, r identity.Role) string { return T(ctx, "role."+string(r)) }

// Form is a view model of a form: what was typed and what is wrong with it.
type Form struct {
	Values  map[string]string
	Errors  map[string]string
	Message string // a summary above the form
	// Focus names the field (its id) that takes the focus when the form is
	// drawn: the first field of a fresh form, the first one with a problem,
	// or what comes next after a step.
	Focus string
}

// FocusOn is the form with its focus on the field name.
func (f Form) FocusOn(name string) Form {
	f.Focus = name
	return f
}

// Value is what was typed into field name.
func (f Form) Value(name string) string { return f.Values[name] }

// Error is the problem with field name, empty when none.
func (f Form) Error(name string) string { return f.Errors[name] }

// HasError reports whether field name has a problem.
func (f Form) HasError(name string) bool { return f.Errors[name] != "" }

func errorID(name string) string { return name + "-error" }

// firstProblem is the first of a form's fields (in page order) with a
// problem, or the first field when none has one: where the focus goes.
func firstProblem(f Form, fields ...string) string {
	for _, name := range fields {
		if f.HasError(name) {
			return name
		}
	}
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// FaultsText says which faults the sandbox plays, for the banner and the
// message after setting them.
func FaultsText(ctx context.Context, f SandboxFaults) string {
	var parts []string
	if f.LatencyMS > 0 {
		parts = append(parts, i18n.T(ctx, "faults.part.latency", i18n.Int(ctx, int64(f.LatencyMS))))
	}
	if f.ErrorPercent > 0 {
		parts = append(parts, i18n.T(ctx, "faults.part.errors", percentText(ctx, f.ErrorPercent)))
	}
	if f.LostPercent > 0 {
		parts = append(parts, i18n.T(ctx, "faults.part.lost", percentText(ctx, f.LostPercent)))
	}
	return i18n.T(ctx, "faults.on", strings.Join(parts, ", "))
}

// percentText is a share with as many decimals as it has (at most two).
func percentText(ctx context.Context, x float64) string {
	if x == math.Trunc(x) {
		return i18n.Number(ctx, x, 0)
	}
	return strings.TrimRight(i18n.Number(ctx, x, 2), "0")
}

// faultValue is a fault's number as its field shows it: empty when none.
func faultValue(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
