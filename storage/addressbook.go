package storage

import (
	"context"
	"fmt"
	"strings"
)

// Address is the shared part of a sender and a recipient.
type Address struct {
	Company   string `db:"company"`
	Firstname string `db:"firstname"`
	Surname   string `db:"surname"`
	Street    string `db:"street"`
	City      string `db:"city"`
	Zip       string `db:"zip"`
	Country   string `db:"country"`
	Phone     string `db:"phone"`
	Email     string `db:"email"`
}

// Person is the name of the person at the address.
func (a Address) Person() string { return strings.TrimSpace(a.Firstname + " " + a.Surname) }

// PartyName is the address as people name it: its company, else its person.
func (a Address) PartyName() string {
	if a.Company != "" {
		return a.Company
	}
	return a.Person()
}

// Sender is a sending address: a stored pickup address of the service
// (ContactID, sent as from.id) or one of our own.
type Sender struct {
	ID        int64  `db:"id"`
	Label     string `db:"label"`
	ContactID *int64 `db:"contact_id"`
	IsDefault bool   `db:"is_default"`
	Address
}

const senderColumns = `id, label, contact_id, is_default, company, firstname, surname, street, city, zip, country, phone, email`

// Senders lists sending addresses, the default first.
func (db *DB) Senders(ctx context.Context) ([]Sender, error) {
	var out []Sender
	err := sqlxSelect(ctx, db, &out, `SELECT `+senderColumns+` FROM senders ORDER BY is_default DESC, label, id`)
	return out, wrapf(err, "list senders")
}

// SenderByID finds one sending address.
func (db *DB) SenderByID(ctx context.Context, id int64) (Sender, error) {
	var s Sender
	if err := sqlxGet(ctx, db, &s, `SELECT `+senderColumns+` FROM senders WHERE id = $1`, id); err != nil {
		return Sender{}, fmt.Errorf("sender %d: %w", id, notFound(err, "rec.no_sender", id))
	}
	return s, nil
}

// SaveSender adds a sending address; a contact already imported is updated.
// The first sender becomes the default.
func (db *DB) SaveSender(ctx context.Context, s Sender) (Sender, error) {
	const q = `
INSERT INTO senders (label, contact_id, is_default, company, firstname, surname, street, city, zip, country, phone, email)
VALUES ($1, $2, NOT EXISTS (SELECT 1 FROM senders WHERE is_default), $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (contact_id) DO UPDATE SET label = EXCLUDED.label, company = EXCLUDED.company,
    firstname = EXCLUDED.firstname, surname = EXCLUDED.surname, street = EXCLUDED.street, city = EXCLUDED.city,
    zip = EXCLUDED.zip, country = EXCLUDED.country, phone = EXCLUDED.phone, email = EXCLUDED.email
RETURNING ` + senderColumns
	var out Sender
	a := s.Address
	err := sqlxGet(ctx, db, &out, q, s.Label, s.ContactID, a.Company, a.Firstname, a.Surname, a.Street, a.City, a.Zip, a.Country, a.Phone, a.Email)
	if err != nil {
		return Sender{}, fmt.Errorf("save sender %s: %w", s.Label, err)
	}
	return out, nil
}

// SetDefaultSender makes one sender the default.
func (db *DB) SetDefaultSender(ctx context.Context, id int64) error {
	return db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, `UPDATE senders SET is_default = false WHERE is_default AND id <> $1`, id); err != nil {
			return fmt.Errorf("default sender %d: %w", id, err)
		}
		res, err := tx.x.ExecContext(ctx, `UPDATE senders SET is_default = true WHERE id = $1`, id)
		return affectedOne(res, err, "rec.no_sender", id)
	})
}

// DeleteSender removes a sending address; the oldest remaining becomes the
// default when the default goes.
func (db *DB) DeleteSender(ctx context.Context, id int64) error {
	return db.InTx(ctx, func(tx *DB) error {
		res, err := tx.x.ExecContext(ctx, `DELETE FROM senders WHERE id = $1`, id)
		if err := affectedOne(res, err, "rec.no_sender", id); err != nil {
			return err
		}
		_, err = tx.x.ExecContext(ctx, `UPDATE senders SET is_default = true
WHERE id = (SELECT min(id) FROM senders) AND NOT EXISTS (SELECT 1 FROM senders WHERE is_default)`)
		return err
	})
}

// Recipient is a saved recipient.
type Recipient struct {
	ID int64 `db:"id"`
	Address
}

const recipientColumns = `id, company, firstname, surname, street, city, zip, country, phone, email`

