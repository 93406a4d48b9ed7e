package orderfile

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"shipdesk/countries"
	"shipdesk/i18n"
	"shipdesk/textin"
)

// breaks are line breaks and tabs in a cell (a wrapped cell in Excel, a note
// on two lines): one line in a shipment, so they become spaces.
var breaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// cloneAbove: the cells of a record are parts of one string; from a record
// this long, the kept values are copied so that a huge cut cell is not kept
// alive by its neighbours.
const cloneAbove = 4 << 10

// layout is where a file's rows have their fields.
type layout struct {
	cols        []column
	names       map[Field]string // the columns' names by field, for problems
	width       int              // cells of the header
	strictCells bool             // a row must have as many cells as the header (CSV)
}

func newLayout(m Mapping, header []string, strictCells bool) layout {
	l := layout{cols: m.columns(header), names: map[Field]string{}, width: len(header), strictCells: strictCells}
	for _, c := range l.cols {
		l.names[c.field] = c.name
	}
	for l.width > 0 && header[l.width-1] == "" {
		l.width--
	}
	return l
}

// makeRow reads a record's mapped cells; ok is false for a row with nothing
// in them.
func (l layout) makeRow(rec record) (Row, bool) {
	if rec.problem == nil && blank(rec.cells) {
		return Row{}, false
	}
	row := Row{Line: rec.line}
	if rec.problem != nil {
		row.Problems = append(row.Problems, *rec.problem)
	}
	cells := rec.cells
	n, size := len(cells), 0
	for _, c := range cells {
		size += len(c)
	}
	for n > l.width && strings.TrimSpace(cells[n-1]) == "" {
		n-- // separators after the last column, as some exports write
	}
	if l.strictCells && rec.problem == nil && n != l.width {
		row.Problems = append(row.Problems, Problem{Key: KeyRowCells, Args: []any{n, l.width}})
	}
	filled := 0
	for _, col := range l.cols {
		if col.index < len(cells) && cells[col.index] != "" {
			filled++
		}
	}
	row.Raw = make(map[Field]string, filled)
	for _, col := range l.cols {
		if col.index >= len(cells) {
			continue
		}
		v, p := cleanCell(cells[col.index])
		for _, key := range p {
			args := []any(nil)
			if key == KeyTooLong {
				args = []any{MaxCellChars}
			}
			row.Problems = append(row.Problems, Problem{Field: col.field, Column: col.name, Key: key, Args: args})
		}
		if v == "" {
			continue
		}
		if size > cloneAbove {
			v = strings.Clone(v)
		}
		row.Raw[col.field] = v
		if looksLikeFormula(v) {
			row.Problems = append(row.Problems, Problem{Field: col.field, Column: col.name, Key: KeyFormula})
		}
	}
	if len(row.Raw) == 0 && rec.problem == nil {
		return Row{}, false // text only in columns not mapped, or only control characters
	}
	row.readOrder(l.names)
	slices.SortStableFunc(row.Problems, func(a, b Problem) int {
		return slices.Index(Fields, a.Field) - slices.Index(Fields, b.Field)
	})
	return row, true
}

// cleanCell cleans a cell as textin cleans a typed line, cut to MaxCellChars;
// it returns the keys of what it had to change.
func cleanCell(s string) (string, []string) {
	if strings.ContainsAny(s, "\r\n\t") {
		s = breaks.Replace(s)
	}
	v, problem := textin.Line(s, MaxCellChars)
	switch {
	case problem.IsZero():
		return v, nil
	case textin.IsUnreadable(problem):
		key := KeyControl
		if problem.Key == textin.Unreadable {
			key = KeyUnreadable
		}
		// textin says one problem; a cell may be broken and too long too.
		if len(s) > MaxCellChars && utf8.RuneCountInString(strings.TrimSpace(textin.Safe(s, false))) > MaxCellChars {
			return v, []string{key, KeyTooLong}
		}
		return v, []string{key}
	}
	return v, []string{KeyTooLong}
}

