package views

import (
	"context"
	"io"
	"strings"

	"github.com/a-h/templ"

	"shipdesk/i18n"
)

// Small parts of a page that change with a few values only (the sandbox
// banner's time, an error page's message) are drawn once per key, a
// comparable value holding everything the part depends on, and kept in the
// server's Kept, as the shell is.

// maxKeptFragments bounds the kept fragments; past it they start again.
const maxKeptFragments = 64

// writeFragment writes the fragment of key, drawing it with c the first time.
func (k *Kept) writeFragment(ctx context.Context, w io.Writer, key any, c templ.Component) error {
	k.fragments.RLock()
	html, ok := k.fragments.m[key]
	k.fragments.RUnlock()
	if !ok {
		var b strings.Builder
		if err := c.Render(ctx, &b); err != nil {
			return err
		}
		html = b.String()
		k.fragments.Lock()
		if len(k.fragments.m) >= maxKeptFragments {
			clear(k.fragments.m)
		}
		k.fragments.m[key] = html
		k.fragments.Unlock()
	}
	_, err := io.WriteString(w, html)
	return err
}

// errorBoxKey is everything ErrorBox's output depends on.
type errorBoxKey struct {
	lang        i18n.Lang
	title, text string
	status      int
}

// keptErrorBox is ErrorBox, kept per language, title, text and status: the
// 404 and 403 pages say the same to everyone.
func keptErrorBox(title, text string, status int) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		kept := keptOf(ctx)
		if kept == nil || len(title)+len(text) > 1024 { // a long message is a one-off
			return ErrorBox(title, text, status).Render(ctx, w)
		}
		return kept.writeFragment(ctx, w, errorBoxKey{i18n.LangOf(ctx), title, text, status}, ErrorBox(title, text, status))
	})
}
