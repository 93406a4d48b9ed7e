package orderfile_test

import (
	"bytes"
	"testing"

	"shipdesk/orderfile"
)

// Both downloads of the template are read back as our template, with the
// same rows: what the clerk downloads, fills in and uploads imports as ours.
func TestTemplateDownloadsReadAsOurs(t *testing.T) {
	csvFile, err := orderfile.Read(bytes.NewReader(orderfile.TemplateCSV()), nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := orderfile.TemplateXLSX()
	if err != nil {
		t.Fatal(err)
	}
	xlsxFile, err := orderfile.Read(bytes.NewReader(x), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*orderfile.File{"csv": csvFile, "xlsx": xlsxFile} {
		if len(f.Problems) > 0 || f.Mapping.Source != orderfile.TemplateSource || len(f.Rows) != 10 {
			t.Errorf("%s: %d rows, mapping %q, problems %v", name, len(f.Rows), f.Mapping.Source, f.Problems)
		}
	}
}
