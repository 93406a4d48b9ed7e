package desk

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
)

// MaxNote is the most characters one internal note on a shipment holds.
const MaxNote = 2000

// AddNote keeps an internal note on a shipment: the staff's own, never sent
// to the service. key is the form's request key: the same form posted again
// adds nothing.
func (d *Desk) AddNote(ctx context.Context, id int64, key, text string, by int64) (storage.ShipmentNote, error) {
	text, problem := textin.Lines(text, MaxNote)
	switch {
	case !problem.IsZero():
		return storage.ShipmentNote{}, invalid(apperr.Problems{"note_text": problem})
	case text == "":
		return storage.ShipmentNote{}, invalid(apperr.Problems{"note_text": apperr.Msg("notes.err.empty")})
	case !requestkey.Valid(key):
		return storage.ShipmentNote{}, invalid(apperr.Problems{"note_text": apperr.Msg("notes.err.damaged")})
	}
	n, _, err := d.db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: key, ShipmentID: id, Text: text, CreatedAt: d.now()}, by)
	return n, err
}
