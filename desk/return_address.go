package desk

import (
	"context"
	"net/url"
	"strconv"

	"shipdesk/apperr"
)

// SaveReturnAddress checks the return address form and stores it: a
// sender of the address book by its id, or "" for the default sender. The
// values are the form as typed, to show again when it fails.
func (d *Desk) SaveReturnAddress(ctx context.Context, v url.Values) (map[string]string, error) {
	vals, p := bookFields(v, 20, nil, "return_sender")
	var id *int64
	if s := vals["return_sender"]; s != "" && len(p) == 0 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			p.Add("return_sender", "form.choose_list")
		}
		id = &n
	}
	if len(p) > 0 {
		return vals, apperr.Fields(fixFields, p)
	}
	err := d.db.SaveReturnSender(ctx, id)
	if apperr.Is(err, apperr.NotFound) { // removed meanwhile, or never there
		return vals, apperr.Fields(fixFields, apperr.Problems{"return_sender": apperr.Msg("retparcel.err.sender_gone")})
	}
	return vals, err
}
