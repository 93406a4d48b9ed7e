package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// MaxShipMany is how many orders one batch of ticked orders takes.
const MaxShipMany = 500

// Skipped is a ticked order left out of the batch, and why.
type Skipped struct {
	Code string
	Why  apperr.Text
}

// ManyShipped is the batch made of ticked orders and the orders left out.
type ManyShipped struct {
	Batch   storage.Batch
	Skipped []Skipped
}

// ShipMany makes a batch of the ticked orders on the desk's batch
// machinery: each order a row (priced by the offer rules, ordered, printed
// and protocolled with the batch), recognised as the batches recognise a
// parcel ordered before, by its reference, the order's code; so an order
// shipped with one click, or in another batch, is known there and never
// shipped twice. Orders that are not to be shipped by us, or not now, are
// left out with why.
func (s *Service) ShipMany(ctx context.Context, by int64, codes []string) (ManyShipped, error) {
	var out ManyShipped
	if len(codes) == 0 {
		return out, apperr.New(apperr.Invalid, "shop.err.none_ticked")
	}
	if len(codes) > MaxShipMany {
		return out, apperr.New(apperr.Invalid, "shop.err.too_many", MaxShipMany)
	}
	orders, err := s.db.ShopOrdersByCode(ctx, codes)
	if err != nil {
		return out, err
	}
	found := map[string]bool{}
	list := make([]kept, 0, len(orders))
	keep := make([]storage.ShopOrder, 0, len(orders))
	for _, o := range orders {
		found[o.Code] = true
		var why apperr.Text
		switch {
		case o.Shipment != nil:
			why = apperr.Msg("shop.why.shipped", o.Code)
		case o.State == storage.ShopCancelled || o.State == storage.ShopGone:
			why = apperr.Msg("shop.err.cancelled", o.Code)
		case o.State == storage.ShopOther:
			why = apperr.Msg("shop.why.status", o.StatusName)
		case o.State == storage.ShopElsewhere:
			why = apperr.Msg("shop.why.elsewhere", o.TrackingElsewhere)
		}
		var k kept
		if why.IsZero() {
			if err := json.Unmarshal(o.Doc, &k); err != nil {
				return out, fmt.Errorf("kept shop order %s: %w", o.Code, err)
			}
		}
		if !why.IsZero() {
			out.Skipped = append(out.Skipped, Skipped{Code: o.Code, Why: why})
			continue
		}
		list, keep = append(list, k), append(keep, o)
	}
	for _, c := range codes {
		if !found[c] {
			out.Skipped = append(out.Skipped, Skipped{Code: c, Why: apperr.Msg("shop.err.no_order", c)})
		}
	}
	b, err := s.basisFor(ctx, list)
	if err != nil {
		return out, err
	}
	rows := make([]map[orderfile.Field]string, 0, len(list))
	for _, k := range list {
		j := b.judge(ctx, k, nil, "")
		switch j.method.Mapping {
		case storage.MapService, storage.MapRules:
		case storage.MapNotOurs:
			out.Skipped = append(out.Skipped, Skipped{Code: k.Code, Why: apperr.Msg("shop.why.not_ours", k.Shipping.Name)})
			continue
		default:
			out.Skipped = append(out.Skipped, Skipped{Code: k.Code, Why: apperr.Msg("shop.why.unmapped", k.Shipping.Name)})
			continue
		}
		rows = append(rows, rowCells(k.Order, j.facts))
	}
	if len(rows) == 0 {
		return out, apperr.New(apperr.Invalid, "shop.err.none_to_ship")
	}
	out.Batch, err = s.desk.ImportRows(ctx, desk.RowsImport{Source: cut(b.conn.ShopName, 60), Name: batchName(b.conn.ShopName, s.now()),
		Handover: s.cfg.Handover, Rows: rows}, by)
	return out, err
}

// batchName names a batch of the shop's orders where a file's name would
// be: the shop and the moment, in the shop's zone.
func batchName(shop string, at time.Time) string {
	return cut(shop, 100) + " " + at.In(i18n.Prague).Format("2006-01-02 15:04")
}
