package attention

import (
	"context"
	"fmt"
	"time"

	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/mail"
	"shipdesk/storage"
)

// SummaryFile is the daily summary as a spreadsheet for one manager, in the
// context's language (the download's own table): its file name, its bytes
// and how many items it lists.
type SummaryFile func(ctx context.Context, st *identity.Staff) (name string, data []byte, items int, err error)

// xlsxType is a spreadsheet's content type.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Digest queues the managers' daily summary by mail: once a day from a set
// hour in the shop's zone, one mail per manager who asked for it, with the
// summary attached. The event key names the manager and the day, so however
// often it runs and on however many instances, a day brings one mail.
type Digest struct {
	db     *storage.DB
	outbox *mail.Outbox
	clock  *clock.Clock
	zone   *time.Location
	hour   int
	lang   i18n.Lang // for managers who chose no language
	file   SummaryFile
}

// NewDigest returns the daily summary's sender, due from hour (0–23) in zone.
func NewDigest(db *storage.DB, outbox *mail.Outbox, clk *clock.Clock, zone *time.Location, hour int, lang i18n.Lang, file SummaryFile) *Digest {
	return &Digest{db: db, outbox: outbox, clock: clk, zone: zone, hour: min(max(hour, 0), 23), lang: lang, file: file}
}

// QueueDue queues today's summary for every manager who asked for it and has
// none yet; before the hour it does nothing. It returns how many it queued.
func (d *Digest) QueueDue(ctx context.Context) (int, error) {
	now := d.clock.Now().In(d.zone)
	if now.Hour() < d.hour {
		return 0, nil
	}
	readers, err := d.db.SummaryReaders(ctx)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, u := range readers {
		key := fmt.Sprintf("attention-summary:%d:%s", u.ID, now.Format(time.DateOnly))
		if done, err := d.db.MailRecorded(ctx, key); err != nil || done {
			if err != nil {
				return queued, err
			}
			continue // the day's summary is queued already: no spreadsheet made for nothing
		}
		m, err := d.message(ctx, u, key, now)
		if err != nil {
			return queued, err
		}
		ok, err := d.outbox.Enqueue(ctx, d.db, m)
		if err != nil {
			return queued, fmt.Errorf("daily summary for %s: %w", u.Username, err)
		}
		if ok {
			queued++
		}
	}
	return queued, nil
}

func (d *Digest) message(ctx context.Context, u storage.UserMail, key string, now time.Time) (mail.Message, error) {
	lang, ok := i18n.Parse(u.Lang)
	if !ok {
		lang = d.lang
	}
	ctx = i18n.WithLang(ctx, lang)
	name, data, items, err := d.file(ctx, &identity.Staff{ID: u.ID, Username: u.Username, Role: u.Role})
	if err != nil {
		return mail.Message{}, fmt.Errorf("daily summary for %s: %w", u.Username, err)
	}
	day := i18n.Date(ctx, now)
	return mail.Message{EventKey: key, To: u.Email, ToName: u.Username, Lang: string(lang),
		Subject:     i18n.T(ctx, "mail.summary.subject", day),
		Text:        i18n.T(ctx, "mail.summary.greeting", u.Username) + "\n\n" + i18n.N(ctx, "mail.summary.items", items, day) + "\n\n" + i18n.T(ctx, "mail.summary.footer"),
		Attachments: []mail.Attachment{{Name: name, ContentType: xlsxType, Data: data}}}, nil
}
