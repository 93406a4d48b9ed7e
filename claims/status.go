package claims

import (
	"context"
	"slices"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/workbench"
)

// Status is a claim as its customer sees it: never an internal note, never
// anything of another claim.
type Status struct {
	Token     string // the key it was read by ("" on the returns desk)
	Claim     storage.CustomerClaim
	Reference string // the purchase's
	Number    string // the commission's, once the service has it
	// State is the claim's state in words (a catalog key's last part).
	State      string
	Resolution string // how it was settled ("" until then)
	Reason     string
	Deadline   *time.Time // by when a claim of a defect is settled
	// The return parcel: its code, or its label (the fallback), by when.
	Code       string
	Label      bool
	WriteOn    string // the recipient to write on the package with the code
	HandOverBy time.Time
	// HandedIn is the return parcel's status at the carrier once it has the
	// parcel, until it reaches the shop ("" before and after).
	HandedIn  string
	Arrived   *time.Time
	Messages  []Message
	Files     []storage.ClaimUpload // the customer's own, with the claim
	Documents []storage.Document    // written confirmations
	// Held: a step after filing was refused and waits for the shop's staff,
	// who will get in touch; Contact is whom the customer may ask meanwhile.
	Held    bool
	Contact Contact
	// Purchased is the purchase's day (YYYY-MM-DD) as the commission has it.
	Purchased string
	// Refund is a withdrawal's refund (nil for a claim of a defect).
	Refund *Refund
	// Live: something may still change, so the page asks for itself again.
	Live bool
}

// Message is one message of the conversation: the shop's public messages
// and the customer's replies, oldest first.
type Message struct {
	FromShop bool
	Text     string
	At       time.Time
	Files    []storage.ClaimUpload
}

// Status reads a claim by its status page's token.
func (s *Service) Status(ctx context.Context, token, client string) (Status, error) {
	c, err := s.claim(ctx, token, client)
	if err != nil {
		return Status{}, err
	}
	st, err := s.statusOf(ctx, c)
	st.Token = token
	return st, err
}

// StatusOfClaim reads a claim as its customer sees it, by its id: for the
// returns desk, whose pages never hold the customer's key.
func (s *Service) StatusOfClaim(ctx context.Context, id int64) (Status, error) {
	c, err := s.db.ClaimByID(ctx, id)
	if err != nil {
		return Status{}, err
	}
	return s.statusOf(ctx, c)
}

func (s *Service) statusOf(ctx context.Context, c storage.CustomerClaim) (Status, error) {
	sh, err := s.db.ShipmentByID(ctx, c.ShipmentID)
	if err != nil {
		return Status{}, err
	}
	st := Status{Claim: c, Reference: sh.Reference, State: "received", HandOverBy: HandOverBy(c), Arrived: c.ArrivedAt}
	files, err := s.db.ClaimUploads(ctx, c.ID)
	if err != nil {
		return st, err
	}
	replies, err := s.db.ClaimMessages(ctx, c.ID)
	if err != nil {
		return st, err
	}
	for _, m := range replies {
		st.Messages = append(st.Messages, Message{Text: m.Body, At: m.CreatedAt, Files: filesOf(files, &m.ID)})
	}
	st.Files = filesOf(files, nil)
	if c.CommissionID != nil {
		if err := s.commissionStatus(ctx, *c.CommissionID, &st); err != nil {
			return st, err
		}
	}
	if c.ReturnShipmentID != nil {
		parcel, err := s.db.ShipmentByID(ctx, *c.ReturnShipmentID)
		if err != nil {
			return st, err
		}
		var ready bool
		st.Code, st.Label, ready = desk.ReturnHandover(parcel)
		st.WriteOn = s.writeOn(ctx)
		early := c.ArrivedAt == nil && (st.State == "received" || st.State == "waiting_for_goods")
		switch {
		case c.ArrivedAt == nil && desk.HandedIn(parcel):
			// The code stays on the page until the carrier has the parcel.
			st.HandedIn = parcel.Status
			if early {
				st.State = "handed_in"
			}
		case ready && early:
			st.State = "hand_over"
		}
	}
	if c.RefusedAt != nil && c.ArrivedAt == nil && (st.State == "received" || st.State == "waiting_for_goods") {
		// Not "being prepared" forever: a person takes it from here.
		st.State, st.Held, st.Contact = "held", true, s.contact(ctx)
	}
	if st.Refund, err = s.refundOf(ctx, c); err != nil {
		return st, err
	}
	if st.Refund != nil && st.Refund.Paid != nil {
		st.State = "refunded" // what the customer waited for, whatever the desk's state
	}
	if st.Purchased == "" {
		st.Purchased = s.purchaseDay(ctx, c)
	}
	st.Live = live(st)
	slices.SortStableFunc(st.Messages, func(a, b Message) int { return a.At.Compare(b.At) })
	return st, nil
}

// live: a claim's page may still change (a code, a message, a move, a
// refund) until it is settled and, for a withdrawal, its refund paid.
func live(st Status) bool {
	switch st.State {
	case "cancelled", "refunded":
		return false
	case "closed":
		return st.Refund != nil && st.Refund.Paid == nil
	}
	return true
}

