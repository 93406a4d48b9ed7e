package desk

import (
	"context"
	"net/url"
	"regexp"
	"shipdesk/shopid"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
)

// The steps of a parcel that may mail its customer, in the order a parcel
// meets them.
const (
	ParcelHandedOver     = "handed_over"      // the carrier has it
	ParcelReadyAtPoint   = "ready_at_point"   // waiting at the point for the customer
	ParcelOutForDelivery = "out_for_delivery" // on the courier's round to the address
	ParcelDelivered      = "delivered"
	ParcelDeliveryFailed = "delivery_failed" // an attempt failed, the carrier tries again
	ParcelReturning      = "returning"       // on its way back to the shop
	ParcelDelayed        = "delayed"         // no news for the carrier's working days
)

// ParcelEvents are the steps in display order.
var ParcelEvents = []string{ParcelHandedOver, ParcelReadyAtPoint, ParcelOutForDelivery, ParcelDelivered, ParcelDeliveryFailed,
	ParcelReturning, ParcelDelayed}

// Placeholders are the words a template may hold in braces, each replaced
// by its value in the mail.
var Placeholders = []string{"shop", "recipient", "tracking", "link", "point", "day"}

// Limits of a template.
const (
	maxMailSubject = 200
	maxMailBody    = 5000
)

// placeholder finds a word in braces.
var placeholder = regexp.MustCompile(`\{[^{}\n]*\}`)

// ParcelTemplate is one step's wording in one language.
type ParcelTemplate struct {
	Subject, Body string
	Custom        bool // the managers' own, not the catalog's default
}

// ParcelMailStep is one step as the settings page shows it.
type ParcelMailStep struct {
	Event   string
	Enabled bool
	CS, EN  ParcelTemplate
}

// ParcelMailSettings are the settings page's values.
type ParcelMailSettings struct {
	Steps         []ParcelMailStep
	PointWaitDays int
}

// defaultTemplate is the catalog's wording of event in ctx's language.
func defaultTemplate(ctx context.Context, event string) ParcelTemplate {
	return ParcelTemplate{Subject: i18n.T(ctx, "parcelmail."+event+".subject"), Body: i18n.T(ctx, "parcelmail."+event+".body")}
}

// templateOf is the wording of a step in lang: the stored one, else the default.
func templateOf(ctx context.Context, s storage.ParcelMailSetting, event string, lang i18n.Lang) ParcelTemplate {
	subject, body := s.SubjectCS, s.BodyCS
	if lang == i18n.English {
		subject, body = s.SubjectEN, s.BodyEN
	}
	def := defaultTemplate(i18n.WithLang(ctx, lang), event)
	t := ParcelTemplate{Subject: subject, Body: body, Custom: subject != "" || body != ""}
	if t.Subject == "" {
		t.Subject = def.Subject
	}
	if t.Body == "" {
		t.Body = def.Body
	}
	return t
}

// enabled says whether a step mails: on unless a manager turned it off.
func enabled(settings map[string]storage.ParcelMailSetting, event string) bool {
	s, ok := settings[event]
	return !ok || s.Enabled
}

// ParcelMailSettings reads the settings page's values.
func (d *Desk) ParcelMailSettings(ctx context.Context) (ParcelMailSettings, error) {
	stored, err := d.db.ParcelMailSettings(ctx)
	if err != nil {
		return ParcelMailSettings{}, err
	}
	wait, err := d.db.PointWaitDays(ctx)
	if err != nil {
		return ParcelMailSettings{}, err
	}
	out := ParcelMailSettings{PointWaitDays: wait}
	for _, e := range ParcelEvents {
		s := stored[e]
		out.Steps = append(out.Steps, ParcelMailStep{Event: e, Enabled: enabled(stored, e),
			CS: templateOf(ctx, s, e, i18n.Czech), EN: templateOf(ctx, s, e, i18n.English)})
	}
	return out, nil
}

