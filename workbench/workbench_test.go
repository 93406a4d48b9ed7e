package workbench

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"shipdesk/client/returns"
	"shipdesk/i18n"
	"shipdesk/storage"
)

func TestCheckProofByContent(t *testing.T) {
	pdf := []byte("%PDF-1.7 rest")
	jpeg := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10}
	png := []byte("\x89PNG\r\n\x1a\nrest")
	for _, c := range []struct {
		test string
		name string
		data []byte
		want string // "" accepted, else part of the message
	}{
		{"PDF", "receipt.pdf", pdf, ""},
		{"PDF in capitals", "RECEIPT.PDF", pdf, ""},
		{"JPEG as .jpeg", "scan.jpeg", jpeg, ""},
		{"JPEG as .jpg", "scan.jpg", jpeg, ""},
		{"PNG", "photo.png", png, ""},
		{"no extension", "no-extension", pdf, ""},
		{"PDF named .png", "receipt.pdf.png", pdf, "named .png but its content is a PDF"},
		{"PNG named .pdf", "photo.pdf", png, "named .pdf but its content is a PNG"},
		{"HTML", "receipt.pdf", []byte("<html>"), "Only PDF, JPEG or PNG"},
		{"empty", "receipt.pdf", nil, "empty"},
		{"too large", "big.pdf", append([]byte("%PDF-"), make([]byte, MaxUpload)...), "larger than 10 MiB"},
	} {
		t.Run(c.test, func(t *testing.T) {
			got := CheckProof(c.name, c.data).String()
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		})
	}
}

// A commission's status in a message is a word of the catalog, in English
// as in Czech (never the service's code).
func TestStatusWordsAreInTheCatalog(t *testing.T) {
	english := i18n.WithLang(context.Background(), i18n.English)
	for _, s := range States {
		if !i18n.Has("ret.status." + s) {
			t.Errorf("no word for the status %s", s)
		}
		if got, want := statusText(s).In(english), i18n.T(english, "ret.status."+s); got != want || got == "" {
			t.Errorf("%s is %q in English, want the word %q", s, got, want)
		}
	}
	if got := statusText("").In(english); got != "not created" {
		t.Errorf("no status is %q", got)
	}
}

func TestDaysLeftCountsCalendarDays(t *testing.T) {
	now := time.Date(2026, 11, 22, 23, 30, 0, 0, time.Local)
	for _, c := range []struct {
		name     string
		deadline time.Time
		want     int
	}{
		{"tomorrow just after midnight", now.Add(30 * time.Minute), 1},
		{"earlier today", now.Add(-23 * time.Hour), 0},
		{"a fresh claim", now.AddDate(0, 0, 30), 30},
		{"overdue by two days", now.AddDate(0, 0, -2), -2},
		{"yesterday evening", now.Add(-47 * time.Hour), -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DaysLeft(c.deadline, now); got != c.want {
				t.Errorf("deadline %s: %d, want %d", c.deadline, got, c.want)
			}
		})
	}
}

func TestFormFieldOfReturnsPaths(t *testing.T) {
	for path, want := range map[string]string{"customer.email": "customer_email", "product.model_id": "model_id", "product.fault": "fault",
		"invoice_file_token": "proof", "file": "proof", "type": "type", "nothing": "form"} {
		t.Run(path, func(t *testing.T) {
			if got := FormField(path); got != want {
				t.Errorf("%s: %s, want %s", path, got, want)
			}
		})
	}
}

func TestCheckRefusesBeforeTheService(t *testing.T) {
	f := Form{Key: "3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f", Type: "warranty", TwoWay: true}
	f.Customer.Name, f.Customer.Email = "Eva", "eva@@example"
	p := f.Check()
	for _, field := range []string{"customer_email", "customer_street", "type_id", "model_id", "fault", "proof"} {
		t.Run(field, func(t *testing.T) {
			if p[field].IsZero() {
				t.Errorf("%s not refused: %v", field, p)
			}
		})
	}
	f.Type = "paid_repair"
	if !f.Check()["proof"].IsZero() {
		t.Error("a paid repair needs no proof of purchase")
	}
}

