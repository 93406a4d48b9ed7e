package workbench

import (
	"strings"
	"testing"
	"time"
)

func TestCheckProofByContent(t *testing.T) {
	pdf := []byte("%PDF-1.7 rest")
	jpeg := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10}
	png := []byte("\x89PNG\r\n\x1a\nrest")
	for _, c := range []struct {
		name string
		data []byte
		want string // "" accepted, else part of the message
	}{
		{"receipt.pdf", pdf, ""},
		{"RECEIPT.PDF", pdf, ""},
		{"scan.jpeg", jpeg, ""},
		{"scan.jpg", jpeg, ""},
		{"photo.png", png, ""},
		{"no-extension", pdf, ""},
		{"receipt.pdf.png", pdf, "named .png but its content is a PDF"},
		{"photo.pdf", png, "named .pdf but its content is a PNG"},
		{"receipt.pdf", []byte("<html>"), "Only PDF, JPEG or PNG"},
		{"receipt.pdf", nil, "empty"},
		{"big.pdf", append([]byte("%PDF-"), make([]byte, MaxUpload)...), "larger than 10 MiB"},
	} {
		got := CheckProof(c.name, c.data)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestDaysLeftCountsCalendarDays(t *testing.T) {
	now := time.Date(2026, 11, 22, 23, 30, 0, 0, time.Local)
	for _, c := range []struct {
		deadline time.Time
		want     int
	}{
		{now.Add(30 * time.Minute), 1}, // tomorrow just after midnight
		{now.Add(-23 * time.Hour), 0},  // earlier today
		{now.AddDate(0, 0, 30), 30},    // a fresh claim
		{now.AddDate(0, 0, -2), -2},    // overdue by two days
		{now.Add(-47 * time.Hour), -1}, // yesterday evening
	} {
		if got := DaysLeft(c.deadline, now); got != c.want {
			t.Errorf("deadline %s: %d, want %d", c.deadline, got, c.want)
		}
	}
}

func TestFormFieldOfReturnsPaths(t *testing.T) {
	for path, want := range map[string]string{"customer.email": "customer_email", "product.model_id": "model_id", "product.fault": "fault",
		"invoice_file_token": "proof", "file": "proof", "type": "type", "nothing": "form"} {
		if got := FormField(path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}

func TestCheckRefusesBeforeTheService(t *testing.T) {
	f := Form{Key: "3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f", Type: "warranty", TwoWay: true}
	f.Customer.Name, f.Customer.Email = "Eva", "eva@@example"
	p := f.Check()
	for _, field := range []string{"customer_email", "customer_street", "type_id", "model_id", "fault", "proof"} {
		if p[field] == "" {
			t.Errorf("%s not refused: %v", field, p)
		}
	}
	f.Type = "paid_repair"
	if f.Check()["proof"] != "" {
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
