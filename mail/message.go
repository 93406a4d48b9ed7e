// Package mail sends the dashboard's mail from an outbox in PostgreSQL: a
// mail is recorded (Enqueue) in the transaction of the change that causes it,
// once per event, and the pollers' worker (SendDue) sends it over SMTP with
// retries, keeping what fails for good with its reason. Nothing is lost, and
// one event never queues two mails.
package mail

import (
	"crypto/sha256"
	"encoding/hex"
	netmail "net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Message is a mail to send. EventKey names the event that causes it
// ("claim-link:123", "attention-summary:7:2026-11-26"): the outbox keeps one
// mail per key.
type Message struct {
	EventKey    string
	To          string // an address only: "jana@example.com"
	ToName      string
	Subject     string
	Text        string // plain text, always
	HTML        string // optional
	Lang        string // the reader's language, for the record ("cs" or "en")
	Attachments []Attachment
	// KeepUntil is, for a mail that carries a customer's key (a link that
	// opens a claim's form or page), until when the outbox keeps it whole;
	// once it is sent and past then, only its record stays (Outbox.Forget).
	// Zero: kept.
	KeepUntil time.Time
	// FromName and ReplyTo are the name a mail goes under and where its
	// replies go; Outbox.ToCustomer sets them to the shop's ("" : the
	// outbox's own name, no Reply-To).
	FromName, ReplyTo string
}

// Attachment is a file sent with a mail.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Limits of what one mail may carry.
const (
	maxEventKey   = 200
	maxLine       = 200     // subject, recipient's name, address
	maxBody       = 100_000 // characters of the text or the HTML
	maxAttachment = 10 << 20
)

// check refuses what must not reach a mail's header or body: line breaks or
// control characters in the address or subject (header injection), text that
// is not UTF-8, an address that is not one, oversized parts. The recipient's
// name is never a reason to refuse: it is cleaned (DisplayName), since a
// customer's name, whatever it holds, must not cost them their mail.
func (m Message) check() error {
	p := apperr.Problems{}
	line := func(field, s string) {
		if _, problem := textin.Line(s, maxLine); !problem.IsZero() {
			p.Put(field, problem)
		}
	}
	if k := m.EventKey; k == "" || len(k) > maxEventKey || strings.ContainsFunc(k, func(r rune) bool { return r <= ' ' || r > '~' }) {
		p.Add("event_key", "mail.err.event_key")
	}
	line("to", m.To)
	if m.ReplyTo != "" {
		line("reply_to", m.ReplyTo)
		if a, err := netmail.ParseAddress(m.ReplyTo); err != nil || a.Address != m.ReplyTo {
			p.Add("reply_to", "mail.err.address")
		}
	}
	line("subject", m.Subject)
	if a, err := netmail.ParseAddress(m.To); err != nil || a.Address != m.To {
		p.Add("to", "mail.err.address")
	}
	if m.ReplyTo != "" {
		if a, err := netmail.ParseAddress(m.ReplyTo); err != nil || a.Address != m.ReplyTo {
			p.Add("reply_to", "mail.err.address")
		}
	}
	if strings.TrimSpace(m.Subject) == "" {
		p.Add("subject", "mail.err.subject")
	}
	for field, s := range map[string]string{"text": m.Text, "html": m.HTML} {
		if _, problem := textin.Lines(s, maxBody); !problem.IsZero() {
			p.Put(field, problem)
		}
	}
	if strings.TrimSpace(m.Text) == "" {
		p.Add("text", "mail.err.text")
	}
	size := 0
	for _, a := range m.Attachments {
		size += len(a.Data)
		if name := textin.FileName(a.Name); name == "" || name != a.Name || !utf8.ValidString(a.ContentType) || strings.ContainsAny(a.ContentType, "\r\n\x00") || a.ContentType == "" {
			p.Add("attachments", "mail.err.attachment")
		}
	}
	if size > maxAttachment {
		p.Add("attachments", "mail.err.attachments_size")
	}
	if len(p) > 0 {
		return p.Err("mail.err.refused")
	}
	return nil
}

// MessageID is the mail's Message-ID, the same for every attempt of one
// event: a copy sent again after a crash is recognisably the same message.
func MessageID(eventKey, fromAddress string) string {
	sum := sha256.Sum256([]byte(eventKey))
	domain := "shipdesk.invalid"
	if i := strings.LastIndexByte(fromAddress, '@'); i >= 0 && i < len(fromAddress)-1 {
		domain = fromAddress[i+1:]
	}
	return "outbox." + hex.EncodeToString(sum[:16]) + "@" + domain
}

// record is the message as the outbox keeps it.
func (m Message) record(now time.Time, fromAddress string) storage.OutMail {
	out := storage.OutMail{EventKey: m.EventKey, To: m.To, ToName: DisplayName(m.ToName), Subject: strings.TrimSpace(m.Subject),
		Text: strings.ReplaceAll(m.Text, "\r\n", "\n"), HTML: m.HTML, Lang: m.Lang, MessageID: MessageID(m.EventKey, fromAddress), CreatedAt: now,
		FromName: DisplayName(m.FromName), ReplyTo: m.ReplyTo}
	if !m.KeepUntil.IsZero() {
		out.KeepUntil = &m.KeepUntil
	}
	if out.Lang == "" {
		out.Lang = "cs"
	}
	for _, a := range m.Attachments {
		out.Attachments = append(out.Attachments, storage.MailAttachment(a))
	}
	return out
}

// DisplayName is a name as a mail's header carries it: readable UTF-8 on
// one line (control characters, line and paragraph separators and bidi
// controls become spaces, runs of spaces one), at most maxLine characters.
// Quotes and the rest of ASCII stay: the header writes the name as RFC 5322
// and RFC 2047 say (net/mail's Address.String, through go-mail), quoted with
// escapes or as encoded words. A backslash goes: net/mail leaves it raw in the
// Q-encoded words of a name outside ASCII, which no reader parses (Go's own
// refuses it), and it is no part of a person's name.
func DisplayName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\\':
			return -1
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r):
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	s, _ = textin.Cut(strings.Join(strings.Fields(s), " "), maxLine)
	return strings.TrimSpace(s)
}
