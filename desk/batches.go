package desk

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/requestkey"
	"shipdesk/shiprules"
	"shipdesk/storage"
)

// Batches: a day's orders read from a file (orderfile), each row checked by
// the new-shipment form's own rules (it is parsed as a posted form and
// checked as one), priced, ordered and printed together. Pricing and
// ordering are work rows in PostgreSQL: a button queues rows, a worker claims
// them a few at a time; rows a worker left behind (a restart) are claimed
// again when the batch is looked at. Each row orders through Order with its
// own request key, so it is ordered once whoever presses the button and how
// often.

// BatchWorkers is how many rows of a batch are priced or ordered at once.
const BatchWorkers = 4

// RowProblem is a problem of a batch row: the field (an orderfile field, ""
// for the row) and what is wrong.
type RowProblem struct {
	Field string      `json:"field,omitempty"`
	Text  apperr.Text `json:"text"`
}

// RowOffer is one offer of a priced row and why it was or was not chosen.
type RowOffer struct {
	Offer    Offer  `json:"offer"`
	Choice   string `json:"choice"`
	Eligible bool   `json:"eligible"` // the clerk may choose it, and the rules or the cheapest may
	// ByHand: only the clerk may choose it. A label-free offer fits a row
	// but not the batch's hand-over: the clerk who takes it takes the parcel
	// to one of the carrier's points and hands it over with its code.
	ByHand bool        `json:"by_hand,omitempty"`
	Why    apperr.Text `json:"why"`
}

// Choosable says whether the clerk may choose the offer for the row.
func (o RowOffer) Choosable() bool { return o.Eligible || o.ByHand }

// BatchRow is a batch row as the desk reads it.
type BatchRow struct {
	storage.BatchRow
	Cells       map[orderfile.Field]string
	Order       orderfile.Order
	RowProblems []RowProblem
	RowOffers   []RowOffer
}

// Chosen is the row's chosen offer, when it has one.
func (r BatchRow) Chosen() (RowOffer, bool) {
	for _, o := range r.RowOffers {
		if o.Choice == r.BatchRow.Chosen && r.BatchRow.Chosen != "" {
			return o, true
		}
	}
	return RowOffer{}, false
}

// ReadBatchRow decodes a stored row.
func ReadBatchRow(r storage.BatchRow) BatchRow {
	out := BatchRow{BatchRow: r}
	_ = json.Unmarshal(r.Raw, &out.Cells)
	_ = json.Unmarshal(r.Parsed, &out.Order)
	_ = json.Unmarshal(r.Problems, &out.RowProblems)
	_ = json.Unmarshal(r.Offers, &out.RowOffers)
	return out
}

// MappingNeeded is an upload whose columns a person must map first.
type MappingNeeded struct {
	UploadID  int64
	FileName  string
	Header    []string
	Sample    [][]string
	Suggested orderfile.Mapping
	Problems  []orderfile.Problem
}

// BatchImport is a file of orders a clerk uploads.
type BatchImport struct {
	FileName string
	// ContentType is the type the upload says it has; "" when none.
	ContentType string
	Data        []byte // at most orderfile.MaxBytes (the reader refuses more)
	Source      string // the source's name: its kept mapping reads the file; "" : ours or any kept one that fits
	Handover    string
	Mapping     *orderfile.Mapping // columns mapped by the clerk (kept under Mapping.Source)
	Upload      int64              // the kept upload the mapping is for
}

// ImportResult is a new batch, or the columns to map first.
type ImportResult struct {
	Batch   storage.Batch
	Mapping *MappingNeeded
}

// mappingProblem says whether a file's problems are only that its columns
// are not ours: a person can map them.
func mappingProblem(f *orderfile.File) bool {
	if len(f.Header) == 0 || len(f.Problems) == 0 {
		return false
	}
	for _, p := range f.Problems {
		switch p.Key {
		case orderfile.KeyUnmapped, orderfile.KeyColumnMissing, orderfile.KeyColumnTwice:
		default:
			return false
		}
	}
	return true
}

// fileError is a file that cannot be read, said in its problems.
func fileError(f *orderfile.File) error {
	texts := make([]apperr.Text, 0, len(f.Problems))
	for _, p := range f.Problems {
		texts = append(texts, apperr.Msg(p.Key, p.Args...))
	}
	return apperr.With(apperr.Invalid, apperr.Join(texts...))
}

