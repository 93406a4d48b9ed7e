// Package orderfile reads a day's orders from a file a clerk uploads: a CSV
// (UTF-8 with or without BOM, Windows-1250 or UTF-16 with BOM; separated by
// semicolons, commas or tabs) or an XLSX workbook. Each row becomes named
// fields: the raw text of every cell, cleaned and cut as textin cleans what
// people type, and the values read from it the way the new-shipment form reads
// them. What cannot be read is a Problem (a catalog key and its arguments) of
// the file or of one row, never a failed import.
//
// Our own template (examples/orders.csv, documented in
// examples/README-orders.md) is recognised by its header, in English or
// Czech; other exports are read through a Mapping of their columns.
package orderfile

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Field is one field of an order; its value is the column's name in our
// template's header.
type Field string

// The fields, named as the columns of our template.
const (
	Reference    Field = "reference"
	FirstName    Field = "first_name"
	Surname      Field = "surname"
	Company      Field = "company"
	Street       Field = "street"
	City         Field = "city"
	Zip          Field = "zip"
	Country      Field = "country" // ISO 3166 code; CZ when empty
	Phone        Field = "phone"
	Email        Field = "email"
	WeightKg     Field = "weight_kg"
	LengthCm     Field = "length_cm"
	WidthCm      Field = "width_cm"
	HeightCm     Field = "height_cm"
	CODAmount    Field = "cod_amount"
	CODCurrency  Field = "cod_currency" // CZK when empty
	InsuredValue Field = "insured_value"
	PointCode    Field = "point_code"
	Note         Field = "note"

	// Customs data, needed only for a country outside the EU customs
	// territory: the reason for export and one line of contents.
	CustomsReason   Field = "customs_reason"
	CustomsContents Field = "customs_contents"
	CustomsHSCode   Field = "customs_hs_code"
	CustomsOrigin   Field = "customs_origin"
	CustomsQuantity Field = "customs_quantity"
	CustomsValue    Field = "customs_value"
	CustomsCurrency Field = "customs_currency"

	// NoCustomerMail: the recipient gets no mail of the parcel's steps
	// (a yes, e.g. "ano"; empty: they do).
	NoCustomerMail Field = "no_customer_mail"
)

// orderFields are the columns every order uses; customsFields those only a
// shipment leaving the EU customs territory needs, after them.
var (
	orderFields = []Field{Reference, FirstName, Surname, Company, Street, City, Zip, Country, Phone, Email,
		WeightKg, LengthCm, WidthCm, HeightCm, CODAmount, CODCurrency, InsuredValue, PointCode, Note}
	customsFields = []Field{CustomsReason, CustomsContents, CustomsHSCode, CustomsOrigin, CustomsQuantity, CustomsValue, CustomsCurrency}
	// mailFields say how the recipient hears of the parcel, after them.
	mailFields = []Field{NoCustomerMail}
)

// Fields are the fields in the order of the template's columns.
var Fields = slices.Concat(orderFields, customsFields, mailFields)

// czechNames are the template's column names in Czech Excel, first, and other
// names a person may give the column in our template. Header names are
// compared without case, diacritics, spaces and punctuation ("Hmotnost (kg)"
// is "hmotnost kg" is "HMOTNOST_KG").
var czechNames = map[Field][]string{
	Reference:    {"Reference", "Číslo objednávky"},
	FirstName:    {"Jméno"},
	Surname:      {"Příjmení"},
	Company:      {"Firma"},
	Street:       {"Ulice", "Ulice a číslo domu"},
	City:         {"Město", "Obec"},
	Zip:          {"PSČ"},
	Country:      {"Země"},
	Phone:        {"Telefon"},
	Email:        {"E-mail"},
	WeightKg:     {"Hmotnost (kg)", "Hmotnost"},
	LengthCm:     {"Délka (cm)", "Délka"},
	WidthCm:      {"Šířka (cm)", "Šířka"},
	HeightCm:     {"Výška (cm)", "Výška"},
	CODAmount:    {"Dobírka"},
	CODCurrency:  {"Měna dobírky"},
	InsuredValue: {"Pojistná hodnota"},
	PointCode:    {"Výdejní místo", "Kód výdejního místa"},
	Note:         {"Poznámka", "Poznámka pro dopravce"},

	CustomsReason:   {"Důvod vývozu"},
	CustomsContents: {"Obsah zásilky", "Obsah"},
	CustomsHSCode:   {"Celní kód (HS)", "HS kód"},
	CustomsOrigin:   {"Země původu"},
	CustomsQuantity: {"Počet kusů"},
	CustomsValue:    {"Celní hodnota", "Hodnota obsahu"},
	CustomsCurrency: {"Měna celní hodnoty"},

	NoCustomerMail: {"Bez e-mailů příjemci", "Neposílat e-maily"},
}

