package handlers

import (
	"context"
	"time"

	"shipdesk/i18n"
	"shipdesk/views"
	"shipdesk/workbench"
)

// returnsReport is the returns desk's section of the managers' Reports page:
// the claims settled in [from, to), by resolution.
func (h *Handlers) returnsReport(ctx context.Context, from, to time.Time) (views.ReturnsReport, error) {
	rep, err := h.ReturnsStore.ReturnsReport(ctx, from, to, workbench.WarrantyDays)
	if err != nil {
		return views.ReturnsReport{}, err
	}
	v := views.ReturnsReport{Resolved: rep.Resolved, WithinPeriod: rep.WithinPeriod, Late: rep.Late, AvgDays: "–"}
	if rep.AvgDays != nil {
		v.AvgDays = i18n.Number(ctx, *rep.AvgDays, 1)
	}
	for _, code := range workbench.Resolutions {
		v.PerResolution = append(v.PerResolution, views.Bar{Key: code, Label: i18n.T(ctx, "ret.res."+code), Count: rep.PerOutcome[code]})
	}
	return v, nil
}
