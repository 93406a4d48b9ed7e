package storage_test

import (
	"context"
	"crypto/sha256"
	"strings"
	"testing"

	"shipdesk/storage/pgtest"
)

// A dashboard whose claims kept their status pages' keys in plain text
// keeps each as its hash after migrating (00045), so the links already
// mailed open their pages; the key is nowhere in the claims any more, the
// queue's dismissal of a stuck claim names it by its id, and the claim page's
// mail already queued is kept a day.
func TestStatusKeysBecomeHashes(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	if err := db.MigrateDownTo(ctx, 44, quietLog()); err != nil { // before 00045
		t.Fatal(err)
	}
	const key = "Kx1oZ8-2fQ_3mVnB5aLr7TqWc9YdE0uHjS4gPkN6iAb"
	if _, err := db.SQL().ExecContext(ctx, strings.ReplaceAll(`
INSERT INTO shipments (id, request_key, reference, state, request, carrier, service_id) VALUES (1, gen_random_uuid(), 'OLD-1', 'created', '{}', 'UPS', 301);
INSERT INTO claim_links (id, token_hash, shipment_id, email, language, created_at, expires_at, used_at)
VALUES (1, '\x00', 1, 'jana@example.cz', 'cs', '2026-11-20 10:00+01', '2026-11-21 10:00+01', '2026-11-20 10:05+01');
INSERT INTO claims (id, link_id, status_token, shipment_id, request_key, kind, type_id, model_id, transport, customer, email, language,
    created_at, next_try_at)
VALUES (1, 1, $1, 1, 'rk-1', 'withdrawal', 1, 1, 'shop', '{"name": "Jana"}', 'jana@example.cz', 'cs', '2026-11-20 10:05+01', '2026-11-20 10:05+01');
INSERT INTO attention_actions (kind, record_id, occurrence, dismissed_at, dismiss_reason) VALUES ('claim_stuck', 1, $1, now(), 'other');
INSERT INTO mail_outbox (event_key, recipient, subject, body, message_id, created_at, next_attempt_at)
VALUES ('claim-handover:1', 'jana@example.cz', 'Kód', 'https://shop.example/claim/status/' || $1, 'm1', '2026-11-20 10:06+01', now()),
       ('attention-summary:1:2026-11-20', 'petr@example.cz', 'Souhrn', 'Dobrý den', 'm2', '2026-11-20 10:06+01', now());
`, "$1", "'"+key+"'")); err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateUp(ctx, quietLog()); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(key))
	c, err := db.ClaimByStatusKey(ctx, sum[:])
	if err != nil || c.ID != 1 {
		t.Fatalf("the old link opens claim %d: %v", c.ID, err)
	}
	var inClaims, occurrence string
	var kept, plain int
	err = db.SQL().QueryRowContext(ctx, `SELECT
    (SELECT count(*) FROM claims c WHERE strpos(c::text, $1) > 0)::text,
    (SELECT occurrence FROM attention_actions WHERE kind = 'claim_stuck'),
    (SELECT count(*) FROM mail_outbox WHERE event_key = 'claim-handover:1' AND keep_until = created_at + interval '1 day'),
    (SELECT count(*) FROM mail_outbox WHERE event_key LIKE 'attention-summary:%' AND keep_until IS NULL)`, key).Scan(&inClaims, &occurrence, &kept, &plain)
	if err != nil || inClaims != "0" || occurrence != "1" || kept != 1 || plain != 1 {
		t.Errorf("after migrating: key in %s claims, occurrence %q, hand-over mail kept a day %d, summary kept %d: %v",
			inClaims, occurrence, kept, plain, err)
	}
	if err := db.MigrateDownTo(ctx, 44, quietLog()); err != nil {
		t.Errorf("down: %v", err)
	}
}