// ImportBatch reads a file of orders into a new batch, its rows checked,
// and starts pricing the rows without problems. A file whose columns are
// not ours, and fit no kept mapping, is kept for the clerk to map them.
func (d *Desk) ImportBatch(ctx context.Context, in BatchImport, by int64) (ImportResult, error) {
	switch in.Handover {
	case HandoverOnDemand, HandoverRegular, HandoverOccasional, HandoverPoint:
	default:
		return ImportResult{}, apperr.Fields("form.see_fields", apperr.Problems{"handover": apperr.Msg("ship.err.handover")})
	}
	if p := orderfile.CheckType(in.ContentType); p != nil {
		return ImportResult{}, fileError(&orderfile.File{Problems: []orderfile.Problem{*p}})
	}
	m := in.Mapping
	source := cmp.Or(in.Source, orderfile.TemplateSource)
	if m != nil {
		if strings.TrimSpace(m.Source) == "" {
			return ImportResult{}, apperr.Fields("form.see_fields", apperr.Problems{"source": apperr.Msg("batch.err.source")})
		}
		source = m.Source
	} else if in.Source != "" && in.Source != orderfile.TemplateSource {
		kept, err := d.keptMapping(ctx, in.Source)
		if err != nil {
			return ImportResult{}, err
		}
		m = kept
	}
	f, err := orderfile.Read(bytes.NewReader(in.Data), m)
	if err != nil {
		return ImportResult{}, fmt.Errorf("read orders: %w", err)
	}
	if m == nil && mappingProblem(f) {
		// A source mapped before is known by its columns.
		kept, err := d.db.Mappings(ctx)
		if err != nil {
			return ImportResult{}, err
		}
		for _, k := range kept {
			var km orderfile.Mapping
			if json.Unmarshal(k.Mapping, &km) != nil || len(km.Check(f.Header)) > 0 {
				continue
			}
			if again, err := orderfile.Read(bytes.NewReader(in.Data), &km); err == nil && len(again.Problems) == 0 {
				f, m, source = again, &km, km.Source
				break
			}
		}
	}
	if mappingProblem(f) {
		id := in.Upload
		if id == 0 {
			if id, err = d.db.KeepUpload(ctx, in.FileName, in.Data, storage.UserRef(by)); err != nil {
				return ImportResult{}, err
			}
		}
		suggested, _ := orderfile.DetectMapping(f.Header)
		if m != nil {
			suggested = *m
		}
		suggested.Source = cmp.Or(suggested.Source, in.Source)
		if suggested.Source == orderfile.TemplateSource {
			suggested.Source = ""
		}
		return ImportResult{Mapping: &MappingNeeded{UploadID: id, FileName: in.FileName, Header: f.Header, Sample: f.Sample,
			Suggested: suggested, Problems: f.Problems}}, nil
	}
	if len(f.Problems) > 0 {
		return ImportResult{}, fileError(f)
	}
	if in.Mapping != nil {
		raw, _ := json.Marshal(in.Mapping)
		if err := d.db.SaveMapping(ctx, in.Mapping.Source, raw); err != nil {
			return ImportResult{}, err
		}
	}
	b := storage.Batch{Source: source, FileName: in.FileName, Handover: in.Handover, CreatedBy: storage.UserRef(by)}
	blank, err := d.Blank(ctx)
	if err != nil {
		return ImportResult{}, err
	}
	if blank.SenderID != 0 {
		b.SenderID = &blank.SenderID
	}
	rows := make([]storage.BatchRow, 0, len(f.Rows))
	basis := d.basisOf(ctx, b)
	for _, r := range f.Rows {
		row := storage.BatchRow{Line: r.Line, RequestKey: requestkey.New()}
		d.checkRow(ctx, basis, b, &row, r)
		rows = append(rows, row)
	}
	b.CreatedAt = d.now()
	created, err := d.db.CreateBatch(ctx, b, rows)
	if err != nil {
		return ImportResult{}, err
	}
	if in.Upload != 0 {
		if err := d.db.DropUpload(ctx, in.Upload); err != nil {
			d.log.Warn("drop upload", "upload", in.Upload, "err", err)
		}
	}
	if _, err := d.db.QueueRows(ctx, created.ID, storage.RowReady, storage.RowPricing); err != nil {
		return ImportResult{}, err
	}
	d.startBatch(created.ID)
	return ImportResult{Batch: created}, nil
}

