package orderfile_test

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"shipdesk/orderfile"
)

func FuzzRead(f *testing.F) {
	template, err := os.ReadFile("../examples/orders.csv")
	if err != nil {
		f.Fatal(err)
	}
	cp1250, _ := charmap.Windows1250.NewEncoder().String(czechTemplate(";"))
	for _, seed := range [][]byte{
		template, []byte(shopExport), []byte(cp1250), workbook(f), []byte(czechTemplate(",")),
		[]byte("reference;surname\n\"a;b\n\"c\"d;e\n"), []byte("sep=|\nsurname|phone\nx|y\n"),
		[]byte("\xff\xfe"), []byte("\xfe\xff\x00s"), []byte("PK\x03\x04"), []byte("\ufeff"), []byte(";\n;\n"),
		[]byte("surname;phone;weight_kg;point_code\n=1+1;+420 777;-1;@x\n\x00;\xff;1e9;\"\"\"\n"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := orderfile.Read(bytes.NewReader(data), nil)
		if err != nil {
			t.Fatalf("a file in memory failed to read: %v", err)
		}
		if len(file.Problems) > 0 && len(file.Rows) > 0 {
			t.Fatalf("a refused file kept rows")
		}
		if len(file.Rows) > orderfile.MaxRows {
			t.Fatalf("%d rows", len(file.Rows))
		}
		check := func(p orderfile.Problem) {
			if !slices.Contains(orderfile.Keys, p.Key) {
				t.Fatalf("unknown key %q", p.Key)
			}
		}
		for _, p := range file.Problems {
			check(p)
		}
		for _, r := range file.Rows {
			if r.Line < 1 {
				t.Fatalf("row at line %d", r.Line)
			}
			for _, p := range r.Problems {
				check(p)
			}
			for field, v := range r.Raw {
				if v == "" || !utf8.ValidString(v) || utf8.RuneCountInString(v) > orderfile.MaxCellChars ||
					strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) {
					t.Fatalf("%s kept %q", field, v)
				}
			}
			if r.Order.WeightKg < 0 || r.Order.CODAmount < 0 || r.Order.InsuredValue < 0 {
				t.Fatalf("negative values %+v", r.Order)
			}
		}
	})
}

// orders10000 is a template file of 10,000 orders (about 1.5 MB).
func orders10000() []byte {
	var b bytes.Buffer
	b.WriteString("\ufeff" + strings.Join(orderfile.Header(), ";") + "\r\n")
	for i := range 10_000 {
		fmt.Fprintf(&b, "OBJ-%05d;Jana;Nováková;;Vinohradská %d/230;Praha 10;100 00;CZ;+420 731 204 118;jana.novakova@seznam.cz;"+
			"1,2;30;20;10;1 299;CZK;1 299,50;;\"zvonit 2× na Novákovou; pozor, pes\"\r\n", i, i)
	}
	return b.Bytes()
}

// BenchmarkRead10000Rows reports the time and the bytes allocated to read a
// day's file of 10,000 orders, and the heap the result keeps (retained-MB):
// the rows themselves, nothing of the file.
func BenchmarkRead10000Rows(b *testing.B) {
	data := orders10000()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var retained uint64
	for b.Loop() {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		f, err := orderfile.Read(bytes.NewReader(data), nil)
		b.StopTimer()
		if err != nil || len(f.Rows) != 10_000 || len(f.Rows[9999].Problems) > 0 {
			b.Fatalf("%v, %v", err, f.Problems)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained = max(retained, after.HeapAlloc-min(after.HeapAlloc, before.HeapAlloc))
		runtime.KeepAlive(f)
		b.StartTimer()
	}
	b.ReportMetric(float64(retained)/(1<<20), "retained-MB")
}
