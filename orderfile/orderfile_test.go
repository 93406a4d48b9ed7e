package orderfile_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"shipdesk/orderfile"
)

// read reads a file that must read, failing on a reader error.
func read(t testing.TB, data []byte, m *orderfile.Mapping) *orderfile.File {
	t.Helper()
	f, err := orderfile.Read(bytes.NewReader(data), m)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return f
}

// keys lists the problems' keys, with the field when there is one ("surname:batch.cell.control").
func keys(ps []orderfile.Problem) []string {
	var out []string
	for _, p := range ps {
		k := p.Key
		if p.Field != "" {
			k = string(p.Field) + ":" + k
		}
		out = append(out, k)
	}
	return out
}

func wantFileProblem(t *testing.T, f *orderfile.File, key string) {
	t.Helper()
	if len(f.Problems) != 1 || f.Problems[0].Key != key {
		t.Fatalf("file problems %v, want %s", keys(f.Problems), key)
	}
	if len(f.Rows) != 0 {
		t.Errorf("a refused file kept %d rows", len(f.Rows))
	}
}

func wantNoProblems(t *testing.T, f *orderfile.File) {
	t.Helper()
	if len(f.Problems) > 0 {
		t.Fatalf("file problems: %v", keys(f.Problems))
	}
	for _, r := range f.Rows {
		if len(r.Problems) > 0 {
			t.Errorf("line %d: %v", r.Line, keys(r.Problems))
		}
	}
}

func TestOurTemplate(t *testing.T) {
	data, err := os.ReadFile("../examples/orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) || !bytes.Contains(data, []byte("\r\n")) {
		t.Error("the template is not saved as Czech Excel saves CSV UTF-8 (BOM, CRLF)")
	}
	f := read(t, data, nil)
	wantNoProblems(t, f)
	if f.Format != "csv" || f.Encoding != orderfile.UTF8BOM || f.Separator != ";" || f.Mapping.Source != orderfile.TemplateSource {
		t.Errorf("read as %s %s %q, source %q", f.Format, f.Encoding, f.Separator, f.Mapping.Source)
	}
	if !slices.Equal(f.Header, orderfile.TemplateHeader()) {
		t.Errorf("header %v: the template must have every field, in order", f.Header)
	}
	if len(f.Rows) != 10 {
		t.Fatalf("%d rows, want 10", len(f.Rows))
	}
	first := f.Rows[0]
	want := orderfile.Order{Reference: "OBJ-2026-0412", FirstName: "Jana", Surname: "Nováková", Street: "Vinohradská 1511/230",
		City: "Praha 10", Zip: "100 00", Country: "CZ", Phone: "+420 731 204 118", Email: "jana.novakova@seznam.cz",
		WeightKg: 1.2, LengthCm: 30, WidthCm: 20, HeightCm: 10, COD: true, CODAmount: 1299, CODCurrency: "CZK",
		InsuredValue: 1299.5, Note: "zvonit 2× na Novákovou"}
	if first.Line != 2 || first.Order != want {
		t.Errorf("first row, line %d:\n%+v\nwant\n%+v", first.Line, first.Order, want)
	}
	if first.Raw[orderfile.InsuredValue] != "1 299,50" || first.Raw[orderfile.WeightKg] != "1,2" {
		t.Errorf("raw text not kept as written: %q", first.Raw)
	}
	var points, slovak, companies int
	for _, r := range f.Rows {
		if r.Order.PointCode != "" {
			points++
		}
		if r.Order.Country == "SK" {
			slovak++
			if r.Order.CODCurrency != "EUR" || r.Order.CODAmount != 52.9 {
				t.Errorf("Slovak COD %v %s", r.Order.CODAmount, r.Order.CODCurrency)
			}
		}
		if r.Order.Company != "" {
			companies++
		}
		if r.Order.Surname == "" || r.Order.Phone == "" || r.Order.WeightKg <= 0 || r.Order.Zip == "" {
			t.Errorf("line %d lacks what an order needs: %+v", r.Line, r.Order)
		}
		if r.Order.COD && r.Order.CODCurrency == "CZK" && r.Order.CODAmount != float64(int(r.Order.CODAmount)) {
			t.Errorf("line %d: COD in CZK must be whole", r.Line)
		}
	}
	if points < 2 || slovak != 1 || companies < 1 {
		t.Errorf("the template shows %d point deliveries, %d to Slovakia, %d companies", points, slovak, companies)
	}
}

