package views

import (
	"context"
	"io"
	"reflect"
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
	kept := NewKept()
	for _, lang := range i18n.Langs {
		ctx := i18n.WithLang(context.Background(), lang) // drawn in full: nothing kept
		kctx := WithKept(ctx, kept)
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
							if err := Layout(p).Render(templ.WithChildren(kctx, children), &got); err != nil {
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
		if shellOf(i18n.WithLang(context.Background(), i18n.Czech), kept, p) == nil {
			t.Errorf("the shell of %+v is drawn in full every time", st)
		}
	}
}

// Every field of Page is accounted for by the kept shell: part of its key,
// a hole filled per page, or a reason to draw the page in full. A new field
// the layout reads would otherwise be drawn once and shown on every page.
func TestEveryPageFieldIsKeyedOrAHole(t *testing.T) {
	known := map[string]string{
		"Title":        "hole",
		"Path":         "hole",
		"Staff":        "key", // username and role
		"Area":         "key",
		"Sandbox":      "key",
		"Flashes":      "drawn in full",
		"SandboxState": "hole",
	}
	fields := reflect.TypeFor[Page]()
	for i := range fields.NumField() {
		name := fields.Field(i).Name
		if known[name] == "" {
			t.Errorf("Page.%s is neither in the kept shell's key (shellKey) nor a hole (shellPiece): add it to one, then here", name)
		}
	}
	// And each key field does change the kept shell, which holes cannot.
	base := Page{Title: "x", Path: "/", Staff: &identity.Staff{Username: "a", Role: identity.Clerk}, Area: identity.Shipping}
	ctx := WithKept(i18n.WithLang(context.Background(), i18n.English), NewKept())
	draw := func(p Page) string {
		var b strings.Builder
		if err := Layout(p).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for name, changed := range map[string]Page{
		"Staff.Username": {Title: "x", Path: "/", Staff: &identity.Staff{Username: "b", Role: identity.Clerk}, Area: identity.Shipping},
		"Staff.Role":     {Title: "x", Path: "/", Staff: &identity.Staff{Username: "a", Role: identity.Manager}, Area: identity.Shipping},
		"Area":           {Title: "x", Path: "/", Staff: &identity.Staff{Username: "a", Role: identity.Clerk}, Area: identity.Tracking},
		"Sandbox":        {Title: "x", Path: "/", Staff: &identity.Staff{Username: "a", Role: identity.Clerk}, Area: identity.Shipping, Sandbox: true},
	} {
		if draw(base) == draw(changed) {
			t.Errorf("a page differing in %s draws the same shell", name)
		}
	}
}
