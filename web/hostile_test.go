package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/shiprules"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// hostileValues are sent, one at a time, into every field and query parameter
// of every route, and into every path parameter.
var hostileValues = []struct{ name, value string }{
	{"NUL", "a\x00b"},
	{"InvalidUTF8", "\xff\xfe"},
	{"Control", "a\x1b[2J\x07\rb"},
	{"Huge", strings.Repeat("x", 100<<10)},
	{"NaN", "NaN"},
	{"Inf", "Inf"},
	{"NegInf", "-Inf"},
	{"Minus1", "-1"},
	{"1e308", "1e308"},
	{"FarPast", "0001-01-01"},
	{"FarFuture", "9999-12-31"},
	{"Script", "<script>alert(1)</script>"},
	{"SQL", "'; DROP TABLE shipments; --"},
}

// hostileRoute is one route of routes.go and what it reads.
type hostileRoute struct {
	pattern   string        // exactly as in routes.go
	role      identity.Role // who sends it; "" is nobody signed in
	path      string        // a path of a real record; "" attacks only the path parameters
	params    []string      // path parameters ({id}), attacked in the path
	base      url.Values    // a valid form or query, into which each hostile value goes
	fields    []string      // the fields and query parameters the route reads
	multipart bool          // posted as multipart/form-data
}

// hostileSetup is the data the routes' valid forms refer to.
type hostileSetup struct {
	shipment, draft, commission, upload, sender, preset, victim string
	document                                                    string
	rule                                                        string
	batch, batchRow, batchUpload                                string
	shipmentForm, commissionForm                                url.Values
	// The customers' claim page: a filed claim's status page, its file and
	// confirmation, an unused link and its form.
	claimReference, claimStatus, claimLink, claimFile, claimDocument string
	claimForm                                                        url.Values
	claimID                                                          string // the claim's, for the returns desk's view
	trackPage                                                        string // the shipment's public tracking page
	pickupForm                                                       url.Values
}

// Every field the shipping form reads (desk.ParseForm and the handler).
var shipmentFields = []string{"key", "sender", "handover", "pickup_date", "cod", "cod_value", "cod_currency", "insure", "insured_value",
	"reference", "note", "to_firstname", "to_surname", "to_company", "to_street", "to_city", "to_zip", "to_country", "to_phone", "to_email",
	"save_recipient", "no_customer_mail", "pkg_weight", "pkg_length", "pkg_width", "pkg_height", "cod_bank_account", "cod_bank_code", "cod_bank_variable",
	"cod_bank_currency", "pickup_branch", "delivery_branch", "label_less", "sort", "sorted", "offer_carrier", "offer_service",
	"offer_label_mode", "offer_delivery", "offer_price", "offer_service_id", "choose", "preset", "pickup_q", "delivery_q"}

var commissionFields = []string{"key", "type", "type_id", "model_id", "serial", "purchase_date", "fault", "two_way", "reference",
	"upload_id", "customer_name", "customer_email", "customer_phone", "customer_street", "customer_city", "customer_zip", "remedy", "language"}

// Every field the offer rules' form reads (desk.ParseRule), with a valid rule.
var ruleFields = []string{"name", "countries", "cod", "weight_min_kg", "weight_max_kg", "longest_side_max_cm", "dims_sum_max_cm",
	"delivery", "choice", "carriers", "carrier", "service", "service_id"}

func ruleBase() url.Values {
	return url.Values{"name": {"Heavy"}, "countries": {"CZ"}, "cod": {"any"}, "weight_min_kg": {"2,5"}, "weight_max_kg": {"30"},
		"delivery": {"door"}, "choice": {"service"}, "carrier": {"UPS"}, "service": {"Express"}, "service_id": {"701"}}
}

var listFields = []string{"status", "carrier", "from", "to", "ref", "q", "sort", "size", "after", "before", "last"}

// attentionBase names the setup's shipment as an item of the queue (an
// uncertain one: it is not in the queue, so a valid post finds nothing).
func attentionBase(s hostileSetup) url.Values {
	return url.Values{"kind": {"uncertain"}, "record": {s.shipment}, "occurrence": {"unknown"}, "back": {"/attention?kind=uncertain"}}
}