// czechTemplate is a small file in the template's Czech header.
func czechTemplate(sep string) string {
	rows := [][]string{
		orderfile.CzechHeader(),
		{"OBJ-1", "Jiří", "Šťastný", "", "Žižkova 12", "Čáslav", "286 01", "", "+420 777 123 456", "", "2,5", "", "", "", "1 299", "Kč", "", "", "Pozor, křehké"},
		{"OBJ-2", "Růžena", "Dvořáková", "", "Údolní 7", "Ústí nad Labem", "400 01", "CZ", "+420 608 111 222", "", "0,75", "", "", "", "", "", "", "", ""},
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString(sep)
			}
			if strings.Contains(c, sep) {
				c = `"` + c + `"`
			}
			b.WriteString(c)
		}
		b.WriteString("\r\n")
	}
	return b.String()
}

func TestEncodingsAndSeparators(t *testing.T) {
	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(czechTemplate("\t"))
	if err != nil {
		t.Fatal(err)
	}
	cp1250 := func(s string) string {
		out, err := charmap.Windows1250.NewEncoder().String(s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		name, data, encoding, sep string
	}{
		{"UTF8BOMSemicolon", "\ufeff" + czechTemplate(";"), orderfile.UTF8BOM, ";"},
		{"UTF8Semicolon", czechTemplate(";"), orderfile.UTF8, ";"},
		{"UTF8BOMComma", "\ufeff" + czechTemplate(","), orderfile.UTF8BOM, ","},
		{"UTF8Comma", czechTemplate(","), orderfile.UTF8, ","},
		{"UTF8Tab", czechTemplate("\t"), orderfile.UTF8, "\t"},
		{"Windows1250Semicolon", cp1250(czechTemplate(";")), orderfile.Windows1250, ";"},
		{"Windows1250Comma", cp1250(czechTemplate(",")), orderfile.Windows1250, ","},
		{"UTF16Tab", utf16, orderfile.UTF16, "\t"},
		{"ExcelSepLine", "sep=,\r\n" + czechTemplate(","), orderfile.UTF8, ","},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := read(t, []byte(c.data), nil)
			wantNoProblems(t, f)
			if f.Encoding != c.encoding || f.Separator != c.sep {
				t.Errorf("read as %s %q, want %s %q", f.Encoding, f.Separator, c.encoding, c.sep)
			}
			if f.Mapping.Source != orderfile.TemplateSource || f.Header[2] != "Příjmení" {
				t.Errorf("Czech header not recognised: %q, %v", f.Mapping.Source, f.Header)
			}
			if len(f.Rows) != 2 {
				t.Fatalf("%d rows", len(f.Rows))
			}
			o := f.Rows[0].Order
			if o.FirstName != "Jiří" || o.Surname != "Šťastný" || o.City != "Čáslav" || o.Note != "Pozor, křehké" ||
				o.WeightKg != 2.5 || o.CODAmount != 1299 || o.CODCurrency != "CZK" || o.Country != "CZ" {
				t.Errorf("first order %+v", o)
			}
			line := 3
			if strings.HasPrefix(c.data, "sep=") {
				line = 4
			}
			if f.Rows[1].Order.City != "Ústí nad Labem" || f.Rows[1].Line != line {
				t.Errorf("second order %+v at line %d", f.Rows[1].Order, f.Rows[1].Line)
			}
		})
	}
}

func TestWindows1250FoundAfterManyASCIILines(t *testing.T) {
	var b strings.Builder
	b.WriteString(strings.Join(orderfile.Header(), ";") + "\r\n")
	for i := range 3000 { // 200 kB of ASCII before the first Czech letter
		fmt.Fprintf(&b, "R-%d;Jan;Novak;;Dlouha 1;Praha;110 00;CZ;+420 777 123 456;;1;;;;;;;;\r\n", i)
	}
	b.WriteString("R-last;Jiří;Říha;;Dlouhá 1;Plzeň;301 00;CZ;+420 777 123 456;;1;;;;;;;;\r\n")
	data, err := charmap.Windows1250.NewEncoder().String(b.String())
	if err != nil {
		t.Fatal(err)
	}
	f := read(t, []byte(data), nil)
	wantNoProblems(t, f)
	last := f.Rows[len(f.Rows)-1].Order
	if f.Encoding != orderfile.Windows1250 || last.Surname != "Říha" || last.City != "Plzeň" {
		t.Errorf("read as %s: %+v", f.Encoding, last)
	}
}

