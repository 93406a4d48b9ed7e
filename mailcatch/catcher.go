// Package mailcatch is an SMTP server inside the dashboard's process that
// catches every mail instead of delivering it: `make run` and the tests point
// the sender at it, so no mail leaves the machine, and in sandbox mode the
// staff read what a customer would have received on the Sent mail page. It
// listens on the loopback interface only and keeps the latest mails in memory.
package mailcatch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"time"

	"github.com/emersion/go-smtp"

	"shipdesk/clock"
)

// Keep is how many caught mails are kept; older ones are forgotten.
const Keep = 500

// Caught is one mail as it arrived, read back from its MIME.
type Caught struct {
	ID        int // in the order of arrival, from 1
	MessageID string
	From, To  string
	// ToHeader is the To header as written (unfolded), Recipients the
	// envelope's (RCPT TO): what a test of the header's encoding reads.
	ToHeader    string
	Recipients  []string
	ReplyTo     string // the Reply-To header, decoded ("" : none)
	Subject     string
	Text, HTML  string
	Attachments []File
	Received    time.Time
	Size        int
}

// File is an attachment of a caught mail.
type File struct {
	Name        string
	ContentType string
	Data        []byte
}

// Trouble is what the catcher does with one coming mail instead of taking
// it, for demonstrations and tests of the sender's failures.
type Trouble struct {
	// Before runs once the mail's data is read, before the catcher answers.
	Before func()
	// Hangup closes the connection without an answer: the mail is not taken.
	Hangup bool
	// Code refuses the mail with this reply (421, 451: try later; 550: never).
	Code int
}

// Catcher is the running server and what it caught.
type Catcher struct {
	srv   *smtp.Server
	ln    net.Listener
	clock *clock.Clock
	done  chan struct{}

	mu      sync.Mutex
	mails   []Caught // oldest first, at most Keep
	last    int
	trouble []Trouble
}

// Start listens on a free port of 127.0.0.1; received times are on clk.
func Start(clk *clock.Clock) (*Catcher, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mail catcher: %w", err)
	}
	c := &Catcher{ln: ln, clock: clk, done: make(chan struct{})}
	c.srv = smtp.NewServer(smtp.BackendFunc(func(conn *smtp.Conn) (smtp.Session, error) { return &session{c: c, conn: conn}, nil }))
	c.srv.Domain = "localhost"
	c.srv.MaxMessageBytes = 32 << 20
	c.srv.MaxRecipients = 10
	c.srv.ReadTimeout, c.srv.WriteTimeout = time.Minute, time.Minute
	c.srv.ErrorLog = log.New(io.Discard, "", 0)
	go func() {
		defer close(c.done)
		_ = c.srv.Serve(ln)
	}()
	return c, nil
}

// URL is the SMTP_URL of the catcher.
func (c *Catcher) URL() string { return "smtp://" + c.ln.Addr().String() }

// Close stops the server.
func (c *Catcher) Close() {
	_ = c.srv.Close()
	<-c.done
}

// Next makes the next mails meet these troubles, one each, in order.
func (c *Catcher) Next(t ...Trouble) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trouble = append(c.trouble, t...)
}

func (c *Catcher) nextTrouble() (Trouble, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.trouble) == 0 {
		return Trouble{}, false
	}
	t := c.trouble[0]
	c.trouble = c.trouble[1:]
	return t, true
}

// All returns the caught mails, newest first.
func (c *Catcher) All() []Caught {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Caught, len(c.mails))
	for i, m := range c.mails {
		out[len(out)-1-i] = m
	}
	return out
}

// WithMessageID returns the caught copies of one message, oldest first.
func (c *Catcher) WithMessageID(id string) []Caught {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Caught
	for _, m := range c.mails {
		if m.MessageID == id {
			out = append(out, m)
		}
	}
	return out
}

func (c *Catcher) keep(m Caught) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last++
	m.ID = c.last
	c.mails = append(c.mails, m)
	if len(c.mails) > Keep {
		c.mails = append([]Caught(nil), c.mails[len(c.mails)-Keep:]...)
	}
}

// session is one SMTP conversation.
type session struct {
	c    *Catcher
	conn *smtp.Conn
	from string
	to   []string
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

// errHungUp is the answer never given: the connection is closed first.
var errHungUp = errors.New("hung up")

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if t, ok := s.c.nextTrouble(); ok {
		if t.Before != nil {
			t.Before()
		}
		if t.Hangup {
			_ = s.conn.Conn().Close()
			return errHungUp
		}
		if t.Code != 0 {
			return &smtp.SMTPError{Code: t.Code, Message: "the catcher refuses this mail (a demonstration)"}
		}
	}
	m, err := parse(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, Message: "unreadable message"}
	}
	m.Size, m.Received, m.Recipients = len(raw), s.c.clock.Now(), append([]string(nil), s.to...)
	if m.From == "" {
		m.From = s.from
	}
	if m.To == "" && len(s.to) > 0 {
		m.To = s.to[0]
	}
	s.c.keep(m)
	return nil
}