// CzechNames are the names a Czech header may give a field's column, the
// usual one first.
func CzechNames(f Field) []string { return slices.Clone(czechNames[f]) }

// CzechHeader is the header of the columns every order uses as Czech Excel
// users write them.
func CzechHeader() []string {
	out := make([]string, len(orderFields))
	for i, f := range orderFields {
		out[i] = czechNames[f][0]
	}
	return out
}

// Header is the header of the columns every order uses: the fields' names.
// A file of orders within the EU needs no more.
func Header() []string { return names(orderFields) }

// TemplateHeader is the whole template's header (examples/orders.csv): the
// columns every order uses, then the customs columns.
func TemplateHeader() []string { return names(Fields) }

func names(fields []Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = string(f)
	}
	return out
}

// templateNames finds a field by a header name of our template.
var templateNames = func() map[string]Field {
	m := map[string]Field{}
	for _, f := range Fields {
		m[fold(string(f))] = f
		for _, name := range czechNames[f] {
			m[fold(name)] = f
		}
	}
	return m
}()

// fold makes names comparable: lower case, no diacritics, only letters and digits.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// LabelKey is the catalog key of the field's label ("batch.field.weight_kg").
func LabelKey(f Field) string { return "batch.field." + string(f) }

// TemplateSource is the Source of the mapping of our own template.
const TemplateSource = "template"

// Mapping says which column of a file holds which field. A shop's other
// exports (an e-shop's, a marketplace's) are read through a mapping stored
// under the name of the source. It marshals to JSON as
// {"source":"…","sheet":"…","columns":{"surname":"Příjmení",…}}.
type Mapping struct {
	Source  string           `json:"source"`
	Sheet   string           `json:"sheet,omitempty"` // XLSX: the sheet to read; the first when empty
	Columns map[Field]string `json:"columns"`         // field → the header text of its column
}

// DetectMapping maps the columns of header named as in our template, in
// English or Czech. When every field an order needs has a column, the mapping
// is our template's (Source TemplateSource); otherwise its Source is empty and
// the mapping holds what was recognised, for a person to complete. unmapped
// lists the fields without a column, in template order.
func DetectMapping(header []string) (m Mapping, unmapped []Field) {
	m.Columns = map[Field]string{}
	for _, h := range header {
		if f, ok := templateNames[fold(h)]; ok {
			if _, taken := m.Columns[f]; !taken {
				m.Columns[f] = h
			}
		}
	}
	for _, f := range Fields {
		if _, ok := m.Columns[f]; !ok {
			unmapped = append(unmapped, f)
		}
	}
	if len(m.Missing()) == 0 {
		m.Source = TemplateSource
	}
	return m, unmapped
}

// Missing lists the fields an order cannot do without that have no column:
// the surname (unless the company has one), phone and weight, and street,
// city and zip unless the point code has a column (orders to a pickup point
// need no address).
func (m Mapping) Missing() []Field {
	has := func(f Field) bool { return m.Columns[f] != "" }
	var out []Field
	for _, f := range Fields {
		switch f {
		case Surname:
			if !has(Surname) && !has(Company) {
				out = append(out, f)
			}
		case Phone, WeightKg:
			if !has(f) {
				out = append(out, f)
			}
		case Street, City, Zip:
			if !has(f) && !has(PointCode) {
				out = append(out, f)
			}
		}
	}
	return out
}

// Check says what keeps the mapping from reading a file with this header: a
// mapped column the header lacks or has twice, a field an order needs that has
// no column. None means it fits.
func (m Mapping) Check(header []string) []Problem {
	var out []Problem
	for _, f := range Fields {
		name := m.Columns[f]
		if name == "" {
			continue
		}
		switch found := columnsNamed(header, name); {
		case len(found) == 0:
			out = append(out, Problem{Field: f, Column: name, Key: KeyColumnMissing, Args: []any{name}})
		case len(found) > 1:
			out = append(out, Problem{Field: f, Column: name, Key: KeyColumnTwice, Args: []any{name}})
		}
	}
	for _, f := range m.Missing() {
		out = append(out, Problem{Field: f, Key: KeyUnmapped})
	}
	return out
}

// columnsNamed finds the columns of header named name: exactly, or else
// when compared without case and diacritics.
func columnsNamed(header []string, name string) []int {
	var exact, folded []int
	want := fold(name)
	for i, h := range header {
		switch {
		case h == name:
			exact = append(exact, i)
		case want != "" && fold(h) == want:
			folded = append(folded, i)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return folded
}

// column is one mapped field's place in the file's rows.
type column struct {
	field Field
	index int
	name  string
}

// columns places the mapped fields (in template order) in header; Check has
// said it fits.
func (m Mapping) columns(header []string) []column {
	var out []column
	for _, f := range Fields {
		if name := m.Columns[f]; name != "" {
			if found := columnsNamed(header, name); len(found) == 1 {
				out = append(out, column{f, found[0], name})
			}
		}
	}
	return out
}
