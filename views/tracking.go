package views

import (
	"fmt"
	"net/url"
	"strings"
)

// ListView is the shipments list with its filter.
type ListView struct {
	Filter    Form // status, carrier, from, to, ref, q, sort: as in the URL
	Rows      []ListRow
	NextURL   string // "" on the last page
	FirstURL  string // "" on the first page
	CSVURL    string
	Statuses  []Option
	Carriers  []Option
	Sorts     []Option
	FilterErr string
}

// ListRow is one shipment of the list.
type ListRow struct {
	ShipmentRow
	City        string
	Returned    bool
	LastChecked string
	Origin      string
}

// TimelineView is the tracking of one shipment: one timeline per package.
type TimelineView struct {
	Returned bool
	Packages []PackageTimeline
}

// PackageTimeline is the events of one package, newest first.
type PackageTimeline struct {
	Number string
	Status string
	Events []EventRow
}

// EventRow is one tracking event.
type EventRow struct {
	When, Status, Name, Location string
}

// ReportView is the managers' figures.
type ReportView struct {
	From, To     string
	Total        int
	Delivered    string // share, e.g. "62 %"
	Returned     string
	Cancelled    int
	LabelsFailed int
	AvgDays      string
	PerDay       []Bar
	PerStatus    []Bar
	PerCarrier   []Bar
	Error        string
}

// Bar is one bar of a chart and its row in the table.
type Bar struct {
	Label string
	Count int
}

// QueryURL is path with the non-empty values as its query.
func QueryURL(path string, values map[string]string) string {
	q := url.Values{}
	for k, v := range values {
		if v != "" {
			q.Set(k, v)
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// chart geometry: a bar chart drawn on the server as SVG.
type chart struct {
	Width, Height, BarWidth, Gap, Max int
	Bars                              []Bar
}

func newChart(bars []Bar, height int) chart {
	c := chart{Height: height, Bars: bars, Max: 1}
	for _, b := range bars {
		c.Max = max(c.Max, b.Count)
	}
	c.BarWidth, c.Gap = 72, 12 // few bars: wide enough for their labels
	if len(bars) > 8 {
		c.BarWidth, c.Gap = 22, 4
	}
	c.Width = max(len(bars)*(c.BarWidth+c.Gap)+c.Gap, 120)
	return c
}

func (c chart) barHeight(b Bar) int { return b.Count * (c.Height - 30) / c.Max }
func (c chart) x(i int) int         { return c.Gap + i*(c.BarWidth+c.Gap) }
func (c chart) y(b Bar) int         { return c.Height - 18 - c.barHeight(b) }

// shortLabel keeps axis labels readable: days show as DD.
func shortLabel(s string) string {
	if len(s) == 10 && strings.Count(s, "-") == 2 {
		return s[8:]
	}
	return s
}

func itoa(n int) string { return fmt.Sprint(n) }