func hostileRoutes(s hostileSetup) []hostileRoute {
	const (
		clerk   = identity.Clerk
		agent   = identity.Agent
		manager = identity.Manager
	)
	id := []string{"id"}
	shipment := "/shipping/shipments/" + s.shipment
	commission := "/returns/commissions/" + s.commission
	batch := "/shipping/batches/" + s.batch
	routes := []hostileRoute{
		{pattern: "GET /healthz", path: "/healthz"},
		{pattern: "GET /readyz", path: "/readyz"},
		{pattern: "GET /static/", path: "/static/app.css", params: []string{"file"}},
		{pattern: "GET /login", path: "/login", fields: []string{"next"}},
		{pattern: "GET /{$}", role: clerk, path: "/"},
		{pattern: "POST /sandbox-clock", role: clerk, path: "/sandbox-clock", fields: []string{"minutes", "back"}},
		{pattern: "GET /shortcuts", role: clerk, path: "/shortcuts"},
		{pattern: "GET /sandbox-faults", role: manager, path: "/sandbox-faults"},
		{pattern: "POST /sandbox-faults", role: manager, path: "/sandbox-faults", base: url.Values{"latency_ms": {"1"}},
			fields: []string{"latency_ms", "error_percent", "lost_percent", "off", "back"}},
		{pattern: "POST /language", role: clerk, path: "/language", base: url.Values{"lang": {"en"}}, fields: []string{"lang", "back"}},
		{pattern: "GET /attention", role: manager, path: "/attention", fields: []string{"kind", "who", "show"}},
		{pattern: "POST /attention/take", role: manager, path: "/attention/take", base: attentionBase(s), fields: []string{"kind", "record", "occurrence", "to", "back"}},
		{pattern: "POST /attention/note", role: clerk, path: "/attention/note", base: with(attentionBase(s), "text", "Called the depot"),
			fields: []string{"kind", "record", "occurrence", "text", "back"}},
		{pattern: "POST /attention/dismiss", role: clerk, path: "/attention/dismiss", base: with(attentionBase(s), "reason", "other", "reason_text", "Known"),
			fields: []string{"kind", "record", "occurrence", "reason", "reason_text", "back"}},
		{pattern: "POST /attention/restore", role: clerk, path: "/attention/restore", base: attentionBase(s), fields: []string{"kind", "record", "occurrence", "back"}},
		{pattern: "GET /sandbox/mail", role: agent, path: "/sandbox/mail"},
		{pattern: "GET /sandbox/mail/{id}", role: agent, params: id},
		{pattern: "GET /sandbox/mail/{id}/files/{n}", role: manager, params: []string{"id", "n"}},
		{pattern: "GET /attention/summary.csv", role: manager, path: "/attention/summary.csv"},
		{pattern: "GET /attention/summary.xlsx", role: manager, path: "/attention/summary.xlsx"},
		{pattern: "GET /shipping", role: clerk, path: "/shipping"},
		{pattern: "GET /shipping/new", role: clerk, path: "/shipping/new", fields: []string{"recipient", "from"}},
		{pattern: "POST /shipping/new/compare", role: clerk, path: "/shipping/new/compare", base: s.shipmentForm, fields: shipmentFields},
		{pattern: "POST /shipping/new/country", role: clerk, path: "/shipping/new/country", base: s.shipmentForm, fields: shipmentFields},
		{pattern: "POST /shipping/new/sort", role: clerk, path: "/shipping/new/sort", base: s.shipmentForm, fields: []string{"sort", "sorted"}},
		{pattern: "POST /shipping/new/choose", role: clerk, path: "/shipping/new/choose", base: s.shipmentForm, fields: []string{"choose", "offer_service_id"}},
		{pattern: "POST /shipping/new/points", role: clerk, path: "/shipping/new/points", base: s.shipmentForm, fields: []string{"pickup_q", "delivery_q", "offer_carrier"}},
		{pattern: "POST /shipping/new/packages", role: clerk, path: "/shipping/new/packages", base: s.shipmentForm, fields: []string{"pkg_weight", "pkg_length", "pkg_width", "pkg_height"}},
		{pattern: "POST /shipping/new/preset", role: clerk, path: "/shipping/new/preset", base: s.shipmentForm, fields: []string{"preset", "pkg_weight"}},
		{pattern: "POST /shipping/new/order", role: clerk, path: "/shipping/new/order", base: s.shipmentForm, fields: shipmentFields},
		{pattern: "POST /shipping/new/draft", role: clerk, path: "/shipping/new/draft", base: s.shipmentForm, fields: []string{"to_surname", "to_country", "reference", "offer_service_id", "pickup_branch"}},
		{pattern: "POST /shipping/points", role: clerk, path: "/shipping/points?for=pickup", base: s.shipmentForm,
			fields: []string{"for", "pickup_q", "delivery_q", "offer_carrier", "to_country", "pkg_weight"}},
		{pattern: "GET /shipping/shipments/{id}", role: clerk, path: shipment, params: id},
		{pattern: "GET /shipping/shipments/{id}/status", role: clerk, path: shipment + "/status", params: id},
		{pattern: "GET /shipping/shipments/{id}/label.pdf", role: clerk, path: shipment + "/label.pdf", params: id},
		{pattern: "GET /shipping/shipments/{id}/storno", role: clerk, path: shipment + "/storno", params: id},
		{pattern: "POST /shipping/shipments/{id}/storno", role: clerk, path: shipment + "/storno", params: id, fields: []string{"confirm"}},
		{pattern: "POST /shipping/shipments/{id}/check", role: clerk, path: shipment + "/check", params: id},
		{pattern: "POST /shipping/shipments/{id}/again", role: clerk, path: shipment + "/again", params: id},
		{pattern: "POST /shipping/shipments/{id}/notes", role: clerk, path: shipment + "/notes", params: id, fields: []string{"key", "note_text"}},
		{pattern: "POST /shipping/shipments/{id}/duplicates/storno", role: clerk, path: shipment + "/duplicates/storno", params: id, fields: []string{"tracking_number", "confirm"}},
		{pattern: "GET /shipping/print", role: clerk, path: "/shipping/print"},
		{pattern: "GET /shipping/print/live", role: clerk, path: "/shipping/print/live", fields: []string{"ids", "shown", "v"}},
		{pattern: "POST /shipping/print", role: clerk, path: "/shipping/print", base: url.Values{"ids": {s.shipment}},
			fields: []string{"ids", "format", "start"}},
		{pattern: "POST /shipping/print/batches/{id}/reprint", role: clerk, path: "/shipping/print/batches/1/reprint", params: id,
			base: url.Values{"format": {"A4"}, "start": {"2"}}, fields: []string{"format", "start"}},
		{pattern: "GET /shipping/manifest", role: clerk, path: "/shipping/manifest", fields: []string{"date"}},
		{pattern: "GET /shipping/manifest.pdf", role: clerk, path: "/shipping/manifest.pdf", fields: []string{"date", "carrier"}},
		{pattern: "GET /shipping/drafts", role: clerk, path: "/shipping/drafts", fields: []string{"before"}},
		{pattern: "GET /shipping/drafts/{id}", role: clerk, path: "/shipping/drafts/" + s.draft, params: id},
		{pattern: "GET /shipping/addresses", role: clerk, path: "/shipping/addresses"},
		{pattern: "POST /shipping/senders", role: clerk, path: "/shipping/senders",
			base:   url.Values{"label": {"Dock B"}, "street": {"Skladová 1"}, "city": {"Brno"}, "zip": {"602 00"}, "country": {"CZ"}, "phone": {"+420 777 123 456"}},
			fields: []string{"label", "company", "surname", "street", "city", "zip", "country", "phone", "email"}},
		{pattern: "POST /shipping/senders/import", role: clerk, path: "/shipping/senders/import"},
		{pattern: "POST /shipping/contacts", role: clerk, path: "/shipping/contacts",
			base: url.Values{"contact_company": {"Sklad Jih"}, "contact_street": {"Lipová 3"}, "contact_city": {"Brno"}, "contact_zip": {"602 00"},
				"contact_country": {"CZ"}, "contact_phone": {"+420 777 111 222"}},
			fields: []string{"contact_company", "contact_firstname", "contact_surname", "contact_street", "contact_city", "contact_zip",
				"contact_country", "contact_phone", "contact_email"}},
		{pattern: "POST /shipping/senders/{id}/default", role: clerk, path: "/shipping/senders/" + s.sender + "/default", params: id},
		{pattern: "GET /shipping/senders/{id}/delete", role: clerk, path: "/shipping/senders/" + s.sender + "/delete", params: id},
		{pattern: "POST /shipping/senders/{id}/delete", role: clerk, params: id},
		{pattern: "GET /shipping/recipients/{id}/delete", role: clerk, params: id},
		{pattern: "POST /shipping/recipients/{id}/delete", role: clerk, params: id},
		{pattern: "POST /shipping/presets", role: clerk, path: "/shipping/presets",
			base:   url.Values{"name": {"Box M"}, "weight": {"2,5"}, "length": {"40"}, "width": {"30"}, "height": {"20"}},
			fields: []string{"name", "weight", "length", "width", "height"}},
		{pattern: "GET /shipping/presets/{id}/delete", role: clerk, params: id},
		{pattern: "POST /shipping/presets/{id}/delete", role: clerk, params: id},
		{pattern: "POST /shipping/settings", role: clerk, path: "/shipping/settings",
			base:   url.Values{"bank_account": {"19-2000145399"}, "bank_code": {"0800"}, "cod_currency": {"CZK"}, "bank_currency": {"CZK"}},
			fields: []string{"bank_account", "bank_code", "cod_currency", "bank_currency"}},
		{pattern: "POST /shipping/settings/return-address", role: clerk, path: "/shipping/settings/return-address",
			base: url.Values{"return_sender": {s.sender}}, fields: []string{"return_sender"}},
		{pattern: "POST /shipping/points/refresh", role: clerk, path: "/shipping/points/refresh"},
		{pattern: "GET /shipping/pickups", role: clerk, path: "/shipping/pickups", fields: []string{"past"}},
		{pattern: "GET /shipping/pickups/carriers", role: clerk, path: "/shipping/pickups/carriers", fields: []string{"address"}},
		{pattern: "POST /shipping/pickups", role: clerk, path: "/shipping/pickups", base: s.pickupForm,
			fields: []string{"key", "address", "date", "time_from", "time_to", "packages", "weight", "carrier", "note"}},
		{pattern: "POST /shipping/pickups/{id}/check", role: clerk, params: id},
		{pattern: "POST /shipping/pickups/{id}/again", role: clerk, params: id},
		{pattern: "GET /tracking", role: clerk, path: "/tracking", fields: listFields},
		{pattern: "GET /tracking.csv", role: clerk, path: "/tracking.csv", fields: listFields},
		{pattern: "GET /scan", role: clerk, path: "/scan", fields: []string{"q"}},
		{pattern: "POST /tracking/selection/labels", role: clerk, path: "/tracking/selection/labels", base: url.Values{"ids": {s.shipment}},
			fields: append([]string{"ids", "scope"}, listFields...)},
		{pattern: "POST /tracking/selection/storno", role: clerk, path: "/tracking/selection/storno", base: url.Values{"ids": {s.shipment}},
			fields: append([]string{"ids", "scope", "confirm"}, listFields...)},
		{pattern: "POST /tracking/selection/protocol", role: clerk, path: "/tracking/selection/protocol", base: url.Values{"ids": {s.shipment}},
			fields: append([]string{"ids", "scope"}, listFields...)},
		{pattern: "POST /tracking/selection/export", role: manager, path: "/tracking/selection/export", base: url.Values{"ids": {s.shipment}},
			fields: append([]string{"ids", "scope"}, listFields...)},
		{pattern: "POST /shipping/shipments/{id}/refresh", role: clerk, path: shipment + "/refresh", params: id},
		{pattern: "GET /shipping/orders", role: clerk, path: "/shipping/orders", fields: []string{"shipping", "status", "country", "day", "after"}},
		{pattern: "POST /shipping/orders/ship", role: clerk, path: "/shipping/orders/ship", fields: []string{"code"}},
		{pattern: "GET /shipping/orders/{code}", role: clerk, params: []string{"code"}},
		{pattern: "POST /shipping/orders/{code}/ship", role: clerk, params: []string{"code"}, fields: []string{"revision"}},
		{pattern: "POST /shipping/orders/{code}/new-parcel", role: clerk, params: []string{"code"}, fields: []string{"key"}},
		{pattern: "POST /hooks/shoptet", path: "/hooks/shoptet", fields: []string{"event", "eventInstance"}},
		{pattern: "GET /shipping/batches", role: clerk, path: "/shipping/batches"},
		{pattern: "GET /shipping/batches/new", role: clerk, path: "/shipping/batches/new"},
		{pattern: "GET /shipping/batch-template/{file}", role: clerk, path: "/shipping/batch-template/orders.csv"},
		{pattern: "GET /shipping/batches/columns", role: clerk, path: "/shipping/batches/columns"},
		{pattern: "POST /shipping/batches", role: clerk, path: "/shipping/batches", base: url.Values{"handover": {"ONDEMAND"}, "source": {""}},
			fields: []string{"handover", "source", "file"}, multipart: true},
		{pattern: "POST /shipping/batch-uploads/{id}/map", role: clerk, path: "/shipping/batch-uploads/" + s.batchUpload + "/map", params: id,
			base: url.Values{"source": {"Hostile"}, "handover": {"ONDEMAND"}, "col_surname": {"Kdo"}}, fields: []string{"source", "handover", "col_surname", "col_phone"}},
		{pattern: "GET /shipping/batches/{id}", role: clerk, path: batch, params: id, fields: []string{"state", "open"}},
		{pattern: "GET /shipping/batches/{id}/rows/{row}", role: clerk, path: batch + "/rows/" + s.batchRow, params: []string{"id", "row"},
			fields: []string{"state", "open", "poll"}},
		{pattern: "GET /shipping/batches/{id}/progress", role: clerk, path: batch + "/progress", params: id, fields: []string{"working"}},
		{pattern: "POST /shipping/batches/{id}/rows/{row}", role: clerk, path: batch + "/rows/" + s.batchRow, params: []string{"id", "row"},
			base:   url.Values{"surname": {"Nováková"}, "street": {"Masarykova 5"}, "city": {"Brno"}, "zip": {"602 00"}, "weight_kg": {"2"}},
			fields: []string{"reference", "surname", "phone", "weight_kg", "cod_amount", "point_code", "note"}},
		{pattern: "POST /shipping/batches/{id}/rows/{row}/offer", role: clerk, path: batch + "/rows/" + s.batchRow + "/offer",
			params: []string{"id", "row"}, fields: []string{"choice"}},
		{pattern: "POST /shipping/batches/{id}/rows/{row}/new-parcel", role: clerk, path: batch + "/rows/" + s.batchRow + "/new-parcel",
			params: []string{"id", "row"}, fields: []string{"reference", "state"}},
		{pattern: "POST /shipping/batches/{id}/rows/{row}/points", role: clerk, path: batch + "/rows/" + s.batchRow + "/points",
			params: []string{"id", "row"}, fields: []string{"row-" + s.batchRow + "-point_q", "row-" + s.batchRow + "-point_carrier", "state"}},
		{pattern: "POST /shipping/batches/{id}/price", role: clerk, path: batch + "/price", params: id},
		{pattern: "POST /shipping/batches/{id}/order", role: clerk, path: batch + "/order", params: id},
		{pattern: "POST /shipping/batches/{id}/drafts", role: clerk, params: id},
		{pattern: "GET /shipping/batches/{id}/labels.pdf", role: clerk, path: batch + "/labels.pdf", params: id, fields: []string{"format", "start"}},
		{pattern: "GET /shipping/batches/{id}/handover.pdf", role: clerk, path: batch + "/handover.pdf", params: id, fields: []string{"carrier"}},
		{pattern: "GET /shipping/batches/{id}/codes.pdf", role: clerk, path: batch + "/codes.pdf", params: id},
		{pattern: "GET /returns", role: agent, path: "/returns", fields: []string{"status", "type", "from", "to", "customer", "product", "after"}},
		{pattern: "GET /returns/new", role: agent, path: "/returns/new"},
		{pattern: "GET /returns/new/models", role: agent, path: "/returns/new/models", base: url.Values{"type_id": {s.commissionForm.Get("type_id")}},
			fields: []string{"type_id", "model_id"}},
		{pattern: "GET /returns/scan", role: agent, path: "/returns/scan", fields: []string{"q"}},
		{pattern: "POST /returns/new", role: agent, path: "/returns/new", base: s.commissionForm, fields: commissionFields, multipart: true},
		{pattern: "GET /returns/commissions/{id}", role: agent, path: commission, params: id, base: url.Values{"template": {"received"}},
			fields: []string{"template", "tlang"}},
		{pattern: "GET /returns/commissions/{id}/live", role: agent, path: commission + "/live", params: id},
		{pattern: "POST /returns/commissions/{id}/notes", role: agent, path: commission + "/notes", params: id,
			base: url.Values{"note_text": {"Checked."}, "key": {requestkey.New()}}, fields: []string{"note_text", "key"}},
		{pattern: "POST /returns/commissions/{id}/messages", role: agent, path: commission + "/messages", params: id,
			base: url.Values{"message_text": {"We have it."}, "confirm": {"yes"}, "key": {requestkey.New()}}, fields: []string{"message_text", "confirm", "key"}},
		{pattern: "GET /returns/commissions/{id}/move", role: agent, path: commission + "/move", params: id,
			base: url.Values{"to": {"cancelled"}}, fields: []string{"to"}},
		{pattern: "POST /returns/commissions/{id}/move", role: agent, path: commission + "/move", params: id,
			base: url.Values{"to": {"outgoing"}, "resolution": {"rejected"}, "reason": {"Scratched by a fall."}}, fields: []string{"to", "resolution", "reason"}},
		{pattern: "POST /returns/commissions/{id}/refresh", role: agent, path: commission + "/refresh", params: id},
		{pattern: "POST /returns/commissions/{id}/check", role: agent, path: commission + "/check", params: id},
		{pattern: "POST /returns/commissions/{id}/again", role: agent, path: commission + "/again", params: id},
		{pattern: "POST /returns/commissions/{id}/duplicates/cancel", role: agent, path: commission + "/duplicates/cancel", params: id, fields: []string{"number", "confirm"}},
		{pattern: "GET /returns/commissions/{id}/documents/{doc}", role: agent, path: commission + "/documents/" + s.document + ".pdf",
			params: []string{"id", "doc"}},
		{pattern: "POST /returns/commissions/{id}/print-intake", role: agent, path: commission + "/print-intake", params: id},
		{pattern: "POST /returns/commissions/{id}/extension", role: agent, path: commission + "/extension", params: id,
			base:   url.Values{"extended_to": {sandboxtest.Day(60)}, "agreed_on": {sandboxtest.Epoch.Format("2006-01-02")}},
			fields: []string{"extended_to", "agreed_on"}},
		{pattern: "GET /returns/files/{id}", role: agent, path: "/returns/files/" + s.upload, params: id},
		{pattern: "POST /returns/commissions/{id}/withdrawal", role: agent, path: commission + "/withdrawal", params: id,
			base:   url.Values{"key": {requestkey.New()}, "amount": {"1 250"}, "account": {"19-2000145399/0800"}},
			fields: []string{"key", "amount", "currency", "account", "received", "shipment", "delivered", "note"}},
		{pattern: "GET /returns/refunds", role: manager, path: "/returns/refunds", fields: []string{"show"}},
		{pattern: "GET /returns/refunds.csv", role: manager, path: "/returns/refunds.csv", fields: []string{"show"}},
		{pattern: "GET /returns/refunds/{id}/paid", role: manager, path: "/returns/refunds/1/paid", params: id},
		{pattern: "POST /returns/refunds/{id}/paid", role: manager, path: "/returns/refunds/1/paid", params: id, fields: []string{"confirm"}},
		{pattern: "GET /reports", role: manager, path: "/reports", fields: []string{"from", "to"}},
		{pattern: "GET /reports/export", role: manager, path: "/reports/export",
			base:   url.Values{"table": {"cod"}, "format": {"csv"}, "from": {"2026-11-01"}, "to": {"2026-11-20"}},
			fields: []string{"table", "format", "from", "to"}},
		{pattern: "GET /users", role: manager, path: "/users"},
		{pattern: "POST /users", role: manager, path: "/users",
			base:   url.Values{"username": {"newcomer"}, "role": {"clerk"}, "password": {"a long passphrase 2026"}},
			fields: []string{"username", "role", "password"}},
		{pattern: "GET /users/{id}", role: manager, path: "/users/" + s.victim, params: id},
		{pattern: "POST /users/{id}/password", role: manager, path: "/users/" + s.victim + "/password", params: id, fields: []string{"password"}},
		{pattern: "POST /users/{id}/disable", role: manager, params: id},
		{pattern: "POST /users/{id}/enable", role: manager, path: "/users/" + s.victim + "/enable", params: id},
		{pattern: "POST /users/{id}/mail", role: manager, path: "/users/" + s.victim + "/mail", params: id,
			base: url.Values{"email": {"victim@example.com"}}, fields: []string{"email", "daily_summary"}},
		{pattern: "GET /connection", role: manager, path: "/connection"},
		{pattern: "GET /settings/shop", role: manager, path: "/settings/shop"},
		{pattern: "POST /settings/shop", role: manager, path: "/settings/shop", base: url.Values{"name": {"Kávovary Říčany"}},
			fields: []string{"name", "web", "reply_email", "phone"}},
		{pattern: "POST /settings/shop/logo", role: manager, path: "/settings/shop/logo", fields: []string{"logo"}, multipart: true},
		{pattern: "POST /settings/shop/logo/remove", role: manager, path: "/settings/shop/logo/remove"},
		{pattern: "POST /connection/carriers/{code}", role: manager, path: "/connection/carriers/UPS", params: []string{"code"},
			base:   url.Values{"name": {"UPS"}, "label_free": {""}, "cod_packages": {storage.CODPackageRules[0]}, "stuck_days": {"3"}},
			fields: []string{"name", "label_free", "cod_packages", "stuck_days"}},
		// The shop's section: no shop answers at the address (nothing leaves the machine).
		{pattern: "POST /connection/shop", role: manager, path: "/connection/shop",
			base:   url.Values{"key": {requestkey.New()}, "platform": {"shoptet"}, "base_url": {"http://127.0.0.1:9/shoptet"}, "token": {"a-token"}},
			fields: []string{"key", "platform", "base_url", "token"}},
		{pattern: "POST /connection/shop/statuses", role: manager, path: "/connection/shop/statuses",
			base: url.Values{"key": {requestkey.New()}, "ship": {"-1"}, "handover": {""}}, fields: []string{"key", "ship", "handover", "notify"}},
		{pattern: "POST /connection/shop/mappings", role: manager, path: "/connection/shop/mappings",
			base: url.Values{"key": {requestkey.New()}, "map_g1": {"rules"}}, fields: []string{"key", "map_g1", "cod"}},
		{pattern: "POST /connection/shop/refresh", role: manager, path: "/connection/shop/refresh", base: url.Values{"key": {requestkey.New()}},
			fields: []string{"key"}},
		{pattern: "POST /connection/shop/disconnect", role: manager, path: "/connection/shop/disconnect", base: url.Values{"key": {requestkey.New()}},
			fields: []string{"key", "confirm"}},
		{pattern: "GET /metrics", role: manager, path: "/metrics"},
		{pattern: "GET /settings/parcel-mail", role: manager, path: "/settings/parcel-mail"},
		{pattern: "POST /settings/parcel-mail", role: manager, path: "/settings/parcel-mail",
			base:   url.Values{"point_wait_days": {"7"}, "handed_over.cs.subject": {"Balík {tracking}"}, "handed_over.cs.body": {"Dobrý den"}},
			fields: []string{"point_wait_days", "handed_over.enabled", "handed_over.cs.subject", "handed_over.cs.body", "delayed.en.body"}},
		{pattern: "POST /settings/parcel-mail/preview", role: manager, path: "/settings/parcel-mail/preview",
			base:   url.Values{"event": {"handed_over"}, "lang": {"cs"}, "handed_over.cs.subject": {"Balík {tracking}"}, "handed_over.cs.body": {"Dobrý den"}},
			fields: []string{"event", "lang", "handed_over.cs.subject", "handed_over.cs.body"}},
		{pattern: "GET /shipping/rules", role: manager, path: "/shipping/rules"},
		{pattern: "POST /shipping/rules", role: manager, path: "/shipping/rules", base: ruleBase(), fields: ruleFields},
		{pattern: "GET /shipping/rules/{id}", role: manager, path: "/shipping/rules/" + s.rule, params: id},
		{pattern: "POST /shipping/rules/{id}", role: manager, path: "/shipping/rules/" + s.rule, params: id, base: ruleBase(), fields: ruleFields},
		{pattern: "POST /shipping/rules/{id}/move", role: manager, path: "/shipping/rules/" + s.rule + "/move", params: id,
			base: url.Values{"dir": {"up"}}, fields: []string{"dir"}},
		{pattern: "GET /shipping/rules/{id}/delete", role: manager, path: "/shipping/rules/" + s.rule + "/delete", params: id},
		{pattern: "POST /shipping/rules/{id}/delete", role: manager, params: id},
		{pattern: "/", role: clerk, path: "/nowhere", params: []string{"path"}},
		// Last: they end a session, and failed sign-ins throttle the address.
		{pattern: "POST /logout", role: clerk, path: "/logout"},
		{pattern: "POST /login", path: "/login", base: url.Values{"username": {"clerk1"}, "password": {"wrong password"}},
			fields: []string{"username", "password", "next"}},
	}
	return append(routes, claimHostileRoutes(s)...) // the customers' claim page (hostile_claims_test.go)
}