// CheckTemplate reads a template's subject and body as posted: one line and
// lines of readable text within their limits, and no word in braces that is
// not a placeholder. Problems go on fields prefix+"subject" and prefix+"body".
func CheckTemplate(subject, body, prefix string, p apperr.Problems) ParcelTemplate {
	s, problem := textin.Line(subject, maxMailSubject)
	p.Put(prefix+"subject", problem)
	b, problem := textin.Lines(body, maxMailBody)
	p.Put(prefix+"body", problem)
	for field, text := range map[string]string{prefix + "subject": s, prefix + "body": b} {
		if strings.TrimSpace(text) == "" {
			p.Add(field, "parcelmail.err.empty")
		}
		for _, w := range placeholder.FindAllString(text, -1) {
			if !slices.Contains(Placeholders, strings.Trim(w, "{}")) {
				p.Add(field, "parcelmail.err.placeholder", w)
			}
		}
	}
	return ParcelTemplate{Subject: s, Body: b}
}

// SaveParcelMail stores the settings page as posted: each step on or off
// and its wording in both languages (a wording equal to the default is
// stored as none, so a later change of the catalog reaches it), and the
// days a parcel waits at a point. Nothing is stored while any field has a
// problem.
func (d *Desk) SaveParcelMail(ctx context.Context, v url.Values) error {
	p := apperr.Problems{}
	var steps []storage.ParcelMailSetting
	for _, e := range ParcelEvents {
		s := storage.ParcelMailSetting{Event: e, Enabled: v.Get(e+".enabled") == "on"}
		for _, lang := range []i18n.Lang{i18n.Czech, i18n.English} {
			prefix := e + "." + string(lang) + "."
			t := CheckTemplate(v.Get(prefix+"subject"), v.Get(prefix+"body"), prefix, p)
			def := defaultTemplate(i18n.WithLang(ctx, lang), e)
			if t.Subject == def.Subject {
				t.Subject = ""
			}
			if t.Body == normalBody(def.Body) {
				t.Body = ""
			}
			if lang == i18n.English {
				s.SubjectEN, s.BodyEN = t.Subject, t.Body
			} else {
				s.SubjectCS, s.BodyCS = t.Subject, t.Body
			}
		}
		steps = append(steps, s)
	}
	wait, err := strconv.Atoi(strings.TrimSpace(v.Get("point_wait_days")))
	if err != nil || wait < 1 || wait > 30 {
		p.Add("point_wait_days", "parcelmail.err.wait_days", 1, 30)
	}
	if err := invalid(p); err != nil {
		return err
	}
	return d.db.InTx(ctx, func(tx *storage.DB) error {
		for _, s := range steps {
			if err := tx.SaveParcelMailSetting(ctx, s, d.now()); err != nil {
				return err
			}
		}
		return tx.SavePointWaitDays(ctx, wait)
	})
}

// normalBody is a body as a textarea posts it back (textin.Lines' reading).
func normalBody(s string) string {
	b, _ := textin.Lines(s, maxMailBody)
	return b
}

// PreviewParcelMail draws a template as posted with example values, in
// lang: what the customer would read, or the template's problems.
func (d *Desk) PreviewParcelMail(ctx context.Context, lang i18n.Lang, subject, body string) (ParcelTemplate, apperr.Problems) {
	p := apperr.Problems{}
	t := CheckTemplate(subject, body, "", p)
	if len(p) > 0 {
		return t, p
	}
	ctx = i18n.WithLang(ctx, lang)
	id, err := shopid.Of(ctx, d.db)
	if err != nil {
		d.log.Warn("preview without the shop's name", "err", err)
	}
	values := map[string]string{"shop": shopid.Name(ctx, id), "recipient": i18n.T(ctx, "parcelmail.example.recipient"),
		"tracking": "DEMO0000012345", "link": TrackingLink(d.PublicURL, "…"), "point": i18n.T(ctx, "parcelmail.example.point"),
		"day": i18n.Date(ctx, d.now())}
	out := fill(t, values)
	out.Body = strings.TrimRight(out.Body, "\n") + "\n\n" + shopid.Signature(ctx, id) // as Outbox.ToCustomer ends it
	return out, nil
}

// fill replaces each placeholder of t by its value (a value in the subject
// on one line).
func fill(t ParcelTemplate, values map[string]string) ParcelTemplate {
	var subject, body []string
	for _, name := range Placeholders {
		v := values[name]
		subject = append(subject, "{"+name+"}", strings.Join(strings.Fields(v), " "))
		body = append(body, "{"+name+"}", v)
	}
	return ParcelTemplate{Subject: strings.NewReplacer(subject...).Replace(t.Subject), Body: strings.NewReplacer(body...).Replace(t.Body)}
}