func TestUnknownEncodingIsRefused(t *testing.T) {
	// Neither UTF-8 nor Czech in Windows-1250: bytes 1250 leaves undefined.
	data := strings.Join(orderfile.Header(), ";") + "\n1;\x81\x83\x88\x90\x98\x81\x83;x;;a;b;c;;1;;1;;;;;;;;\n"
	wantFileProblem(t, read(t, []byte(data), nil), orderfile.KeyEncoding)
}

// shopExport is a WooCommerce-like export: its own column names, commas, quotes.
const shopExport = `"Order Number","Order Date","Shipping First Name","Shipping Last Name","Shipping Company","Shipping Address 1","Shipping City","Shipping Postcode","Shipping Country","Billing Phone","Billing Email","Order Total","Payment Method","Total Weight","Customer Note"
"1045","2026-11-22 09:14","Eva","Malá","","Lidická 25","Brno","602 00","CZ","+420 605 555 101","eva.mala@example.cz","1 299,00","Dobírka","1,5",""
"1046","2026-11-22 09:20","Karel","Beneš","Beneš s.r.o.","Okružní 4, hala B","Kolín","280 02","CZ","+420 731 000 222","","890","Převodem","0,6","Doručit ""do 12 h"", prosím"
`

var shopMapping = orderfile.Mapping{Source: "Woo", Columns: map[orderfile.Field]string{
	orderfile.Reference: "Order Number", orderfile.FirstName: "Shipping First Name", orderfile.Surname: "Shipping Last Name",
	orderfile.Company: "Shipping Company", orderfile.Street: "Shipping Address 1", orderfile.City: "Shipping City",
	orderfile.Zip: "Shipping Postcode", orderfile.Country: "Shipping Country", orderfile.Phone: "Billing Phone",
	orderfile.Email: "Billing Email", orderfile.WeightKg: "Total Weight", orderfile.Note: "Customer Note",
}}

func TestForeignExportAsksForAMapping(t *testing.T) {
	f := read(t, []byte(shopExport), nil)
	if f.Separator != "," || len(f.Header) != 15 || f.Header[3] != "Shipping Last Name" {
		t.Fatalf("header %q by %q", f.Header, f.Separator)
	}
	if f.Mapping.Source != "" || len(f.Rows) != 0 {
		t.Errorf("a foreign header was taken for ours: %+v", f.Mapping)
	}
	want := []string{"surname:batch.file.unmapped", "street:batch.file.unmapped", "city:batch.file.unmapped",
		"zip:batch.file.unmapped", "phone:batch.file.unmapped", "weight_kg:batch.file.unmapped"}
	if got := keys(f.Problems); !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
	if len(f.Sample) != 2 || f.Sample[1][3] != "Beneš" || f.Sample[1][14] != `Doručit "do 12 h", prosím` {
		t.Errorf("sample %q", f.Sample)
	}
	_, unmapped := orderfile.DetectMapping(f.Header)
	if len(unmapped) != len(orderfile.Fields) {
		t.Errorf("unmapped %v", unmapped)
	}
}

func TestForeignExportThroughAStoredMapping(t *testing.T) {
	stored, err := json.Marshal(shopMapping)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stored), `"surname":"Shipping Last Name"`) {
		t.Errorf("mapping as JSON: %s", stored)
	}
	var m orderfile.Mapping
	if err := json.Unmarshal(stored, &m); err != nil || !reflect.DeepEqual(m, shopMapping) {
		t.Fatalf("mapping back from JSON: %+v, %v", m, err)
	}
	f := read(t, []byte(shopExport), &m)
	wantNoProblems(t, f)
	if len(f.Rows) != 2 || f.Mapping.Source != "Woo" {
		t.Fatalf("%d rows, source %q", len(f.Rows), f.Mapping.Source)
	}
	o := f.Rows[1].Order
	if o.Reference != "1046" || o.Company != "Beneš s.r.o." || o.Street != "Okružní 4, hala B" || o.WeightKg != 0.6 ||
		o.Note != `Doručit "do 12 h", prosím` || o.COD || o.Country != "CZ" {
		t.Errorf("second order %+v", o)
	}
	if f.Rows[0].Problems != nil || f.Rows[0].Raw[orderfile.Company] != "" {
		t.Errorf("empty company kept: %q", f.Rows[0].Raw)
	}
}