// ImportMapped imports a kept upload with the columns the clerk mapped.
func (d *Desk) ImportMapped(ctx context.Context, upload int64, m orderfile.Mapping, handover string, by int64) (ImportResult, error) {
	name, data, err := d.db.Upload(ctx, upload, storage.UserRef(by))
	if err != nil {
		return ImportResult{}, err
	}
	return d.ImportBatch(ctx, BatchImport{FileName: name, Data: data, Handover: handover, Mapping: &m, Upload: upload}, by)
}

// KeptMappings are the names of the sources whose mapping is kept.
func (d *Desk) KeptMappings(ctx context.Context) ([]string, error) {
	list, err := d.db.Mappings(ctx)
	out := make([]string, 0, len(list))
	for _, k := range list {
		out = append(out, k.Source)
	}
	return out, err
}

func (d *Desk) keptMapping(ctx context.Context, source string) (*orderfile.Mapping, error) {
	list, err := d.db.Mappings(ctx)
	if err != nil {
		return nil, err
	}
	for _, k := range list {
		if k.Source == source {
			var m orderfile.Mapping
			if err := json.Unmarshal(k.Mapping, &m); err != nil {
				return nil, fmt.Errorf("kept mapping of %s: %w", source, err)
			}
			return &m, nil
		}
	}
	return nil, apperr.Fields("form.see_fields", apperr.Problems{"source": apperr.Msg("batch.err.source_unknown", source)})
}

