// Package httpx holds the few request helpers that both the server assembly (web)
// and the handlers need: the request id, htmx detection, the client address and
// safe return targets.
package httpx

import (
	"context"
	"net/http"
	"strings"
)

// RequestIDKey is the context key of the request id (WithRequestID); the web
// server's request state answers it itself.
type RequestIDKey struct{}

// WithRequestID returns ctx carrying the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, RequestIDKey{}, id)
}

// RequestID returns the request id, or "-" outside a request.
func RequestID(ctx context.Context) string {
	if id, ok := ctx.Value(RequestIDKey{}).(string); ok {
		return id
	}
	return "-"
}

// IsHTMX reports whether htmx sent the request (so a fragment is the answer).
func IsHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// PolledBy says whether the request is htmx asking again for the element
// with this id (its polling): the page needs that part alone.
func PolledBy(r *http.Request, id string) bool {
	return IsHTMX(r) && r.Header.Get("HX-Trigger") == id
}

// IsHTTPS reports whether the browser reached us over TLS, directly or through a
// trusted proxy that says so.
func IsHTTPS(r *http.Request, trustProxy bool) bool {
	if r.TLS != nil {
		return true
	}
	return trustProxy && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}
