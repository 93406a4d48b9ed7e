package orderfile_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"shipdesk/i18n"
	"shipdesk/orderfile"
)

// workbook makes an XLSX file as Czech Excel would save the template: a
// named sheet, numbers as numbers with Czech formats, an empty row, a second
// sheet.
func workbook(t testing.TB) []byte {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	const sheet = "Objednávky"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(x.SetSheetName("Sheet1", sheet))
	header := make([]any, len(orderfile.Fields))
	for i, h := range orderfile.CzechHeader() {
		header[i] = h
	}
	must(x.SetSheetRow(sheet, "A1", &header))
	must(x.SetSheetRow(sheet, "A2", &[]any{"OBJ-1", "Jiří", "Šťastný", nil, "Žižkova 12", "Čáslav", "286 01", "CZ",
		"+420 777 123 456", nil, 2.5, 30, 20, 10, 1299, "CZK", 0.1 + 0.2, "ZA00001", "Pozor, křehké"}))
	// Row 3 stays empty; row 4 has numbers where text was meant.
	must(x.SetSheetRow(sheet, "A4", &[]any{4711, nil, "Horváthová", nil, "Hlavná 1", "Kúty", 1001, "SK",
		421905111222, nil, 1.25, nil, nil, nil, 52.9, "EUR", nil, nil, "=SUMA(A1:A2)"}))
	must(x.SetCellFormula(sheet, "B4", `CONCATENATE("Zu","zana")`))
	money, err := x.NewStyle(&excelize.Style{CustomNumFmt: ptr(`#,##0.00\ "Kč"`)})
	must(err)
	must(x.SetCellStyle(sheet, "O2", "O2", money))
	other, err := x.NewSheet("Jiný")
	must(err)
	_ = other
	must(x.SetSheetRow("Jiný", "A1", &[]any{"Příjmení", "Telefon", "Hmotnost", "Výdejní místo"}))
	must(x.SetSheetRow("Jiný", "A2", &[]any{"Malá", "777 000 111", "3,5", "PP00042"}))
	buf, err := x.WriteToBuffer()
	must(err)
	return buf.Bytes()
}

func ptr[T any](v T) *T { return &v }

func TestXLSX(t *testing.T) {
	data := workbook(t)
	f := read(t, data, nil)
	if len(f.Problems) > 0 {
		t.Fatalf("problems %v", keys(f.Problems))
	}
	if f.Format != "xlsx" || f.Mapping.Source != orderfile.TemplateSource || len(f.Rows) != 2 {
		t.Fatalf("read as %s, source %q, %d rows", f.Format, f.Mapping.Source, len(f.Rows))
	}
	first, second := f.Rows[0], f.Rows[1]
	want := orderfile.Order{Reference: "OBJ-1", FirstName: "Jiří", Surname: "Šťastný", Street: "Žižkova 12", City: "Čáslav",
		Zip: "286 01", Country: "CZ", Phone: "+420 777 123 456", WeightKg: 2.5, LengthCm: 30, WidthCm: 20, HeightCm: 10,
		COD: true, CODAmount: 1299, CODCurrency: "CZK", InsuredValue: 0.3, PointCode: "ZA00001", Note: "Pozor, křehké"}
	if first.Line != 2 || first.Order != want || len(first.Problems) > 0 {
		t.Errorf("first row, line %d:\n%+v\nwant\n%+v\n%v", first.Line, first.Order, want, keys(first.Problems))
	}
	if first.Raw[orderfile.CODAmount] != "1299" || first.Raw[orderfile.InsuredValue] != "0.3" {
		t.Errorf("numbers are read as numbers, not as formatted: %q", first.Raw)
	}
	if second.Line != 4 || second.Order.Reference != "4711" || second.Order.Zip != "01001" || second.Order.Phone != "421905111222" ||
		second.Order.CODAmount != 52.9 || second.Order.CODCurrency != "EUR" || second.Order.WeightKg != 1.25 {
		t.Errorf("second row, line %d: %+v", second.Line, second.Order)
	}
	if second.Order.FirstName != "" {
		t.Errorf("a formula was evaluated: %q", second.Order.FirstName)
	}
	if got := keys(second.Problems); !slices.Equal(got, []string{"note:batch.cell.formula"}) || second.Raw[orderfile.Note] != "=SUMA(A1:A2)" {
		t.Errorf("formula text: %v, %q", got, second.Raw[orderfile.Note])
	}

	m, _ := orderfile.DetectMapping([]string{"Příjmení", "Telefon", "Hmotnost", "Výdejní místo"})
	m.Sheet = "Jiný"
	f = read(t, data, &m)
	wantNoProblems(t, f)
	if len(f.Rows) != 1 || f.Rows[0].Order.PointCode != "PP00042" || f.Rows[0].Order.WeightKg != 3.5 {
		t.Errorf("named sheet: %+v", f.Rows)
	}
	f = read(t, data, &orderfile.Mapping{Sheet: "Jiný"})
	if len(f.Problems) > 0 || f.Mapping.Sheet != "Jiný" || f.Mapping.Source != orderfile.TemplateSource || len(f.Rows) != 1 {
		t.Errorf("a sheet named without columns: %v, %+v", keys(f.Problems), f.Mapping)
	}
	m.Sheet = "Nikde"
	f = read(t, data, &m)
	wantFileProblem(t, f, orderfile.KeyNoSheet)
	if f.Problems[0].Args[0] != "Nikde" {
		t.Errorf("args %v", f.Problems[0].Args)
	}
}

