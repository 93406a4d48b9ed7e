package desk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// A batch never ships a parcel twice: each row is recognised, when it is
// read and again just before it is ordered, as what was ordered already (a
// shipment with its reference, a row of any batch ordered or being ordered,
// an earlier row of the same file). Such a row is known: it is never priced,
// ordered or sent as a draft, until the clerk says it is a new parcel and
// gives it a reference of its own (the service finds shipments by it, so it
// must be new).

// Fingerprint is what identifies an order without a reference: its recipient
// and its content, with case, diacritics, spaces and punctuation left out,
// so the same order exported twice matches. "" when the row says too little
// to tell (no name, or no address).
func Fingerprint(o orderfile.Order) string {
	name := alnum(o.FirstName + o.Surname + o.Company)
	street, zip := alnum(o.Street), digits(o.Zip)
	if name == "" || street == "" && zip == "" {
		return ""
	}
	phone := digits(o.Phone)
	if len(phone) > 9 {
		phone = phone[len(phone)-9:] // the national number, with or without the country's prefix
	}
	currency := ""
	if o.COD {
		currency = strings.ToUpper(strings.TrimSpace(o.CODCurrency))
	}
	parts := []string{name, street, zip, alnum(o.City), strings.ToUpper(strings.TrimSpace(o.Country)), phone,
		strings.ToLower(strings.TrimSpace(o.Email)),
		fmt.Sprintf("%.3f/%.1f/%.1f/%.1f", o.WeightKg, o.LengthCm, o.WidthCm, o.HeightCm),
		fmt.Sprintf("%.2f%s", o.CODAmount, currency), alnum(o.PointCode)}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x1f")))
	return hex.EncodeToString(sum[:16])
}

// alnum is text folded (lower case, no diacritics) with only its letters and digits.
func alnum(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, storage.Fold(s))
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// identify stores what a row is recognised by: its reference, or, without
// one, its fingerprint. A new parcel is recognised by its reference alone
// (it looks like what it is not).
func identify(row *storage.BatchRow, o orderfile.Order) {
	row.Reference = strings.TrimSpace(o.Reference)
	row.Fingerprint = ""
	if row.Reference == "" && !row.NewParcel {
		row.Fingerprint = Fingerprint(o)
	}
}

// known makes a row known as what it matches.
func known(row *storage.BatchRow, m storage.OrderedMatch) {
	row.State = storage.RowKnown
	row.Problems = storage.JSON("[]")
	row.KnownShipment, row.KnownBatch, row.KnownLine = m.ShipmentID, nil, m.Line
	if m.BatchID != 0 {
		row.KnownBatch = &m.BatchID
	}
	if m.ShipmentID != nil {
		row.KnownBatch, row.KnownLine = nil, 0
	}
}

// forget clears what a row was known as.
func forget(row *storage.BatchRow) {
	row.KnownShipment, row.KnownBatch, row.KnownLine = nil, nil, 0
}

// matchOf picks the match of a row from matches (shipments first).
func matchOf(row storage.BatchRow, matches []storage.OrderedMatch) (storage.OrderedMatch, bool) {
	for _, m := range matches {
		if row.Reference != "" && m.Reference == row.Reference || row.Fingerprint != "" && m.Fingerprint == row.Fingerprint {
			return m, true
		}
	}
	return storage.OrderedMatch{}, false
}

// recogniseFile makes known the rows of a new file that were ordered before,
// and those that repeat an earlier row of the same file.
func (d *Desk) recogniseFile(ctx context.Context, rows []storage.BatchRow) error {
	var refs, prints []string
	for _, r := range rows {
		if r.Reference != "" {
			refs = append(refs, r.Reference)
		}
		if r.Fingerprint != "" {
			prints = append(prints, r.Fingerprint)
		}
	}
	matches, err := d.db.OrderedMatches(ctx, refs, prints, storage.BeforeAll)
	if err != nil {
		return err
	}
	firstLine := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if m, ok := matchOf(*r, matches); ok {
			known(r, m)
			continue
		}
		for _, id := range []string{"r:" + r.Reference, "f:" + r.Fingerprint} {
			if id == "r:" || id == "f:" {
				continue
			}
			if line, ok := firstLine[id]; ok {
				known(r, storage.OrderedMatch{Line: line}) // the batch is this one (CreateBatch)
				break
			}
		}
		if r.State == storage.RowKnown {
			continue
		}
		for _, id := range []string{"r:" + r.Reference, "f:" + r.Fingerprint} {
			if id != "r:" && id != "f:" {
				firstLine[id] = r.Line
			}
		}
	}
	return nil
}

