package views

import (
	"context"
	"io"
	"time"

	"github.com/a-h/templ"

	"shipdesk/i18n"
)

// The sandbox banner's changing part (its hole in a kept shell) says the
// simulated time to the second and the faults played: every page drawn in
// the same second and language says the same, so it is drawn once and kept
// (fragments.go) until it says something else. Two time formats and a few
// escaped texts were a tenth of a small page's work.

// sandboxKey is everything sandboxNow's output depends on.
type sandboxKey struct {
	lang   i18n.Lang
	zone   *time.Location
	second int64 // the simulated time, to the second (as the banner shows it)
	faults SandboxFaults
	failed bool
}

func drawSandbox(k sandboxKey) templ.Component {
	return sandboxNow(Page{SandboxState: SandboxState{Now: time.Unix(k.second, 0), Faults: k.faults, FaultsFailed: k.failed}})
}

// keptSandbox writes the banner's changing part for p.
func keptSandbox(ctx context.Context, kept *Kept, p Page, w io.Writer) error {
	s := &p.SandboxState
	if s.Now.IsZero() {
		return sandboxNow(p).Render(ctx, w)
	}
	k := sandboxKey{lang: i18n.LangOf(ctx), zone: i18n.ZoneOf(ctx), second: s.Now.Unix(), faults: s.Faults, failed: s.FaultsFailed}
	return kept.sandbox.write(ctx, w, k, drawSandbox)
}
