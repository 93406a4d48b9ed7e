package desk

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// num writes a number for the form as the form's reader reads it.
func num(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// rowColumns pairs the fields of the new-shipment form with the columns of a
// row that fill them, so a row is read as a posted form (rowValues) and the
// form's problems land on the row's columns (rowField) by one table.
var rowColumns = []struct {
	form   string
	column orderfile.Field
	value  func(orderfile.Order) string
}{
	{"reference", orderfile.Reference, func(o orderfile.Order) string { return o.Reference }},
	{"note", orderfile.Note, func(o orderfile.Order) string { return o.Note }},
	{"to_firstname", orderfile.FirstName, func(o orderfile.Order) string { return o.FirstName }},
	{"to_surname", orderfile.Surname, func(o orderfile.Order) string { return o.Surname }},
	{"to_company", orderfile.Company, func(o orderfile.Order) string { return o.Company }},
	{"to_street", orderfile.Street, func(o orderfile.Order) string { return o.Street }},
	{"to_city", orderfile.City, func(o orderfile.Order) string { return o.City }},
	{"to_zip", orderfile.Zip, func(o orderfile.Order) string { return o.Zip }},
	{"to_country", orderfile.Country, func(o orderfile.Order) string { return o.Country }},
	{"to_phone", orderfile.Phone, func(o orderfile.Order) string { return o.Phone }},
	{"to_email", orderfile.Email, func(o orderfile.Order) string { return o.Email }},
	{"pkg_weight", orderfile.WeightKg, func(o orderfile.Order) string { return num(o.WeightKg) }},
	{"pkg_length", orderfile.LengthCm, func(o orderfile.Order) string { return num(o.LengthCm) }},
	{"pkg_width", orderfile.WidthCm, func(o orderfile.Order) string { return num(o.WidthCm) }},
	{"pkg_height", orderfile.HeightCm, func(o orderfile.Order) string { return num(o.HeightCm) }},
	{"delivery_branch", orderfile.PointCode, func(o orderfile.Order) string { return o.PointCode }},
	{"cod_value", orderfile.CODAmount, func(o orderfile.Order) string { return when(o.COD, num(o.CODAmount)) }},
	{"cod_currency", orderfile.CODCurrency, func(o orderfile.Order) string { return when(o.COD, o.CODCurrency) }},
	{"insured_value", orderfile.InsuredValue, func(o orderfile.Order) string { return when(o.InsuredValue > 0, num(o.InsuredValue)) }},
	{"no_customer_mail", orderfile.NoCustomerMail, func(o orderfile.Order) string { return when(o.NoCustomerMail, "on") }},
}

// when is s when ok, else nothing.
func when(ok bool, s string) string {
	if ok {
		return s
	}
	return ""
}

// rowValues are a row as the new-shipment form would post it.
func rowValues(b storage.Batch, key string, o orderfile.Order) url.Values {
	v := url.Values{"key": {key}, "handover": {b.Handover}}
	for _, c := range rowColumns {
		if x := c.value(o); x != "" || !strings.HasPrefix(c.form, "cod_") && c.form != "insured_value" {
			v.Set(c.form, x)
		}
	}
	if b.SenderID != nil {
		v.Set("sender", strconv.FormatInt(*b.SenderID, 10))
	}
	if o.COD {
		v.Set("cod", "on")
	}
	if o.InsuredValue > 0 {
		v.Set("insure", "on")
	}
	setCustomsValues(v, o.Customs)
	return v
}

// rowField names the row's column of a form field ("" for none).
func rowField(field string) string {
	switch {
	case field == "packages":
		return string(orderfile.WeightKg)
	case field == "cod":
		return string(orderfile.CODAmount)
	case strings.HasPrefix(field, "customs_"):
		return string(customsColumn(field))
	}
	for _, c := range rowColumns {
		// A package's fields are numbered on the form (pkg_weight_0).
		if field == c.form || strings.HasPrefix(c.form, "pkg_") && strings.HasPrefix(field, c.form) {
			return string(c.column)
		}
	}
	return ""
}

// rowForm is the new-shipment form of a row, read by the form's own reader
// with the shop's bank details filled in as the form fills them; its
// problems are the reader's.
func (d *Desk) rowForm(ctx context.Context, b storage.Batch, key string, o orderfile.Order, rd *rowReads) (Form, apperr.Problems, error) {
	s, err := rd.bankDetails(ctx)
	return d.rowFormWith(ctx, b, key, o, s, err)
}

// rowFormWith is rowForm with the shop's bank details read before (and
// the error of reading them).
func (d *Desk) rowFormWith(ctx context.Context, b storage.Batch, key string, o orderfile.Order, s storage.ShippingSettings, serr error) (Form, apperr.Problems, error) {
	f, p := ParseForm(rowValues(b, key, o))
	if serr != nil {
		return f, p, serr
	}
	fillCOD(&f, s)
	if f.DeliveryBranch != "" {
		if pt, ok := d.pointByCode(ctx, f.DeliveryBranch); ok {
			// Delivered to a point: the point is the address the offers are asked for.
			f.To.City, f.To.Zip = cmp.Or(f.To.City, pt.City), cmp.Or(f.To.Zip, pt.Zip)
		} else {
			p.Add("delivery_branch", "batch.err.point_unknown", f.DeliveryBranch)
		}
	}
	return f, p, nil
}

// rowBasis is what each row of a batch is checked against, read once for
// all the rows of a file: the shop's bank details and the batch's sender.
type rowBasis struct {
	settings    storage.ShippingSettings
	settingsErr error
	senderID    int64
	from        storage.Sender
	fromErr     error
}

func (d *Desk) basisOf(ctx context.Context, b storage.Batch) rowBasis {
	rb := rowBasis{}
	rb.settings, rb.settingsErr = d.db.Settings(ctx)
	if b.SenderID != nil {
		rb.senderID = *b.SenderID
	}
	rb.from, rb.fromErr = d.sender(ctx, Form{SenderID: rb.senderID})
	return rb
}

// pointByCode finds a point of any carrier by its code.
func (d *Desk) pointByCode(ctx context.Context, code string) (storage.ParcelPoint, bool) {
	found, err := d.db.PointsByCode(ctx, code)
	if err != nil || len(found) == 0 {
		return storage.ParcelPoint{}, false
	}
	return found[0], true
}

// checkRow checks a row read from the file by the form's rules and stores
// its cells, values, problems and state in row.
func (d *Desk) checkRow(ctx context.Context, basis rowBasis, b storage.Batch, row *storage.BatchRow, r orderfile.Row) {
	var problems []RowProblem
	for _, p := range r.Problems {
		problems = append(problems, RowProblem{Field: string(p.Field), Text: apperr.Msg(p.Key, p.Args...)})
	}
	seen := map[string]bool{}
	add := func(ps apperr.Problems) {
		fields := make([]string, 0, len(ps))
		for k := range ps {
			fields = append(fields, k)
		}
		slices.Sort(fields)
		for _, k := range fields {
			field := rowField(k)
			t := ps[k]
			if id := field + "\x00" + t.String(); !seen[id] {
				seen[id] = true
				problems = append(problems, RowProblem{Field: field, Text: t})
			}
		}
	}
	f, p, err := d.rowFormWith(ctx, b, row.RequestKey, r.Order, basis.settings, basis.settingsErr)
	if err != nil {
		d.log.Warn("batch row: bank details", "err", err)
	}
	add(p)
	from, err := basis.from, basis.fromErr
	if f.SenderID != basis.senderID {
		from, err = d.sender(ctx, f)
	}
	if err != nil {
		add(apperr.ProblemsOf(err))
	}
	add(f.CheckForOffers(from.Country))
	// The order's own rules, with the kind of offer the row will get.
	order := f
	order.Offer = Offer{ServiceID: 1, DeliveryRequired: f.DeliveryBranch != ""}
	op := order.CheckForOrder(from.Country)
	delete(op, "offer")
	add(op)
	row.Raw, _ = json.Marshal(orEmptyMap(r.Raw))
	row.Parsed, _ = json.Marshal(r.Order)
	row.Problems, _ = json.Marshal(orEmpty(problems))
	row.State = storage.RowReady
	if len(problems) > 0 {
		row.State = storage.RowProblem
	}
	identify(row, r.Order)
}

func orEmptyMap(m map[orderfile.Field]string) map[orderfile.Field]string {
	if m == nil {
		return map[orderfile.Field]string{}
	}
	return m
}

// Editable says whether a row in this state may be corrected.
func Editable(state string) bool {
	return slices.Contains(editable, state)
}

var editable = []string{storage.RowProblem, storage.RowReady, storage.RowPriced, storage.RowFailed}

// batchRow reads a batch and one of its rows.
func (d *Desk) batchRow(ctx context.Context, batch, id int64) (storage.Batch, storage.BatchRow, error) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		return b, storage.BatchRow{}, err
	}
	row, err := d.db.BatchRow(ctx, batch, id)
	return b, row, err
}