// commissionStatus adds what the returns desk knows: the state, the public
// messages, the settlement, the confirmations.
func (s *Service) commissionStatus(ctx context.Context, id int64, st *Status) error {
	c, err := s.db.CommissionByID(ctx, id)
	if err != nil {
		return err
	}
	d := workbench.DetailOf(c)
	st.Number = c.Number
	if c.State == storage.StateCreated && d.Status != "new" && d.Status != "" {
		st.State = d.Status
	}
	if workbench.Claim(c) {
		st.Deadline = c.DeadlineAt
		if c.ExtendedTo != nil {
			st.Deadline = c.ExtendedTo
		}
	}
	st.Resolution, st.Reason, st.Purchased = d.Resolution, d.ResolutionReason, d.Purchase
	for _, a := range d.Activities {
		if a.Public { // internal notes never leave the desk
			st.Messages = append(st.Messages, Message{FromShop: true, Text: a.Text, At: serviceTime(a.Created)})
		}
	}
	st.Documents, err = s.db.DocumentsOf(ctx, id)
	return err
}

// serviceTime reads a time the service reports (Prague time); one it does
// not write that way sorts last.
func serviceTime(s string) time.Time {
	t, err := time.ParseInLocation(time.DateTime, s, i18n.Prague)
	if err != nil {
		return time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return t
}

// filesOf are the files of one reply (or of the claim itself: nil).
func filesOf(all []storage.ClaimUpload, message *int64) []storage.ClaimUpload {
	var out []storage.ClaimUpload
	for _, f := range all {
		if (f.MessageID == nil) == (message == nil) && (message == nil || *f.MessageID == *message) {
			out = append(out, f)
		}
	}
	return out
}

// claim reads a claim by its token; a client that tries many unknown ones
// is throttled.
func (s *Service) claim(ctx context.Context, token, client string) (storage.CustomerClaim, error) {
	if !tokenShape(token) {
		return storage.CustomerClaim{}, s.unknown(ctx, client, apperr.New(apperr.NotFound, "claim.err.status_unknown"))
	}
	c, err := s.db.ClaimByStatusKey(ctx, hashOf(token))
	if err != nil {
		return c, s.unknown(ctx, client, err)
	}
	return c, nil
}

// Reply keeps a customer's reply with its photos; the same form posted again
// keeps nothing more.
func (s *Service) Reply(ctx context.Context, token, client, key, text string, photos []File) error {
	c, err := s.claim(ctx, token, client)
	if err != nil {
		return err
	}
	if err := s.throttled(ctx, "replies", s.Limits.Replies, token); err != nil {
		return err
	}
	p := apperr.Problems{}
	body, problem := textin.Lines(text, MaxText)
	p.Put("text", problem)
	if problem.IsZero() && body == "" && len(photos) == 0 {
		p.Add("text", "claim.err.reply_empty")
	}
	checkFiles(Form{Photos: photos}, p)
	if !requestkey.Valid(key) {
		p.Add("form", "claim.err.damaged")
	}
	if len(p) > 0 {
		return apperr.Fields("claim.err.see_fields", p)
	}
	files, done, err := s.keptFiles(ctx, nil, photos)
	if err != nil {
		return err
	}
	defer done()
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		_, _, err := tx.AddClaimMessage(ctx, storage.ClaimMessage{ClaimID: c.ID, RequestKey: itoa(c.ID) + ":" + key, Body: body,
			CreatedAt: s.now()}, files)
		if apperr.Is(err, apperr.NotFound) { // posted twice: kept already
			return nil
		}
		return err
	})
}

// FileOf reads one of the claim's own files.
func (s *Service) FileOf(ctx context.Context, token, client string, uploadID int64) (storage.Upload, error) {
	c, err := s.claim(ctx, token, client)
	if err != nil {
		return storage.Upload{}, err
	}
	return s.db.ClaimUpload(ctx, c.ID, uploadID)
}

// FileOfClaim reads one of a claim's own files by the claim's id (the
// returns desk's view of the claim).
func (s *Service) FileOfClaim(ctx context.Context, claimID, uploadID int64) (storage.Upload, error) {
	return s.db.ClaimUpload(ctx, claimID, uploadID)
}

// Document reads one of the claim's written confirmations.
func (s *Service) Document(ctx context.Context, token, client string, docID int64) (name string, pdf []byte, err error) {
	c, err := s.claim(ctx, token, client)
	if err != nil {
		return "", nil, err
	}
	if c.CommissionID == nil {
		return "", nil, apperr.New(apperr.NotFound, "rec.no_file", docID)
	}
	return s.bench.Confirmation(ctx, *c.CommissionID, docID)
}

// Label is the return parcel's label, when the carrier gave one instead of
// a code.
func (s *Service) Label(ctx context.Context, token, client string) ([]byte, error) {
	c, err := s.claim(ctx, token, client)
	if err != nil {
		return nil, err
	}
	return s.labelOf(ctx, c)
}

// LabelOfClaim is Label by the claim's id (the returns desk's view).
func (s *Service) LabelOfClaim(ctx context.Context, claimID int64) ([]byte, error) {
	c, err := s.db.ClaimByID(ctx, claimID)
	if err != nil {
		return nil, err
	}
	return s.labelOf(ctx, c)
}

func (s *Service) labelOf(ctx context.Context, c storage.CustomerClaim) ([]byte, error) {
	if c.ReturnShipmentID == nil {
		return nil, apperr.New(apperr.NotFound, "claim.err.no_label")
	}
	parcel, err := s.db.ShipmentByID(ctx, *c.ReturnShipmentID)
	if err != nil {
		return nil, err
	}
	if _, label, ready := desk.ReturnHandover(parcel); !label || !ready {
		return nil, apperr.New(apperr.NotFound, "claim.err.no_label")
	}
	return s.ship.Label(ctx, parcel.ID)
}