// looksLikeFormula: a spreadsheet would take the text for a formula (it starts
// with = + - or @), and it is no number or phone number. The text is kept as
// it is and never evaluated; the problem asks a person to look, and exports
// write it through FormulaSafe.
func looksLikeFormula(s string) bool {
	if len(s) < 2 {
		return false // a lone "-" is text to a spreadsheet too
	}
	switch s[0] {
	case '=', '@':
		return true
	case '+', '-':
		if _, p := textin.Decimal(s, textin.Range{Above: -math.MaxFloat64, Max: math.MaxFloat64}); p.IsZero() {
			return false
		}
		if _, p := textin.Phone(s); p.IsZero() {
			return false
		}
		return true
	}
	return false
}

// FormulaSafe writes text for a spreadsheet so that it stays text: a leading
// apostrophe before = + - @ tab or carriage return, as OWASP advises for CSV
// exports.
func FormulaSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// readOrder reads the row's values from Raw; names are the columns of the
// fields, for the problems.
func (row *Row) readOrder(names map[Field]string) {
	raw, o := row.Raw, &row.Order
	add := func(f Field, key string, args ...any) {
		row.Problems = append(row.Problems, Problem{Field: f, Column: names[f], Key: key, Args: args})
	}
	o.Reference, o.FirstName, o.Surname, o.Company = raw[Reference], raw[FirstName], raw[Surname], raw[Company]
	o.Street, o.City, o.Phone, o.Email = raw[Street], raw[City], raw[Phone], raw[Email]
	o.PointCode, o.Note = raw[PointCode], raw[Note]
	o.Customs = readCustoms(raw)
	if no, ok := yesNo(raw[NoCustomerMail]); ok {
		o.NoCustomerMail = no
	} else {
		add(NoCustomerMail, KeyYesNo)
	}

	country, ok := countryCode(raw[Country])
	if !ok {
		add(Country, KeyCountry)
	}
	o.Country = country
	o.Zip = raw[Zip]
	if o.Country == "SK" && len(o.Zip) == 4 && strings.Trim(o.Zip, "0123456789") == "" {
		o.Zip = "0" + o.Zip // a Slovak zip written as a number lost its leading zero
	}

	for _, n := range []struct {
		f    Field
		to   *float64
		unit string
	}{{WeightKg, &o.WeightKg, "kg"}, {LengthCm, &o.LengthCm, "cm"}, {WidthCm, &o.WidthCm, "cm"}, {HeightCm, &o.HeightCm, "cm"}} {
		if key := number(trimUnit(raw[n.f], n.unit), n.to); key != "" {
			add(n.f, key)
		}
	}

	amount, amountCurrency := splitCurrency(raw[CODAmount])
	if key := number(amount, &o.CODAmount); key != "" {
		add(CODAmount, key)
	}
	o.COD = o.CODAmount > 0
	switch c := raw[CODCurrency]; {
	case c == "" && amountCurrency != "":
		o.CODCurrency = amountCurrency
	case c == "":
		o.CODCurrency = "CZK"
	default:
		code, ok := currencyCode(c)
		o.CODCurrency = code
		if !ok {
			add(CODCurrency, KeyCurrency)
		} else if amountCurrency != "" && amountCurrency != code {
			add(CODAmount, KeyCurrencyTwo, amountCurrency, code)
		}
	}

	insured, insuredCurrency := splitCurrency(raw[InsuredValue])
	if key := number(insured, &o.InsuredValue); key != "" {
		add(InsuredValue, key)
	} else if insuredCurrency != "" && insuredCurrency != "CZK" {
		o.InsuredValue = 0
		add(InsuredValue, KeyCurrencyTwo, insuredCurrency, "CZK")
	}
}