// A workbook that unpacks to more than the server should hold is refused: its
// zip says how large each part is (and archive/zip holds a part to it).
func TestZipBomb(t *testing.T) {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, name := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/sharedStrings.xml"} {
		var body bytes.Buffer
		fw, _ := flate.NewWriter(&body, flate.BestCompression)
		_, _ = fw.Write([]byte("<si><t>x</t></si>"))
		_ = fw.Close()
		w, err := z.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CompressedSize64: uint64(body.Len()),
			UncompressedSize64: 80 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	wantFileProblem(t, read(t, b.Bytes(), nil), orderfile.KeyNotXLSX)
}

func TestHostileCells(t *testing.T) {
	long := strings.Repeat("Příliš žluťoučký kůň ", 5000) // 100 kB
	rows := []string{
		"reference;surname;street;city;zip;phone;weight_kg;note",
		`H1;Nováková;Dlouhá 1;Brno;602 00;777 123 456;1;"=HYPERLINK(""http://example.com"";""klik"")"`,
		"H2;@SUM(A1:A2);Dlouhá 2;Brno;602 00;777 123 456;1;",
		"H3;Kos;+cmd|' /C calc'!A0;Brno;602 00;777 123 456;1;",
		"H4;Kos;-2+3;Brno;602 00;777 123 456;1;",
		"H5;Kos;Dlouhá 5;Brno;602 00;+420 777 123 456;+1,5;-",
		"H6;No\x00vák;Dlouhá 6;Brno;602 00;777 123 456;1;",
		"H7;Kos;Dlouhá 7;Brno;602 00;777 123 456;1;" + long,
		"H8;Dvo\xffřák;Dlouhá 8;Brno;602 00;777 123 456;1;",
		"H9;Kos;Dlouhá 9;Brno;602 00;777 123 456;1;<script>alert(1)</script>",
		"H10;\x1b[31mRed;Dlouhá 10;Brno;602 00;777 123 456;1;",
		"H11;Kos;Dlouhá 11;Brno;602 00;777 123 456;1;\x00" + long,
		"H12;Kos;Dlouhá 12;Brno;602 00;777 123 456;1;line\u2028separator",
	}
	f := read(t, []byte(strings.Join(rows, "\n")), nil)
	if len(f.Problems) > 0 || f.Encoding != orderfile.UTF8 {
		t.Fatalf("file problems %v, encoding %s", keys(f.Problems), f.Encoding)
	}
	want := map[string][]string{
		"H1":  {"note:batch.cell.formula"},
		"H2":  {"surname:batch.cell.formula"},
		"H3":  {"street:batch.cell.formula"},
		"H4":  {"street:batch.cell.formula"},
		"H5":  nil,
		"H6":  {"surname:batch.cell.control"},
		"H7":  {"note:batch.cell.too_long"},
		"H8":  {"surname:batch.cell.unreadable"},
		"H9":  nil,
		"H10": {"surname:batch.cell.control"},
		"H11": {"note:batch.cell.control", "note:batch.cell.too_long"},
		"H12": {"note:batch.cell.control"},
	}
	if len(f.Rows) != len(want) {
		t.Fatalf("%d rows", len(f.Rows))
	}
	for _, r := range f.Rows {
		if got := keys(r.Problems); !slices.Equal(got, want[r.Order.Reference]) {
			t.Errorf("%s: %v, want %v", r.Order.Reference, got, want[r.Order.Reference])
		}
		for field, v := range r.Raw {
			if !utf8.ValidString(v) || strings.ContainsRune(v, 0) || strings.ContainsRune(v, 0x1b) || utf8.RuneCountInString(v) > orderfile.MaxCellChars {
				t.Errorf("%s: %s kept %q", r.Order.Reference, field, v)
			}
		}
	}
	byRef := map[string]orderfile.Row{}
	for _, r := range f.Rows {
		byRef[r.Order.Reference] = r
	}
	if s := byRef["H6"].Order.Surname; s != "Novák" {
		t.Errorf("NUL not removed: %q", s)
	}
	if s := byRef["H8"].Order.Surname; s != "Dvořák" {
		t.Errorf("broken byte not removed: %q", s)
	}
	if n := byRef["H7"].Order.Note; utf8.RuneCountInString(n) != orderfile.MaxCellChars || !strings.HasPrefix(long, n) {
		t.Errorf("long note cut to %d characters", utf8.RuneCountInString(n))
	}
	if p := byRef["H7"].Problems[0]; p.Args[0] != orderfile.MaxCellChars || p.Column != "note" {
		t.Errorf("too long: %+v", p)
	}
	if n := byRef["H9"].Order.Note; n != "<script>alert(1)</script>" {
		t.Errorf("script text is text, kept as is (pages escape it): %q", n)
	}
	if o := byRef["H5"].Order; o.WeightKg != 1.5 || o.Phone != "+420 777 123 456" || o.Note != "-" {
		t.Errorf("a number, a phone and a dash are no formulas: %+v", o)
	}
	if s := byRef["H1"].Raw[orderfile.Note]; s != `=HYPERLINK("http://example.com";"klik")` {
		t.Errorf("formula not kept as text: %q", s)
	}
}