var routePattern = regexp.MustCompile(`mux\.Handle(?:Func)?\("([^"]+)"`)

// TestHostileRoutesListEveryRoute keeps the table above complete: a route
// added to routes.go without its fields here fails.
func TestHostileRoutesListEveryRoute(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var inRoutes, listed []string
	for _, m := range routePattern.FindAllStringSubmatch(string(src), -1) {
		inRoutes = append(inRoutes, m[1])
	}
	for _, r := range hostileRoutes(hostileSetup{}) {
		listed = append(listed, r.pattern)
	}
	if len(inRoutes) < 60 {
		t.Fatalf("found only %d routes in routes.go: is the pattern still right?", len(inRoutes))
	}
	for _, p := range inRoutes {
		if !slices.Contains(listed, p) {
			t.Errorf("route %q is not in the hostile-input table", p)
		}
	}
	for _, p := range listed {
		if !slices.Contains(inRoutes, p) {
			t.Errorf("the hostile-input table lists %q, which routes.go does not have", p)
		}
	}
}

// TestHostileInputBreaksNothing sends every hostile value into every field,
// query parameter and path parameter of every route: no answer is a 5xx, the
// server stays up, nothing stored is lost, and no text is shown unescaped.
func TestHostileInputBreaksNothing(t *testing.T) {
	t.Parallel()
	started := time.Now()
	env, setup := hostileEnv(t)
	before := rowCounts(t, env)
	known := knownRecords(t, env, setup)

	browsers := map[identity.Role]*apptest.Browser{"": env.NewBrowser()}
	for _, role := range identity.Roles {
		browsers[role] = signInWithPassword(t, env, string(role)+"1")
	}
	for _, route := range hostileRoutes(setup) {
		t.Run(route.pattern, func(t *testing.T) {
			b := browsers[route.role]
			method, _, _ := strings.Cut(route.pattern, " ")
			if !strings.Contains(route.pattern, " ") {
				method = http.MethodGet
			}
			send := func(path string, form url.Values) {
				t.Helper()
				resp := hostileRequest(t, env, b, method, path, form, route.multipart)
				if resp.StatusCode >= 500 {
					t.Errorf("%s %s: %d", method, clip(path), resp.StatusCode)
				}
				if strings.Contains(resp.Body, "<script>alert(1)</script>") {
					t.Errorf("%s %s: hostile text rendered unescaped", method, clip(path))
				}
			}
			if route.path != "" {
				send(route.path, route.base)
			}
			for _, field := range route.fields {
				t.Run(field, func(t *testing.T) {
					for _, h := range hostileValues {
						form := with(route.base, field, h.value)
						send(route.path, form)
					}
				})
			}
			for _, param := range route.params {
				t.Run("{"+param+"}", func(t *testing.T) {
					for _, h := range hostileValues {
						send(withParam(route, h.value), nil)
					}
				})
			}
		})
	}

	// The server is up and still serves the people who were signed in.
	if resp := env.NewBrowser().Get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz after the run: %d", resp.StatusCode)
	}
	if resp := browsers[identity.Agent].Get("/returns"); resp.StatusCode != 200 {
		t.Errorf("the returns list after the run: %d", resp.StatusCode)
	}
	for table, n := range rowCounts(t, env) {
		if n < before[table] {
			t.Errorf("%s: %d rows before, %d after", table, before[table], n)
		}
	}
	if got := knownRecords(t, env, setup); got != known {
		t.Errorf("stored records changed:\nbefore %+v\nafter  %+v", known, got)
	}
	t.Logf("hostile run took %s", time.Since(started).Round(time.Millisecond))
}

