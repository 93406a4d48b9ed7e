// Package attention is the "needs attention" queue: which kinds each role
// sees, and what people do with an item (take it, note it, dismiss it with a
// reason). The items themselves are derived from the tables by the rules in
// storage (attention_rules.go), so the queue never disagrees with the records
// it points at; only people's actions are stored.
package attention

import (
	"context"
	"slices"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
)

// areas says in which area of the dashboard each kind is dealt with: the
// shipping desk's kinds for clerks, the returns desk's for agents, all for
// managers.
var areas = map[string]identity.Area{
	storage.AttnLabelFailed:         identity.Shipping,
	storage.AttnStuck:               identity.Shipping,
	storage.AttnDeliveryFailed:      identity.Shipping,
	storage.AttnReturning:           identity.Shipping,
	storage.AttnCODReturned:         identity.Shipping,
	storage.AttnDuplicate:           identity.Shipping,
	storage.AttnUncertain:           identity.Shipping,
	storage.AttnPickupRefused:       identity.Shipping,
	storage.AttnClaimDue:            identity.Returns,
	storage.AttnCommissionDuplicate: identity.Returns,
	storage.AttnCommissionUncertain: identity.Returns,
	storage.AttnClaimStuck:          identity.Returns,
	storage.AttnClaimRefused:        identity.Returns,
	storage.AttnClaimReply:          identity.Returns,
	storage.AttnShopWriteFailed:     identity.Shipping,
	// Refunds are paid by managers: agents record withdrawals, not payments.
	storage.AttnRefundDue: identity.Reports,
}

// kindsByRole is KindsFor's answer for each role, worked out once: the home
// page asks on every request.
var kindsByRole = func() map[identity.Role][]string {
	m := map[identity.Role][]string{}
	for _, r := range identity.Roles {
		m[r] = kindsOf(r)
	}
	return m
}()

// KindsFor lists the kinds a role sees, in display order. The list is
// shared: read it, never change it (an append makes a copy).
func KindsFor(role identity.Role) []string {
	if kinds, ok := kindsByRole[role]; ok {
		return slices.Clip(kinds)
	}
	return kindsOf(role)
}

func kindsOf(role identity.Role) []string {
	var out []string
	for _, k := range storage.AttentionKinds {
		if role.May(areas[k]) {
			out = append(out, k)
		}
	}
	return out
}

// Record says what a kind's record is: "shipment", "commission", "pickup",
// "refund" or "claim" (a customer's claim; its occurrence is its page's token).
func Record(kind string) string {
	switch kind {
	case storage.AttnPickupRefused:
		return "pickup"
	case storage.AttnClaimDue, storage.AttnCommissionDuplicate, storage.AttnCommissionUncertain, storage.AttnClaimReply:
		return "commission"
	case storage.AttnRefundDue:
		return "refund"
	case storage.AttnClaimStuck, storage.AttnClaimRefused:
		return "claim"
	}
	return "shipment"
}

// DismissReasons are the reasons a person picks when dismissing an item;
// "other" needs words of their own.
var DismissReasons = []string{"solved", "carrier", "customer", "expected", "other"}

// Limits of what people write, in characters.
const (
	NoteLimit   = 1000
	ReasonLimit = 500
)

// Queue reads and changes the queue on the dashboard's clock, counting days
// in the shop's zone.
type Queue struct {
	db    *storage.DB
	clock *clock.Clock
	zone  *time.Location
}

// New makes the queue over db.
func New(db *storage.DB, clk *clock.Clock, zone *time.Location) *Queue {
	return &Queue{db: db, clock: clk, zone: zone}
}

// Now is the queue's time: the dashboard's clock in the shop's zone.
func (q *Queue) Now() time.Time { return q.clock.Now().In(q.zone) }

// View chooses a list of the queue.
type View struct {
	Kind string // one kind, or "" for every kind the reader sees
	Show string // storage.AttnOpen or storage.AttnDismissed
	Who  string // storage.AttnEveryone, AttnMine or AttnUnassigned
}

// Items lists the queue for a staff member.
func (q *Queue) Items(ctx context.Context, st *identity.Staff, v View) ([]storage.AttentionItem, error) {
	kinds := KindsFor(st.Role)
	if v.Kind != "" {
		kinds = []string{v.Kind}
		if !slices.Contains(KindsFor(st.Role), v.Kind) {
			kinds = nil
		}
	}
	return q.db.AttentionItems(ctx, storage.AttentionQuery{Now: q.Now(), Kinds: kinds, Show: v.Show, Who: v.Who, UserID: st.ID})
}