func TestMappingCheck(t *testing.T) {
	header := []string{"Objednávka", "Příjmení", "Telefon", "Hmotnost", "Kód místa", "Příjmení"}
	m := orderfile.Mapping{Columns: map[orderfile.Field]string{
		orderfile.Reference: "objednavka", orderfile.Surname: "Příjmení", orderfile.Phone: "Telefon",
		orderfile.WeightKg: "Hmotnost", orderfile.PointCode: "Kód výdejního místa",
	}}
	got := m.Check(header)
	want := []orderfile.Problem{
		{Field: orderfile.Surname, Column: "Příjmení", Key: orderfile.KeyColumnTwice, Args: []any{"Příjmení"}},
		{Field: orderfile.PointCode, Column: "Kód výdejního místa", Key: orderfile.KeyColumnMissing, Args: []any{"Kód výdejního místa"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Check = %+v\nwant %+v", got, want)
	}
	if missing := m.Missing(); len(missing) != 0 {
		t.Errorf("a point code column makes the address optional: %v", missing)
	}
	delete(m.Columns, orderfile.PointCode)
	if missing := m.Missing(); !slices.Equal(missing, []orderfile.Field{orderfile.Street, orderfile.City, orderfile.Zip}) {
		t.Errorf("missing %v", missing)
	}
	m.Columns = map[orderfile.Field]string{orderfile.Company: "Firma"}
	if missing := m.Missing(); !slices.Equal(missing, []orderfile.Field{orderfile.Street, orderfile.City, orderfile.Zip, orderfile.Phone, orderfile.WeightKg}) {
		t.Errorf("a company stands for the surname: %v", missing)
	}
}

func TestDetectMappingFoldsNames(t *testing.T) {
	header := []string{"REFERENCE", "jmeno", "Příjmení ", "ulice", "mesto", "psc", "TELEFON", "hmotnost_kg", "Dobírka", "Poznámka", "Něco jiného"}
	m, unmapped := orderfile.DetectMapping(header)
	if m.Source != orderfile.TemplateSource {
		t.Errorf("not taken for the template: %v", unmapped)
	}
	if m.Columns[orderfile.City] != "mesto" || m.Columns[orderfile.WeightKg] != "hmotnost_kg" || m.Columns[orderfile.CODAmount] != "Dobírka" {
		t.Errorf("columns %v", m.Columns)
	}
	if slices.Contains(unmapped, orderfile.City) || !slices.Contains(unmapped, orderfile.Email) {
		t.Errorf("unmapped %v", unmapped)
	}
}

func TestCzechNumbersAndValues(t *testing.T) {
	head := "surname;street;city;zip;country;phone;weight_kg;length_cm;cod_amount;cod_currency;insured_value\n"
	for _, c := range []struct {
		name, row string
		want      func(o orderfile.Order) bool
		problems  []string
	}{
		{"SpacesAndCommas", "Nová;Krátká 1;Brno;602 00;;777 123 456;2,5;30;1 299,50;EUR;12 500,5",
			func(o orderfile.Order) bool {
				return o.WeightKg == 2.5 && o.LengthCm == 30 && o.CODAmount == 1299.5 && o.InsuredValue == 12500.5 && o.CODCurrency == "EUR"
			}, nil},
		{"NoBreakSpaces", "Nová;Krátká 1;Brno;602 00;;777 123 456;1\u00a0000;;2\u00a0450;;",
			func(o orderfile.Order) bool { return o.WeightKg == 1000 && o.CODAmount == 2450 && o.COD }, nil},
		{"Units", "Nová;Krátká 1;Brno;602 00;;777 123 456;2,5 kg;30cm;1 299 Kč;;1 300 Kč",
			func(o orderfile.Order) bool {
				return o.WeightKg == 2.5 && o.LengthCm == 30 && o.CODAmount == 1299 && o.CODCurrency == "CZK" && o.InsuredValue == 1300
			}, nil},
		{"EuroSign", "Nová;Krátká 1;Bratislava;81106;Slovensko;905 111 222;1;;52,90 €;;",
			func(o orderfile.Order) bool {
				return o.CODCurrency == "EUR" && o.CODAmount == 52.9 && o.Country == "SK"
			}, nil},
		{"SlovakZipAsNumber", "Nová;Hlavná 1;Kúty;1001;sk;905 111 222;1;;;;",
			func(o orderfile.Order) bool { return o.Zip == "01001" && o.Country == "SK" }, nil},
		{"ZeroCODIsNone", "Nová;Krátká 1;Brno;602 00;;777 123 456;1;;0;;",
			func(o orderfile.Order) bool { return !o.COD && o.CODCurrency == "CZK" }, nil},
		{"NotNumbers", "Nová;Krátká 1;Brno;602 00;;777 123 456;dva;1 29;1,2,3;;zdarma",
			func(o orderfile.Order) bool { return o.WeightKg == 0 && o.CODAmount == 0 },
			[]string{"weight_kg:batch.cell.number", "length_cm:batch.cell.number", "cod_amount:batch.cell.number", "insured_value:batch.cell.number"}},
		{"Negative", "Nová;Krátká 1;Brno;602 00;;777 123 456;-2;;-1 299;;",
			func(o orderfile.Order) bool { return o.WeightKg == 0 },
			[]string{"weight_kg:batch.cell.negative", "cod_amount:batch.cell.negative"}},
		{"CurrencyConflict", "Nová;Krátká 1;Brno;602 00;;777 123 456;1;;52,90 €;CZK;100 EUR",
			func(o orderfile.Order) bool { return o.CODCurrency == "CZK" && o.InsuredValue == 0 },
			[]string{"cod_amount:batch.cell.currency_conflict", "insured_value:batch.cell.currency_conflict"}},
		{"BadCountryAndCurrency", "Nová;Krátká 1;Brno;602 00;Czechoslovakia;777 123 456;1;;100;korun;",
			func(o orderfile.Order) bool { return true },
			[]string{"country:batch.cell.country", "cod_currency:batch.cell.currency"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := read(t, []byte(head+c.row+"\n"), nil)
			if len(f.Problems) > 0 || len(f.Rows) != 1 {
				t.Fatalf("file problems %v, %d rows", keys(f.Problems), len(f.Rows))
			}
			r := f.Rows[0]
			if !c.want(r.Order) {
				t.Errorf("order %+v", r.Order)
			}
			if got := keys(r.Problems); !slices.Equal(got, c.problems) {
				t.Errorf("problems %v, want %v", got, c.problems)
			}
			for _, p := range r.Problems {
				if p.Column != string(p.Field) {
					t.Errorf("problem %+v does not name its column", p)
				}
			}
		})
	}
}

func TestBrokenRowsLeaveTheOthers(t *testing.T) {
	head := "reference;surname;street;city;zip;phone;weight_kg;note\n"
	data := head +
		"A1;Nová;Krátká 1;Brno;602 00;777 123 456;1;\n" +
		"A2;\"Malý;Dlouhá 2;Brno;602 00;777 123 456;1;\n" + // a quote never closed
		"A3;Velký;Úzká 3;Brno;602 00;777 123 456;1;\"první řádek\n" + // a note on two lines
		"druhý řádek\"\n" +
		"A4;Jan \"Honza\" Kos;Úzká 4;Brno;602 00;777 123 456;1;\n" + // a quote inside a cell
		"A5;Bílá;Úzká 5;Brno;602 00;777 123 456\n" + // cells missing
		"A6;Černá;Úzká 6;Brno;602 00;777 123 456;1;;;;\n" + // empty cells after the last: fine
		"A7;Zelená;Úzká 7;Brno;602 00;777 123 456;1;x;y\n" + // a cell too many
		"\n;;;;;;;\n" + // empty rows
		"A8;\"Modrá\"x;Úzká 8;Brno;602 00;777 123 456;1;\n" + // text after a closing quote
		"A9;Šedá;Úzká 9;Brno;602 00;777 123 456;1;\"konec bez uvozovky\n"
	f := read(t, []byte(data), nil)
	if len(f.Problems) > 0 {
		t.Fatalf("file problems %v", keys(f.Problems))
	}
	type want struct {
		line     int
		ref      string
		problems []string
	}
	wants := []want{
		{2, "A1", nil},
		{3, "A2", []string{"batch.row.quote"}},
		{4, "A3", nil},
		{6, "A4", []string{"batch.row.quote"}},
		{7, "A5", []string{"batch.row.cells"}},
		{8, "A6", nil},
		{9, "A7", []string{"batch.row.cells"}},
		{12, "A8", []string{"batch.row.quote"}},
		{13, "A9", []string{"batch.row.quote"}},
	}
	if len(f.Rows) != len(wants) {
		for _, r := range f.Rows {
			t.Logf("line %d %q %v", r.Line, r.Raw, keys(r.Problems))
		}
		t.Fatalf("%d rows, want %d", len(f.Rows), len(wants))
	}
	for i, w := range wants {
		r := f.Rows[i]
		if r.Line != w.line || r.Order.Reference != w.ref || !slices.Equal(keys(r.Problems), w.problems) {
			t.Errorf("row %d: line %d %q %v; want line %d %q %v", i, r.Line, r.Order.Reference, keys(r.Problems), w.line, w.ref, w.problems)
		}
	}
	if note := f.Rows[2].Order.Note; note != "první řádek druhý řádek" {
		t.Errorf("a note on two lines: %q", note)
	}
	if s := f.Rows[3].Order.Surname; s != `Jan "Honza" Kos` {
		t.Errorf("a broken row is read leniently to show what it holds: %q", s)
	}
	if p := f.Rows[4].Problems[0]; !reflect.DeepEqual(p.Args, []any{6, 8}) {
		t.Errorf("cells problem args %v", p.Args)
	}
}

func TestUnclosedQuoteDoesNotSwallowTheFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("reference;surname;phone;weight_kg;point_code\n")
	b.WriteString("B0;\"Nová;777 123 456;1;ZA00001\n")
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "B%d;Nový;777 123 456;1;ZA%05d\n", i, i)
	}
	f := read(t, []byte(b.String()), nil)
	if len(f.Problems) > 0 || len(f.Rows) != 301 {
		t.Fatalf("%v, %d rows", keys(f.Problems), len(f.Rows))
	}
	if !slices.Equal(keys(f.Rows[0].Problems), []string{"batch.row.quote"}) || f.Rows[1].Line != 3 || f.Rows[300].Order.PointCode != "ZA00300" {
		t.Errorf("first %v, second at line %d, last %+v", keys(f.Rows[0].Problems), f.Rows[1].Line, f.Rows[300].Order)
	}
}

