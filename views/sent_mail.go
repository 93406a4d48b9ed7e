package views

import (
	"regexp"
	"strings"
)

// SentMailRow is one mail of the outbox on the Sent mail page.
type SentMailRow struct {
	ID                  int64
	EventKey, MessageID string
	To, ToName, Subject string
	State               string // queued, sending, sent, failed
	Attempts            int
	LastError           string
	Created, Sent       string
	Files               []string
	Caught              int // copies the catcher received
}

// CaughtMail is a copy of a mail as the in-process catcher received it.
type CaughtMail struct {
	Received, From, To, Subject, Text string
	Files                             []CaughtFile
}

// CaughtFile is an attachment of a caught copy.
type CaughtFile struct {
	Name string
	Size int
	URL  string
}

// textPart is a piece of a mail's text: plain, or a web address to follow.
type textPart struct {
	Text string
	Link bool
}

var webAddress = regexp.MustCompile(`https?://[^\s<>"']+`)

// textParts splits a mail's text so its web addresses can be links (the
// link a customer gets, followed in a demo); only http and https.
func textParts(s string) []textPart {
	var out []textPart
	at := 0
	for _, m := range webAddress.FindAllStringIndex(s, -1) {
		end := m[0] + len(strings.TrimRight(s[m[0]:m[1]], ".,;:!?)"))
		if m[0] > at {
			out = append(out, textPart{Text: s[at:m[0]]})
		}
		out = append(out, textPart{Text: s[m[0]:end], Link: true})
		at = end
	}
	if at < len(s) {
		out = append(out, textPart{Text: s[at:]})
	}
	return out
}

// mailStateBadge is the badge class of an outbox state.
func mailStateBadge(state string) string {
	switch state {
	case "sent":
		return "badge badge-ok"
	case "failed":
		return "badge badge-bad"
	}
	return "badge badge-warn"
}
