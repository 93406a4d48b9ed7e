package e2e

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axe is axe-core 4.14.1 (MPL-2.0, testdata/axe.LICENSE), the accessibility
// engine browsers' own audit tools use; vendored so the scan runs offline.
//
//go:embed testdata/axe.min.js
var axe string

// axeFinding is one rule an element breaks, as axe reports it.
type axeFinding struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// accessible scans the page as it is now (WCAG 2.1 A and AA and axe's best
// practices) and fails the test for every finding above minor: the issue asks
// for no serious or critical ones, and our pages have no moderate ones either.
func (b *Tab) accessible() {
	b.t.Helper()
	for _, f := range b.axeFindings() {
		where := make([]string, 0, len(f.Nodes))
		for _, n := range f.Nodes {
			where = append(where, fmt.Sprintf("%v %.120s", n.Target, n.HTML))
		}
		msg := fmt.Sprintf("%s: %s (%s, %s) at %s", b.Path(), f.Help, f.ID, f.Impact, strings.Join(where, "; "))
		if f.Impact != "minor" {
			b.t.Error(msg)
		} else {
			b.t.Log(msg)
		}
	}
}

// axeFindings runs axe over the page as it is now.
func (b *Tab) axeFindings() []axeFinding {
	b.t.Helper()
	// The engine's 550 KB go to a page once, not with every scan of it.
	loaded, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!!window.axe`))
	if err == nil && !loaded {
		_, err = chromedp.Run(b.ctx, chromedp.Evaluate[any](axe+`;0`))
	}
	var out string
	if err == nil {
		out, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	}
	if err != nil {
		b.t.Fatalf("accessibility scan of %s: %v", b.Path(), err)
	}
	var found []axeFinding
	if err := json.Unmarshal([]byte(out), &found); err != nil {
		b.t.Fatalf("accessibility scan of %s: %v", b.Path(), err)
	}
	return found
}

// The scan itself works: a page with an unlabelled field and an image without
// text is reported, so a clean scan of our pages means something.
func TestAccessibilityScanFindsProblems(t *testing.T) {
	t.Parallel()
	tab := newTab(t, "")
	tab.do("open a broken page", chromedp.Navigate(`data:text/html,<html><body><img src="x.png"><input type="text"></body></html>`))
	ids := map[string]string{}
	for _, f := range tab.axeFindings() {
		ids[f.ID] = f.Impact
	}
	for _, want := range []string{"image-alt", "label", "html-has-lang"} {
		if ids[want] != "critical" && ids[want] != "serious" {
			t.Errorf("the scan did not report %s as serious or critical: %v", want, ids)
		}
	}
}

// look scans the page for accessibility and takes its screenshot.
func (b *Tab) look(name string) {
	b.t.Helper()
	b.accessible()
	b.screenshot(name)
}
