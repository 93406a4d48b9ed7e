package main

import (
	"flag"

	"shipdesk/app"
	"shipdesk/mail"
)

// summaryFlags: when the managers' daily summary goes out.
func summaryFlags(fs *flag.FlagSet, hour *int) {
	fs.IntVar(hour, "summary-hour", envInt("SHIPDESK_SUMMARY_HOUR", 7), "`hour` (0–23, in SHIPDESK_TZ) from which managers who asked for it get the day's attention summary by mail (env SHIPDESK_SUMMARY_HOUR)")
}

// mailFlags are where mail goes and whom it comes from.
func mailFlags(fs *flag.FlagSet, m *mail.Config) {
	fs.StringVar(&m.URL, "smtp-url", env("SMTP_URL", ""), "SMTP server `url`: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465 (TLS); empty in sandbox mode: mail is caught in process and shown on the Sent mail page (env SMTP_URL)")
	fs.StringVar(&m.From, "mail-from", env("SHIPDESK_MAIL_FROM", app.DefaultMailFrom), "the sender's `address` of the mail shipdesk sends (env SHIPDESK_MAIL_FROM)")
	fs.StringVar(&m.PublicURL, "public-url", env("SHIPDESK_PUBLIC_URL", ""), "the dashboard's public `url` as customers reach it, which the links in their mail start with (the claim page's one-time links and status pages) and where the shop's webhooks are registered; empty: http:// and the listen address (env SHIPDESK_PUBLIC_URL)")
	fs.StringVar(&m.FromName, "mail-from-name", env("SHIPDESK_MAIL_FROM_NAME", app.DefaultMailFromName), "the sender's `name` (env SHIPDESK_MAIL_FROM_NAME)")
}
