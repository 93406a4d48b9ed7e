package views

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"shipdesk/i18n"
)

// Parts of a page that change with a few values only (the signed-in header,
// the home tiles, the sandbox banner's time, an error page's message) are
// drawn once per key, a comparable value holding everything the part depends
// on, and kept in the server's Kept, as the shell is. Each is drawn from its
// key alone, so it cannot come to depend on anything else unnoticed.

// maxKeptFragments bounds the kept banners and error messages; past it they
// start again.
const maxKeptFragments = 64

// fragments are the kept fragments of one kind, at most max of them.
type fragments[K comparable] struct {
	mu  sync.RWMutex
	m   map[K]string
	max int
}

func newFragments[K comparable](max int) *fragments[K] {
	return &fragments[K]{m: map[K]string{}, max: max}
}

// write writes the fragment of key, drawing it with draw the first time.
func (f *fragments[K]) write(ctx context.Context, w io.Writer, key K, draw func(K) templ.Component) error {
	f.mu.RLock()
	html, ok := f.m[key]
	f.mu.RUnlock()
	if !ok {
		var b strings.Builder
		if err := draw(key).Render(ctx, &b); err != nil {
			return err
		}
		html = b.String()
		f.mu.Lock()
		if len(f.m) >= f.max {
			clear(f.m)
		}
		f.m[key] = html
		f.mu.Unlock()
	}
	_, err := io.WriteString(w, html)
	return err
}

func (f *fragments[K]) len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.m)
}

// errorBoxKey is everything ErrorBox's output depends on.
type errorBoxKey struct {
	lang        i18n.Lang
	title, text string
	status      int
}

func drawErrorBox(k errorBoxKey) templ.Component { return ErrorBox(k.title, k.text, k.status) }

// keptErrorBox is ErrorBox, kept per language, title, text and status: the
// 404 and 403 pages say the same to everyone.
func keptErrorBox(title, text string, status int) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		kept := keptOf(ctx)
		if kept == nil || len(title)+len(text) > 1024 { // a long message is a one-off
			return ErrorBox(title, text, status).Render(ctx, w)
		}
		return kept.errorBoxes.write(ctx, w, errorBoxKey{i18n.LangOf(ctx), title, text, status}, drawErrorBox)
	})
}
