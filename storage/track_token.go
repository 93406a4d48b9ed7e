package storage

import (
	"context"
	"time"
)

// ShipmentIDByTrackToken finds the shipment a public tracking page's token
// names (its unique index); an unknown token is NotFound.
func (db *DB) ShipmentIDByTrackToken(ctx context.Context, token string) (int64, error) {
	var id int64
	err := sqlxGet(ctx, db, &id, `SELECT id FROM shipments WHERE track_token = $1`, token)
	return id, wrapf(notFound(err, "track.err.unknown"), "shipment by its tracking page")
}

// TrackToken is a shipment's public tracking page's token.
func (db *DB) TrackToken(ctx context.Context, shipmentID int64) (string, error) {
	var token string
	err := sqlxGet(ctx, db, &token, `SELECT track_token FROM shipments WHERE id = $1`, shipmentID)
	return token, wrapf(notFound(err, "rec.no_shipment", shipmentID), "tracking page of shipment %d", shipmentID)
}

// ExpectedDelivery is the day the service last said it expects the parcel
// delivered; nil when it said none.
func (db *DB) ExpectedDelivery(ctx context.Context, shipmentID int64) (*time.Time, error) {
	var day *time.Time
	err := sqlxGet(ctx, db, &day, `SELECT expected_delivery FROM shipments WHERE id = $1`, shipmentID)
	return day, wrapf(notFound(err, "rec.no_shipment", shipmentID), "expected delivery of shipment %d", shipmentID)
}