func TestFormulaSafe(t *testing.T) {
	for in, want := range map[string]string{"=1+1": "'=1+1", "+420 777": "'+420 777", "-2": "'-2", "@A1": "'@A1",
		"\tx": "'\tx", "Nová": "Nová", "": "", "1 299": "1 299"} {
		if got := orderfile.FormulaSafe(in); got != want {
			t.Errorf("FormulaSafe(%q) = %q, want %q", in, got, want)
		}
	}
}

// sized is a template file of rows orders and exactly size bytes: an
// unmapped last column takes what is left.
func sized(t testing.TB, rows, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(strings.Join(orderfile.Header(), ";") + ";filler\r\n")
	row := "OBJ-%05d;Jana;Nováková;;Vinohradská 1511/230;Praha 10;100 00;CZ;+420 731 204 118;jana@example.cz;1,2;30;20;10;1 299;CZK;1 299,50;;zvonit;"
	per := (size - b.Len()) / rows
	for i := range rows {
		line := fmt.Sprintf(row, i)
		fill := per - len(line) - 2
		if i == rows-1 {
			fill = size - b.Len() - len(line) - 2
		}
		if fill < 0 {
			t.Fatalf("rows of %d bytes cannot make %d bytes", len(line), size)
		}
		b.WriteString(line)
		b.Write(bytes.Repeat([]byte("x"), fill))
		b.WriteString("\r\n")
	}
	if b.Len() != size {
		t.Fatalf("made %d bytes, want %d", b.Len(), size)
	}
	return b.Bytes()
}

func TestSizeLimit(t *testing.T) {
	f := read(t, sized(t, 5000, orderfile.MaxBytes), nil)
	wantNoProblems(t, f)
	if len(f.Rows) != 5000 || f.Rows[4999].Order.Reference != "OBJ-04999" {
		t.Errorf("%d rows", len(f.Rows))
	}
	f = read(t, sized(t, 5000, orderfile.MaxBytes+1), nil)
	wantFileProblem(t, f, orderfile.KeyTooLarge)
	if f.Problems[0].Args[0] != 10 {
		t.Errorf("args %v", f.Problems[0].Args)
	}
	// A workbook is read whole: refused as soon as it is too large.
	zip := append([]byte("PK\x03\x04"), make([]byte, orderfile.MaxBytes)...)
	wantFileProblem(t, read(t, zip, nil), orderfile.KeyTooLarge)
}

