package web_test

import (
	"net/url"
	"strings"

	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
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
