package mail

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/shopid"
	"shipdesk/storage"
	"shipdesk/throttle"
)

// Outbox records mail and sends what is due.
type Outbox struct {
	db     *storage.DB
	clock  *clock.Clock
	sender *Sender // nil: mail waits in the outbox (no server configured)
	from   string
	who    string // names this instance in leases
	log    *slog.Logger

	// Lease is how long a lease holds a mail; a worker stopped mid-send
	// leaves it to the next after this long.
	Lease time.Duration
	// MaxAttempts is how many times a mail is tried before it is kept as failed.
	MaxAttempts int
	// FirstRetry is the wait after the first temporary failure, doubled for
	// each one after it up to MaxBackoff.
	FirstRetry, MaxBackoff time.Duration
}

// NewOutbox returns the outbox on the dashboard's clock; sender may be nil
// (nothing is sent). from is the sender's address (it names the domain of
// the Message-IDs); who names this instance in leases.
func NewOutbox(db *storage.DB, clk *clock.Clock, sender *Sender, from, who string, log *slog.Logger) *Outbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Outbox{db: db, clock: clk, sender: sender, from: from, who: who, log: log,
		Lease: 2 * time.Minute, MaxAttempts: 8, FirstRetry: time.Minute, MaxBackoff: time.Hour}
}

// Enqueue records a mail on tx, the caller's transaction (or the pool): the
// mail exists exactly when the change that causes it is committed. A second
// mail of the same event key adds nothing (queued false). A mail that could
// break its header (a line break in the subject or address), is not UTF-8 or
// is too big is refused with the problems (apperr.Invalid).
func (o *Outbox) Enqueue(ctx context.Context, tx *storage.DB, m Message) (queued bool, err error) {
	if err := m.check(); err != nil {
		return false, err
	}
	return tx.EnqueueMail(ctx, m.record(o.clock.Now(), o.from))
}

// Forget empties the mails that carried a customer's key once they are sent
// (or failed for good) and past their KeepUntil on the dashboard's clock,
// the clock their times are on (storage.ForgetMail). It returns how many.
func (o *Outbox) Forget(ctx context.Context) (int64, error) {
	return o.db.ForgetMail(ctx, o.clock.Now())
}

// Stats counts what one round of sending did.
type Stats struct {
	Sent, Retried, Failed int
}

// leaseBatch is how many mails one lease takes: one, so a slow server can
// never hold a leased mail past its lease while the mails before it are
// sent (another worker would then send it too).
const leaseBatch = 1

// SendDue sends every mail that is due, leasing one at a time. A mail is
// marked sending (with a lease) before it is sent and sent right after the
// server's 250; when ctx ends mid-send nothing more is recorded, and the mail
// is sent again once the lease runs out (the server never took the first
// copy, unless it had answered 250 already: the one window where a second
// copy can go out, with the same Message-ID).
func (o *Outbox) SendDue(ctx context.Context) (Stats, error) {
	var st Stats
	if o.sender == nil {
		return st, nil
	}
	for ctx.Err() == nil {
		batch, err := o.db.LeaseMail(ctx, storage.Lease{Who: o.who, Now: o.clock.Now(), Limit: leaseBatch, For: o.Lease})
		if err != nil || len(batch) == 0 {
			return st, err
		}
		for _, m := range batch {
			if err := o.sendOne(ctx, m, &st); err != nil {
				return st, err
			}
		}
	}
	return st, ctx.Err()
}

func (o *Outbox) sendOne(ctx context.Context, m storage.OutMail, st *Stats) error {
	err := o.sender.Send(ctx, m)
	if ctx.Err() != nil {
		return ctx.Err() // stopped mid-send: the lease hands the mail on
	}
	if err == nil {
		st.Sent++
		_, err := o.db.MailDelivered(ctx, m.ID, o.who, o.clock.Now())
		return err
	}
	reason := o.sender.reason(err)
	if errors.Is(err, errPermanent) || m.Attempts >= o.MaxAttempts {
		st.Failed++
		o.log.Warn("mail not sent, kept as failed", "mail", m.ID, "event", m.EventKey, "attempts", m.Attempts, "reason", reason)
		_, err := o.db.MailGaveUp(ctx, m.ID, o.who, reason)
		return err
	}
	st.Retried++
	o.log.Info("mail not sent yet, will try again", "mail", m.ID, "event", m.EventKey, "attempts", m.Attempts, "reason", reason)
	_, err = o.db.MailRetry(ctx, m.ID, o.who, o.clock.Now().Add(o.backoff(m.Attempts)), reason)
	return err
}

// backoff is the wait after the attempts-th failure: the throttle's rule
// of doubling waits, from FirstRetry up to MaxBackoff.
func (o *Outbox) backoff(attempts int) time.Duration {
	now := o.clock.Now()
	return throttle.Backoff{Free: 1, FirstWait: o.FirstRetry, MaxWait: o.MaxBackoff}.Wait(attempts, &now, now)
}

// ToCustomer records a mail to a shop's customer (Enqueue): it goes under
// the shop's name, its replies to the shop's reply address, and it ends
// with the shop's one signature in the mail's language. Every mail to a
// customer is recorded here, so none speaks for a warehouse or the software.
func (o *Outbox) ToCustomer(ctx context.Context, tx *storage.DB, m Message) (queued bool, err error) {
	id, err := shopid.Of(ctx, tx)
	if err != nil {
		return false, err
	}
	lang, ok := i18n.Parse(m.Lang)
	if !ok {
		lang = i18n.Czech
	}
	rctx := i18n.WithLang(ctx, lang)
	m.FromName, m.ReplyTo = shopid.Name(rctx, id), id.ReplyEmail
	m.Text = strings.TrimRight(m.Text, "\n") + "\n\n" + shopid.Signature(rctx, id) + "\n"
	return o.Enqueue(ctx, tx, m)
}