// TestHostileDraftIsRefusedBeforeTheService: a draft with unreadable text in
// any field never reaches the cart API (it used to be created there, then
// fail locally); every draft the service creates is stored.
func TestHostileDraftIsRefusedBeforeTheService(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	stored := 0
	for _, field := range shipmentFields {
		for _, h := range hostileValues[:3] {
			resp := b.PostForm("/shipping/new/draft", with(form, field, "Nová"+h.value))
			switch {
			case resp.StatusCode == 303:
				stored++
			case resp.StatusCode >= 500:
				t.Errorf("%s in %s: %d", h.name, field, resp.StatusCode)
			}
		}
	}
	if n := countCalls(env, "cart/create"); n != int64(stored) {
		t.Errorf("the cart API was called %d times for %d stored drafts", n, stored)
	}
	for _, field := range []string{"to_surname", "reference", "to_city"} {
		resp := b.PostForm("/shipping/new/draft", with(form, field, "Nová\x00"))
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "control characters") {
			t.Errorf("NUL in %s: %d %s", field, resp.StatusCode, problemsOf(resp.Body))
		}
	}
}

// TestScanCutsByCharacters: a long Czech phrase is cut between characters.
func TestScanCutsByCharacters(t *testing.T) {
	t.Parallel()
	_, b := deskEnv(t)
	phrase := strings.Repeat("Příliš žluťoučký kůň ", 5) // over 64 characters, cut inside "ř" by bytes
	resp := b.Get("/scan?q=" + url.QueryEscape(phrase))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, "Příliš žluťoučký") {
		t.Errorf("scan of a long Czech phrase: %d", resp.StatusCode)
	}
	if resp := b.Get("/scan?q=" + url.QueryEscape("AB\x00CD")); resp.StatusCode != 400 {
		t.Errorf("scan with a NUL: %d", resp.StatusCode)
	}
}

