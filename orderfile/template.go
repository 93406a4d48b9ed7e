package orderfile

import (
	"bytes"
	"encoding/csv"
	"fmt"

	"github.com/xuri/excelize/v2"

	"shipdesk/examples"
)

// TemplateCSV is our template as the dashboard offers it: the file the
// import reads as ours, with its example rows.
func TemplateCSV() []byte { return examples.OrdersCSV }

// TemplateXLSX is the same template as a workbook, for those who keep the
// day's orders in Excel: the same header and rows on one sheet.
func TemplateXLSX() ([]byte, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(examples.OrdersCSV, []byte("\ufeff"))))
	r.Comma, r.FieldsPerRecord = ';', -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read the template: %w", err)
	}
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Objednávky"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	for i, row := range rows {
		cells := make([]any, len(row))
		for j, v := range row {
			cells[j] = v
		}
		cell, err := excelize.CoordinatesToCellName(1, i+1)
		if err != nil {
			return nil, err
		}
		if err := f.SetSheetRow(sheet, cell, &cells); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return nil, fmt.Errorf("write the template workbook: %w", err)
	}
	return b.Bytes(), nil
}
