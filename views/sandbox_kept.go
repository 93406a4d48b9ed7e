package views

import (
	"context"
	"io"
	"strings"
	"time"

	"shipdesk/i18n"
)

// The sandbox banner's changing part (its hole in a kept shell) says the
// simulated time to the second and the faults played: every page drawn in
// the same second and language says the same, so it is drawn once and kept
// until it says something else. Two time formats and a few escaped texts
// were a tenth of a small page's work.

// sandboxKey is everything sandboxNow's output depends on.
type sandboxKey struct {
	lang   i18n.Lang
	zone   *time.Location
	second int64 // the simulated time, to the second (as the banner shows it)
	faults SandboxFaults
	failed bool
}

// maxKeptSandbox bounds the kept banners: one per language and zone is in
// use at a time; past it they start again.
const maxKeptSandbox = 16

// keptSandbox writes the banner's changing part for p.
func keptSandbox(ctx context.Context, kept *Kept, p Page, w io.Writer) error {
	s := p.SandboxState
	if s.Now.IsZero() {
		return sandboxNow(p).Render(ctx, w)
	}
	s.Now = s.Now.Truncate(time.Second) // the banner shows no less
	k := sandboxKey{lang: i18n.LangOf(ctx), zone: i18n.ZoneOf(ctx), second: s.Now.Unix(), faults: s.Faults, failed: s.FaultsFailed}
	kept.sandbox.RLock()
	html, ok := kept.sandbox.m[k]
	kept.sandbox.RUnlock()
	if !ok {
		var b strings.Builder
		if err := sandboxNow(Page{SandboxState: s}).Render(ctx, &b); err != nil {
			return err
		}
		html = b.String()
		kept.sandbox.Lock()
		if len(kept.sandbox.m) >= maxKeptSandbox {
			clear(kept.sandbox.m)
		}
		kept.sandbox.m[k] = html
		kept.sandbox.Unlock()
	}
	_, err := io.WriteString(w, html)
	return err
}