// num writes a number for the form as the form's reader reads it.
func num(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// rowValues are a row as the new-shipment form would post it.
func rowValues(b storage.Batch, key string, o orderfile.Order) url.Values {
	v := url.Values{
		"key": {key}, "handover": {b.Handover}, "reference": {o.Reference}, "note": {o.Note},
		"to_firstname": {o.FirstName}, "to_surname": {o.Surname}, "to_company": {o.Company}, "to_street": {o.Street},
		"to_city": {o.City}, "to_zip": {o.Zip}, "to_country": {o.Country}, "to_phone": {o.Phone}, "to_email": {o.Email},
		"pkg_weight": {num(o.WeightKg)}, "pkg_length": {num(o.LengthCm)}, "pkg_width": {num(o.WidthCm)}, "pkg_height": {num(o.HeightCm)},
		"delivery_branch": {o.PointCode},
	}
	if o.WeightKg == 0 && o.LengthCm+o.WidthCm+o.HeightCm > 0 {
		v.Set("pkg_weight", "") // a package without a weight: the form says it is required
	}
	if b.SenderID != nil {
		v.Set("sender", strconv.FormatInt(*b.SenderID, 10))
	}
	if o.COD {
		v.Set("cod", "on")
		v.Set("cod_value", num(o.CODAmount))
		v.Set("cod_currency", o.CODCurrency)
	}
	if o.InsuredValue > 0 {
		v.Set("insure", "on")
		v.Set("insured_value", num(o.InsuredValue))
	}
	setCustomsValues(v, o.Customs)
	return v
}

// rowField names the row's field of a form field.
func rowField(field string) string {
	switch {
	case strings.HasPrefix(field, "pkg_weight"), field == "packages":
		return string(orderfile.WeightKg)
	case strings.HasPrefix(field, "pkg_length"):
		return string(orderfile.LengthCm)
	case strings.HasPrefix(field, "pkg_width"):
		return string(orderfile.WidthCm)
	case strings.HasPrefix(field, "pkg_height"):
		return string(orderfile.HeightCm)
	}
	switch field {
	case "to_firstname":
		return string(orderfile.FirstName)
	case "to_surname":
		return string(orderfile.Surname)
	case "to_company":
		return string(orderfile.Company)
	case "to_street":
		return string(orderfile.Street)
	case "to_city":
		return string(orderfile.City)
	case "to_zip":
		return string(orderfile.Zip)
	case "to_country":
		return string(orderfile.Country)
	case "to_phone":
		return string(orderfile.Phone)
	case "to_email":
		return string(orderfile.Email)
	case "cod", "cod_value":
		return string(orderfile.CODAmount)
	case "cod_currency":
		return string(orderfile.CODCurrency)
	case "insured_value":
		return string(orderfile.InsuredValue)
	case "delivery_branch":
		return string(orderfile.PointCode)
	case "customs_reason", "customs_description", "customs_hs_code", "customs_origin", "customs_quantity", "customs_value", "customs_currency":
		return string(customsColumn(field))
	case "reference":
		return string(orderfile.Reference)
	case "note":
		return string(orderfile.Note)
	}
	return ""
}

// rowForm is the new-shipment form of a row, read by the form's own reader
// with the shop's bank details filled in as the form fills them; its
// problems are the reader's.
func (d *Desk) rowForm(ctx context.Context, b storage.Batch, key string, o orderfile.Order) (Form, apperr.Problems, error) {
	s, err := d.db.Settings(ctx)
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

// EditRow stores a row's corrected cells, checks it again and, when it has
// no problems, prices it.
func (d *Desk) EditRow(ctx context.Context, batch, id int64, cells map[orderfile.Field]string) (BatchRow, error) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		return BatchRow{}, err
	}
	row, err := d.db.BatchRow(ctx, batch, id)
	if err != nil {
		return BatchRow{}, err
	}
	if !Editable(row.State) {
		return ReadBatchRow(row), apperr.New(apperr.Conflict, "batch.err.not_editable")
	}
	d.checkRow(ctx, d.basisOf(ctx, b), b, &row, orderfile.Reread(row.Line, cells))
	ok, err := d.db.UpdateRowCells(ctx, row, editable)
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

// PriceBatch prices again the rows of a batch waiting for it.
func (d *Desk) PriceBatch(ctx context.Context, batch int64) (int, error) {
	if _, err := d.db.BatchByID(ctx, batch); err != nil {
		return 0, err
	}
	n, err := d.db.QueueRows(ctx, batch, storage.RowReady, storage.RowPricing)
	d.startBatch(batch)
	return n, err
}

// OrderBatch orders every priced row of a batch, each once: the rows are
// claimed by one update, so a second press (or a second clerk) finds them
// taken; the worker orders them a few at a time, each with its own request
// key.
func (d *Desk) OrderBatch(ctx context.Context, batch int64) (int, error) {
	if _, err := d.db.BatchByID(ctx, batch); err != nil {
		return 0, err
	}
	n, err := d.db.QueueRows(ctx, batch, storage.RowPriced, storage.RowOrdering)
	if err != nil {
		return 0, err
	}
	d.startBatch(batch)
	if n == 0 {
		return 0, apperr.New(apperr.Conflict, "batch.err.nothing_to_order")
	}
	return n, nil
}

// ChooseRowOffer lets the clerk take another of a priced row's offers.
func (d *Desk) ChooseRowOffer(ctx context.Context, batch, id int64, choice string) error {
	row, err := d.db.BatchRow(ctx, batch, id)
	if err != nil {
		return err
	}
	r := ReadBatchRow(row)
	fits := slices.ContainsFunc(r.RowOffers, func(o RowOffer) bool { return o.Choice == choice && o.Choosable() })
	if !fits {
		return apperr.New(apperr.Invalid, "batch.err.offer_not_offered")
	}
	ok, err := d.db.ChooseRowOffer(ctx, batch, id, choice)
	if err == nil && !ok {
		err = apperr.New(apperr.Conflict, "batch.err.not_editable")
	}
	return err
}

// ResumeBatch starts a worker for a batch whose queued rows nobody works
// on (after a restart); the batch page calls it each time it looks.
func (d *Desk) ResumeBatch(ctx context.Context, batch int64) {
	if waiting, err := d.db.Unclaimed(ctx, batch, d.staleClaim(d.now())); err == nil && waiting {
		d.startBatch(batch)
	}
}

// ResumeBatches starts workers for every batch with queued rows nobody works
// on: after a restart the rows a stopped instance held are taken up again
// without anyone opening the batch. The pollers' upkeep calls it.
func (d *Desk) ResumeBatches(ctx context.Context) error {
	ids, err := d.db.BatchesWaiting(ctx, d.staleClaim(d.now()))
	for _, id := range ids {
		d.startBatch(id)
	}
	return err
}

// staleClaim is before when a claim belongs to a worker that has gone: a
// row's work is at most two calls of OrderTimeout (a check, then the order)
// and recording it. Taking a row over early costs at most a repeated check:
// the row's request key orders its shipment once, whoever holds the claim.
func (d *Desk) staleClaim(now time.Time) time.Time {
	return now.Add(-(2*d.OrderTimeout + 5*time.Second))
}

// batchRuns are the batch workers of one desk: each batch has at most one
// here, and on[batch] is true when more work was queued while it ran, so it
// looks once more before it ends. Stop ends them between rows.
type batchRuns struct {
	mu      sync.Mutex
	on      map[int64]bool
	wg      sync.WaitGroup
	stopped bool
}

// startBatch runs a worker for the batch unless one runs here already (which
// is then told to look again). The worker outlives the request that started it.
func (d *Desk) startBatch(batch int64) {
	r := &d.runs
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if r.on == nil {
		r.on = map[int64]bool{}
	}
	if _, running := r.on[batch]; running {
		r.on[batch] = true
		return
	}
	r.on[batch] = false
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			d.workBatch(context.Background(), batch)
			r.mu.Lock()
			if !r.on[batch] || r.stopped {
				delete(r.on, batch)
				r.mu.Unlock()
				return
			}
			r.on[batch] = false
			r.mu.Unlock()
		}
	}()
}

