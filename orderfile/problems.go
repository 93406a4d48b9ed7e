package orderfile

// Problem is something a person must know about the file or a row: a catalog
// key (i18n/messages/*/batches.json) and its arguments (strings and whole
// numbers, written with %v so they survive a trip through JSON). Field and
// Column say where, when it is about one field: the field, and the file's
// column as its header names it.
type Problem struct {
	Field  Field  `json:"field,omitempty"`
	Column string `json:"column,omitempty"`
	Key    string `json:"key"`
	Args   []any  `json:"args,omitempty"`
}

// Problems of the whole file: when File.Problems has any, no row was taken.
const (
	KeyEmpty          = "batch.file.empty"            // no bytes, or no header
	KeyNoOrders       = "batch.file.no_orders"        // a header and no rows
	KeyTooLarge       = "batch.file.too_large"        // args: MB
	KeyTooManyRows    = "batch.file.too_many_rows"    // args: the limit
	KeyTooManyColumns = "batch.file.too_many_columns" // args: the limit
	KeyOldExcel       = "batch.file.old_excel"        // .xls, or a workbook with a password
	KeyNotXLSX        = "batch.file.not_xlsx"         // a zip that is no workbook we can read
	KeyEncoding       = "batch.file.encoding"         // neither UTF-8, Windows-1250 nor UTF-16 with BOM
	KeyNoSheet        = "batch.file.no_sheet"         // args: the sheet's name
	KeyUnmapped       = "batch.file.unmapped"         // Field: an order needs it and no column holds it
	KeyColumnMissing  = "batch.file.column_missing"   // args: the mapped column the header lacks
	KeyColumnTwice    = "batch.file.column_twice"     // args: the mapped column the header has twice
)

// Problems of one row (Field empty) or one of its cells (Field set).
const (
	KeyRowQuote    = "batch.row.quote"    // a quote mark not closed or out of place; cells read leniently
	KeyRowCells    = "batch.row.cells"    // args: the row's cells, the header's
	KeyRowTooLong  = "batch.row.too_long" // args: the limit in kB; the row is not read
	KeyUnreadable  = "batch.cell.unreadable"
	KeyControl     = "batch.cell.control"
	KeyTooLong     = "batch.cell.too_long" // args: the limit in characters
	KeyFormula     = "batch.cell.formula"
	KeyNumber      = "batch.cell.number"
	KeyYesNo       = "batch.cell.yes_no" // neither yes nor no
	KeyNegative    = "batch.cell.negative"
	KeyCountry     = "batch.cell.country"
	KeyCurrency    = "batch.cell.currency"
	KeyCurrencyTwo = "batch.cell.currency_conflict" // args: the amount's currency, the currency column's
)

// Keys are every problem key the package uses.
var Keys = []string{KeyYesNo, KeyEmpty, KeyNoOrders, KeyTooLarge, KeyTooManyRows, KeyTooManyColumns, KeyOldExcel, KeyNotXLSX, KeyEncoding,
	KeyNoSheet, KeyUnmapped, KeyColumnMissing, KeyColumnTwice, KeyRowQuote, KeyRowCells, KeyRowTooLong,
	KeyUnreadable, KeyControl, KeyTooLong, KeyFormula, KeyNumber, KeyNegative, KeyCountry, KeyCurrency, KeyCurrencyTwo,
	KeyNotOrders, KeyWrongType}
