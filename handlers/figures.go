package handlers

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// figureReads are the money figures of the reports.
type figureReads interface {
	CODReport(ctx context.Context, from, to time.Time) ([]storage.CODFigures, error)
	SpendReport(ctx context.Context, from, to time.Time) ([]storage.CarrierSpend, error)
}

// moneyFigures is the reports' money over [from, to): cash on delivery per
// currency and the spend per carrier, every amount in its own currency.
func (h *Handlers) moneyFigures(ctx context.Context, from, to time.Time) (views.MoneyView, error) {
	var m views.MoneyView
	cod, err := h.ShipReads.CODReport(ctx, from, to)
	if err != nil {
		return m, err
	}
	for _, c := range cod {
		cell := func(value float64, n int) views.MoneyCell {
			return views.MoneyCell{Amount: i18n.Money(ctx, value, c.Currency), Shipments: shipmentsText(ctx, n)}
		}
		m.COD = append(m.COD, views.CODRow{Currency: c.Currency, Collected: cell(c.Collected, c.CollectedCount),
			OnTheWay: cell(c.OnTheWay, c.OnTheWayCount), Returned: cell(c.Returned, c.ReturnedCount)})
	}
	spend, err := h.ShipReads.SpendReport(ctx, from, to)
	if err != nil {
		return m, err
	}
	if len(spend) == 0 {
		return m, nil
	}
	total := storage.CarrierSpend{Carrier: i18n.T(ctx, "fig.rep.total")}
	names := h.carrierNames(ctx)
	for _, c := range spend {
		m.Spend = append(m.Spend, spendRow(ctx, c, names.of(c.Carrier)))
		total.Shipments += c.Shipments
		total.Unknown += c.Unknown
		for _, a := range c.Spend {
			i := slices.IndexFunc(total.Spend, func(t storage.Amount) bool { return t.Currency == a.Currency })
			if i < 0 {
				total.Spend = append(total.Spend, storage.Amount{Currency: a.Currency})
				i = len(total.Spend) - 1
			}
			total.Spend[i].Value += a.Value
			total.Spend[i].Count += a.Count
		}
	}
	slices.SortStableFunc(total.Spend, func(a, b storage.Amount) int { return czkFirst(a.Currency, b.Currency) })
	t := spendRow(ctx, total, total.Carrier)
	m.SpendTotal = &t
	return m, nil
}

// czkFirst orders currencies: CZK, then the others by their code.
func czkFirst(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "CZK":
		return -1
	case b == "CZK":
		return 1
	}
	return strings.Compare(a, b)
}

func spendRow(ctx context.Context, c storage.CarrierSpend, name string) views.SpendRow {
	row := views.SpendRow{Carrier: c.Carrier, Name: name, Shipments: i18n.Int(ctx, int64(c.Shipments)), Unknown: i18n.Int(ctx, int64(c.Unknown)),
		NoPrice: len(c.Spend) == 0 && c.Unknown > 0}
	for _, a := range c.Spend {
		row.Spend = append(row.Spend, i18n.Money(ctx, a.Value, a.Currency))
		if a.Count > 0 {
			row.Average = append(row.Average, i18n.Money(ctx, a.Value/float64(a.Count), a.Currency))
		}
	}
	return row
}

// shipmentsText is "1 shipment", "1 234 shipments" in the request's language.
func shipmentsText(ctx context.Context, n int) string {
	return i18n.N(ctx, "fig.shipments", n, i18n.Int(ctx, int64(n)))
}

// reportTables are the tables of the reports that can be downloaded.
var reportTables = []string{"cod", "carriers", "statuses", "days"}

// ReportExport downloads one table of the reports over a period, as CSV in
// the person's language (as the shipments export) or as XLSX. The period is
// the one the page showed; a period or table that cannot be read is refused
// (400) with a message, never replaced by another.
func (h *Handlers) ReportExport(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	table, format := q.Get("table"), q.Get("format")
	if !slices.Contains(reportTables, table) {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "fig.err.table"))
		return
	}
	if format != "csv" && format != "xlsx" {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "fig.err.format"))
		return
	}
	from, to, ok := exportPeriod(ctx, q.Get("from"), q.Get("to"))
	if !ok {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "fig.err.period"))
		return
	}
	t, err := h.reportTable(ctx, table, from, to)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	name := fmt.Sprintf("%s-%s-%s", table, from.Format("20060102"), to.AddDate(0, 0, -1).Format("20060102"))
	if format == "xlsx" {
		h.writeXLSX(w, r, name+".xlsx", t)
		return
	}
	writeCSVTable(ctx, w, name+".csv", t)
}

