package web_test

import (
	"strconv"
	"strings"
	"testing"

	"shipdesk/orderfile"
	"shipdesk/storage"
)

// A batch file's rows to a country outside the EU customs territory need the
// customs columns; rows within the EU do not.
func TestBatchRowsOutsideTheEUNeedCustomsColumns(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	header := strings.Join(orderfile.TemplateHeader(), ";")
	file := "\ufeff" + header + "\r\n" +
		"CH-1;Anna;Keller;;Bahnhofstrasse 1;Zürich;8001;Švýcarsko;+41 44 123 45 67;;1,5;;;;;;;;;Dárek;Skleněná váza;7013 99;CZ;1;1 200 Kč;;\r\n" +
		"NO-1;Ola;Nordmann;;Karl Johans gate 1;Oslo;0150;NO;+47 22 12 34 56;;2;;;;;;;;;;;;;;;;\r\n" +
		"FR-1;Marie;Dupont;;Rue de Rivoli 1;Paris;75001;Francie;+33 1 23 45 67 89;;2;;;;;;;;;;;;;;;;\r\n"
	resp := upload(t, env, b, "abroad.csv", []byte(file), map[string]string{"handover": "ONDEMAND"})
	m := batchPath.FindStringSubmatch(resp.Header.Get("Location"))
	if m == nil {
		t.Fatalf("import: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	rows := env.SettledBatch(t, id)
	want := map[int]string{2: storage.RowPriced, 3: storage.RowProblem, 4: storage.RowPriced}
	for _, r := range rows {
		if r.State != want[r.Line] {
			t.Errorf("line %d: %s, want %s: %s", r.Line, r.State, want[r.Line], r.Problems)
		}
		if r.Line == 3 {
			for _, column := range []string{"customs_reason", "customs_contents", "customs_hs_code", "customs_origin", "customs_quantity", "customs_value"} {
				if !strings.Contains(string(r.Problems), column) {
					t.Errorf("the Norwegian row's problems name no %s: %s", column, r.Problems)
				}
			}
		}
	}
}
