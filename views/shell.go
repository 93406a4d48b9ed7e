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
// name, role and area) and the home page's tiles (per role).
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

// maxKeptParts bounds the kept parts and shells (a few per staff member and
// area, a few kilobytes each); past it they are drawn afresh.
const maxKeptParts = 1024

// Kept holds the kept parts and shells of one server (web.Server owns it and
// hands it to each request's context with WithKept). Without it in the
// context, pages are drawn in full.
type Kept struct {
	parts  *fragments[partKey]
	shells struct {
		sync.RWMutex
		m map[shellKey][]shellPiece // nil: this shell is drawn in full
	}
	sandbox    *fragments[sandboxKey]  // the sandbox banner's hole (sandbox_kept.go)
	errorBoxes *fragments[errorBoxKey] // error pages' messages (fragments.go)
}

// NewKept returns an empty store of kept parts and shells.
func NewKept() *Kept {
	k := &Kept{parts: newFragments[partKey](maxKeptParts), sandbox: newFragments[sandboxKey](maxKeptFragments),
		errorBoxes: newFragments[errorBoxKey](maxKeptFragments)}
	k.shells.m = map[shellKey][]shellPiece{}
	return k
}

// KeptKey is the context key of the kept parts and shells (WithKept); the
// web server's request state answers it itself.
type KeptKey struct{}

// WithKept lets the pages drawn with ctx keep their parts and shells in k.
func WithKept(ctx context.Context, k *Kept) context.Context {
	return context.WithValue(ctx, KeptKey{}, k)
}

func keptOf(ctx context.Context) *Kept {
	k, _ := ctx.Value(KeptKey{}).(*Kept)
	return k
}

// keptPart writes part of a signed-in page p, drawing it with draw the
// first time.
func keptPart(ctx context.Context, part string, p Page, draw func(Page) templ.Component) templ.Component {
	key := keyOf(ctx, part, p)
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		kept := keptOf(ctx)
		if kept == nil {
			return draw(keyPage(key)).Render(ctx, w)
		}
		return kept.parts.write(ctx, w, key, func(k partKey) templ.Component { return draw(keyPage(k)) })
	})
}

// Layout draws the page shell around its children. Between the pages a staff
// member opens in one language and area the shell differs only in its title
// and its path (which the language switch and the sandbox clock post back):
// it is drawn once with stand-ins for both, kept in pieces, and put together
// around each page with the page's own, escaped as drawing them escapes them.
// A page with flashes, and any shell whose stand-ins do not come out whole,
// is drawn in full (drawLayout).
func Layout(p Page) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		kept := keptOf(ctx)
		sh := shellOf(ctx, kept, p)
		if sh == nil {
			return drawLayout(p).Render(ctx, w)
		}
		children := templ.GetChildren(ctx)
		ctx = templ.ClearChildren(ctx)
		for _, pc := range sh {
			if _, err := io.WriteString(w, pc.text); err != nil {
				return err
			}
			var err error
			switch pc.hole {
			case holeTitle:
				_, err = io.WriteString(w, templ.EscapeString(p.Title))
			case holePath:
				_, err = io.WriteString(w, templ.EscapeString(p.Path))
			case holeSandbox:
				err = keptSandbox(ctx, kept, p, w)
			case holeChildren:
				if children != nil {
					err = children.Render(ctx, w)
				}
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// A kept shell is text and holes: after each piece's text, its hole.
type shellPiece struct {
	text string
	hole byte // 0 (none: the last piece), holeTitle, holePath, holeSandbox or holeChildren
}

const (
	holeTitle    = 'T'
	holePath     = 'P'
	holeChildren = 'C'
	holeSandbox  = 'S'
	standIn      = "\ue000" // a private-use character around a hole's letter; escaping leaves it be
)

// shellKey is everything the shell depends on besides its title, path and
// flashes.
type shellKey struct {
	lang     i18n.Lang
	sandbox  bool
	signedIn bool
	username string
	role     identity.Role
	area     identity.Area
}

// shellOf is the kept shell for p, drawn now if it is not kept yet; nil when
// p is to be drawn in full.
func shellOf(ctx context.Context, kept *Kept, p Page) []shellPiece {
	if kept == nil || len(p.Flashes) > 0 {
		return nil
	}
	k := shellKey{lang: i18n.LangOf(ctx), sandbox: p.Sandbox, area: p.Area}
	if p.Staff != nil {
		k.signedIn, k.username, k.role = true, p.Staff.Username, p.Staff.Role
	}
	kept.shells.RLock()
	sh, ok := kept.shells.m[k]
	kept.shells.RUnlock()
	if ok {
		return sh
	}
	sh = drawShell(ctx, k)
	kept.shells.Lock()
	if len(kept.shells.m) >= maxKeptParts {
		clear(kept.shells.m)
	}
	kept.shells.m[k] = sh
	kept.shells.Unlock()
	return sh
}

// drawShell draws the shell of k with stand-ins and cuts it at them.
func drawShell(ctx context.Context, k shellKey) []shellPiece {
	p := Page{Title: standIn + string(holeTitle) + standIn, Path: standIn + string(holePath) + standIn,
		Sandbox: k.sandbox, Area: k.area, SandboxState: SandboxState{standIn: true}}
	if k.signedIn {
		p.Staff = &identity.Staff{Username: k.username, Role: k.role}
	}
	children := templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, standIn+string(holeChildren)+standIn)
		return err
	})
	var b strings.Builder
	if err := drawLayout(p).Render(templ.WithChildren(ctx, children), &b); err != nil {
		return nil
	}
	parts := strings.Split(b.String(), standIn)
	if len(parts)%2 == 0 {
		return nil
	}
	var sh []shellPiece
	seen := map[byte]int{}
	for i := 0; i < len(parts); i += 2 {
		pc := shellPiece{text: parts[i]}
		if i+1 < len(parts) {
			h := parts[i+1]
			if len(h) != 1 || (h[0] != holeTitle && h[0] != holePath && h[0] != holeSandbox && h[0] != holeChildren) {
				return nil // a stand-in came out changed: draw in full
			}
			pc.hole = h[0]
			seen[pc.hole]++
		}
		sh = append(sh, pc)
	}
	if seen[holeChildren] != 1 || seen[holeTitle] != 1 {
		return nil
	}
	return sh
}

// sandboxState is the banner's changing part: in a kept shell its hole,
// otherwise what it says now.
func sandboxState(p Page) templ.Component {
	if p.SandboxState.standIn {
		return templ.Raw(standIn + string(holeSandbox) + standIn)
	}
	return sandboxNow(p)
}
