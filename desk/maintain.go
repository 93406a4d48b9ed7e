package desk

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// Background work of the desk, run by `shipdesk serve`.
const (
	pointsMaxAge = 24 * time.Hour // the parcel-point cache is refreshed daily
)

// MaintainOnce settles unknown orders and pickups and keeps the parcel-point cache fresh
// (the pollers in jobs call it each round). Several instances may run it:
// reconciliation and upserts are safe to repeat.
func (d *Desk) MaintainOnce(ctx context.Context) {
	if err := d.ReconcileAll(ctx); err != nil && !errors.Is(err, context.Canceled) {
		d.log.Warn("reconcile orders", "err", err)
	}
	if err := d.CheckAllPickups(ctx); err != nil && !errors.Is(err, context.Canceled) {
		d.log.Warn("check pickups", "err", err)
	}
	if err := d.ResumeBatches(ctx); err != nil && !errors.Is(err, context.Canceled) {
		d.log.Warn("resume batches", "err", err)
	}
	stats, err := d.db.PointStats(ctx)
	if err != nil {
		d.log.Warn("parcel point stats", "err", err)
		return
	}
	if stats.Count == 0 || stats.Refreshed == nil || d.now().Sub(*stats.Refreshed) > pointsMaxAge {
		if _, err := d.RefreshPoints(ctx); err != nil && !errors.Is(err, context.Canceled) {
			d.log.Warn("refresh parcel points", "err", err)
		}
	}
}

// SeedDemo gives a fresh database the service's pickup addresses as senders
// ("Sklad Praha", the default, and "Sklad Brno", named as the service names
// them, so a sender reads the same on every page and on the protocol), a
// sender of our own that the service does not store, package presets and COD
// bank details, so `make run` shows a desk ready to use. It changes nothing
// where senders exist already.
func (d *Desk) SeedDemo(ctx context.Context) error {
	senders, err := d.db.Senders(ctx)
	if err != nil || len(senders) > 0 {
		return err
	}
	if _, err := d.ImportContacts(ctx); err != nil {
		d.log.Warn("demo: import pickup addresses", "err", err)
	}
	if _, err := d.db.SaveSender(ctx, storage.Sender{Label: "Prodejna Olomouc", Address: storage.Address{Company: "Prodejna Olomouc",
		Firstname: "Lenka", Surname: "Pokorná", Street: "Horní náměstí 12", City: "Olomouc", Zip: "779 00", Country: "CZ", Phone: "+420 601 000 111", Email: "olomouc@example.cz"}}); err != nil {
		return err
	}
	for _, p := range []storage.Preset{{Name: "Malá krabice", Weight: 1, Length: 30, Width: 20, Height: 10},
		{Name: "Střední krabice", Weight: 4, Length: 40, Width: 30, Height: 20}, {Name: "Obálka", Weight: 0.3, Length: 32, Width: 23, Height: 2}} {
		if _, err := d.db.SavePreset(ctx, p); err != nil {
			return err
		}
	}
	// The demo shop's customers hear from a shop, not from its warehouse.
	if err := d.db.SaveShopIdentity(ctx, storage.ShopIdentity{Name: "Kávovary Říčany", Web: "https://www.example.cz",
		ReplyEmail: "obchod@example.cz", Phone: "+420 601 000 222"}); err != nil {
		return err
	}
	return d.db.SaveSettings(ctx, storage.ShippingSettings{CODCurrency: "CZK", BankAccount: "19-2000145399", BankCode: "0800", BankCurrency: "CZK"})
}

// demoRecipients are the people the demo shipments go to.
var demoRecipients = []Address{
	{Firstname: "Jana", Surname: "Nováková", Street: "Masarykova 5", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420 777 123 456", Email: "jana@example.cz"},
	{Firstname: "Petr", Surname: "Svoboda", Street: "Americká 12", City: "Plzeň", Zip: "301 00", Country: "CZ", Phone: "+420 731 222 333"},
	{Firstname: "Eva", Surname: "Malá", Street: "Hlavná 8", City: "Košice", Zip: "040 01", Country: "SK", Phone: "+421 905 111 222"},
}

// SeedDemoOrders orders a few shipments through the service (the sandbox under
// `make run`) so the lists, the timelines and the reports have something to
// show. It does nothing when shipments exist.
func (d *Desk) SeedDemoOrders(ctx context.Context) error {
	recent, err := d.db.RecentShipments(ctx, 1)
	if err != nil || len(recent) > 0 {
		return err
	}
	for i, to := range demoRecipients {
		f, err := d.Blank(ctx)
		if err != nil {
			return err
		}
		f.To, f.Reference = to, fmt.Sprintf("DEMO-%d", i+1)
		f.Packages = []Package{{Weight: float64(i + 1), Length: 30, Width: 20, Height: 10}}
		if i == 0 {
			f.COD, f.CODValue = true, "1250"
		}
		offers, err := d.Offers(ctx, f)
		if err != nil {
			return fmt.Errorf("demo offers: %w", err)
		}
		for _, o := range offers {
			if o.Selectable && !o.DeliveryRequired && !o.LabelFree && o.LabelMode == shipping.LabelPrint {
				f.Offer = o
				break
			}
		}
		if f.Offer.ServiceID == 0 {
			continue
		}
		if _, err := d.Order(ctx, f, 0); err != nil {
			return fmt.Errorf("demo shipment %d: %w", i+1, err)
		}
	}
	return nil
}
