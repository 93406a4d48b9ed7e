package app

import (
	"cmp"
	"log/slog"
	"strings"

	"shipdesk/claims"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/mail"
	"shipdesk/mailcatch"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// The sender when none is set.
const (
	DefaultMailFrom     = "shipdesk@localhost"
	DefaultMailFromName = "shipdesk"
)

// NewMail builds the outbox on the dashboard's clock. With no SMTP server
// set and catch true (sandbox mode in serve and the tests) it starts the
// in-process catcher and sends there, so no mail leaves the machine; with
// neither, mail waits in the outbox until a server is set. Both `serve` and
// `shipdesk jobs` build it here.
func NewMail(db *storage.DB, cfg mail.Config, catch bool, clk *clock.Clock, who string, log *slog.Logger) (*mail.Outbox, *mailcatch.Catcher, error) {
	cfg.From, cfg.FromName = cmp.Or(cfg.From, DefaultMailFrom), cmp.Or(cfg.FromName, DefaultMailFromName)
	var catcher *mailcatch.Catcher
	if cfg.URL == "" && catch {
		c, err := mailcatch.Start(clk)
		if err != nil {
			return nil, nil, err
		}
		catcher, cfg.URL = c, c.URL()
		log.Info("mail is caught in this process, never sent: read it on the Sent mail page", "smtp", cfg.URL)
	}
	var sender *mail.Sender
	if cfg.URL != "" {
		s, err := mail.NewSender(cfg)
		if err != nil {
			if catcher != nil {
				catcher.Close()
			}
			return nil, nil, err
		}
		sender = s
	} else {
		log.Warn("no SMTP_URL: mail waits in the outbox until one is set")
	}
	return mail.NewOutbox(db, clk, sender, cfg.From, who, log), catcher, nil
}

// sentMail is what the Sent mail page reads: the outbox, and the copies the
// catcher caught (none when mail goes to a real server).
type sentMail struct {
	*storage.DB
	catcher *mailcatch.Catcher
}

func (s sentMail) Caught(messageID string) []mailcatch.Caught {
	if s.catcher == nil {
		return nil
	}
	return s.catcher.WithMessageID(messageID)
}

// NewClaims is the customers' claim page on the desks, sending its mail
// through outbox with links that start with publicURL (serve's and jobs'
// one address; "http://127.0.0.1:8080/" when none is set).
func NewClaims(db *storage.DB, d *desk.Desk, wb *workbench.Workbench, outbox *mail.Outbox, publicURL string, clk *clock.Clock, log *slog.Logger) *claims.Service {
	return claims.New(db, d, wb, outbox, clk, PublicURL(publicURL), log)
}

// PublicURL is the dashboard's public address as its customers' links start
// with it, ending in a slash ("http://127.0.0.1:8080/" when none is set).
func PublicURL(publicURL string) string {
	publicURL = cmp.Or(publicURL, "http://127.0.0.1:8080/")
	if !strings.HasSuffix(publicURL, "/") {
		publicURL += "/"
	}
	return publicURL
}
