package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"shipdesk/i18n"
)

// render renders a component and parses it for goquery.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	// The desk's texts are asserted in English, as the web tests run.
	if err := c.Render(i18n.WithLang(context.Background(), i18n.English), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc
}

func TestOffersTableMarksUnselectableOffers(t *testing.T) {
	v := NewShipment{Compared: true, Offers: []OfferRow{
		{ServiceID: 101, Carrier: "ZASILKOVNA", Service: "Parcel Home", PriceVAT: "121.00 CZK", Selectable: true, Chosen: true},
		{ServiceID: 102, Carrier: "PPL", Service: "Parcel To Point", DeliveryRequired: true, Selectable: true},
		{ServiceID: 103, Carrier: "UPS", Service: "Heavy", Selectable: false, Reason: "not possible with these details"},
	}}
	doc := render(t, OffersTable(v))
	rows := doc.Find(`[data-testid=offer]`)
	if rows.Length() != 3 {
		t.Fatalf("%d offer rows, want 3", rows.Length())
	}
	for _, tc := range []struct {
		name, service, selectable string
		choose                    bool
		reason, point             string
	}{
		{name: "chosen", service: "101", selectable: "true", choose: true, point: "no"},
		{name: "to a point", service: "102", selectable: "true", choose: true, point: "required"},
		{name: "unselectable", service: "103", selectable: "false", reason: "not possible with these details", point: "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			row := doc.Find(`[data-testid=offer][data-service="` + tc.service + `"]`)
			if got := row.AttrOr("data-selectable", ""); got != tc.selectable {
				t.Errorf("data-selectable %q, want %q", got, tc.selectable)
			}
			choose := row.Find(`[data-testid=choose]`)
			if (choose.Length() == 1) != tc.choose {
				t.Errorf("choose button present: %v, want %v", choose.Length() == 1, tc.choose)
			}
			if tc.choose && choose.AttrOr("formaction", "") != "/shipping/new/choose" {
				t.Errorf("choose posts to %q", choose.AttrOr("formaction", ""))
			}
			if got := strings.TrimSpace(row.Find(`[data-testid=offer-reason]`).Text()); got != tc.reason {
				t.Errorf("reason %q, want %q", got, tc.reason)
			}
			if got := strings.TrimSpace(row.Find(`[data-testid=offer-delivery-point]`).Text()); got != tc.point {
				t.Errorf("delivery point %q, want %q", got, tc.point)
			}
		})
	}
	if !doc.Find(`[data-service="101"]`).HasClass("chosen") || !doc.Find(`[data-service="103"]`).HasClass("muted") {
		t.Error("the chosen offer is not marked chosen, or the unselectable one not muted")
	}
	for _, sort := range []string{"price", "delivery", "carrier"} {
		if b := doc.Find(`button[name=sort][value=` + sort + `]`); b.AttrOr("formaction", "") != "/shipping/new/sort" {
			t.Errorf("sort by %s posts to %q", sort, b.AttrOr("formaction", ""))
		}
	}
}

func TestNewShipmentButtonsPostToTheirSteps(t *testing.T) {
	v := NewShipment{Presets: []Option{{Value: "1", Label: "Small box"}}, Packages: []PackageRow{{}},
		Chosen: &OfferRow{ServiceID: 101, Carrier: "ZASILKOVNA", Service: "Parcel Home"}}
	doc := render(t, NewShipmentPage(Page{Title: "New shipment"}, v))
	for _, tc := range []struct{ testid, action string }{
		{"compare", "/shipping/new/compare"},
		{"draft", "/shipping/new/draft"},
		{"add-package", "/shipping/new/packages"},
		{"add-preset", "/shipping/new/preset"},
		{"create", "/shipping/new/order"},
	} {
		t.Run(tc.testid, func(t *testing.T) {
			b := doc.Find(`button[data-testid=` + tc.testid + `]`)
			if b.Length() != 1 {
				t.Fatalf("%d buttons %s", b.Length(), tc.testid)
			}
			if got := b.AttrOr("formaction", ""); got != tc.action {
				t.Errorf("posts to %q, want %q", got, tc.action)
			}
		})
	}
	form := doc.Find(`form#new-shipment`)
	if form.AttrOr("action", "") != "/shipping/new/compare" || form.AttrOr("method", "") != "post" {
		t.Errorf("without a button the form compares offers: action %q", form.AttrOr("action", ""))
	}
	if got := doc.Find(`input[type=hidden][name=offer_service_id]`).AttrOr("value", ""); got != "101" {
		t.Errorf("the chosen offer is not carried: %q", got)
	}
}

func TestLabelBoxSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    ShipmentView
		want string
		poll bool
	}{
		{"ordering", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "ordering"}, Next: "wait_order", Poll: true}, "The order is on its way to the service", true},
		{"unknown", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "unknown"}, Next: "check_order", SettlesAt: "12:00:00", Poll: true}, "cannot be ordered again before 12:00:00", true},
		{"missing", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "missing"}, Next: "order_again", Error: "It was not created."}, "It was not created.", false},
		{"cancelled", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created"}, Next: "cancelled", Cancelled: true}, "This shipment was cancelled.", false},
		{"courier brings it", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "CARRIER"}, Next: "carrier"}, "The courier brings the label.", false},
		{"label failed", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "PRINT", LabelStatus: "FAILED", TrackingNumber: "G1X"}, Next: "label_failed"}, "contact the service's support with tracking number G1X", false},
		{"code", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "CODE", LabelStatus: "READY"}, Next: "show_code", Packages: []PackageView{{Password: "AB3K9Z"}}}, "Hand over with this code, no label", false},
		{"print", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "PRINT", LabelStatus: "READY"}, Next: "print"}, "Print label", false},
		{"printed", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "PRINT", LabelStatus: "READY", Printed: true}, Next: "hand_over"}, "hand it to the courier", false},
		{"in transit", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", Status: "INTRANSIT", LabelMode: "PRINT", LabelStatus: "READY"}, Next: "follow"}, "follow its tracking", false},
		{"delivered", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", Status: "DELIVERED", LabelMode: "PRINT", LabelStatus: "READY"}, Next: "delivered"}, "Nothing more to do", false},
		{"returned", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", Status: "ONDELIVERY", LabelMode: "PRINT", LabelStatus: "READY"}, Next: "returned"}, "came back to the sender", false},
		{"pending", ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "PRINT", LabelStatus: "PENDING"}, Next: "wait_label", Poll: true}, "The label comes once the carrier has the data", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := render(t, LabelBox(tc.s))
			todo := strings.Join(strings.Fields(doc.Find(`[data-testid=todo]`).Text()), " ")
			if !strings.Contains(todo, tc.want) {
				t.Errorf("says %q, want %q", todo, tc.want)
			}
			if prints := doc.Find(`[data-testid=print-label]`).Length() > 0; prints != (tc.name == "print" || tc.name == "printed") {
				t.Errorf("offers the label: %v", prints)
			}
			_, polls := doc.Find(`[data-testid=label-box]`).Attr("hx-get")
			if polls != tc.poll {
				t.Errorf("polls: %v, want %v", polls, tc.poll)
			}
		})
	}
	code := render(t, LabelBox(ShipmentView{ShipmentRow: ShipmentRow{ID: 1, State: "created", LabelMode: "CODE", LabelStatus: "READY"}, Next: "show_code",
		Packages: []PackageView{{Password: "AB3K9Z"}}}))
	if got := strings.TrimSpace(code.Find(`[data-testid=handover-code]`).Text()); got != "AB3K9Z" {
		t.Errorf("hand-over code %q", got)
	}
}

func TestDuplicatesListEachExtraOrderWithAConfirmation(t *testing.T) {
	s := ShipmentView{ShipmentRow: ShipmentRow{ID: 7, Reference: "SD-1", TrackingNumber: "G1A"}, Duplicates: []string{"G1B", "G1C"}}
	doc := render(t, DuplicateOrders(s))
	forms := doc.Find(`[data-testid=duplicates] [data-testid=duplicate]`)
	if forms.Length() != 2 {
		t.Fatalf("%d duplicate forms, want 2", forms.Length())
	}
	forms.Each(func(i int, f *goquery.Selection) {
		tn := s.Duplicates[i]
		t.Run(tn, func(t *testing.T) {
			if f.AttrOr("action", "") != "/shipping/shipments/7/duplicates/storno" || f.AttrOr("method", "") != "post" {
				t.Errorf("posts to %q", f.AttrOr("action", ""))
			}
			if got := f.Find(`input[type=hidden][name=tracking_number]`).AttrOr("value", ""); got != tn {
				t.Errorf("tracking number %q, want %q", got, tn)
			}
			confirm := f.Find(`input[type=checkbox][name=confirm]`)
			if confirm.AttrOr("value", "") != "yes" || confirm.AttrOr("required", "x") == "x" {
				t.Errorf("no required confirmation for %s", tn)
			}
			if !strings.Contains(f.Text(), "cancel the extra order "+tn) {
				t.Errorf("the confirmation does not name %s: %q", tn, f.Text())
			}
		})
	})
	if none := render(t, DuplicateOrders(ShipmentView{})); none.Find(`[data-testid=duplicates]`).Length() != 0 {
		t.Error("a shipment without duplicates shows the section")
	}
}
