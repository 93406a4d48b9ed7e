package views

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"shipdesk/i18n"
	"shipdesk/identity"
)

// The kept shell and its parts draw exactly what drawing the page in full
// draws, for every kind of page, title and path, and with the page's own
// values where the stand-ins were.
func TestKeptShellDrawsWhatTheLayoutDraws(t *testing.T) {
	children := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, "<p>"+T(ctx, "home.intro")+"</p>")
		return err
	})
	staff := []*identity.Staff{nil}
	for _, r := range identity.Roles {
		staff = append(staff, &identity.Staff{ID: 7, Username: "ivana" + string(r), Role: r})
	}
	staff = append(staff, &identity.Staff{ID: 8, Username: `<b>"jan" & 'eva'</b>`, Role: identity.Manager})
	titles := []string{"Home", `<script>alert("x")</script> & 'friends'`, "Zásilky · přehled", "", standIn + "T" + standIn}
	paths := []string{"/", "/tracking?status=ACTIVE&q=<x>", `/a"b'c`, "/x" + standIn + "P" + standIn}
	areas := append([]identity.Area{""}, identity.Areas...)
	for _, lang := range i18n.Langs {
		ctx := i18n.WithLang(context.Background(), lang)
		for _, st := range staff {
			for _, sandbox := range []bool{false, true} {
				for _, area := range areas {
					for i, title := range titles {
						p := Page{Title: title, Staff: st, Area: area, Sandbox: sandbox, Path: paths[i%len(paths)]}
						if i == 0 && st != nil {
							p.Flashes = []Flash{{Kind: "ok", Text: "Saved <b>"}}
						}
						var want, got strings.Builder
						if err := drawLayout(p).Render(templ.WithChildren(ctx, children), &want); err != nil {
							t.Fatal(err)
						}
						for range 2 { // drawn, then kept
							got.Reset()
							if err := Layout(p).Render(templ.WithChildren(ctx, children), &got); err != nil {
								t.Fatal(err)
							}
							if got.String() != want.String() {
								t.Fatalf("%s %+v: the kept shell draws\n%s\nwant\n%s", lang, p, got.String(), want.String())
							}
						}
					}
				}
			}
		}
	}
	for _, st := range staff {
		p := Page{Title: "Home", Staff: st, Sandbox: true, Path: "/"}
		if shellOf(i18n.WithLang(context.Background(), i18n.Czech), p) == nil {
			t.Errorf("the shell of %+v is drawn in full every time", st)
		}
	}
}