// stopping says whether Stop was called: workers take no more rows.
func (d *Desk) stopping() bool {
	d.runs.mu.Lock()
	defer d.runs.mu.Unlock()
	return d.runs.stopped
}

// Stop lets the batch workers finish the rows they hold and take no more,
// waiting for them until ctx ends. Rows still queued stay queued: the next
// instance (or this one restarted) takes them up.
func (d *Desk) Stop(ctx context.Context) error {
	d.runs.mu.Lock()
	d.runs.stopped = true
	d.runs.mu.Unlock()
	done := make(chan struct{})
	go func() {
		d.runs.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop batch workers: %w", ctx.Err())
	}
}

// workBatch prices and orders a batch's queued rows until none is left.
func (d *Desk) workBatch(ctx context.Context, batch int64) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		d.log.Warn("batch worker", "batch", batch, "err", err)
		return
	}
	for !d.stopping() {
		now := d.now().Truncate(time.Microsecond)
		rows, err := d.db.ClaimRows(ctx, batch, storage.RowPricing, now, d.staleClaim(now), BatchWorkers)
		work := d.priceRow
		if err == nil && len(rows) == 0 {
			rows, err = d.db.ClaimRows(ctx, batch, storage.RowOrdering, now, d.staleClaim(now), BatchWorkers)
			work = d.orderRow
		}
		if err != nil {
			d.log.Warn("batch worker: claim", "batch", batch, "err", err)
			return
		}
		if len(rows) == 0 {
			return
		}
		var wg sync.WaitGroup
		for _, r := range rows {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(ctx, b, r, now)
			}()
		}
		wg.Wait()
	}
}

// priceRow asks the service for a row's offers and chooses one.
func (d *Desk) priceRow(ctx context.Context, b storage.Batch, row storage.BatchRow, claimed time.Time) {
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order)
	var offers []Offer
	if err == nil {
		offers, err = d.Offers(ctx, f)
	}
	pointCarrier := ""
	if f.DeliveryBranch != "" {
		if pt, ok := d.pointByCode(ctx, f.DeliveryBranch); ok {
			pointCarrier = pt.Carrier
		}
	}
	row.ChosenBy, row.Chosen = "", ""
	row.State = storage.RowPriced
	var notes []RowOffer
	switch {
	case err != nil:
		row.State = storage.RowProblem
		why := apperr.TextOf(err)
		if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
			d.log.Warn("batch row: offers", "row", row.ID, "err", err)
			why = apperr.Msg(NoAnswer)
		}
		r.RowProblems = append(r.RowProblems, RowProblem{Text: why})
		for k, t := range apperr.ProblemsOf(err) {
			r.RowProblems = append(r.RowProblems, RowProblem{Field: rowField(k), Text: t})
		}
	default:
		var chosen int
		notes, chosen = chooseOffer(f, offers, pointCarrier)
		chosen = d.ruleChoice(ctx, f, offers, notes, chosen)
		if chosen < 0 {
			row.State = storage.RowProblem
			r.RowProblems = append(r.RowProblems, RowProblem{Text: apperr.Msg("batch.err.no_offer")})
		} else {
			row.Chosen, row.ChosenBy = notes[chosen].Choice, "rule"
		}
	}
	row.Offers, _ = json.Marshal(orEmpty(notes))
	row.Problems, _ = json.Marshal(orEmpty(r.RowProblems))
	if err := d.db.RowPriced(ctx, row, claimed); err != nil {
		d.log.Warn("batch row: record pricing", "row", row.ID, "err", err)
	}
}

