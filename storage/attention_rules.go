package storage

import (
	"context"
	"time"

	"shipdesk/workdays"
)

// The kinds of the "needs attention" queue, in the order the pages show them.
// Each is a rule over the tables (attentionRules): nothing is copied into the
// queue, so an item leaves it as soon as its record no longer fits.
const (
	AttnLabelFailed         = "label_failed"         // the carrier has the parcel, the service got no label
	AttnStuck               = "stuck"                // no new tracking event for the carrier's working days
	AttnDeliveryFailed      = "delivery_failed"      // out for delivery, then back on the way: not delivered
	AttnReturning           = "returning"            // the service says it goes back to the sender
	AttnCODReturned         = "cod_returned"         // a cash-on-delivery parcel going back: no money comes
	AttnDuplicate           = "duplicate"            // the service holds the order twice
	AttnUncertain           = "uncertain"            // whether the service created the shipment is not known
	AttnPickupRefused       = "pickup_refused"       // the service does not have the courier pickup we asked for
	AttnClaimDue            = "claim_due"            // a warranty claim with 5 days or fewer left, or overdue
	AttnCommissionDuplicate = "commission_duplicate" // the service holds the commission twice
	AttnCommissionUncertain = "commission_uncertain" // whether the service created the commission is not known
	AttnRefundDue           = "refund_due"           // a withdrawal's refund due within 3 days or overdue, not paid
	AttnClaimStuck          = "claim_stuck"          // a customer's claim whose commission or return parcel keeps failing
	AttnClaimReply          = "claim_reply"          // the customer wrote on the claim's page; no message answered it since
	AttnClaimRefused        = "claim_refused"        // a customer's claim whose commission or return parcel was refused after filing
	AttnShopWriteFailed     = "shop_write_failed"    // the shop refused a write back (a tracking number, a status) for good
)

// AttentionKinds lists every kind in display order.
var AttentionKinds = []string{AttnLabelFailed, AttnStuck, AttnDeliveryFailed, AttnReturning, AttnCODReturned, AttnDuplicate,
	AttnUncertain, AttnPickupRefused, AttnClaimDue, AttnCommissionDuplicate, AttnCommissionUncertain, AttnRefundDue,
	AttnClaimRefused, AttnClaimStuck, AttnClaimReply, AttnShopWriteFailed}

// DefaultStuckDays is how many working days without a tracking event make a
// parcel stuck when its carrier's row says nothing else (migration 00026).
const DefaultStuckDays = 3

// stuckJoins and stuckWhere are the rule of a stuck parcel (over shipments
// s; $1 now, $2 the shop's zone, $3 the holidays): no tracking event for its
// carrier's working days while on its way. l.at is its last news, w.days the
// working days since. The queue lists it and the customer's mail of a delay
// is sent by this one rule.
const (
	stuckJoins = `CROSS JOIN LATERAL (SELECT COALESCE((SELECT max(e.occurred) FROM tracking_events e WHERE e.shipment_id = s.id), s.ordered_at, s.created_at) AS at) l
LEFT JOIN carriers c ON upper(c.code) = upper(s.carrier)
CROSS JOIN LATERAL (SELECT count(*)::int AS days
    FROM generate_series((l.at AT TIME ZONE $2)::date + 1, ($1::timestamptz AT TIME ZONE $2)::date, interval '1 day') d
    WHERE extract(isodow FROM d) < 6 AND d::date <> ALL ($3::date[])) w`
	stuckWhere = `s.state = 'created' AND NOT s.tracking_done AND s.cancelled_at IS NULL AND s.label_status <> 'FAILED'
    AND s.status IN ('EXPORTED', 'ONPICKUP', 'INTRANSIT', 'ONDELIVERY') AND w.days >= COALESCE(c.stuck_days, 3)`
)

// failedDeliveryJoin finds a failed delivery of shipment s: the last moment
// it was out for delivery and a package went back a step after (f.at, NULL
// when none). The queue and the customer's mail read it alike.
const failedDeliveryJoin = `CROSS JOIN LATERAL (SELECT max(a.occurred) AS at FROM tracking_events a
    WHERE a.shipment_id = s.id AND a.status = 'ONDELIVERY' AND EXISTS (SELECT 1 FROM tracking_events b
        WHERE b.shipment_id = s.id AND b.package_index = a.package_index AND b.occurred > a.occurred
            AND b.status IN ('EXPORTED', 'ONPICKUP', 'INTRANSIT'))) f`