// Recipients lists saved recipients by name.
func (db *DB) Recipients(ctx context.Context) ([]Recipient, error) {
	var out []Recipient
	err := sqlxSelect(ctx, db, &out, `SELECT `+recipientColumns+` FROM recipients ORDER BY surname, firstname, company, id LIMIT 500`)
	return out, wrapf(err, "list recipients")
}

// RecipientByID finds one saved recipient.
func (db *DB) RecipientByID(ctx context.Context, id int64) (Recipient, error) {
	var r Recipient
	if err := sqlxGet(ctx, db, &r, `SELECT `+recipientColumns+` FROM recipients WHERE id = $1`, id); err != nil {
		return Recipient{}, fmt.Errorf("recipient %d: %w", id, notFound(err, "rec.no_recipient", id))
	}
	return r, nil
}

// SaveRecipient adds a recipient to the address book.
func (db *DB) SaveRecipient(ctx context.Context, a Address) (Recipient, error) {
	const q = `INSERT INTO recipients (company, firstname, surname, street, city, zip, country, phone, email)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ` + recipientColumns
	var r Recipient
	if err := sqlxGet(ctx, db, &r, q, a.Company, a.Firstname, a.Surname, a.Street, a.City, a.Zip, a.Country, a.Phone, a.Email); err != nil {
		return Recipient{}, fmt.Errorf("save recipient %s: %w", a.Surname, err)
	}
	return r, nil
}

// DeleteRecipient removes a saved recipient.
func (db *DB) DeleteRecipient(ctx context.Context, id int64) error {
	res, err := db.x.ExecContext(ctx, `DELETE FROM recipients WHERE id = $1`, id)
	return affectedOne(res, err, "rec.no_recipient", id)
}

// Preset is a package size used often.
type Preset struct {
	ID     int64   `db:"id"`
	Name   string  `db:"name"`
	Weight float64 `db:"weight"`
	Width  float64 `db:"width"`
	Height float64 `db:"height"`
	Length float64 `db:"length"`
}

// Presets lists package presets by name.
func (db *DB) Presets(ctx context.Context) ([]Preset, error) {
	var out []Preset
	err := sqlxSelect(ctx, db, &out, `SELECT id, name, weight, width, height, length FROM package_presets ORDER BY name`)
	return out, wrapf(err, "list package presets")
}

// SavePreset adds a preset; a taken name is a Conflict.
func (db *DB) SavePreset(ctx context.Context, p Preset) (Preset, error) {
	var out Preset
	err := sqlxGet(ctx, db, &out, `INSERT INTO package_presets (name, weight, width, height, length)
VALUES ($1, $2, $3, $4, $5) RETURNING id, name, weight, width, height, length`, p.Name, p.Weight, p.Width, p.Height, p.Length)
	if err != nil {
		return Preset{}, fmt.Errorf("save preset %s: %w", p.Name, conflict(err, "rec.preset_taken", p.Name))
	}
	return out, nil
}

// DeletePreset removes a preset.
func (db *DB) DeletePreset(ctx context.Context, id int64) error {
	res, err := db.x.ExecContext(ctx, `DELETE FROM package_presets WHERE id = $1`, id)
	return affectedOne(res, err, "rec.no_preset", id)
}

// ShippingSettings are the shop's COD bank details and its return address.
type ShippingSettings struct {
	CODCurrency  string `db:"cod_currency"`
	BankAccount  string `db:"bank_account"`
	BankCode     string `db:"bank_code"`
	BankCurrency string `db:"bank_currency"`
	// ReturnSenderID is the sender a customer's return parcel goes to; nil
	// is the default sender (ReturnSender).
	ReturnSenderID *int64 `db:"return_sender_id"`
}

// Settings reads the shipping settings.
func (db *DB) Settings(ctx context.Context) (ShippingSettings, error) {
	var s ShippingSettings
	err := sqlxGet(ctx, db, &s, `SELECT cod_currency, bank_account, bank_code, bank_currency, return_sender_id
FROM shipping_settings WHERE id = 1`)
	if err != nil {
		return s, fmt.Errorf("read shipping settings: %w", err)
	}
	return s, nil
}

// SaveSettings replaces the COD settings (the return address is saved by SaveReturnSender).
func (db *DB) SaveSettings(ctx context.Context, s ShippingSettings) error {
	_, err := db.x.ExecContext(ctx, `UPDATE shipping_settings SET cod_currency = $1, bank_account = $2, bank_code = $3,
bank_currency = $4, updated_at = now() WHERE id = 1`, s.CODCurrency, s.BankAccount, s.BankCode, s.BankCurrency)
	if err != nil {
		return fmt.Errorf("save shipping settings: %w", err)
	}
	return nil
}