// ruleChoice applies the managers' offer rules (Shipping → Rules) to a row
// whose offers chooseOffer has sorted out: with no rules the cheapest stays;
// with rules, the offer the first applying rule picks among those the row
// may take, each other offer saying why the rules passed it over, and none
// when no rule applies (the row then says why). The clerk can still choose.
func (d *Desk) ruleChoice(ctx context.Context, f Form, offers []Offer, notes []RowOffer, cheapest int) int {
	rules, err := d.db.ShipRules(ctx)
	if err != nil || len(rules) == 0 {
		if err != nil {
			d.log.Warn("batch row: offer rules", "err", err)
		}
		return cheapest
	}
	eligible := make([]Offer, len(offers))
	for i, o := range offers {
		eligible[i] = o
		eligible[i].Selectable = o.Selectable && notes[i].Eligible // what chooseOffer ruled out stays out
	}
	dec := d.RuleChooser(ctx, RuleShipment(f)).Choose(rules, RuleShipment(f), RuleOffers(eligible))
	text := func(t shiprules.Text) apperr.Text { return apperr.Msg(t.Key, t.Args...) }
	for i := range notes {
		if why, ok := dec.NotChosen[i]; ok && notes[i].Eligible {
			notes[i].Why = text(why)
		}
	}
	if dec.Index < 0 {
		return -1
	}
	notes[dec.Index].Why = text(dec.Why)
	return dec.Index
}

// chooseOffer chooses the offer for a batch row among the service's offers:
// for now the cheapest selectable offer that delivers where the row says (to
// its point, by the point's carrier, or to the address). It says for each
// offer why it was or was not chosen; chosen is an index into the notes, -1
// when none fits. The managers' rules (shiprules) will take its place.
func chooseOffer(f Form, offers []Offer, pointCarrier string) (notes []RowOffer, chosen int) {
	chosen = -1
	toPoint := f.DeliveryBranch != ""
	for _, o := range offers {
		n := RowOffer{Offer: o, Choice: o.Choice()}
		switch {
		case !o.Selectable:
			n.Why = apperr.Msg("batch.why.not_selectable")
		case toPoint && !o.DeliveryRequired:
			n.Why = apperr.Msg("batch.why.to_address")
		case toPoint && !strings.EqualFold(o.Carrier, pointCarrier):
			n.Why = apperr.Msg("batch.why.other_carrier", pointCarrier)
		case !toPoint && o.DeliveryRequired:
			n.Why = apperr.Msg("batch.why.to_point")
		case o.LabelFree:
			n.Why, n.ByHand = apperr.Msg("batch.why.label_free"), true
		default:
			n.Eligible = true
			if chosen < 0 || o.PriceVAT.Value < notes[chosen].Offer.PriceVAT.Value {
				chosen = len(notes)
			}
		}
		notes = append(notes, n)
	}
	for i := range notes {
		switch {
		case i == chosen:
			notes[i].Why = apperr.Msg("batch.why.cheapest")
		case notes[i].Eligible:
			notes[i].Why = apperr.Msg("batch.why.dearer")
		}
	}
	return notes, chosen
}

