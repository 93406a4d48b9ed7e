package views

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"shipdesk/i18n"
	"shipdesk/identity"
)

// Parts of a signed-in page are the same on every page a staff member opens
// in one language: the navigation, the scan box and who is signed in (per
// name, role and area), the shortcuts and the home page's tiles (per role).
// Drawing them is most of the work of a small page (some forty catalog
// lookups and escaped texts), so each is drawn once per key and kept. A kept
// part is drawn from a Page holding only what its key holds (keyPage): it
// cannot come to depend on anything else unnoticed.

// partKey is everything a kept part may depend on.
type partKey struct {
	part     string
	lang     i18n.Lang
	role     identity.Role
	username string
	area     identity.Area
}

// keyOf is the key of part for page p in ctx's language.
func keyOf(ctx context.Context, part string, p Page) partKey {
	k := partKey{part: part, lang: i18n.LangOf(ctx), role: p.Staff.Role}
	if part == "header" { // who is signed in, and where
		k.username, k.area = p.Staff.Username, p.Area
	}
	return k
}

// keyPage is the Page a kept part is drawn from.
func keyPage(k partKey) Page {
	return Page{Staff: &identity.Staff{Username: k.username, Role: k.role}, Area: k.area}
}

// maxKeptParts bounds the kept parts (a few per staff member); past it they
// are drawn afresh.
const maxKeptParts = 4096

var keptParts = struct {
	sync.RWMutex
	m map[partKey]string
}{m: map[partKey]string{}}

// keptPart writes part of a signed-in page p, drawing it with draw the
// first time.
func keptPart(ctx context.Context, part string, p Page, draw func(Page) templ.Component) templ.Component {
	key := keyOf(ctx, part, p)
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		keptParts.RLock()
		html, ok := keptParts.m[key]
		keptParts.RUnlock()
		if !ok {
			var b strings.Builder
			if err := draw(keyPage(key)).Render(ctx, &b); err != nil {
				return err
			}
			html = b.String()
			keptParts.Lock()
			if len(keptParts.m) >= maxKeptParts {
				clear(keptParts.m)
			}
			keptParts.m[key] = html
			keptParts.Unlock()
		}
		_, err := io.WriteString(w, html)
		return err
	})
}
