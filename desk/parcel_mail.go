package desk

import (
	"cmp"
	"context"
	"shipdesk/shopid"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/i18n"
	"shipdesk/mail"
	"shipdesk/storage"
)

// The customer hears of each step of their parcel that matters, once: the
// tracking poller's transaction that stores an answer records the mail it
// causes (mailParcels), keyed by shipment and step in the outbox, so no
// number of pollers, instances or refreshes sends a step twice. Only the
// latest state of an answer mails: a parcel seen delivered after a day
// without polling says "delivered", not every step it missed.

// parcelEvent is the step a shipment's news mails, "" for none: what its
// latest state says when this answer moved it, else a delay when it is
// stuck.
func parcelEvent(n storage.ParcelNews) string {
	if !n.Moved {
		if n.Stuck {
			return ParcelDelayed
		}
		return ""
	}
	switch {
	case n.Status == shipping.StatusCancelled:
		return ""
	case n.Returned:
		return ParcelReturning
	case n.Status == shipping.StatusDelivered:
		return ParcelDelivered
	case n.DeliveryFailed && n.Status != shipping.StatusOnDelivery:
		return ParcelDeliveryFailed
	case n.Status == shipping.StatusOnDelivery && n.PointCode != "":
		return ParcelReadyAtPoint
	case n.Status == shipping.StatusOnDelivery:
		return ParcelOutForDelivery
	case n.Status == shipping.StatusInTransit:
		return ParcelHandedOver
	}
	return ""
}

// langOf is the recipient's language: Czech for the Czech and Slovak
// republics, English elsewhere.
func langOf(country string) i18n.Lang {
	switch strings.ToUpper(strings.TrimSpace(country)) {
	case "CZ", "SK", "":
		return i18n.Czech
	}
	return i18n.English
}

// zone is the shop's zone, where a parcel's days are counted.
func (d *Desk) zone() *time.Location { return cmp.Or(d.Zone, i18n.Prague) }

// mailParcels records, on tx (the transaction that stored a batch's
// tracking), the customer's mail of each step the batch brought. A mail the
// outbox refuses (an address that is none) is logged and skipped: the
// tracking is stored all the same.
func (d *Desk) mailParcels(ctx context.Context, now time.Time) func(tx *storage.DB, st storage.Stored) error {
	return func(tx *storage.DB, st storage.Stored) error {
		if d.Outbox == nil {
			return nil
		}
		news, err := tx.ParcelNews(ctx, st.IDs, st.Moved, now.In(d.zone()))
		if err != nil || len(news) == 0 {
			return err
		}
		settings, err := tx.ParcelMailSettings(ctx)
		if err != nil {
			return err
		}
		wait, err := tx.PointWaitDays(ctx)
		if err != nil {
			return err
		}
		for _, n := range news {
			event := parcelEvent(n)
			if event == "" || !enabled(settings, event) {
				continue
			}
			if err := d.mailParcel(ctx, tx, n, event, settings[event], wait); err != nil {
				return err
			}
		}
		return nil
	}
}

// mailParcel records one step's mail in the recipient's language.
func (d *Desk) mailParcel(ctx context.Context, tx *storage.DB, n storage.ParcelNews, event string, s storage.ParcelMailSetting, wait int) error {
	lang := langOf(n.Country)
	ctx = i18n.WithZone(i18n.WithLang(ctx, lang), d.zone())
	id, err := shopid.Of(ctx, tx)
	if err != nil {
		return err
	}
	day := n.LastEvent
	if event == ParcelReadyAtPoint {
		day = day.AddDate(0, 0, wait) // until when it waits
	}
	t := fill(templateOf(ctx, s, event, lang), map[string]string{"shop": shopid.Name(ctx, id), "recipient": n.RecipientName,
		"tracking": n.TrackingNumber, "link": TrackingLink(d.PublicURL, n.TrackToken), "point": pointOf(n), "day": i18n.Date(ctx, day)})
	_, err = d.Outbox.ToCustomer(ctx, tx, mailMessage(n, event, lang, t)) // the shop's name, reply address and signature
	if apperr.CodeOf(err) == apperr.Invalid {
		d.log.Warn("parcel step not mailed: the outbox refuses the mail", "shipment", n.ID, "event", event, "problems", apperr.ProblemsOf(err))
		return nil
	}
	return err
}

// pointOf is the point as a customer finds it: its name and address.
func pointOf(n storage.ParcelNews) string {
	if n.PointName == "" {
		return n.PointCode
	}
	parts := []string{n.PointName}
	if n.PointStreet != "" {
		parts = append(parts, n.PointStreet)
	}
	if town := strings.TrimSpace(n.PointZip + " " + n.PointCity); town != "" {
		parts = append(parts, town)
	}
	return strings.Join(parts, ", ")
}

// ParcelMailKey is the outbox's event key of a shipment's step: one mail
// per shipment and step.
func ParcelMailKey(shipment int64, event string) string {
	return "parcel:" + strconv.FormatInt(shipment, 10) + ":" + event
}

// mailMessage is the mail of one step.
func mailMessage(n storage.ParcelNews, event string, lang i18n.Lang, t ParcelTemplate) mail.Message {
	return mail.Message{EventKey: ParcelMailKey(n.ID, event), To: n.Email, ToName: n.RecipientName, Subject: t.Subject,
		Text: t.Body + "\n", Lang: string(lang)}
}