// utcMoment writes a moment as an occurrence: the same text however the
// session's zone is set.
const utcMoment = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`

// attentionRules is every rule of the queue in one place: which records need a
// person, keyed by kind, record and occurrence (what happened: a new FAILED
// label, a later last event, a new deadline make a new item). $1 is now, $2
// the shop's zone, $3 the public holidays around now (workdays.Around). A
// carrier missing from the carrier table waits DefaultStuckDays (3).
// since is when the problem began (or the last news of it); days and
// days_limit the working days of silence and the carrier's limit, or a claim's
// whole days left (a claim's or a refund's). A parcel whose label failed is that kind only, not also stuck;
// a claim refused after filing is that kind at once (its detail the problem, a stored Text), not also stuck.
const attentionRules = `
SELECT 'label_failed' AS kind, s.id AS record_id, COALESCE(s.tracking_number, '') AS occurrence,
    COALESCE(s.tracking_number, s.reference) AS label, s.carrier AS carrier, COALESCE(s.ordered_at, s.created_at) AS since,
    0 AS days, 0 AS days_limit, NULL::numeric AS amount, '' AS currency, NULL::timestamptz AS deadline, '' AS detail
FROM shipments s
WHERE s.state = 'created' AND s.label_status = 'FAILED' AND s.cancelled_at IS NULL AND s.status <> 'DELIVERED'
    AND s.created_at > $1::timestamptz - interval '30 days'
UNION ALL
SELECT 'stuck', s.id, to_char(l.at AT TIME ZONE 'UTC', ` + utcMoment + `), COALESCE(s.tracking_number, s.reference), s.carrier, l.at,
    w.days, COALESCE(c.stuck_days, 3), NULL, '', NULL, s.status
FROM shipments s
` + stuckJoins + `
WHERE ` + stuckWhere + `
UNION ALL
SELECT 'delivery_failed', s.id, to_char(f.at AT TIME ZONE 'UTC', ` + utcMoment + `), COALESCE(s.tracking_number, s.reference), s.carrier, f.at,
    0, 0, NULL, '', NULL, ''
FROM shipments s
` + failedDeliveryJoin + `
WHERE s.state = 'created' AND NOT s.tracking_done AND s.cancelled_at IS NULL AND NOT s.returned
    AND s.status NOT IN ('DELIVERED', 'CANCELLED') AND f.at IS NOT NULL
UNION ALL
SELECT CASE WHEN s.cod_value IS NULL THEN 'returning' ELSE 'cod_returned' END, s.id, 'returned',
    COALESCE(s.tracking_number, s.reference), s.carrier,
    COALESCE((SELECT max(e.occurred) FROM tracking_events e WHERE e.shipment_id = s.id), s.last_checked_at, s.created_at),
    0, 0, s.cod_value, COALESCE(s.cod_currency, ''), NULL, s.status
FROM shipments s
WHERE s.state = 'created' AND s.returned AND s.cancelled_at IS NULL AND s.created_at > $1::timestamptz - interval '30 days'
UNION ALL
SELECT 'duplicate', s.id, array_to_string(s.duplicates, ' '), COALESCE(s.tracking_number, s.reference), s.carrier,
    COALESCE(s.ordered_at, s.created_at), cardinality(s.duplicates), 0, NULL, '', NULL, array_to_string(s.duplicates, ', ')
FROM shipments s
WHERE cardinality(s.duplicates) > 0
UNION ALL
SELECT 'uncertain', s.id, s.state, s.reference, s.carrier, s.created_at, 0, 0, NULL, '', NULL, s.state
FROM shipments s
WHERE s.state = 'unknown' OR (s.state = 'ordering' AND s.settles_at < $1)
    OR (s.state = 'missing' AND s.created_at > $1::timestamptz - interval '30 days')
UNION ALL
SELECT 'pickup_refused', p.id, to_char(p.updated_at AT TIME ZONE 'UTC', ` + utcMoment + `), p.address, p.carrier, p.updated_at,
    0, 0, NULL, '', NULL, to_char(p.pickup_date, 'YYYY-MM-DD')
FROM pickups p
WHERE p.state = 'failed' AND p.pickup_date >= ($1::timestamptz AT TIME ZONE $2)::date - 7
UNION ALL
SELECT 'claim_due', c.id, to_char(c.deadline_at AT TIME ZONE 'UTC', ` + utcMoment + `), COALESCE(NULLIF(c.number, ''), c.reference), '',
    c.created_at, floor(extract(epoch FROM c.deadline_at - $1::timestamptz) / 86400)::int, 0, NULL, '', c.deadline_at, c.customer_name