// TestNumbersAndCurrenciesAreChecked: NaN, infinity and made-up currencies
// are refused where people type them.
func TestNumbersAndCurrenciesAreChecked(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	for _, weight := range []string{"NaN", "Inf", "-Inf", "1e308", "-1", "0x10"} {
		resp := b.PostForm("/shipping/presets", url.Values{"name": {"Bad " + weight}, "weight": {weight}})
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "weight-error") {
			t.Errorf("preset weight %s: %d %s", weight, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	presets, err := env.App.DB.Presets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range presets {
		if strings.HasPrefix(p.Name, "Bad ") {
			t.Errorf("preset %q stored with weight %v", p.Name, p.Weight)
		}
	}
	for _, cur := range []string{"ABC", "XXX", "ZZZ"} {
		resp := b.PostForm("/shipping/settings", url.Values{"cod_currency": {"CZK"}, "bank_currency": {cur}})
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "ISO 4217") {
			t.Errorf("account currency %s: %d %s", cur, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	if s, _ := env.App.DB.Settings(context.Background()); s.BankCurrency != "CZK" {
		t.Errorf("account currency stored as %q", s.BankCurrency)
	}
}

// hostileEnv starts a dashboard with one record of each kind the routes name.
func hostileEnv(t *testing.T) (*apptest.Env, hostileSetup) {
	t.Helper()
	env, clerk := deskEnv(t)
	ctx := context.Background()
	if err := env.App.Bench.RefreshProducts(ctx); err != nil {
		t.Fatal(err)
	}
	env.AddUser("agent1", identity.Agent)
	env.AddUser("manager1", identity.Manager)
	env.AddUser("victim", identity.Clerk)
	var s hostileSetup
	form := shipmentForm(t, env)
	s.shipment = strings.TrimPrefix(place(t, clerk, form, "UPS"), "/shipping/shipments/")
	_, s.shipmentForm = order(t, clerk, shipmentForm(t, env), "UPS") // a form of its own: not ordered yet
	resp := clerk.PostForm("/shipping/new/draft", shipmentForm(t, env))
	if resp.StatusCode != 303 {
		t.Fatalf("draft: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	s.draft = strings.TrimPrefix(resp.Header.Get("Location"), "/shipping/drafts/")

	cf := commissionForm(t, env)
	res, err := env.App.Bench.Create(ctx, workbench.Form{Key: cf["key"], Type: "warranty", TypeID: atoi(cf["type_id"]), ModelID: atoi(cf["model_id"]),
		Fault: "Does not switch on.", Customer: returnsCustomer(), File: &workbench.File{Name: "receipt.pdf", Data: pdfBytes}}, 0)
	if err != nil || res.UploadID == 0 {
		t.Fatalf("commission: %v", err)
	}
	s.commission, s.upload = itoa(res.Commission.ID), itoa(res.UploadID)
	intake, err := env.App.DB.LatestDocument(ctx, res.Commission.ID, storage.DocIntake)
	if err != nil {
		t.Fatalf("intake confirmation: %v", err)
	}
	s.document = itoa(intake.ID)
	s.commissionForm = url.Values{}
	for k, v := range commissionForm(t, env) {
		s.commissionForm.Set(k, v)
	}
	s.commissionForm.Set("type", "paid_repair")

	senders, err := env.App.DB.Senders(ctx)
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	presets, err := env.App.DB.Presets(ctx)
	if err != nil || len(presets) == 0 {
		t.Fatalf("presets: %v", err)
	}
	s.sender, s.preset = itoa(senders[0].ID), itoa(presets[0].ID)
	victim, err := env.App.DB.UserByUsername(ctx, "victim")
	if err != nil {
		t.Fatal(err)
	}
	s.victim = itoa(victim.ID)
	rule, err := env.App.Desk.SaveRule(ctx, shiprules.Rule{Name: "Cheapest", Choice: shiprules.Cheapest})
	if err != nil {
		t.Fatal(err)
	}
	s.rule = itoa(rule)

	addresses, err := env.App.Desk.PickupAddresses(ctx)
	if err != nil || len(addresses) == 0 {
		t.Fatalf("pickup addresses: %v", err)
	}
	clock, err := env.App.Upstream.Controls.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := desk.BlankPickup(clock.Now.Local())
	s.pickupForm = url.Values{"key": {p.Key}, "address": {itoa(addresses[0].ID)}, "date": {p.Date}, "time_from": {"09:00"},
		"time_to": {"12:00"}, "packages": {"1"}, "weight": {"3,5"}, "note": {"Ring twice."}}

	// A batch whose rows all need correcting (no phone): nothing of it is
	// priced or ordered while hostile values are sent; and an upload waiting
	// for its columns.
	bad := "reference;surname;street;city;zip;phone;weight_kg\nH-1;Nováková;Masarykova 5;Brno;602 00;;2\n"
	batch, err := env.App.Desk.ImportBatch(ctx, desk.BatchImport{FileName: "h.csv", Data: []byte(bad), Handover: desk.HandoverOnDemand}, 0)
	if err != nil || batch.Batch.ID == 0 {
		t.Fatalf("batch: %v", err)
	}
	rows, err := env.App.DB.BatchRows(ctx, batch.Batch.ID)
	if err != nil || len(rows) != 1 || rows[0].State != storage.RowProblem {
		t.Fatalf("batch rows: %v %+v", err, rows)
	}
	s.batch, s.batchRow = itoa(batch.Batch.ID), itoa(rows[0].ID)
	foreign, err := env.App.Desk.ImportBatch(ctx, desk.BatchImport{FileName: "f.csv", Data: []byte("Kdo;Tel\nNovák;777\n"), Handover: desk.HandoverOnDemand}, 0)
	if err != nil || foreign.Mapping == nil {
		t.Fatalf("upload to map: %v", err)
	}
	s.batchUpload = itoa(foreign.Mapping.UploadID)
	hostileClaims(t, env, &s)
	return env, s
}

// signIn signs in an existing account (the users hostileEnv added).
func signInWithPassword(t *testing.T, env *apptest.Env, username string) *apptest.Browser {
	t.Helper()
	b := env.NewBrowser()
	resp := b.PostForm("/login", url.Values{"username": {username}, "password": {"pw-" + username + "-long-enough"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", username, resp.StatusCode)
	}
	return b
}

// hostileRequest sends a form (as the query of a GET) the way a browser would.
func hostileRequest(t *testing.T, env *apptest.Env, b *apptest.Browser, method, path string, form url.Values, asMultipart bool) apptest.Response {
	t.Helper()
	target := env.URL + path
	var body bytes.Buffer
	ctype := "application/x-www-form-urlencoded"
	switch {
	case method == http.MethodGet && len(form) > 0:
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		target += sep + form.Encode()
	case asMultipart:
		mw := multipart.NewWriter(&body)
		for k, vs := range form {
			for _, v := range vs {
				_ = mw.WriteField(k, v)
			}
		}
		mw.Close()
		ctype = mw.FormDataContentType()
	default:
		body.WriteString(form.Encode())
	}
	req, err := http.NewRequest(method, target, &body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, clip(path), err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Origin", env.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	return b.Do(req)
}

// withParam is the route's path with a hostile value in its path parameter.
func withParam(r hostileRoute, value string) string {
	escaped := url.PathEscape(value)
	_, pattern, found := strings.Cut(r.pattern, " ")
	if !found {
		pattern = r.pattern
	}
	switch {
	case pattern == "/":
		return "/nowhere/" + escaped
	case strings.HasSuffix(pattern, "/"):
		return pattern + escaped
	}
	return regexp.MustCompile(`\{[a-z]+\}`).ReplaceAllString(pattern, escaped)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// rowCounts counts the rows of the tables people's work lives in.
func rowCounts(t *testing.T, env *apptest.Env) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"shipments", "commissions", "senders", "recipients", "package_presets", "users", "pickups",
		"cart_drafts", "tracking_events", "uploads", "carriers", "ship_rules"} {
		var n int
		if err := env.App.DB.SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

// records are fields of known records that no hostile request may change.
type records struct {
	Reference, Recipient, Customer, Request, Sender, Preset string
	Draft                                                   int64
}

func knownRecords(t *testing.T, env *apptest.Env, s hostileSetup) records {
	t.Helper()
	ctx := context.Background()
	var r records
	sh, err := env.App.DB.ShipmentByID(ctx, atoi(s.shipment))
	if err != nil {
		t.Fatal(err)
	}
	c, err := env.App.DB.CommissionByID(ctx, atoi(s.commission))
	if err != nil {
		t.Fatal(err)
	}
	sender, err := env.App.DB.SenderByID(ctx, atoi(s.sender))
	if err != nil {
		t.Fatal(err)
	}
	d, err := env.App.DB.DraftByID(ctx, atoi(s.draft))
	if err != nil {
		t.Fatal(err)
	}
	presets, err := env.App.DB.Presets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range presets {
		if itoa(p.ID) == s.preset {
			r.Preset = p.Name
		}
	}
	r.Reference, r.Recipient, r.Customer, r.Sender, r.Draft = sh.Reference, sh.RecipientName, c.CustomerName, sender.Label, d.DraftID
	r.Request = string(c.Request)
	return r
}

// TestUnreadableTextIsAFieldError: text that cannot be read is named next to
// its field, the page answers, and nothing is sent upstream.
func TestUnreadableTextIsAFieldError(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	if err := env.App.Bench.RefreshProducts(context.Background()); err != nil {
		t.Fatal(err)
	}
	agent := env.SignedIn(identity.Agent)
	const unreadable, control = "cannot be read", "control characters"
	check := func(what string, resp apptest.Response, status int, want string) {
		t.Helper()
		if resp.StatusCode != status || !strings.Contains(resp.Body, want) {
			t.Errorf("%s: %d %s", what, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	check("tracking filter", clerk.Get("/tracking?q="+url.QueryEscape("\xff\xfe")), 422, unreadable)
	check("returns filter", agent.Get("/returns?customer="+url.QueryEscape("a\x00")), 200, control)
	check("sender", clerk.PostForm("/shipping/senders", url.Values{"label": {"Dock\x00"}, "country": {"CZ"}}), 422, control)
	check("sign-in", env.NewBrowser().PostForm("/login", url.Values{"username": {"clerk1\x00"}, "password": {"x"}}), 422, control)
	form := commissionForm(t, env)
	form["type"], form["fault"] = "paid_repair", "Broken\x00 again"
	check("new commission", postMultipart(t, env, agent, form, "", nil), 422, control)
	form["fault"] = "Two lines:\r\nstill fine."
	if resp := postMultipart(t, env, agent, form, "", nil); resp.StatusCode != 303 {
		t.Errorf("a fault on two lines: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := countCalls(env, "commissions/create"); n != 1 {
		t.Errorf("commissions/create called %d times, want the one good form", n)
	}
}
