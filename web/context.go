package web

import (
	"context"
	"net/http"

	"shipdesk/i18n"
	"shipdesk/views"
)

// whoHolder lets the authentication middleware tell the request log who asked.
type whoHolder struct{ name string }

type whoKey struct{}

func withWho(ctx context.Context, w *whoHolder) context.Context {
	return context.WithValue(ctx, whoKey{}, w)
}

func whoOf(ctx context.Context) *whoHolder {
	if w, ok := ctx.Value(whoKey{}).(*whoHolder); ok {
		return w
	}
	return &whoHolder{}
}

type endedKey struct{}

// withSessionEnded marks a request that came with a session that is no longer live,
// so the sign-in page can say why the person has to sign in again.
func withSessionEnded(ctx context.Context) context.Context {
	return context.WithValue(ctx, endedKey{}, true)
}

func sessionEnded(ctx context.Context) bool {
	v, _ := ctx.Value(endedKey{}).(bool)
	return v
}

func flashSessionEnded(r *http.Request) views.Flash {
	return views.Flash{Kind: "info", Text: i18n.T(r.Context(), "login.session_ended")}
}
