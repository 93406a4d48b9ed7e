// Package examples holds our batch template (orders.csv, as Czech Excel saves
// CSV UTF-8) and its column guide, so the dashboard offers both for download.
package examples

import _ "embed"

// OrdersCSV is the template of a day's orders.
//
//go:embed orders.csv
var OrdersCSV []byte

// OrdersGuide explains every column of the template.
//
//go:embed README-orders.md
var OrdersGuide []byte
