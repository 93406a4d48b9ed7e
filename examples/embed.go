// Package examples holds our batch template (orders.csv, as Czech Excel saves
// CSV UTF-8), so the dashboard offers it for download.
package examples

import _ "embed"

// OrdersCSV is the template of a day's orders.
//
//go:embed orders.csv
var OrdersCSV []byte
