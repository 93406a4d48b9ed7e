package orderfile_test

import (
	"strings"
	"testing"

	"shipdesk/orderfile"
)

func TestCustomsColumnsAndCountryNames(t *testing.T) {
	file := strings.Join(orderfile.TemplateHeader(), ";") + "\r\n" +
		"A;;Keller;;Bahnhofstrasse 1;Zürich;8001;Švýcarsko;+41 44 123 45 67;;1;;;;;;;;;Dárek;Váza;7013 99;cz;2;1 200 Kč;;\r\n" +
		"B;;Smith;;Main St 1;London;SW1A 1AA;United Kingdom;+44 20 7946 0000;;1;;;;;;;;;sale;Mugs;6912 00;CZ;4;50;eur;\r\n" +
		"C;;Larsen;;Gate 1;Oslo;0150;NO;+47 22 12 34 56;;1;;;;;;;;;;;;;;80;;\r\n"
	f := read(t, []byte(file), nil)
	wantNoProblems(t, f)
	want := []struct {
		country string
		customs orderfile.Customs
	}{
		{"CH", orderfile.Customs{Reason: "gift", Contents: "Váza", HSCode: "7013 99", Origin: "CZ", Quantity: "2", Value: "1 200", Currency: "CZK"}},
		{"GB", orderfile.Customs{Reason: "sale", Contents: "Mugs", HSCode: "6912 00", Origin: "CZ", Quantity: "4", Value: "50", Currency: "EUR"}},
		{"NO", orderfile.Customs{Value: "80", Currency: "CZK"}},
	}
	for i, r := range f.Rows {
		if r.Order.Country != want[i].country || r.Order.Customs != want[i].customs {
			t.Errorf("line %d: %s %+v, want %s %+v", r.Line, r.Order.Country, r.Order.Customs, want[i].country, want[i].customs)
		}
	}
}
