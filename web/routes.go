package web

import (
	"net/http"

	"shipdesk/identity"
)

// routes is the whole surface of the dashboard and who may use each part.
// Reading this file tells a newcomer everything the server answers.
func (s *Server) routes() *routeTable {
	mux := newRouteTable()
	h := s.h
	const (
		shipping = identity.Shipping
		tracking = identity.Tracking
		returns  = identity.Returns
		reports  = identity.Reports
		users    = identity.Users
		conn     = identity.Connection
	)

	// Anyone: sign-in. (Probes and static files: sessionless, below.)
	mux.HandleFunc("GET /login", h.LoginForm)
	mux.HandleFunc("POST /login", h.Login)
	mux.HandleFunc("POST /language", h.SetLanguage)

	// Customers, without an account: the claim page. Asking for a link answers
	// the same whether or not the purchase exists; the links themselves (a
	// one-time one that opens the form, a claim's status page) are the keys.
	// Each call is throttled by the client (and by address, purchase or claim).
	mux.Handle("GET /claim", s.public(h.ClaimAsk))
	mux.Handle("POST /claim", s.public(h.ClaimAskPost))
	mux.Handle("GET /claim/open/{token}", s.public(h.ClaimForm))
	mux.Handle("POST /claim/open/{token}", s.public(h.ClaimFile))
	mux.Handle("POST /claim/open/{token}/points", s.public(h.ClaimPoints))
	mux.Handle("GET /claim/status/{token}", s.public(h.ClaimStatus))
	mux.Handle("POST /claim/status/{token}/reply", s.public(h.ClaimReply))
	mux.Handle("GET /claim/status/{token}/files/{file}", s.public(h.ClaimFileDownload))
	mux.Handle("GET /claim/status/{token}/documents/{doc}", s.public(h.ClaimDocument))
	mux.Handle("GET /claim/status/{token}/label.pdf", s.public(h.ClaimLabel))
	// Any other path under the claim pages (a status link with a trailing
	// slash, a cut or lengthened one) is a link that opens nothing, never the
	// sign-in page: its address would take the key along.
	mux.Handle("/claim/", s.public(h.ClaimUnknown))
	// A shipment's tracking page for its recipient, by its token alone, and
	// the shop's logo its customers' pages show (cacheable). Any other path
	// under /track/ answers as a page that does not exist, counted as one.
	mux.Handle("GET /track/{token}", s.public(h.TrackShipment))
	mux.Handle("/track/", s.public(h.TrackUnknown))
	mux.Handle("GET /shop/logo", s.public(h.ShopLogo))
	// The connected shop's webhooks: public, throttled like the claim page,
	// refused unless the shop's signature checks.
	mux.Handle("POST /hooks/shoptet", s.public(h.ShopHook))

	// Every signed-in role.
	mux.Handle("GET /{$}", s.signedIn(h.Home))
	mux.Handle("POST /logout", s.signedIn(h.Logout))
	mux.Handle("GET /shortcuts", s.signedIn(h.Shortcuts))
	// The simulator's clock, for every role; the handler refuses it outside sandbox mode.
	mux.Handle("POST /sandbox-clock", s.signedIn(h.AdvanceClock))
	// The queue of what needs a person: each role sees (and acts on) the kinds of
	// its areas; the daily summary is the managers'.
	mux.Handle("GET /attention", s.signedIn(h.Attention))
	mux.Handle("POST /attention/take", s.signedIn(h.TakeAttention))
	mux.Handle("POST /attention/note", s.signedIn(h.NoteAttention))
	mux.Handle("POST /attention/dismiss", s.signedIn(h.DismissAttention))
	mux.Handle("POST /attention/restore", s.signedIn(h.RestoreAttention))
	mux.Handle("GET /attention/summary.csv", s.only(reports, h.AttentionSummary("csv")))
	mux.Handle("GET /attention/summary.xlsx", s.only(reports, h.AttentionSummary("xlsx")))
	// The simulator's faults for a demonstration: managers only (they slow
	// everyone's work); refused outside sandbox mode by the handler.
	mux.Handle("GET /sandbox-faults", s.only(conn, h.SandboxFaults))
	mux.Handle("POST /sandbox-faults", s.only(conn, h.SetSandboxFaults))
	// The mail the dashboard sent, as the in-process catcher received it: in
	// sandbox mode only (404 otherwise). It shows customers' mail, so it is the
	// returns desk's and the managers', not the clerks'.
	mux.Handle("GET /sandbox/mail", s.only(returns, h.SentMailList))
	mux.Handle("GET /sandbox/mail/{id}", s.only(returns, h.SentMailPage))
	mux.Handle("GET /sandbox/mail/{id}/files/{n}", s.only(returns, h.SentMailFile))

	// Areas.
	// The shipping desk: clerks and managers.
	mux.Handle("GET /shipping", s.only(shipping, h.Shipping))
	mux.Handle("GET /shipping/new", s.only(shipping, h.NewShipment))
	mux.Handle("POST /shipping/new/compare", s.only(shipping, h.CompareOffers))
	mux.Handle("POST /shipping/new/country", s.only(shipping, h.ChooseCountry))
	mux.Handle("POST /shipping/new/sort", s.only(shipping, h.SortOffers))
	mux.Handle("POST /shipping/new/choose", s.only(shipping, h.ChooseOffer))
	mux.Handle("POST /shipping/new/points", s.only(shipping, h.FindPoints))
	mux.Handle("POST /shipping/new/packages", s.only(shipping, h.AddPackage))
	mux.Handle("POST /shipping/new/preset", s.only(shipping, h.AddPresetPackage))
	mux.Handle("POST /shipping/new/order", s.only(shipping, h.OrderShipment))
	mux.Handle("POST /shipping/new/draft", s.only(shipping, h.SendDraft))
	mux.Handle("POST /shipping/points", s.only(shipping, h.Points))
	mux.Handle("GET /shipping/shipments/{id}", s.only(shipping, h.ShipmentPage))
	mux.Handle("GET /shipping/shipments/{id}/status", s.only(shipping, h.ShipmentStatus))
	mux.Handle("GET /shipping/shipments/{id}/label.pdf", s.only(shipping, h.Label))
	mux.Handle("GET /shipping/shipments/{id}/storno", s.only(shipping, h.ShipmentStornoConfirm))
	mux.Handle("POST /shipping/shipments/{id}/storno", s.only(shipping, h.ShipmentStorno))
	mux.Handle("POST /shipping/shipments/{id}/check", s.only(shipping, h.ShipmentCheck))
	mux.Handle("POST /shipping/shipments/{id}/again", s.only(shipping, h.ShipmentOrderAgain))
	mux.Handle("POST /shipping/shipments/{id}/refresh", s.only(shipping, h.RefreshNow))
	mux.Handle("POST /shipping/shipments/{id}/duplicates/storno", s.only(shipping, h.StornoDuplicate))
	mux.Handle("POST /shipping/shipments/{id}/notes", s.only(shipping, h.AddShipmentNote))
	mux.Handle("GET /shipping/print", s.only(shipping, h.PrintQueue))
	mux.Handle("GET /shipping/print/live", s.only(shipping, h.PrintQueueLive))
	mux.Handle("POST /shipping/print", s.only(shipping, h.PrintSelected))
	mux.Handle("POST /shipping/print/batches/{id}/reprint", s.only(shipping, h.Reprint))
	mux.Handle("GET /shipping/manifest", s.only(shipping, h.Manifest))
	mux.Handle("GET /shipping/manifest.pdf", s.only(shipping, h.ManifestPDF))
	// The shop's orders: the clerk's inbox, shipping one or the ticked.
	mux.Handle("GET /shipping/orders", s.only(shipping, h.ShopOrders))
	mux.Handle("POST /shipping/orders/ship", s.only(shipping, h.ShipShopOrders))
	mux.Handle("GET /shipping/orders/{code}", s.only(shipping, h.ShopOrder))
	mux.Handle("POST /shipping/orders/{code}/ship", s.only(shipping, h.ShipShopOrder))
	mux.Handle("POST /shipping/orders/{code}/new-parcel", s.only(shipping, h.NewShopParcel))
	mux.Handle("GET /shipping/batches", s.only(shipping, h.Batches))
	mux.Handle("GET /shipping/batches/new", s.only(shipping, h.NewBatch))
	mux.Handle("GET /shipping/batch-template/{file}", s.only(shipping, h.BatchTemplate))
	mux.Handle("GET /shipping/batches/columns", s.only(shipping, h.BatchColumns))
	mux.Handle("POST /shipping/batches", s.only(shipping, h.ImportBatch))
	mux.Handle("POST /shipping/batch-uploads/{id}/map", s.only(shipping, h.MapBatch))
	mux.Handle("GET /shipping/batches/{id}", s.only(shipping, h.BatchPage))
	mux.Handle("GET /shipping/batches/{id}/progress", s.only(shipping, h.BatchProgress))
	mux.Handle("GET /shipping/batches/{id}/rows/{row}", s.only(shipping, h.BatchRow))
	mux.Handle("POST /shipping/batches/{id}/rows/{row}", s.only(shipping, h.EditBatchRow))
	mux.Handle("POST /shipping/batches/{id}/rows/{row}/offer", s.only(shipping, h.ChooseBatchOffer))
	mux.Handle("POST /shipping/batches/{id}/rows/{row}/new-parcel", s.only(shipping, h.NewParcel))
	mux.Handle("POST /shipping/batches/{id}/rows/{row}/points", s.only(shipping, h.RowPoints))
	mux.Handle("POST /shipping/batches/{id}/price", s.only(shipping, h.PriceBatch))
	mux.Handle("POST /shipping/batches/{id}/order", s.only(shipping, h.OrderBatch))
	mux.Handle("POST /shipping/batches/{id}/drafts", s.only(shipping, h.BatchDrafts))
	mux.Handle("GET /shipping/batches/{id}/labels.pdf", s.only(shipping, h.BatchLabels))
	mux.Handle("GET /shipping/batches/{id}/handover.pdf", s.only(shipping, h.BatchHandover))
	mux.Handle("GET /shipping/batches/{id}/codes.pdf", s.only(shipping, h.BatchCodes))
	mux.Handle("GET /shipping/drafts", s.only(shipping, h.Drafts))
	mux.Handle("GET /shipping/drafts/{id}", s.only(shipping, h.Draft))
	mux.Handle("GET /shipping/addresses", s.only(shipping, h.AddressBook))
	mux.Handle("POST /shipping/senders", s.only(shipping, h.AddSender))
	mux.Handle("POST /shipping/senders/import", s.only(shipping, h.ImportSenders))
	mux.Handle("POST /shipping/contacts", s.only(shipping, h.AddServiceAddress))
	mux.Handle("POST /shipping/senders/{id}/default", s.only(shipping, h.SenderSetDefault))
	mux.Handle("GET /shipping/senders/{id}/delete", s.only(shipping, h.SenderDeleteConfirm))
	mux.Handle("POST /shipping/senders/{id}/delete", s.only(shipping, h.SenderDelete))
	mux.Handle("GET /shipping/recipients/{id}/delete", s.only(shipping, h.RecipientDeleteConfirm))
	mux.Handle("POST /shipping/recipients/{id}/delete", s.only(shipping, h.RecipientDelete))
	mux.Handle("POST /shipping/presets", s.only(shipping, h.AddPreset))
	mux.Handle("GET /shipping/presets/{id}/delete", s.only(shipping, h.PresetDeleteConfirm))
	mux.Handle("POST /shipping/presets/{id}/delete", s.only(shipping, h.PresetDelete))
	mux.Handle("POST /shipping/settings", s.only(shipping, h.SaveSettings))
	mux.Handle("POST /shipping/settings/return-address", s.only(shipping, h.SaveReturnAddress))
	mux.Handle("POST /shipping/points/refresh", s.only(shipping, h.RefreshPoints))
	mux.Handle("GET /shipping/pickups", s.only(shipping, h.Pickups))
	mux.Handle("GET /shipping/pickups/carriers", s.only(shipping, h.PickupCarriers))
	mux.Handle("POST /shipping/pickups", s.only(shipping, h.OrderPickup))
	mux.Handle("POST /shipping/pickups/{id}/check", s.only(shipping, h.PickupCheck))
	mux.Handle("POST /shipping/pickups/{id}/again", s.only(shipping, h.PickupOrderAgain))
	// Tracking: the list, its export, the scan box.
	mux.Handle("GET /tracking", s.only(tracking, h.ShipmentList))
	mux.Handle("GET /tracking.csv", s.only(tracking, h.ExportCSV))
	mux.Handle("GET /scan", s.only(tracking, h.Scan))
	// The list's selection: labels, storno and protocols are the shipping desk's; the export is the list's.
	mux.Handle("POST /tracking/selection/labels", s.only(shipping, h.SelectionLabels))
	mux.Handle("POST /tracking/selection/storno", s.only(shipping, h.SelectionStorno))
	mux.Handle("POST /tracking/selection/protocol", s.only(shipping, h.SelectionProtocol))
	mux.Handle("POST /tracking/selection/export", s.only(tracking, h.SelectionExport))
	// The returns workbench: agents and managers.
	mux.Handle("GET /returns", s.only(returns, h.Commissions))
	mux.Handle("GET /returns/new", s.only(returns, h.NewCommission))
	mux.Handle("GET /returns/new/models", s.only(returns, h.CommissionModels))
	mux.Handle("GET /returns/scan", s.only(returns, h.ScanCommission))
	mux.Handle("POST /returns/new", s.only(returns, h.CreateCommission))
	mux.Handle("GET /returns/commissions/{id}", s.only(returns, h.CommissionPage))
	mux.Handle("GET /returns/commissions/{id}/live", s.only(returns, h.CommissionLive))
	mux.Handle("POST /returns/commissions/{id}/notes", s.only(returns, h.AddNote))
	mux.Handle("POST /returns/commissions/{id}/messages", s.only(returns, h.SendMessage))
	mux.Handle("GET /returns/commissions/{id}/move", s.only(returns, h.CommissionMoveConfirm))
	mux.Handle("POST /returns/commissions/{id}/move", s.only(returns, h.CommissionMove))
	mux.Handle("POST /returns/commissions/{id}/refresh", s.only(returns, h.CommissionRefresh))
	mux.Handle("POST /returns/commissions/{id}/check", s.only(returns, h.CommissionCheck))
	mux.Handle("POST /returns/commissions/{id}/again", s.only(returns, h.CommissionCreateAgain))
	mux.Handle("POST /returns/commissions/{id}/duplicates/cancel", s.only(returns, h.StornoCommissionDuplicate))
	mux.Handle("GET /returns/commissions/{id}/documents/{doc}", s.only(returns, h.CommissionDocument))
	mux.Handle("POST /returns/commissions/{id}/print-intake", s.only(returns, h.PrintIntakeConfirmation))
	mux.Handle("POST /returns/commissions/{id}/extension", s.only(returns, h.ExtendCommissionDeadline))
	mux.Handle("GET /returns/files/{id}", s.only(returns, h.ServeUpload))
	// A claim from the claim page as its customer sees it, by its id: no
	// staff page holds the customer's key.
	mux.Handle("GET /returns/claims/{id}", s.only(returns, h.StaffClaim))
	mux.Handle("GET /returns/claims/{id}/files/{file}", s.only(returns, h.StaffClaimFile))
	mux.Handle("GET /returns/claims/{id}/label.pdf", s.only(returns, h.StaffClaimLabel))
	// Withdrawals from a purchase: agents and managers record them on a
	// commission; the refunds they owe are the managers' to list and mark paid.
	mux.Handle("POST /returns/commissions/{id}/withdrawal", s.only(returns, h.RecordWithdrawal))
	mux.Handle("GET /returns/refunds", s.only(reports, h.Refunds))
	mux.Handle("GET /returns/refunds.csv", s.only(reports, h.RefundsCSV))
	mux.Handle("GET /returns/refunds/{id}/paid", s.only(reports, h.RefundPaidConfirm))
	mux.Handle("POST /returns/refunds/{id}/paid", s.only(reports, h.RefundPaid))
	mux.Handle("GET /reports", s.only(reports, h.Reports))
	mux.Handle("GET /reports/export", s.only(reports, h.ReportExport))

	// Staff accounts: managers.
	mux.Handle("GET /users", s.only(users, h.Users))
	mux.Handle("POST /users", s.only(users, h.AddUser))
	mux.Handle("GET /users/{id}", s.only(users, h.UserDetail))
	mux.Handle("POST /users/{id}/password", s.only(users, h.ResetPassword))
	mux.Handle("POST /users/{id}/disable", s.only(users, h.SetDisabled(true)))
	mux.Handle("POST /users/{id}/enable", s.only(users, h.SetDisabled(false)))
	mux.Handle("POST /users/{id}/mail", s.only(users, h.SetUserMail))

	// The link to the shipping service: managers, and a metrics scraper with its token.
	mux.Handle("GET /connection", s.only(conn, h.Connection))
	mux.Handle("POST /connection/carriers/{code}", s.only(conn, h.EditCarrier))
	// The connected shop: its token, what its statuses and methods mean.
	mux.Handle("POST /connection/shop", s.only(conn, h.ConnectShop))
	mux.Handle("POST /connection/shop/statuses", s.only(conn, h.SaveShopStatuses))
	mux.Handle("POST /connection/shop/mappings", s.only(conn, h.SaveShopMappings))
	mux.Handle("POST /connection/shop/refresh", s.only(conn, h.RefreshShopLists))
	mux.Handle("POST /connection/shop/disconnect", s.only(conn, h.DisconnectShop))
	mux.Handle("GET /metrics", s.scraper(conn, h.MetricsText))
	// The shop as its customers know it (every customer page, mail and PDF): managers.
	mux.Handle("GET /settings/shop", s.only(conn, h.ShopIdentitySettings))
	mux.Handle("POST /settings/shop", s.only(conn, h.SaveShopIdentity))
	mux.Handle("POST /settings/shop/logo", s.only(conn, h.SaveShopLogo))
	mux.Handle("POST /settings/shop/logo/remove", s.only(conn, h.RemoveShopLogo))
	// The customers' mail of their parcels' steps: which steps mail, and
	// their wording (managers).
	mux.Handle("GET /settings/parcel-mail", s.only(conn, h.ParcelMail))
	mux.Handle("POST /settings/parcel-mail", s.only(conn, h.SaveParcelMail))
	mux.Handle("POST /settings/parcel-mail/preview", s.only(conn, h.PreviewParcelMail))
	// The rules that choose an offer for each row of a batch: managers (with the
	// Connection area), under the shipping desk.
	mux.Handle("GET /shipping/rules", s.only(conn, h.Rules))
	mux.Handle("POST /shipping/rules", s.only(conn, h.AddRule))
	mux.Handle("GET /shipping/rules/{id}", s.only(conn, h.RuleEdit))
	mux.Handle("POST /shipping/rules/{id}", s.only(conn, h.SaveRule))
	mux.Handle("POST /shipping/rules/{id}/move", s.only(conn, h.MoveRule))
	mux.Handle("GET /shipping/rules/{id}/delete", s.only(conn, h.RuleDeleteConfirm))
	mux.Handle("POST /shipping/rules/{id}/delete", s.only(conn, h.DeleteRule))

	// Anything else: sign in first, then 404, so unknown paths reveal nothing.
	mux.Handle("/", s.signedIn(h.NotFound))
	s.table = mux
	return mux
}

// sessionlessRoutes are the routes that need no session (sessionless): the
// probes and the static files; anything else goes to app.
func (s *Server) sessionlessRoutes(app http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.h.Healthz)
	mux.HandleFunc("GET /readyz", s.h.Readyz)
	mux.Handle("GET /static/", s.static)
	mux.Handle("/", app)
	return mux
}