FROM commissions c
WHERE c.deadline_at < $1::timestamptz + interval '6 days'
UNION ALL
SELECT 'commission_duplicate', c.id, array_to_string(c.duplicates, ' '), COALESCE(NULLIF(c.number, ''), c.reference), '',
    c.created_at, cardinality(c.duplicates), 0, NULL, '', NULL, array_to_string(c.duplicates, ', ')
FROM commissions c
WHERE cardinality(c.duplicates) > 0
UNION ALL
SELECT 'commission_uncertain', c.id, c.state, c.reference, '', c.created_at, 0, 0, NULL, '', NULL, c.state
FROM commissions c
WHERE c.state = 'unknown' OR (c.state = 'ordering' AND c.settles_at < $1)
    OR (c.state = 'missing' AND c.created_at > $1::timestamptz - interval '30 days')
UNION ALL
SELECT 'refund_due', w.id, to_char(w.due_at AT TIME ZONE 'UTC', ` + utcMoment + `), COALESCE(NULLIF(c.number, ''), c.reference), '',
    w.received_at, floor(extract(epoch FROM w.due_at - $1::timestamptz) / 86400)::int, 0, w.amount, w.currency, w.due_at, c.customer_name
FROM withdrawals w JOIN commissions c ON c.id = w.commission_id
WHERE w.paid_at IS NULL AND w.due_at < $1::timestamptz + interval '4 days'
UNION ALL
SELECT 'claim_stuck', cl.id, cl.id::text, s.reference, '', cl.created_at, cl.tries, 0, NULL, '', NULL, cl.customer->>'name'
FROM claims cl JOIN shipments s ON s.id = cl.shipment_id
WHERE cl.problem <> '' AND cl.tries >= 3 AND cl.refused_at IS NULL
    AND (cl.commission_id IS NULL OR (cl.transport = 'code' AND cl.return_shipment_id IS NULL))
UNION ALL
SELECT 'claim_refused', cl.id, cl.id::text, s.reference, '', cl.refused_at, cl.tries, 0, NULL, '', NULL, cl.problem
FROM claims cl JOIN shipments s ON s.id = cl.shipment_id
WHERE cl.refused_at IS NOT NULL AND cl.problem <> ''
UNION ALL
SELECT 'claim_reply', c.id, m.id::text, COALESCE(NULLIF(c.number, ''), c.reference), '', m.created_at, 0, 0, NULL, '', NULL,
    cl.customer->>'name'
FROM claims cl JOIN commissions c ON c.id = cl.commission_id
CROSS JOIN LATERAL (SELECT id, created_at FROM claim_messages WHERE claim_id = cl.id ORDER BY id DESC LIMIT 1) m
WHERE NOT EXISTS (SELECT 1 FROM commission_activities a WHERE a.commission_id = c.id AND a.public AND a.created_at >= m.created_at)
UNION ALL
SELECT 'shop_write_failed', COALESCE(w.shipment_id, 0), w.id::text, w.order_code, '', w.created_at, w.attempts, 0, NULL, '', NULL, w.last_error
FROM shop_writes w
WHERE w.state = 'failed' AND w.created_at > $1::timestamptz - interval '30 days'`

// rulesArgs are attentionRules' parameters for now (in the shop's zone).
func rulesArgs(now time.Time) []any {
	holidays := workdays.Around(now)
	days := make([]string, len(holidays))
	for i, h := range holidays {
		days[i] = h.Format(time.DateOnly)
	}
	return []any{now, zoneName(now), pqArray(days)}
}

// KindCount is how many open items of a kind the queue holds.
type KindCount struct {
	Kind  string `db:"kind"`
	Count int    `db:"count"`
}

// openPerKind counts the open (not dismissed) items of rules per kind.
const openPerKind = `SELECT r.kind, count(*) AS count FROM rules r
LEFT JOIN attention_actions a ON a.kind = r.kind AND a.record_id = r.record_id AND a.occurrence = r.occurrence
WHERE a.dismissed_at IS NULL
GROUP BY r.kind`

// AttentionCounts counts the open (not dismissed) items of every kind at now.
func (db *DB) AttentionCounts(ctx context.Context, now time.Time) ([]KindCount, error) {
	var out []KindCount
	err := sqlxSelect(ctx, db, &out, `WITH rules AS (`+attentionRules+`) `+openPerKind, rulesArgs(now)...)
	return out, wrapf(err, "attention counts per kind")
}
