package views

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"shipdesk/i18n"
)

// ListView is the shipments list with its filter.
type ListView struct {
	Filter    Form // status, carrier, from, to, ref, q, sort, size: as in the URL
	Rows      []ListRow
	NextURL   string // "" on the last page
	LastURL   string // "" on the last page
	PrevURL   string // "" on the first page
	FirstURL  string // "" on the first page
	CSVURL    string
	Total     string // "1 234 shipments", "more than 2 000 shipments"
	CountURL  string // the list counted to the end, when Total stopped counting
	Position  string // "51–100 of 1 234"; "" when the page is empty
	Statuses  []Option
	Carriers  []Option
	Sorts     []Option
	Sizes     []Option
	FilterErr string
	Selection ListSelection
	Live      bool   // some row may still change: the rows ask for themselves again
	LiveURL   string // this page of the list, where they ask
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
	Status   string // the service's status of the shipment, which may come before any event
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
	Status, Name, Location string
	At                     time.Time // shown in the request's language and the shop's time zone
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
	Money        MoneyView
	Export       ReportExport
	Returns      ReturnsReport // the returns desk's section
}

// Bar is one bar of a chart and its row in the table.
type Bar struct {
	Key   string // as stored: a day as YYYY-MM-DD, a status code, a carrier code
	Label string // as shown
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
func shortLabel(b Bar) string {
	if len(b.Key) == 10 && strings.Count(b.Key, "-") == 2 {
		return b.Key[8:]
	}
	return b.Label
}

// Uncertain is the one name, on every page, of the state of a record whose
// creation the service may or may not have done (the answer was lost): the
// storage state "unknown" of shipments, commissions and pickups.
const Uncertain = "state.unknown"

func itoa(n int) string { return fmt.Sprint(n) }

// eventWhen is when a tracking event happened, in the request's language and
// the shop's time zone.
func eventWhen(ctx context.Context, e EventRow) string { return i18n.DateTime(ctx, e.At) }

// machineTime is a time for <time datetime>: what scripts and tests sort by.
func machineTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