// EditRow stores a row's corrected cells, checks it again and, when it has
// no problems, prices it.
func (d *Desk) EditRow(ctx context.Context, batch, id int64, cells map[orderfile.Field]string) (BatchRow, error) {
	b, row, err := d.batchRow(ctx, batch, id)
	if err != nil {
		return BatchRow{}, err
	}
	if !Editable(row.State) {
		return ReadBatchRow(row), apperr.New(apperr.Conflict, "batch.err.not_editable")
	}
	return d.recheck(ctx, b, row, orderfile.Reread(row.Line, cells), editable)
}

// recheck checks a row read anew by the form's rules and recognises it
// again (an edited reference may be one ordered already); it is stored when
// it is still in one of the states from, and priced when it has no problems.
func (d *Desk) recheck(ctx context.Context, b storage.Batch, row storage.BatchRow, read orderfile.Row, from []string) (BatchRow, error) {
	batch, id := b.ID, row.ID
	d.checkRow(ctx, d.basisOf(ctx, b), b, &row, read)
	forget(&row)
	m, found, err := d.orderedBefore(ctx, row)
	if err != nil {
		return BatchRow{}, err
	}
	if found {
		known(&row, m)
	}
	ok, err := d.db.UpdateRowCells(ctx, row, from)
	if err != nil {
		return BatchRow{}, err
	}
	if !ok {
		return ReadBatchRow(row), apperr.New(apperr.Conflict, "batch.err.not_editable")
	}
	if row.State == storage.RowReady {
		if _, err := d.db.QueueRow(ctx, batch, id, storage.RowReady, storage.RowPricing); err != nil {
			return BatchRow{}, err
		}
		d.startBatch(batch)
	}
	row, err = d.db.BatchRow(ctx, batch, id)
	return ReadBatchRow(row), err
}
