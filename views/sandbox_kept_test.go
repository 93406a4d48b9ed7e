package views

import (
	"context"
	"strings"
	"testing"
	"time"

	"shipdesk/i18n"
)

// The kept sandbox banner says what drawing it says, for every language,
// zone, moment and fault, drawn and then kept, and never more than its bound
// are kept.
func TestKeptSandboxBannerDrawsWhatTheBannerDraws(t *testing.T) {
	kept := NewKept()
	london, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 29, 0, 59, 59, 900_000_000, time.UTC) // a clock change in Prague
	faults := []SandboxState{{}, {Faults: SandboxFaults{LatencyMS: 1500, ErrorPercent: 12.5}}, {FaultsFailed: true}}
	for _, lang := range i18n.Langs {
		for _, zone := range []*time.Location{i18n.Prague, london} {
			ctx := i18n.WithZone(i18n.WithLang(context.Background(), lang), zone)
			for step := range 5 {
				for _, f := range faults {
					s := f
					s.Now = start.Add(time.Duration(step) * 700 * time.Millisecond)
					p := Page{SandboxState: s}
					var want strings.Builder
					if err := sandboxNow(p).Render(ctx, &want); err != nil {
						t.Fatal(err)
					}
					for range 2 { // drawn, then kept
						var got strings.Builder
						if err := keptSandbox(ctx, kept, p, &got); err != nil {
							t.Fatal(err)
						}
						if got.String() != want.String() {
							t.Fatalf("%s %s %+v: kept\n%s\nwant\n%s", lang, zone, s, got.String(), want.String())
						}
					}
					if n := kept.sandbox.len(); n > maxKeptFragments {
						t.Fatalf("%d kept banners, over the bound %d", n, maxKeptFragments)
					}
				}
			}
		}
	}
}

// An error page's kept message says what drawing it says, in each language,
// for each status and text, and a message too long to keep is drawn anew.
func TestKeptErrorBoxDrawsWhatTheBoxDraws(t *testing.T) {
	kept := NewKept()
	for _, lang := range i18n.Langs {
		ctx := WithKept(i18n.WithLang(context.Background(), lang), kept)
		for _, status := range []int{403, 404, 500} {
			for _, text := range []string{"Nothing here", `<script>alert("x")</script> & 'more'`, strings.Repeat("long ", 300)} {
				var want strings.Builder
				if err := ErrorBox("Title <b>", text, status).Render(i18n.WithLang(context.Background(), lang), &want); err != nil {
					t.Fatal(err)
				}
				for range 2 { // drawn, then kept
					var got strings.Builder
					if err := keptErrorBox("Title <b>", text, status).Render(ctx, &got); err != nil {
						t.Fatal(err)
					}
					if got.String() != want.String() {
						t.Fatalf("%s %d %q: kept\n%s\nwant\n%s", lang, status, text, got.String(), want.String())
					}
				}
			}
		}
	}
	if n := kept.errorBoxes.len(); n != len(i18n.Langs)*3*2 {
		t.Errorf("%d kept messages, want %d (the long one is never kept)", n, len(i18n.Langs)*3*2)
	}
}