// orderRow orders a row's shipment with its chosen offer and its own
// request key: a row ordered before (a worker gone after the call) finds its
// shipment instead of ordering again.
func (d *Desk) orderRow(ctx context.Context, b storage.Batch, row storage.BatchRow, _ time.Time) {
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order)
	chosen, ok := r.Chosen()
	switch {
	case err != nil:
	case !ok:
		err = apperr.New(apperr.Invalid, "batch.err.no_offer")
	default:
		f.take(chosen.Offer)
	}
	var s storage.Shipment
	if err == nil {
		by := int64(0)
		if b.CreatedBy != nil {
			by = *b.CreatedBy
		}
		s, err = d.Order(ctx, f, by)
	}
	if s.ID != 0 {
		if rerr := d.db.RowOrdered(ctx, row.ID, &s.ID, apperr.Text{}); rerr != nil {
			d.log.Warn("batch row: record order", "row", row.ID, "err", rerr)
		}
		return
	}
	why := apperr.TextOf(err)
	if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
		d.log.Warn("batch row: order", "row", row.ID, "err", err)
		why = apperr.Msg("batch.err.order_failed")
	}
	var parts []apperr.Text
	for k, t := range apperr.ProblemsOf(err) {
		if field := rowField(k); field != "" {
			parts = append(parts, apperr.Msg("batch.err.field", apperr.Msg(orderfile.LabelKey(orderfile.Field(field))), t))
		} else {
			parts = append(parts, t)
		}
	}
	slices.SortFunc(parts, func(a, b apperr.Text) int { return strings.Compare(a.String(), b.String()) })
	if len(parts) > 0 {
		why = apperr.Join(append([]apperr.Text{why}, parts...)...)
	}
	if rerr := d.db.RowOrdered(ctx, row.ID, nil, why); rerr != nil {
		d.log.Warn("batch row: record failure", "row", row.ID, "err", rerr)
	}
}

// SendBatchDrafts sends a batch's ready and priced rows as drafts to the
// service's shipment manager instead of ordering them, each once.
func (d *Desk) SendBatchDrafts(ctx context.Context, batch int64, by int64) (sent int, err error) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		return 0, err
	}
	rows, err := d.db.ClaimDrafts(ctx, batch)
	if err != nil {
		return 0, err
	}
	for _, row := range rows {
		r := ReadBatchRow(row)
		f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order)
		if chosen, ok := r.Chosen(); ok {
			f.take(chosen.Offer)
		}
		var draft storage.Draft
		if err == nil {
			draft, err = d.SendDraft(ctx, f, by)
		}
		if err != nil {
			why := apperr.TextOf(err)
			if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
				d.log.Warn("batch row: draft", "row", row.ID, "err", err)
				why = apperr.Msg("batch.err.draft_failed")
			}
			if rerr := d.db.RowDrafted(ctx, row.ID, nil, why); rerr != nil {
				return sent, rerr
			}
			continue
		}
		if err := d.db.RowDrafted(ctx, row.ID, &draft.ID, apperr.Text{}); err != nil {
			return sent, err
		}
		sent++
	}
	return sent, nil
}

// BatchHandovers are the hand-over protocols of a batch's shipments: one per
// carrier and place, as the day's protocols have them, with only the
// batch's parcels.
func (d *Desk) BatchHandovers(ctx context.Context, batch int64, loc *time.Location) ([]Handover, error) {
	ids, list, err := d.batchShipments(ctx, batch)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	days := map[string]time.Time{}
	for _, s := range list {
		day := s.CreatedAt.In(loc)
		var order struct {
			Shipments []struct {
				PickupDate string `json:"pickup_date"`
			} `json:"shipments"`
		}
		if json.Unmarshal(s.Request, &order) == nil && len(order.Shipments) > 0 && order.Shipments[0].PickupDate != "" {
			if t, err := time.ParseInLocation(time.DateOnly, order.Shipments[0].PickupDate, loc); err == nil {
				day = t
			}
		}
		days[day.Format(time.DateOnly)] = day
	}
	keys := make([]string, 0, len(days))
	for k := range days {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []Handover
	for _, k := range keys {
		hos, err := d.Handovers(ctx, days[k])
		if err != nil {
			return nil, err
		}
		for _, ho := range hos {
			ho.Parcels = slices.DeleteFunc(ho.Parcels, func(p Parcel) bool { return !slices.Contains(ids, p.ID) })
			if len(ho.Parcels) > 0 {
				out = append(out, ho)
			}
		}
	}
	return out, nil
}

// ReadOrders is io.ReadAll bounded by the file limit: one byte more says
// the file is too large.
func ReadOrders(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, orderfile.MaxBytes+1))
	if err == nil && len(data) > orderfile.MaxBytes {
		return nil, apperr.New(apperr.Invalid, orderfile.KeyTooLarge, orderfile.MaxBytes>>20)
	}
	return data, err
}

// LabelReady says whether a shipment's label goes into a print now.
func LabelReady(s storage.Shipment) bool { return printable(s) }