func TestEmptyFiles(t *testing.T) {
	for _, c := range []struct{ name, data, key string }{
		{"NoBytes", "", orderfile.KeyEmpty},
		{"BOMOnly", "\ufeff", orderfile.KeyEmpty},
		{"BlankLines", "\r\n\r\n  \r\n", orderfile.KeyEmpty},
		{"SeparatorsOnly", ";;;\r\n;;;\r\n", orderfile.KeyEmpty},
		{"HeaderOnly", strings.Join(orderfile.Header(), ";") + "\r\n", orderfile.KeyNoOrders},
		{"HeaderAndEmptyRows", strings.Join(orderfile.CzechHeader(), ";") + "\r\n;;;;;;;;;;;;;;;;;;\r\n\r\n", orderfile.KeyNoOrders},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantFileProblem(t, read(t, []byte(c.data), nil), c.key)
		})
	}
}

func TestNotCSVNorXLSX(t *testing.T) {
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...)
	wantFileProblem(t, read(t, ole, nil), orderfile.KeyOldExcel)
	wantFileProblem(t, read(t, []byte("PK\x03\x04 not really a zip"), nil), orderfile.KeyNotXLSX)
	if _, err := orderfile.Read(iotest.ErrReader(os.ErrDeadlineExceeded), nil); err == nil {
		t.Error("a failing reader read")
	}
	if _, err := orderfile.Read(io2(strings.Join(orderfile.Header(), ";")+"\n"), nil); err == nil {
		t.Error("a reader failing after the header read")
	}
}

// io2 gives s, then fails.
func io2(s string) *failAfter { return &failAfter{s: s} }

type failAfter struct{ s string }

func (f *failAfter) Read(p []byte) (int, error) {
	if f.s == "" {
		return 0, os.ErrDeadlineExceeded
	}
	n := copy(p, f.s)
	f.s = f.s[n:]
	return n, nil
}