// Summary is the managers' daily list: every open item and those dismissed
// since the day began.
func (q *Queue) Summary(ctx context.Context, st *identity.Staff) ([]storage.AttentionItem, error) {
	now := q.Now()
	y, m, d := now.Date()
	return q.db.AttentionItems(ctx, storage.AttentionQuery{Now: now, Kinds: KindsFor(st.Role), Show: storage.AttnSummary,
		Who: storage.AttnEveryone, DismissedSince: time.Date(y, m, d, 0, 0, 0, 0, q.zone)})
}

// Key is an item's key as a form posts it.
type Key struct {
	Kind, Record, Occurrence string
}

// item checks a posted key: a kind the staff member sees, whose item is in
// the queue now.
func (q *Queue) item(ctx context.Context, st *identity.Staff, k Key) (storage.AttentionKey, error) {
	id, err := strconv.ParseInt(k.Record, 10, 64)
	occurrence, problem := textin.Line(k.Occurrence, 200)
	if err != nil || id <= 0 || !problem.IsZero() || !slices.Contains(storage.AttentionKinds, k.Kind) {
		return storage.AttentionKey{}, apperr.New(apperr.NotFound, "attn.err.gone")
	}
	if !slices.Contains(KindsFor(st.Role), k.Kind) {
		return storage.AttentionKey{}, apperr.New(apperr.Forbidden, "attn.err.not_yours")
	}
	key := storage.AttentionKey{Kind: k.Kind, RecordID: id, Occurrence: occurrence}
	found, err := q.db.AttentionItemAt(ctx, q.Now(), key)
	if err != nil {
		return key, err
	}
	if !found {
		return key, apperr.New(apperr.NotFound, "attn.err.gone")
	}
	return key, nil
}

// Take gives an item to the staff member, or, when a manager names someone
// else (to), to that person.
func (q *Queue) Take(ctx context.Context, st *identity.Staff, k Key, to string) error {
	key, err := q.item(ctx, st, k)
	if err != nil {
		return err
	}
	who := st.ID
	if to != "" && to != strconv.FormatInt(st.ID, 10) {
		if st.Role != identity.Manager {
			return apperr.New(apperr.Forbidden, "attn.err.hand_over")
		}
		id, err := strconv.ParseInt(to, 10, 64)
		if err != nil || id <= 0 {
			return apperr.New(apperr.Invalid, "attn.err.no_person")
		}
		u, err := q.db.UserByID(ctx, id)
		if err != nil || u.Disabled() {
			return apperr.New(apperr.Invalid, "attn.err.no_person")
		}
		who = u.ID
	}
	return q.db.TakeAttention(ctx, key, who, q.Now())
}

// Note adds a staff member's note to an item.
func (q *Queue) Note(ctx context.Context, st *identity.Staff, k Key, text string) error {
	text, problem := textin.Lines(text, NoteLimit)
	if problem.IsZero() && text == "" {
		problem = apperr.Msg("attn.err.note_empty")
	}
	if !problem.IsZero() {
		return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("attn.err.note", problem), Fields: apperr.Problems{"text": problem}}
	}
	key, err := q.item(ctx, st, k)
	if err != nil {
		return err
	}
	return q.db.NoteAttention(ctx, key, st.ID, text, q.Now())
}

// Dismiss hides an item with a reason from DismissReasons; "other" needs
// words (text), which any reason may carry.
func (q *Queue) Dismiss(ctx context.Context, st *identity.Staff, k Key, reason, text string) error {
	p := apperr.Problems{}
	if !slices.Contains(DismissReasons, reason) {
		p.Add("reason", "attn.err.reason")
	}
	text, problem := textin.Lines(text, ReasonLimit)
	p.Put("reason_text", problem)
	if reason == "other" && text == "" {
		p.Add("reason_text", "attn.err.reason_text")
	}
	if len(p) > 0 {
		var parts []apperr.Text
		for _, field := range []string{"reason", "reason_text"} {
			if msg, ok := p[field]; ok {
				parts = append(parts, msg)
			}
		}
		return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("attn.err.not_dismissed", apperr.Join(parts...)), Fields: p}
	}
	key, err := q.item(ctx, st, k)
	if err != nil {
		return err
	}
	return q.db.DismissAttention(ctx, key, st.ID, reason, text, q.Now())
}

// Restore brings a dismissed item back into the open queue.
func (q *Queue) Restore(ctx context.Context, st *identity.Staff, k Key) error {
	key, err := q.item(ctx, st, k)
	if err != nil {
		return err
	}
	return q.db.RestoreAttention(ctx, key)
}
