package desk

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/cod"
	"shipdesk/countries"
	"shipdesk/storage"
	"shipdesk/textin"
)

// The address book's rules: our senders, package presets and the COD
// settings. Each form is read into its values as typed (shown again on an
// error) and checked with the same limits as the new-shipment form.

// bookFields reads one-line fields (textin.Line), recording those that cannot
// be read, are over limit, or are required and empty.
func bookFields(v url.Values, limit int, required []string, names ...string) (map[string]string, apperr.Problems) {
	vals, p := map[string]string{}, apperr.Problems{}
	fields := textin.NewFields(v, p)
	for _, n := range names {
		vals[n] = fields.Line(n, limit)
	}
	for _, n := range required {
		if vals[n] == "" {
			p[n] = apperr.Msg("form.required")
		}
	}
	return vals, p
}

// fixFields is the message (its key) of an address-book form with problems.
const fixFields = "ship.err.fix_fields"

// AddSender checks the "Add a sender" form and stores the sender. The values
// are the form as typed, to show again when it fails.
func (d *Desk) AddSender(ctx context.Context, v url.Values) (storage.Sender, map[string]string, error) {
	vals, p := bookFields(v, maxText, []string{"label", "street", "city", "zip", "phone"},
		"label", "company", "surname", "street", "city", "zip", "country", "phone", "email")
	if !slices.Contains(countries.Senders, vals["country"]) {
		p["country"] = apperr.Msg("ship.err.country_list")
	}
	if vals["phone"] != "" && !phoneShape.MatchString(vals["phone"]) {
		p["phone"] = apperr.Msg("ship.err.phone")
	}
	if len(p) > 0 {
		return storage.Sender{}, vals, apperr.Fields(fixFields, p)
	}
	a := Address{Company: vals["company"], Surname: vals["surname"], Street: vals["street"], City: vals["city"],
		Zip: vals["zip"], Country: vals["country"], Phone: vals["phone"], Email: vals["email"]}
	s, err := d.db.SaveSender(ctx, storage.Sender{Label: vals["label"], Address: a.stored()})
	return s, vals, err
}

// SetDefaultSender makes a sender the one new forms start with.
func (d *Desk) SetDefaultSender(ctx context.Context, id int64) error {
	return d.db.SetDefaultSender(ctx, id)
}

// DeleteSender removes a sender.
func (d *Desk) DeleteSender(ctx context.Context, id int64) error { return d.db.DeleteSender(ctx, id) }

// DeleteRecipient removes a saved recipient.
func (d *Desk) DeleteRecipient(ctx context.Context, id int64) error {
	return d.db.DeleteRecipient(ctx, id)
}

// DeletePreset removes a package preset.
func (d *Desk) DeletePreset(ctx context.Context, id int64) error { return d.db.DeletePreset(ctx, id) }

// AddPreset checks the "Add a preset" form and stores the preset.
func (d *Desk) AddPreset(ctx context.Context, v url.Values) (storage.Preset, map[string]string, error) {
	vals, p := bookFields(v, 60, []string{"name", "weight"}, "name", "weight", "length", "width", "height")
	num := func(name string, limit float64, unit string) float64 {
		if _, bad := p[name]; vals[name] == "" || bad {
			return 0
		}
		x, problem := textin.Decimal(vals[name], textin.Range{Max: limit, Unit: unit})
		if !problem.IsZero() {
			p[name] = problem
		}
		return x
	}
	preset := storage.Preset{Name: vals["name"], Weight: num("weight", maxWeightKg, "kg"), Length: num("length", maxDimCm, "cm"),
		Width: num("width", maxDimCm, "cm"), Height: num("height", maxDimCm, "cm")}
	if len(p) > 0 {
		return storage.Preset{}, vals, apperr.Fields(fixFields, p)
	}
	saved, err := d.db.SavePreset(ctx, preset)
	return saved, vals, err
}

// SaveSettings checks the COD bank details as the service does, so a wrong
// account is caught here, not on the first COD shipment, and stores them.
func (d *Desk) SaveSettings(ctx context.Context, v url.Values) (map[string]string, error) {
	vals, p := bookFields(v, 64, nil, "bank_account", "bank_code", "cod_currency", "bank_currency")
	vals["bank_currency"] = strings.ToUpper(vals["bank_currency"])
	if vals["cod_currency"] != "CZK" && vals["cod_currency"] != "EUR" {
		p["cod_currency"] = apperr.Msg("ship.err.cod_currency")
	}
	if c := vals["bank_currency"]; c != "" && !textin.IsCurrency(c) {
		p.Add("bank_currency", "ship.err.bank_currency")
	}
	if vals["bank_account"] != "" || vals["bank_code"] != "" {
		probe := cod.Input{Value: 100, Currency: "CZK", From: "CZ", To: "CZ", MaxCZK: 1e9, Packages: 1,
			BankAccount: vals["bank_account"], BankCode: vals["bank_code"], BankCurrency: vals["bank_currency"]}
		for _, pr := range cod.Check(probe) {
			p[pr.Field] = apperr.Msg("text.sentence", pr.Text)
		}
	}
	if len(p) > 0 {
		return vals, apperr.Fields(fixFields, p)
	}
	return vals, d.db.SaveSettings(ctx, storage.ShippingSettings{CODCurrency: vals["cod_currency"], BankAccount: vals["bank_account"],
		BankCode: vals["bank_code"], BankCurrency: vals["bank_currency"]})
}

// AddPresetPackage adds a package of a preset to the form; an empty first
// row gives way to it.
func (d *Desk) AddPresetPackage(ctx context.Context, f *Form, id string) error {
	presets, err := d.db.Presets(ctx)
	if err != nil {
		return err
	}
	for _, p := range presets {
		if strconv.FormatInt(p.ID, 10) == id {
			num := func(x float64) string {
				if x == 0 {
					return ""
				}
				return strconv.FormatFloat(x, 'f', -1, 64)
			}
			k := Package{Weight: p.Weight, Length: p.Length, Width: p.Width, Height: p.Height,
				Raw: [4]string{num(p.Weight), num(p.Length), num(p.Width), num(p.Height)}}
			if len(f.Packages) == 1 && f.Packages[0].Raw == [4]string{} {
				f.Packages = f.Packages[:0]
			}
			f.Packages = append(f.Packages, k)
			return nil
		}
	}
	return apperr.Fields("ship.err.preset_list", apperr.Problems{"packages": apperr.Msg("ship.err.preset_gone")})
}
