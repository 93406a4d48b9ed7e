package handlers

import (
	"context"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/attention"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// attentionRow says an item of the queue as the page and the summary show
// it: the record, why it is there with its facts, the one next step.
func attentionRow(ctx context.Context, it storage.AttentionItem, now time.Time, me *identity.Staff, names carrierNames) views.AttentionRow {
	id := strconv.FormatInt(it.RecordID, 10)
	href := "/shipping/shipments/" + id
	switch attention.Record(it.Kind) {
	case "commission":
		href = "/returns/commissions/" + id
	case "pickup":
		href = "/shipping/pickups"
	case "refund":
		href = "/returns/refunds#refund-" + id
	case "claim": // no commission yet: what the customer filed, as they see it
		href = staffClaimPath(it.RecordID)
	}
	row := views.AttentionRow{
		Kind: it.Kind, KindText: i18n.T(ctx, "attn.kind."+it.Kind),
		Record: id, Occurrence: it.Occurrence, RecordText: it.Label, RecordHref: href,
		Why: attentionWhy(ctx, it, names), StepText: i18n.T(ctx, "attn.step."+it.Kind), StepHref: href,
		Age: attentionAge(ctx, it.Since, now), Since: it.Since,
	}
	if row.RecordText == "" {
		row.RecordText = "#" + id
	}
	if it.TakenName != nil {
		row.TakenBy = *it.TakenName
		row.Mine = it.TakenBy != nil && *it.TakenBy == me.ID
	}
	if it.LastNote != nil {
		row.LastNote = *it.LastNote
		row.LastNoteBy = i18n.T(ctx, "attn.note_by", deref(it.LastNoteBy), i18n.DateTime(ctx, *it.LastNoteAt))
	}
	if it.DismissedAt != nil {
		row.Dismissed = i18n.T(ctx, "attn.reason."+it.DismissReason)
		row.DismissText = it.DismissText
		row.DismissedBy = i18n.T(ctx, "attn.note_by", deref(it.DismissedName), i18n.DateTime(ctx, *it.DismissedAt))
	}
	return row
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// attentionWhy is the sentence that says why an item needs a person, with
// its facts.
func attentionWhy(ctx context.Context, it storage.AttentionItem, names carrierNames) string {
	switch it.Kind {
	case storage.AttnStuck:
		return i18n.N(ctx, "attn.why.stuck", it.Days, names.of(it.Carrier), it.DaysLimit)
	case storage.AttnDeliveryFailed:
		return i18n.T(ctx, "attn.why.delivery_failed", i18n.DateTime(ctx, it.Since))
	case storage.AttnCODReturned:
		amount := ""
		if it.Amount != nil {
			amount = i18n.Money(ctx, *it.Amount, it.Currency)
		}
		return i18n.T(ctx, "attn.why.cod_returned", amount)
	case storage.AttnDuplicate, storage.AttnCommissionDuplicate:
		return i18n.T(ctx, "attn.why."+it.Kind, it.Detail)
	case storage.AttnUncertain, storage.AttnCommissionUncertain:
		return i18n.T(ctx, "attn.why."+it.Kind+"."+it.Detail)
	case storage.AttnPickupRefused:
		return i18n.T(ctx, "attn.why.pickup_refused", i18n.Day(ctx, it.Detail))
	case storage.AttnClaimDue:
		deadline := ""
		if it.Deadline != nil {
			deadline = i18n.DateTime(ctx, *it.Deadline)
		}
		if it.Days < 0 {
			return i18n.N(ctx, "attn.why.claim_overdue", -it.Days, deadline)
		}
		return i18n.N(ctx, "attn.why.claim_due", it.Days, deadline)
	case storage.AttnRefundDue:
		return refundDueWhy(ctx, it)
	case storage.AttnLabelFailed:
		return i18n.T(ctx, "attn.why.label_failed", names.of(it.Carrier))
	case storage.AttnClaimStuck:
		return i18n.N(ctx, "attn.why.claim_stuck", it.Days, it.Detail, i18n.DateTime(ctx, it.Since))
	case storage.AttnClaimRefused: // the claim's problem, a stored Text, said in the reader's language
		return i18n.T(ctx, "attn.why.claim_refused", apperr.Stored(it.Detail).In(ctx))
	case storage.AttnClaimReply:
		return i18n.T(ctx, "attn.why.claim_reply", it.Detail, i18n.DateTime(ctx, it.Since))
	case storage.AttnShopWriteFailed:
		return i18n.T(ctx, "attn.why.shop_write_failed", it.Label, apperr.Stored(it.Detail).In(ctx))
	}
	return i18n.T(ctx, "attn.why."+it.Kind)
}

// attentionAge says how long an item's problem has lasted.
func attentionAge(ctx context.Context, since, now time.Time) string {
	d := max(now.Sub(since), 0)
	switch {
	case d < time.Hour:
		return i18n.N(ctx, "attn.age.minutes", int(d/time.Minute))
	case d < 48*time.Hour:
		return i18n.N(ctx, "attn.age.hours", int(d/time.Hour))
	}
	return i18n.N(ctx, "attn.age.days", int(d/(24*time.Hour)))
}
