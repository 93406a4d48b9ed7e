package desk

import (
	"context"
	"strings"

	"shipdesk/storage"
)

// RowPoints is what the point picker of a batch row searches: the carriers
// with points, the one the row most likely means, and its packages.
type RowPoints struct {
	Carriers []storage.Carrier
	Carrier  string
	Packages []Package
}

// RowPointsOf prepares the point picker of a row: the carrier of its chosen
// offer when that delivers to a point, else the carrier whose code the row's
// point code begins with, else the first carrier with points. The clerk may
// pick another (wanted, when it has points).
func (d *Desk) RowPointsOf(ctx context.Context, r BatchRow, wanted string) (RowPoints, error) {
	codes, err := d.db.PointCarriers(ctx)
	if err != nil || len(codes) == 0 {
		return RowPoints{}, err
	}
	var out RowPoints
	for _, c := range codes {
		out.Carriers = append(out.Carriers, d.carrier(ctx, c))
	}
	code := strings.ToUpper(strings.TrimSpace(r.Order.PointCode))
	for _, c := range codes {
		if c == wanted {
			out.Carrier = c
		}
	}
	if o, ok := r.Chosen(); ok && out.Carrier == "" && o.Offer.DeliveryRequired {
		out.Carrier = o.Offer.Carrier
	}
	for _, c := range codes {
		if out.Carrier == "" && code != "" && strings.HasPrefix(code, strings.ToUpper(c)) {
			out.Carrier = c
		}
	}
	if out.Carrier == "" {
		out.Carrier = codes[0]
	}
	o := r.Order
	out.Packages = []Package{{Weight: o.WeightKg, Length: o.LengthCm, Width: o.WidthCm, Height: o.HeightCm}}
	return out, nil
}