func TestRowAndColumnLimits(t *testing.T) {
	rows := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("reference;surname;phone;weight_kg;point_code\n")
		for i := range n {
			fmt.Fprintf(&b, "R%d;Nová;777 123 456;1;ZA00001\n", i)
		}
		return b.Bytes()
	}
	f := read(t, rows(orderfile.MaxRows), nil)
	wantNoProblems(t, f)
	if len(f.Rows) != orderfile.MaxRows {
		t.Errorf("%d rows", len(f.Rows))
	}
	f = read(t, rows(orderfile.MaxRows+1), nil)
	wantFileProblem(t, f, orderfile.KeyTooManyRows)

	// Rows whose text is in no mapped column, or quoted empty cells, bound the work too.
	unmapped := "extra;surname;phone;weight_kg;point_code\n" + strings.Repeat("x;;;;\n", orderfile.MaxRows+1)
	wantFileProblem(t, read(t, []byte(unmapped), nil), orderfile.KeyTooManyRows)
	empty := "surname;phone;weight_kg;point_code\nNová;777 123 456;1;ZA1\n" + strings.Repeat("\"\";\"\"\n", 2*orderfile.MaxRows)
	wantFileProblem(t, read(t, []byte(empty), nil), orderfile.KeyTooManyRows)
	f = read(t, []byte("surname;phone;weight_kg;point_code\nNová;777 123 456;1;ZA1\n"+strings.Repeat(";;;\r\n", 100_000)), nil)
	if len(f.Problems) > 0 || len(f.Rows) != 1 {
		t.Errorf("empty rows as spreadsheets write them are skipped, however many: %v", keys(f.Problems))
	}

	wide := strings.Repeat("x;", orderfile.MaxColumns) + "surname\nNová\n"
	wantFileProblem(t, read(t, []byte(wide), nil), orderfile.KeyTooManyColumns)

	huge := "surname;phone;weight_kg;point_code;note\n" +
		"Nová;777 123 456;1;ZA00001;" + strings.Repeat("y", 300<<10) + "\n" +
		"Malá;777 123 456;1;ZA00001;\n"
	f = read(t, []byte(huge), nil)
	if len(f.Problems) > 0 || len(f.Rows) != 2 {
		t.Fatalf("%v, %d rows", keys(f.Problems), len(f.Rows))
	}
	if got := keys(f.Rows[0].Problems); !slices.Equal(got, []string{"batch.row.too_long"}) || f.Rows[1].Order.Surname != "Malá" || f.Rows[1].Line != 3 {
		t.Errorf("a row too long: %v; the next %+v at line %d", got, f.Rows[1].Order, f.Rows[1].Line)
	}
}

// A file of huge cells keeps only the cut cells: a cut cell does not keep its
// row's text alive.
func TestHugeCellsAreNotKept(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("surname;phone;weight_kg;point_code;note\n")
	for range 95 {
		b.WriteString("Nová;777 123 456;1;ZA00001;" + strings.Repeat("z", 100_000) + "\n")
	}
	data := b.Bytes()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f := read(t, data, nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if len(f.Rows) != 95 || len(f.Rows[0].Order.Note) != orderfile.MaxCellChars {
		t.Fatalf("%d rows", len(f.Rows))
	}
	if retained > 2<<20 {
		t.Errorf("reading %d kB of cells kept %d kB", len(data)>>10, retained>>10)
	}
	runtime.KeepAlive(data)
	runtime.KeepAlive(f)
}

// Every problem key and field label is in both catalogs and formats with
// the arguments the package gives it.
func TestEveryKeyIsInTheCatalog(t *testing.T) {
	args := map[string][]any{
		orderfile.KeyTooLarge: {10}, orderfile.KeyTooManyRows: {10000}, orderfile.KeyTooManyColumns: {200},
		orderfile.KeyNoSheet: {"List1"}, orderfile.KeyColumnMissing: {"PSČ"}, orderfile.KeyColumnTwice: {"PSČ"},
		orderfile.KeyRowCells: {6, 8}, orderfile.KeyRowTooLong: {256}, orderfile.KeyTooLong: {1000},
		orderfile.KeyCurrencyTwo: {"EUR", "CZK"}, orderfile.KeyWrongType: {"image/png"},
	}
	used := slices.Clone(orderfile.Keys)
	for _, f := range orderfile.Fields {
		used = append(used, orderfile.LabelKey(f))
	}
	for _, key := range used {
		if !i18n.Has(key) {
			t.Errorf("the catalog lacks %s", key)
			continue
		}
		for _, l := range i18n.Langs {
			text := i18n.T(i18n.WithLang(context.Background(), l), key, args[key]...)
			if strings.Contains(text, "%!") || strings.Contains(text, "%v") {
				t.Errorf("%s in %s: %q", key, l, text)
			}
		}
	}
	// Every key written in the package's code is one of Keys.
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				if strings.HasPrefix(s, "batch.") && s != "batch.field." && !slices.Contains(orderfile.Keys, s) {
					t.Errorf("%s uses %q, which is not in Keys", name, s)
				}
			}
			return true
		})
	}
}
