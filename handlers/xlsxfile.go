package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/xuri/excelize/v2"

	"shipdesk/i18n"
)

// writeXLSX sends a table as a spreadsheet of one sheet (xlsxOf).
func (h *Handlers) writeXLSX(w http.ResponseWriter, r *http.Request, filename string, t figTable) {
	data, err := xlsxOf(r.Context(), t)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", xlsxType)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, filename))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data)
}

// xlsxType is a spreadsheet's content type.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// xlsxOf writes a table as a spreadsheet of one sheet: numbers as numbers,
// amounts with two decimals, days as dates in the context's language.
func xlsxOf(ctx context.Context, t figTable) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	sheet := sheetName(t.title)
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, fmt.Errorf("xlsx sheet: %w", err)
	}
	dayFormat, moneyFormat := "yyyy-mm-dd", "#,##0.00"
	if i18n.LangOf(ctx) == i18n.Czech {
		dayFormat = "d. m. yyyy"
	}
	dayStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &dayFormat})
	if err != nil {
		return nil, fmt.Errorf("xlsx style: %w", err)
	}
	moneyStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &moneyFormat})
	if err != nil {
		return nil, fmt.Errorf("xlsx style: %w", err)
	}
	headStyle, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, fmt.Errorf("xlsx style: %w", err)
	}
	put := func(col, row int, v any) error {
		ref, err := excelize.CoordinatesToCellName(col, row)
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case money:
			if err := f.SetCellFloat(sheet, ref, float64(x), 2, 64); err != nil {
				return err
			}
			return f.SetCellStyle(sheet, ref, ref, moneyStyle)
		case day:
			d, err := time.Parse("2006-01-02", string(x))
			if err != nil {
				return f.SetCellStr(sheet, ref, string(x))
			}
			if err := f.SetCellValue(sheet, ref, d); err != nil {
				return err
			}
			return f.SetCellStyle(sheet, ref, ref, dayStyle)
		case string:
			return f.SetCellStr(sheet, ref, x) // a string cell: never run as a formula
		}
		return f.SetCellValue(sheet, ref, v)
	}
	for i, hd := range t.header {
		if err := put(i+1, 1, hd); err != nil {
			return nil, fmt.Errorf("xlsx header: %w", err)
		}
	}
	if err := f.SetRowStyle(sheet, 1, 1, headStyle); err != nil {
		return nil, fmt.Errorf("xlsx header: %w", err)
	}
	for y, row := range t.rows {
		for x, v := range row {
			if err := put(x+1, y+2, v); err != nil {
				return nil, fmt.Errorf("xlsx row %d: %w", y, err)
			}
		}
	}
	if err := f.SetColWidth(sheet, "A", columnName(len(t.header)), 18); err != nil {
		return nil, fmt.Errorf("xlsx widths: %w", err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("xlsx write: %w", err)
	}
	return buf.Bytes(), nil
}
