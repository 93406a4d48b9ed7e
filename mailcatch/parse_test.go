package mailcatch

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
)

// Encoded headers and bodies are read back as written.
func TestParseDecodes(t *testing.T) {
	text := base64.StdEncoding.EncodeToString([]byte("Žluťoučký kůň úpěl ďábelské ódy"))
	raw := "From: =?UTF-8?q?Obchod_=C5=BDlu=C5=A5ou=C4=8Dk=C3=BD?= <a@b.cz>\r\nTo: c@d.cz\r\nSubject: =?UTF-8?b?xb1sdcWlb3XEjWvDvQ==?=\r\n" +
		"Message-ID: <x@y>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n" +
		"--B\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + text[:20] + "\r\n" + text[20:] + "\r\n" +
		"--B\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"a.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERg==\r\n--B--\r\n"
	m, err := parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Žluťoučký" || m.Text != "Žluťoučký kůň úpěl ďábelské ódy" || m.MessageID != "x@y" || !strings.HasPrefix(m.From, "Obchod Žluťoučký") ||
		len(m.Attachments) != 1 || string(m.Attachments[0].Data) != "%PDF" {
		t.Fatalf("%+v", m)
	}
}

// A mail of endless parts is refused rather than walked.
func TestParseBoundsParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("Content-Type: multipart/mixed; boundary=B\r\n\r\n")
	for range maxParts + 1 {
		b.WriteString("--B\r\nContent-Type: text/plain\r\n\r\nx\r\n")
	}
	b.WriteString("--B--\r\n")
	if _, err := parse(strings.NewReader(b.String())); err == nil {
		t.Fatal("parsed")
	}
}

// The catcher keeps the newest mails only.
func TestKeepsTheLatest(t *testing.T) {
	c := &Catcher{clock: clock.Frozen(time.Unix(0, 0))}
	for range Keep + 3 {
		c.keep(Caught{})
	}
	all := c.All()
	if len(all) != Keep || all[0].ID != Keep+3 || all[len(all)-1].ID != 4 {
		t.Fatalf("%d kept, newest %d, oldest %d", len(all), all[0].ID, all[len(all)-1].ID)
	}
}