// number reads a number as the form does (textin.Decimal: "1 299,50", "2,5");
// an empty cell is 0.
func number(s string, to *float64) string {
	if s == "" {
		return ""
	}
	x, problem := textin.Decimal(s, textin.Range{OrEqual: true, Max: math.MaxFloat64})
	switch {
	case problem.Key == textin.NotANumber:
		return KeyNumber
	case !problem.IsZero():
		return KeyNegative
	}
	*to = x
	return ""
}

// trimUnit drops a unit written after the number ("2,5 kg").
func trimUnit(s, unit string) string {
	if len(s) > len(unit) && strings.EqualFold(s[len(s)-len(unit):], unit) {
		return strings.TrimSpace(s[:len(s)-len(unit)])
	}
	return s
}

// currencyMarks are the currencies written beside an amount ("1 299 Kč", "€ 12,50").
var currencyMarks = []struct{ mark, code string }{{"Kč", "CZK"}, {"Kc", "CZK"}, {"CZK", "CZK"}, {"EUR", "EUR"}, {"€", "EUR"}}

// splitCurrency takes a currency written before or after an amount.
func splitCurrency(s string) (amount, currency string) {
	for _, m := range currencyMarks {
		switch {
		case len(s) > len(m.mark) && strings.EqualFold(s[len(s)-len(m.mark):], m.mark):
			return strings.TrimSpace(s[:len(s)-len(m.mark)]), m.code
		case len(s) > len(m.mark) && strings.EqualFold(s[:len(m.mark)], m.mark):
			return strings.TrimSpace(s[len(m.mark):]), m.code
		}
	}
	return s, ""
}

// currencyCode reads a currency: an ISO code in any case, or Kč or €.
func currencyCode(s string) (string, bool) {
	if amount, code := splitCurrency("0 " + s); amount == "0" {
		return code, true
	}
	up := strings.ToUpper(s)
	return up, textin.IsCurrency(up)
}

// countryNames are the countries the shop ships to by the names exports give
// them: the neighbours in Czech, Slovak, English and their own language and
// by their three-letter codes, every other by its names in the catalog.
var countryNames = func() map[string]string {
	m := map[string]string{}
	for code, names := range map[string][]string{
		"CZ": {"Česko", "Česká republika", "Czechia", "Czech Republic", "CZE"},
		"SK": {"Slovensko", "Slovenská republika", "Slovakia", "Slovak Republic", "SVK"},
		"DE": {"Německo", "Nemecko", "Germany", "Deutschland", "DEU"},
		"AT": {"Rakousko", "Rakúsko", "Austria", "Österreich", "AUT"},
		"PL": {"Polsko", "Poľsko", "Poland", "Polska", "POL"},
		"HU": {"Maďarsko", "Hungary", "Magyarország", "HUN"},
	} {
		for _, n := range names {
			m[fold(n)] = code
		}
	}
	// Every served country by its name in the catalog's languages.
	for _, l := range i18n.Langs {
		ctx := i18n.WithLang(context.Background(), l)
		for _, code := range countries.Served {
			if name := fold(i18n.T(ctx, countries.NameKey(code))); m[name] == "" {
				m[name] = code
			}
		}
	}
	return m
}()

// countryCode reads a country: an ISO code in any case, or a name; CZ when
// empty. What it cannot read comes back in capitals with ok false.
func countryCode(s string) (string, bool) {
	if s == "" {
		return "CZ", true
	}
	up := strings.ToUpper(s)
	if len(up) == 2 && up[0] >= 'A' && up[0] <= 'Z' && up[1] >= 'A' && up[1] <= 'Z' {
		return up, true
	}
	if code, ok := countryNames[fold(s)]; ok {
		return code, true
	}
	return up, false
}

// yesNo reads a cell that says yes or no, in Czech or English ("ano", "x",
// "1", "yes"…); empty is no. ok is false for anything else.
func yesNo(s string) (yes, ok bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "ne", "no", "n", "0", "false", "nepravda":
		return false, true
	case "ano", "a", "yes", "y", "1", "x", "true", "pravda":
		return true, true
	}
	return false, false
}
