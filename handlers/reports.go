package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// Reports shows the managers' figures over a period (default: the last 30 days).
func (h *Handlers) Reports(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	v := views.ReportView{}
	zone := i18n.ZoneOf(ctx)
	today := h.now().In(zone)
	to := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, zone).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -30)
	if s := strings.TrimSpace(q.Get("from")); s != "" {
		if d, problem := localDay(ctx, s); problem.IsZero() {
			from = d
		} else {
			v.Error = i18n.T(ctx, "trk.rep.err.date")
		}
	}
	if s := strings.TrimSpace(q.Get("to")); s != "" {
		if d, problem := localDay(ctx, s); problem.IsZero() {
			to = d.AddDate(0, 0, 1)
		} else {
			v.Error = i18n.T(ctx, "trk.rep.err.date")
		}
	}
	if !from.Before(to) || to.Sub(from) > 366*24*time.Hour {
		v.Error = i18n.T(ctx, "trk.rep.err.period")
		to = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, zone).AddDate(0, 0, 1)
		from = to.AddDate(0, 0, -30)
	}
	rep, err := h.ShipReads.Report(ctx, from, to)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.From, v.To = i18n.Date(ctx, from), i18n.Date(ctx, to.AddDate(0, 0, -1))
	if i18n.LangOf(ctx) == i18n.English {
		v.From, v.To = from.Format("2006-01-02"), to.AddDate(0, 0, -1).Format("2006-01-02")
	}
	v.Total, v.Cancelled, v.LabelsFailed = rep.Total, rep.Cancelled, rep.LabelsFailed
	v.Delivered, v.Returned = share(ctx, rep.Delivered, rep.Total), share(ctx, rep.Returned, rep.Total)
	v.AvgDays = "–"
	if rep.AvgDaysToDelivery != nil {
		v.AvgDays = i18n.Number(ctx, *rep.AvgDaysToDelivery, 1)
	}
	v.PerDay = bars(rep.PerDay, func(k string) string { return i18n.Day(ctx, k) })
	v.PerStatus = bars(rep.PerStatus, func(k string) string { return views.ParcelState(ctx, k) })
	v.PerCarrier = bars(rep.PerCarrier, h.carrierNames(ctx).of)
	if v.Money, err = h.moneyFigures(ctx, from, to); err != nil {
		h.Fail(w, r, err)
		return
	}
	v.Export = views.ReportExport{From: from.Format("2006-01-02"), To: to.AddDate(0, 0, -1).Format("2006-01-02")}
	if v.Returns, err = h.returnsReport(ctx, from, to); err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ReportPage(h.page(w, r, i18n.T(ctx, "trk.rep.title"), identity.Reports), v))
}

func share(ctx context.Context, n, total int) string {
	if total == 0 {
		return "–"
	}
	return i18n.T(ctx, "trk.rep.share", i18n.Number(ctx, float64(n)*100/float64(total), 0), i18n.Int(ctx, int64(n)))
}

func bars(counts []storage.Count, label func(string) string) []views.Bar {
	out := make([]views.Bar, 0, len(counts))
	for _, c := range counts {
		out = append(out, views.Bar{Key: c.Key, Label: label(c.Key), Count: c.Count})
	}
	return out
}
