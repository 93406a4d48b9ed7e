package views

import "net/url"

// MoneyView is the money of the reports: cash on delivery per currency and
// what the shipments cost per carrier. Amounts are written by i18n.Money,
// one currency each: currencies are never added together.
type MoneyView struct {
	COD        []CODRow
	Spend      []SpendRow
	SpendTotal *SpendRow // all carriers; nil when there are none
}

// CODRow is cash on delivery in one currency.
type CODRow struct {
	Currency                      string
	Collected, OnTheWay, Returned MoneyCell
}

// MoneyCell is an amount and how many shipments it is.
type MoneyCell struct {
	Amount    string // "1 500 Kč"
	Shipments string // "3 zásilky"
}

// SpendRow is what one carrier's shipments cost.
type SpendRow struct {
	Carrier   string // the carrier's code (the total's words for the total)
	Name      string // what people read
	Shipments string
	Spend     []string // one amount per currency, CZK first
	Average   []string // per shipment with a known price, per currency
	Unknown   string   // how many have no known price
	NoPrice   bool     // not one shipment has a known price
}

// ReportExport names where a table of the reports is downloaded.
type ReportExport struct {
	From, To string // the period, YYYY-MM-DD
}

// URL is the download of a table in a format (csv, xlsx).
func (e ReportExport) URL(table, format string) string {
	q := url.Values{"table": {table}, "format": {format}, "from": {e.From}, "to": {e.To}}
	return "/reports/export?" + q.Encode()
}
