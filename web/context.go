package web

import (
	"context"
	"net/http"

	"github.com/gorilla/sessions"

	"shipdesk/i18n"
	"shipdesk/views"
)

// requestState is what the middleware learns about a request as it goes, in
// one value of the request's context (set by logRequests): who asked, for
// the request log; whether the request came with a session that is no longer
// live, so the sign-in page can say why the person has to sign in again; and
// the session, read from its cookie once.
type requestState struct {
	who     string
	ended   bool
	session *sessions.Session
}

type stateKey struct{}

func withState(ctx context.Context, s *requestState) context.Context {
	return context.WithValue(ctx, stateKey{}, s)
}

// stateOf is the request's state; outside logRequests (tests of one
// middleware) a fresh one, so writes to it go nowhere.
func stateOf(ctx context.Context) *requestState {
	if s, ok := ctx.Value(stateKey{}).(*requestState); ok {
		return s
	}
	return &requestState{}
}

func sessionEnded(ctx context.Context) bool { return stateOf(ctx).ended }

func flashSessionEnded(r *http.Request) views.Flash {
	return views.Flash{Kind: "info", Text: i18n.T(r.Context(), "login.session_ended")}
}
