package storage

import (
	"context"
	"fmt"
)

// ShopIdentity is the shop as its customers know it: the one name, web,
// reply address and phone of every customer page, mail and PDF.
type ShopIdentity struct {
	Name       string `db:"name"`
	Web        string `db:"web"`
	ReplyEmail string `db:"reply_email"`
	Phone      string `db:"phone"`
	// LogoType is the stored logo's media type; empty when there is none.
	LogoType string `db:"logo_type"`
}

// HasLogo says whether a logo is stored.
func (s ShopIdentity) HasLogo() bool { return s.LogoType != "" }

// ShopIdentity reads the shop's identity (its one row is always there).
func (db *DB) ShopIdentity(ctx context.Context) (ShopIdentity, error) {
	var s ShopIdentity
	err := sqlxGet(ctx, db, &s, `SELECT name, web, reply_email, phone, logo_type FROM shop_identity WHERE id = 1`)
	if err != nil {
		return s, fmt.Errorf("read the shop's identity: %w", err)
	}
	return s, nil
}

// SaveShopIdentity replaces the shop's name, web, reply address and phone
// (the logo is saved by SaveShopLogo).
func (db *DB) SaveShopIdentity(ctx context.Context, s ShopIdentity) error {
	_, err := db.x.ExecContext(ctx, `UPDATE shop_identity SET name = $1, web = $2, reply_email = $3, phone = $4,
updated_at = now() WHERE id = 1`, s.Name, s.Web, s.ReplyEmail, s.Phone)
	return wrapf(err, "save the shop's identity")
}

// ShopLogo reads the stored logo and its media type; no logo is empty.
func (db *DB) ShopLogo(ctx context.Context) ([]byte, string, error) {
	var row struct {
		Logo []byte `db:"logo"`
		Type string `db:"logo_type"`
	}
	if err := sqlxGet(ctx, db, &row, `SELECT logo, logo_type FROM shop_identity WHERE id = 1`); err != nil {
		return nil, "", fmt.Errorf("read the shop's logo: %w", err)
	}
	return row.Logo, row.Type, nil
}

// SaveShopLogo stores the logo (already checked and drawn again by the
// caller); nil data removes it.
func (db *DB) SaveShopLogo(ctx context.Context, data []byte, mediaType string) error {
	if data == nil {
		mediaType = ""
	}
	_, err := db.x.ExecContext(ctx, `UPDATE shop_identity SET logo = $1, logo_type = $2, updated_at = now() WHERE id = 1`,
		data, mediaType)
	return wrapf(err, "save the shop's logo")
}
