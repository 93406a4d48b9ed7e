package desk

import (
	"context"
	"encoding/json"
	"fmt"

	"shipdesk/client/shipping"
	"shipdesk/storage"
	"shipdesk/textin"
)

// pointsPage is how many points one parcelpoints/list call brings.
const pointsPage = 500

// RefreshPoints copies every parcel point of the service into the local cache
// and drops the ones the service no longer lists. It returns how many it saw.
func (d *Desk) RefreshPoints(ctx context.Context) (int, error) {
	started := d.now()
	seen := 0
	for page := 1; ; page++ {
		res, err := d.ship.ParcelPoints(ctx, shipping.PointQuery{Page: page, PerPage: pointsPage})
		if err != nil {
			return seen, UpstreamError(fmt.Sprintf("load parcel points (page %d)", page), err)
		}
		batch := make([]storage.ParcelPoint, 0, len(res.Points))
		for _, p := range res.Points {
			batch = append(batch, storage.ParcelPoint{ID: p.ID, Carrier: p.Carrier, Code: p.Code, Name: p.Name, Street: p.Street,
				City: p.City, Zip: p.Zip, Country: p.Country, IsLocker: p.IsLocker, LocationID: p.LocationID})
		}
		textin.FromService(&batch)
		if err := d.db.UpsertPoints(ctx, batch, started); err != nil {
			return seen, err
		}
		seen += len(batch)
		if len(res.Points) == 0 || page >= res.Pages {
			break
		}
	}
	if seen > 0 { // an empty answer is more likely a fault than a service without points
		if _, err := d.db.DeletePointsBefore(ctx, started); err != nil {
			return seen, err
		}
	}
	d.log.Info("parcel points refreshed", "points", seen)
	return seen, nil
}

// ImportContacts copies the service's stored pickup addresses into the senders.
func (d *Desk) ImportContacts(ctx context.Context) (int, error) {
	contacts, err := d.ship.Contacts(ctx)
	if err != nil {
		return 0, UpstreamError("pick.doing.addresses", err)
	}
	textin.FromService(&contacts)
	for _, c := range contacts {
		id := c.ID
		label := c.Company
		if label == "" {
			label = c.Street + ", " + c.City
		}
		s := storage.Sender{Label: label, ContactID: &id, Address: addressOf(c.Address).stored()}
		if _, err := d.db.SaveSender(ctx, s); err != nil {
			return 0, err
		}
	}
	return len(contacts), nil
}

// PointsShown is how many points a picker shows at most; it says when more match.
const PointsShown = 15

// SearchPoints finds points of the offer's carrier by what the clerk typed,
// hiding points the form's packages do not fit: the first PointsShown, and
// how many match in all.
func (d *Desk) SearchPoints(ctx context.Context, carrier, country, text string, packages []Package) (storage.PointsFound, error) {
	var dims [][3]float64
	var weights []float64
	for _, k := range packages {
		dims = append(dims, [3]float64{k.Length, k.Width, k.Height})
		weights = append(weights, k.Weight)
	}
	return d.db.FindPoints(ctx, storage.PointQuery{Carrier: carrier, Country: country, Text: text, Fit: storage.FitOf(dims, weights), Limit: PointsShown})
}

// ShipmentPoint is a point a shipment uses: where the clerk hands it over, or
// where the recipient collects it.
type ShipmentPoint struct {
	Code  string
	Any   bool                 // any point of the carrier: the clerk chooses where
	Point *storage.ParcelPoint // nil when the cache does not know the code
}

// ShipmentPoints reads the points of a shipment's order as it was sent: the
// hand-over point and the delivery point, each nil when the order names none.
func (d *Desk) ShipmentPoints(ctx context.Context, s storage.Shipment) (pickup, delivery *ShipmentPoint) {
	var order shipping.Order
	if len(s.Request) == 0 || json.Unmarshal(s.Request, &order) != nil || len(order.Shipments) == 0 {
		return nil, nil
	}
	sh := order.Shipments[0]
	point := func(code string) *ShipmentPoint {
		switch code {
		case "":
			return nil
		case shipping.AnyBranch:
			return &ShipmentPoint{Code: code, Any: true}
		}
		p := &ShipmentPoint{Code: code}
		if found, err := d.db.PointByCode(ctx, s.Carrier, code); err == nil {
			p.Point = &found
		}
		return p
	}
	return point(sh.PickupBranch), point(sh.DeliveryBranch)
}