func TestModelName(t *testing.T) {
	if got := ModelName("Bexon", "Bexon Coffee K101"); got != "Bexon Coffee K101" {
		t.Error(got)
	}
	if got := ModelName("Bexon", "K101"); got != "Bexon K101" {
		t.Error(got)
	}
}

// multipartOf posts fields and a proof as a browser does and returns the
// parsed form.
func multipartOf(t *testing.T, fields url.Values, name string, data []byte) *http.Request {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	if name != "" || data != nil {
		fw, _ := mw.CreateFormFile("proof", name)
		_, _ = fw.Write(data)
	}
	mw.Close()
	r, _ := http.NewRequest(http.MethodPost, "/returns/new", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseFormReadsTheFormAndItsProof(t *testing.T) {
	fields := url.Values{"key": {"3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f"}, "type": {"warranty"}, "customer_name": {"Alena Veselá"},
		"customer_email": {"alena@example.cz"}, "customer_street": {"Lipová 3"}, "customer_zip": {"602 00"}, "customer_city": {"Brno"},
		"type_id": {"4"}, "model_id": {"41"}, "fault": {"Dark.\r\nNo sound."}, "two_way": {"on"}, "upload_id": {"-3"}}
	r := multipartOf(t, fields, "receipt.pdf", []byte("%PDF-1.4"))
	f, problems := ParseForm(r.MultipartForm.Value, r.MultipartForm.File)
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	want := Customer{Name: "Alena Veselá", Email: "alena@example.cz", Street: "Lipová 3", City: "Brno", Zip: "602 00", Country: "CZ"}
	if f.Customer != want || f.TypeID != 4 || f.ModelID != 41 || !f.TwoWay || f.Type != "warranty" || f.UploadID != 0 {
		t.Errorf("form: %+v", f)
	}
	if f.File == nil || f.File.Name != "receipt.pdf" || string(f.File.Data) != "%PDF-1.4" {
		t.Errorf("proof: %+v", f.File)
	}
	if p := f.Check(); len(p) != 0 {
		t.Errorf("a good form has problems: %v", p)
	}

	t.Run("no file chosen", func(t *testing.T) {
		r := multipartOf(t, fields, "", nil)
		if f, _ := ParseForm(r.MultipartForm.Value, r.MultipartForm.File); f.File != nil {
			t.Errorf("proof without a file: %+v", f.File)
		}
		if f, _ := ParseForm(r.MultipartForm.Value, nil); f.File != nil {
			t.Errorf("proof without files: %+v", f.File)
		}
	})
	t.Run("unreadable text is its field's problem", func(t *testing.T) {
		bad := url.Values{"customer_name": {"Eva\x00"}, "fault": {"ok"}}
		f, problems := ParseForm(bad, nil)
		if problems["customer_name"].IsZero() {
			t.Fatalf("a NUL in the name is no problem: %v", problems)
		}
		if got := f.Check()["customer_name"]; got.String() != problems["customer_name"].String() {
			t.Errorf("Check says %q, ParseForm said %q", got, problems["customer_name"])
		}
	})
}

func TestDetailOfTheServicesAnswer(t *testing.T) {
	rc := returns.Commission{ID: 9, Number: "RC-9", Type: "warranty", Status: "processing",
		Customer: returns.Customer{Name: "Alena", Email: "a@example.cz", Phone: "+420 1", Street: "Lipová 3", City: "Brno", Zip: "602 00"},
		Product:  returns.Product{SerialNumber: "SN-1", PurchaseDate: "2026-10-01", Fault: "Dark."},
		History:  []returns.HistoryEntry{{Status: "new", At: "1"}, {Status: "waiting_for_goods", At: "2"}, {Status: "processing", At: "3"}},
		Activities: []returns.Activity{{Type: "message", Public: true, Text: "Hello"}, {Type: "note", Text: "Internal"},
			{Type: "note", Public: true, Text: "A public note is no message"}},
		Shipments: []returns.Transport{{Direction: "from_customer", TrackingNumber: "T1"}, {Direction: "to_customer", TrackingNumber: "T2"}}}
	raw, _ := json.Marshal(rc)
	c := storage.Commission{ID: 3, Number: "RC-9", Reference: "RC-ABC", Type: "warranty", Status: "processing", State: storage.StateCreated,
		CustomerName: "Alena", CustomerEmail: "a@example.cz", ProductLabel: "Bexon K101 (Coffee)", Raw: raw, Duplicates: storage.Strings{"RC-10"}}
	d := DetailOf(c)

	t.Run("customer", func(t *testing.T) {
		if d.Customer.Phone != "+420 1" || d.Customer.Address() != "Lipová 3, 602 00 Brno" || d.Customer.Name != "Alena" {
			t.Errorf("%+v", d.Customer)
		}
	})
	t.Run("product", func(t *testing.T) {
		if d.Product != "Bexon K101 (Coffee)" || d.Serial != "SN-1" || d.Purchase != "2026-10-01" || d.Fault != "Dark." {
			t.Errorf("%+v", d)
		}
	})
	t.Run("history newest first", func(t *testing.T) {
		var got []string
		for _, h := range d.History {
			got = append(got, h.Status)
		}
		if strings.Join(got, " ") != "processing waiting_for_goods new" {
			t.Errorf("%q", got)
		}
	})
	t.Run("only messages are public", func(t *testing.T) {
		var public []bool
		for _, a := range d.Activities {
			public = append(public, a.Public)
		}
		if !slices.Equal(public, []bool{true, false, false}) {
			t.Errorf("%v", public)
		}
	})
	t.Run("transport", func(t *testing.T) {
		if len(d.Transport) != 2 || d.Transport[0].ToCustomer || !d.Transport[1].ToCustomer || d.Transport[1].TrackingNumber != "T2" {
			t.Errorf("%+v", d.Transport)
		}
	})
	t.Run("allowed moves", func(t *testing.T) {
		if !slices.Equal(d.Moves, []string{"outgoing", "closed", "cancelled"}) {
			t.Errorf("%q", d.Moves)
		}
		c := c
		c.State = storage.StateUnknown
		if moves := DetailOf(c).Moves; len(moves) != 0 {
			t.Errorf("an order not created offers %q", moves)
		}
	})
	t.Run("duplicates", func(t *testing.T) {
		if !slices.Equal(d.Duplicates, []string{"RC-10"}) || d.Reference != "RC-ABC" {
			t.Errorf("%q %q", d.Duplicates, d.Reference)
		}
	})
}

func TestDetailOfAnOrderNotAtTheServiceYet(t *testing.T) {
	f := Form{Key: "3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f", Type: "warranty", Serial: "SN-2", Purchase: "2026-09-01", Fault: "Cracked.",
		Customer: Customer{Name: "Eva", Email: "eva@example.cz"}}
	req, _ := json.Marshal(f.request(""))
	d := DetailOf(storage.Commission{ID: 4, State: storage.StateUnknown, CustomerName: "Eva", Request: req})
	if d.Serial != "SN-2" || d.Purchase != "2026-09-01" || d.Fault != "Cracked." {
		t.Errorf("from the request: %+v", d)
	}
	if len(d.History) != 0 || len(d.Moves) != 0 || d.Status != "" {
		t.Errorf("an order not at the service has history %v, moves %v, status %q", d.History, d.Moves, d.Status)
	}
	if got := f.reference(); got != "RC-3F1E9A522C3B" {
		t.Errorf("generated reference %q", got)
	}
}

func TestProductsGroupModelsUnderTheirTypes(t *testing.T) {
	got := productsOf([]storage.ProductType{{ID: 1, Name: "Coffee"}, {ID: 2, Name: "Kettle"}, {ID: 3, Name: "Empty"}},
		[]storage.ProductModel{{ID: 10, TypeID: 2, Brand: "Bexon", Name: "K1"}, {ID: 11, TypeID: 1, Brand: "Bexon", Name: "Bexon C1"}, {ID: 12, TypeID: 2, Name: "K2"}})
	want := []ProductType{{ID: 1, Name: "Coffee", Models: []ProductModel{{ID: 11, Name: "Bexon C1"}}},
		{ID: 2, Name: "Kettle", Models: []ProductModel{{ID: 10, Name: "Bexon K1"}, {ID: 12, Name: "K2"}}},
		{ID: 3, Name: "Empty"}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Name != want[i].Name || !slices.Equal(got[i].Models, want[i].Models) {
			t.Errorf("type %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