// writeCSVTable sends a table as a CSV download in the person's language.
func writeCSVTable(ctx context.Context, w http.ResponseWriter, filename string, t figTable) {
	out := startCSV(ctx, w, filename)
	line := out.newLine()
	for _, hd := range t.header {
		line.text(hd)
	}
	_, _ = out.buf.Write(line.end())
	for _, row := range t.rows {
		line.start()
		for _, c := range row {
			out.cell(ctx, line, c)
		}
		_, _ = out.buf.Write(line.end())
	}
	_ = out.buf.Flush()
}

// exportPeriod reads an export's period: both days, the first not after the
// last, one year at most; to is the day after the last.
func exportPeriod(ctx context.Context, fromText, toText string) (from, to time.Time, ok bool) {
	for _, s := range []string{fromText, toText} {
		if _, problem := textin.Line(s, 40); !problem.IsZero() || strings.TrimSpace(s) == "" {
			return from, to, false
		}
	}
	from, p1 := localDay(ctx, fromText)
	last, p2 := localDay(ctx, toText)
	to = last.AddDate(0, 0, 1)
	if !p1.IsZero() || !p2.IsZero() || !from.Before(to) || to.Sub(from) > 367*24*time.Hour {
		return from, to, false
	}
	return from, to, true
}

// figTable is a table of the reports as a download writes it.
type figTable struct {
	title  string // the sheet's name
	header []string
	rows   [][]any // string, int, day (a calendar day) or money (an amount with two decimals)
}

type (
	day   string // a calendar day, YYYY-MM-DD: no time zone moves it
	money float64
)

// cell writes one value of a table as the CSV of the person's language:
// numbers and days as values, anything else as text.
func (c *csvFile) cell(ctx context.Context, line *csvLine, v any) {
	switch x := v.(type) {
	case int:
		line.value(strconv.Itoa(x))
	case money:
		line.value(c.decimal(float64(x), 2))
	case day:
		if c.czech {
			line.value(i18n.Day(ctx, string(x)))
		} else {
			line.value(string(x))
		}
	case string:
		line.text(x)
	default:
		line.text(fmt.Sprint(v))
	}
}

// reportTable reads one table of the reports, its headers in the request's
// language.
func (h *Handlers) reportTable(ctx context.Context, table string, from, to time.Time) (figTable, error) {
	head := func(keys ...string) []string {
		out := make([]string, len(keys))
		for i, k := range keys {
			out[i] = i18n.T(ctx, "fig.csv."+k)
		}
		return out
	}
	switch table {
	case "cod":
		cod, err := h.ShipReads.CODReport(ctx, from, to)
		t := figTable{title: i18n.T(ctx, "fig.rep.cod"),
			header: head("currency", "collected", "collected_count", "outstanding", "outstanding_count", "returned", "returned_count")}
		for _, c := range cod {
			t.rows = append(t.rows, []any{c.Currency, money(c.Collected), c.CollectedCount, money(c.OnTheWay), c.OnTheWayCount,
				money(c.Returned), c.ReturnedCount})
		}
		return t, err
	case "carriers":
		spend, err := h.ShipReads.SpendReport(ctx, from, to)
		t := figTable{title: i18n.T(ctx, "fig.rep.spend"),
			header: head("carrier", "shipments", "currency", "spend", "priced", "average", "unknown")}
		names := h.carrierNames(ctx)
		for _, c := range spend {
			if len(c.Spend) == 0 {
				t.rows = append(t.rows, []any{names.of(c.Carrier), c.Shipments, "", "", 0, "", c.Unknown})
			}
			for _, a := range c.Spend {
				t.rows = append(t.rows, []any{names.of(c.Carrier), c.Shipments, a.Currency, money(a.Value), a.Count,
					money(a.Value / float64(max(a.Count, 1))), c.Unknown})
			}
		}
		return t, err
	}
	rep, err := h.ShipReads.Report(ctx, from, to)
	if table == "statuses" {
		// The state in words only: a person reads the export, so no code of the service.
		t := figTable{title: i18n.T(ctx, "trk.rep.per_status"), header: head("status", "shipments")}
		for _, c := range rep.PerStatus {
			t.rows = append(t.rows, []any{views.ParcelState(ctx, c.Key), c.Count})
		}
		return t, err
	}
	t := figTable{title: i18n.T(ctx, "trk.rep.per_day"), header: head("day", "shipments")}
	for _, c := range rep.PerDay {
		t.rows = append(t.rows, []any{day(c.Key), c.Count})
	}
	return t, err
}

// sheetName fits a title into a sheet's name: at most 31 characters, none of
// those a spreadsheet refuses.
func sheetName(title string) string {
	title = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return ' '
		}
		return r
	}, title)
	cut, _ := textin.Cut(strings.TrimSpace(title), 31)
	if cut == "" {
		return "Sheet1"
	}
	return cut
}

func columnName(n int) string {
	name, err := excelize.ColumnNumberToName(max(n, 1))
	if err != nil {
		return "A"
	}
	return name
}
