package desk

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

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
	created, err := d.createBatch(ctx, storage.Batch{Source: source, FileName: in.FileName, Handover: in.Handover, CreatedBy: storage.UserRef(by)}, f.Rows)
	if err != nil {
		return ImportResult{}, err
	}
	if in.Upload != 0 {
		if err := d.db.DropUpload(ctx, in.Upload); err != nil {
			d.log.Warn("drop upload", "upload", in.Upload, "err", err)
		}
	}
	return ImportResult{Batch: created}, nil
}

// createBatch makes a batch of rows read: each checked by the form's rules
// and recognised as ordered before or not, and those ready priced.
func (d *Desk) createBatch(ctx context.Context, b storage.Batch, read []orderfile.Row) (storage.Batch, error) {
	blank, err := d.Blank(ctx)
	if err != nil {
		return storage.Batch{}, err
	}
	if blank.SenderID != 0 {
		b.SenderID = &blank.SenderID
	}
	rows := make([]storage.BatchRow, 0, len(read))
	basis := d.basisOf(ctx, b)
	for _, r := range read {
		row := storage.BatchRow{Line: r.Line, RequestKey: requestkey.New()}
		d.checkRow(ctx, basis, b, &row, r)
		rows = append(rows, row)
	}
	if err := d.recogniseFile(ctx, rows); err != nil {
		return storage.Batch{}, err
	}
	b.CreatedAt = d.now()
	created, err := d.db.CreateBatch(ctx, b, rows)
	if err != nil {
		return storage.Batch{}, err
	}
	if _, err := d.db.QueueRows(ctx, created.ID, storage.RowReady, storage.RowPricing); err != nil {
		return storage.Batch{}, err
	}
	d.startBatch(created.ID)
	return created, nil
}

// RowsImport is a batch of orders the desk reads from no file (a shop's
// orders): each row's cells named by the template's columns, read by the
// template's own reader as a file's rows are.
type RowsImport struct {
	Source   string // where the orders come from, for the batch's list
	Name     string // the batch's name where a file's name would be
	Handover string
	Rows     []map[orderfile.Field]string
}

// ImportRows makes a batch of rows, checked, recognised and priced as a
// file's are (ImportBatch).
func (d *Desk) ImportRows(ctx context.Context, in RowsImport, by int64) (storage.Batch, error) {
	switch in.Handover {
	case HandoverOnDemand, HandoverRegular, HandoverOccasional, HandoverPoint:
	default:
		return storage.Batch{}, apperr.Fields("form.see_fields", apperr.Problems{"handover": apperr.Msg("ship.err.handover")})
	}
	read := make([]orderfile.Row, len(in.Rows))
	for i, cells := range in.Rows {
		read[i] = orderfile.Reread(i+1, cells)
	}
	return d.createBatch(ctx, storage.Batch{Source: in.Source, FileName: in.Name, Handover: in.Handover, CreatedBy: storage.UserRef(by)}, read)
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

// ReadOrders is io.ReadAll bounded by the file limit: one byte more says
// the file is too large.
func ReadOrders(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, orderfile.MaxBytes+1))
	if err == nil && len(data) > orderfile.MaxBytes {
		return nil, apperr.New(apperr.Invalid, orderfile.KeyTooLarge, orderfile.MaxBytes>>20)
	}
	return data, err
}
