// Package shopid is the shop as its customers know it: one name, logo, web,
// reply address and phone, said on every customer page, mail and PDF, with
// one signature. Empty, it falls back to a neutral word of the catalog,
// never to a sender of the address book or to the software's name.
package shopid

import (
	"context"
	"strings"

	"shipdesk/i18n"
	"shipdesk/storage"
)

// Name is the shop's name as the reader of ctx reads it.
func Name(ctx context.Context, id storage.ShopIdentity) string {
	if n := strings.TrimSpace(id.Name); n != "" {
		return n
	}
	return i18n.T(ctx, "shopid.fallback_name")
}

// Signature closes every mail to a customer, in ctx's language: the
// greeting, the shop's name and, when set, its web and phone.
func Signature(ctx context.Context, id storage.ShopIdentity) string {
	lines := []string{i18n.T(ctx, "shopid.regards"), Name(ctx, id)}
	if id.Web != "" {
		lines = append(lines, id.Web)
	}
	if id.Phone != "" {
		lines = append(lines, i18n.T(ctx, "shopid.phone", id.Phone))
	}
	return strings.Join(lines, "\n")
}

// Of reads the identity on db (a transaction or not); a failure to read it
// is the caller's to return.
func Of(ctx context.Context, db *storage.DB) (storage.ShopIdentity, error) {
	return db.ShopIdentity(ctx)
}
