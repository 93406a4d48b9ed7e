// Package i18n is the one message catalog of the dashboard: every text a person
// reads comes from here by key, so a translation (Czech is next) is a new catalog
// file, not an edit of every template.
package i18n

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Lang is a language tag with a catalog.
type Lang string

const (
	English Lang = "en"
)

// catalogs holds each language's messages; English is complete and the fallback.
var catalogs = map[Lang]map[string]string{
	English: en,
}

type ctxKey struct{}

// WithLang returns ctx carrying the language of the request.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// LangOf returns the request's language, English by default.
func LangOf(ctx context.Context) Lang {
	if l, ok := ctx.Value(ctxKey{}).(Lang); ok {
		return l
	}
	return English
}

// T returns the message for key in the request's language, formatted with args
// (fmt verbs). A missing key shows itself in brackets so it is noticed, never
// an empty string; a test keeps every key in use present in the catalog.
func T(ctx context.Context, key string, args ...any) string {
	msg, ok := catalogs[LangOf(ctx)][key]
	if !ok {
		msg, ok = en[key]
	}
	if !ok {
		return "[" + key + "]"
	}
	if len(args) > 0 {
		return fmt.Sprintf(msg, args...)
	}
	return msg
}

// Has reports whether the English catalog has key.
func Has(key string) bool {
	_, ok := en[key]
	return ok
}

// Keys lists the English keys, sorted.
func Keys() []string {
	ks := make([]string, 0, len(en))
	for k := range en {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Negotiate picks the best catalog for an Accept-Language header.
func Negotiate(acceptLanguage string) Lang {
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		base := strings.SplitN(tag, "-", 2)[0]
		if _, ok := catalogs[Lang(base)]; ok {
			return Lang(base)
		}
	}
	return English
}
