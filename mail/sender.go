package mail

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"shipdesk/storage"
)

// Config is where mail goes and whom it comes from.
type Config struct {
	// URL is the SMTP server: smtp://user:pass@host:587 (STARTTLS when the
	// server offers it) or smtps://user:pass@host:465 (TLS from the start,
	// certificate checked). Empty: nothing is sent (mail waits in the outbox).
	URL      string
	From     string // the sender's address
	FromName string // the sender's name
	// PublicURL is the dashboard's address as customers reach it, which the
	// links in mail start with ("https://shop.example/"); it ends with "/".
	PublicURL string
	// Timeout limits one connection's work (0: 30 s).
	Timeout time.Duration
}

// Sender speaks SMTP to one server.
type Sender struct {
	client *gomail.Client
	from   string
	name   string
	secret string // the URL's password, never written into a reason
}

// NewSender reads the server's URL.
func NewSender(c Config) (*Sender, error) {
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return nil, errors.New("SMTP_URL: want smtp://user:password@host:port or smtps://…")
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithTimeout(timeout)}
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("SMTP_URL: port %q", p)
		}
	}
	switch u.Scheme {
	case "smtp": // STARTTLS when offered: a local relay or the catcher may offer none
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic), gomail.WithPort(cmp.Or(port, 587)))
	case "smtps": // implicit TLS: never in the clear
		opts = append(opts, gomail.WithSSL(), gomail.WithTLSPolicy(gomail.TLSMandatory), gomail.WithPort(cmp.Or(port, 465)))
	default:
		return nil, fmt.Errorf("SMTP_URL: scheme %q (want smtp or smtps)", u.Scheme)
	}
	secret := ""
	if u.User != nil {
		secret, _ = u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(u.User.Username()), gomail.WithPassword(secret))
	}
	client, err := gomail.NewClient(u.Hostname(), opts...)
	if err != nil {
		return nil, fmt.Errorf("SMTP_URL: %w", err)
	}
	if a, err := netmail.ParseAddress(c.From); err != nil || a.Address != c.From {
		return nil, fmt.Errorf("SHIPDESK_MAIL_FROM %q: not an address", c.From)
	}
	return &Sender{client: client, from: c.From, name: c.FromName, secret: secret}, nil
}

// errPermanent marks a refusal that sending again cannot change (5xx).
var errPermanent = errors.New("refused for good")

// Send hands one mail to the server. The mail is delivered exactly when Send
// returns nil: the server answered 250 to the message's data. An error
// wrapping errPermanent is a 5xx refusal; any other is worth another try.
func (s *Sender) Send(ctx context.Context, m storage.OutMail) error {
	msg, err := s.compose(m)
	if err != nil {
		return fmt.Errorf("%w: %w", errPermanent, err)
	}
	conn, err := s.client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	// Closing after the 250 may fail (a server that hangs up before QUIT):
	// the mail is delivered all the same, so that failure is not the mail's.
	defer s.client.CloseWithSMTPClient(conn) //nolint:errcheck
	if err = s.client.SendWithSMTPClient(conn, msg); err == nil {
		return nil
	}
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
		return fmt.Errorf("%w: %w", errPermanent, err)
	}
	return err
}

// compose writes the mail as MIME: text (and HTML) in UTF-8, attachments,
// the stable Message-ID and the date it was recorded.
func (s *Sender) compose(m storage.OutMail) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	// The addresses go as net/mail writes them (a name quoted with escapes,
	// or as encoded words outside ASCII): go-mail's *Format methods put the
	// name between quotes as it is, so a quote or a trailing backslash in it
	// would make the header unreadable and the mail refused for good.
	msg.FromMailAddress(&netmail.Address{Name: DisplayName(s.name), Address: s.from})
	if _, err := netmail.ParseAddress(m.To); err != nil {
		return nil, fmt.Errorf("recipient %q: %w", m.To, err)
	}
	msg.AddToMailAddress(&netmail.Address{Name: DisplayName(m.ToName), Address: m.To})
	if m.ReplyTo != "" {
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return nil, fmt.Errorf("reply-to %q: %w", m.ReplyTo, err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDateWithValue(m.CreatedAt)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		if err := msg.AttachReader(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(a.ContentType))); err != nil {
			return nil, err
		}
	}
	return msg, nil
}

// reason is a failure as the outbox keeps and shows it: one line, without
// the server's password, at most 300 characters.
func (s *Sender) reason(err error) string {
	r := err.Error()
	if s.secret != "" {
		r = strings.ReplaceAll(r, s.secret, "***")
	}
	r = strings.Join(strings.FieldsFunc(strings.ToValidUTF8(r, ""), func(c rune) bool { return c < ' ' || c == 0x7f }), " ")
	if len(r) > 300 {
		r = strings.ToValidUTF8(r[:300], "") + "…"
	}
	return r
}
