package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/storage"
)

// discard is a client that reads the export as fast as it comes.
type discard struct{ header http.Header }

func (d *discard) Header() http.Header         { return d.header }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) Flush()                      {}

// BenchmarkCSVExportRows is the export's own work per row, without the
// database: a row as the database gives it, written as CSV in Czech.
func BenchmarkCSVExportRows(b *testing.B) {
	at := time.Date(2026, 11, 20, 9, 5, 0, 0, time.UTC)
	h := &Handlers{Clock: clock.Frozen(at.Add(48 * time.Hour))}
	r := httptest.NewRequest(http.MethodGet, "/tracking.csv", nil)
	r = r.WithContext(i18n.WithLang(context.Background(), i18n.Czech))
	row := storage.ExportRow{ID: 123456, CreatedAt: at, Reference: "OBJ-123456", TrackingNumber: "T0000123456",
		RecipientName: "Jana Nováková 12", RecipientCity: "Plzeň", Carrier: "UPS", ServiceName: "Service", State: "created",
		Status: "DELIVERED", LabelMode: "PRINT", LabelStatus: "READY", CODValue: 1234.5, CODCurrency: "CZK",
		DeliveredAt: at.Add(30 * time.Hour), LastCheckedAt: at.Add(31 * time.Hour), Origin: "shipdesk"}
	const rows = 10000
	b.ReportAllocs()
	for b.Loop() {
		h.writeShipmentsCSV(&discard{header: http.Header{}}, r, func(fn func(*storage.ExportRow) error) error {
			for i := range rows {
				row.ID = int64(i)
				if err := fn(&row); err != nil {
					return err
				}
			}
			return nil
		})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
}