// orderedBefore finds what a stored row repeats: a shipment, or a row
// stored before it that is ordered or being ordered.
func (d *Desk) orderedBefore(ctx context.Context, row storage.BatchRow) (storage.OrderedMatch, bool, error) {
	_, m, found, err := d.sentOrOrderedBefore(ctx, row, "")
	return m, found, err
}

// sentOrOrderedBefore is orderedBefore for a row about to be ordered under
// key, asked together with whether the row was sent already (sent: an order
// is recorded under its key; then nothing is matched).
func (d *Desk) sentOrOrderedBefore(ctx context.Context, row storage.BatchRow, key string) (sent bool, m storage.OrderedMatch, found bool, err error) {
	var refs, prints []string
	if row.Reference != "" {
		refs = []string{row.Reference}
	}
	if row.Fingerprint != "" {
		prints = []string{row.Fingerprint}
	}
	sent, matches, err := d.db.RowMatches(ctx, key, refs, prints, row.ID)
	if err != nil || sent {
		return sent, storage.OrderedMatch{}, false, err
	}
	m, found = matchOf(row, matches)
	return false, m, found, nil
}

// MaxReference is the longest reference a new parcel may have (the form's).
const MaxReference = maxReference

// SuggestReference is a reference for a known row that is a new parcel: its
// own with -2 (or the next number free), "" when it has none (the order then
// makes one from the row's request key).
func (d *Desk) SuggestReference(ctx context.Context, reference string) string {
	if reference == "" {
		return ""
	}
	for n := 2; n < 50; n++ {
		s := fmt.Sprintf("%s-%d", reference, n)
		if len([]rune(s)) > maxReference {
			return ""
		}
		if used, err := d.db.ReferenceUsed(ctx, s); err == nil && !used {
			return s
		}
	}
	return ""
}

// NewParcel takes a known row as a new parcel, with its own reference (the
// clerk's, read by the form's rules; a row that had a reference must get a
// new one, free): it is checked, and priced when it has no problems.
func (d *Desk) NewParcel(ctx context.Context, batch, id int64, reference string) (BatchRow, error) {
	b, row, err := d.batchRow(ctx, batch, id)
	if err != nil {
		return BatchRow{}, err
	}
	r := ReadBatchRow(row)
	if row.State != storage.RowKnown {
		return r, apperr.New(apperr.Conflict, "batch.err.not_known")
	}
	f, p := ParseForm(map[string][]string{"reference": {reference}})
	if t, bad := p["reference"]; bad {
		return r, apperr.Fields("form.see_fields", apperr.Problems{"reference": t})
	}
	ref := f.Reference
	switch {
	case ref == "" && row.Reference != "":
		return r, apperr.Fields("form.see_fields", apperr.Problems{"reference": apperr.Msg("batch.err.new_reference")})
	case ref != "" && ref == row.Reference:
		return r, apperr.Fields("form.see_fields", apperr.Problems{"reference": apperr.Msg("batch.err.same_reference", ref)})
	case ref != "":
		used, err := d.db.ReferenceUsed(ctx, ref)
		if err != nil {
			return r, err
		}
		if used {
			return r, apperr.Fields("form.see_fields", apperr.Problems{"reference": apperr.Msg("batch.err.reference_used", ref)})
		}
	}
	cells := r.Cells
	if cells == nil {
		cells = map[orderfile.Field]string{}
	}
	cells[orderfile.Reference] = ref
	row.NewParcel = true
	forget(&row)
	return d.recheck(ctx, b, row, orderfile.Reread(row.Line, cells), []string{storage.RowKnown})
}
