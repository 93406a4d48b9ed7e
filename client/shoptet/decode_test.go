package shoptet

import (
	"strings"
	"testing"
	"time"
)

// An answer is read as the official SDK reads it: every member the schema
// requires is there and of its type, null only where the schema allows it.
func TestDecodeIsStrict(t *testing.T) {
	const change = `{"code":"2026000001","changeTime":"2026-11-23T10:00:00+0100","changeType":"edit"}`
	const paginator = `{"totalCount":1,"page":1,"pageCount":1,"itemsOnPage":1,"itemsPerPage":50}`
	good := `{"changes":[` + change + `],"paginator":` + paginator + `,"later":{"added":"by Shoptet"}}`
	var ok ChangeList
	if err := decode([]byte(good), &ok); err != nil || ok.Changes[0].Code != "2026000001" || ok.Changes[0].ChangeTime.At().Hour() != 10 || ok.Paginator.PageCount != 1 {
		t.Fatalf("good answer: %+v, %v", ok, err)
	}
	for name, c := range map[string]struct{ body, want string }{
		"missing required":      {`{"changes":[{"code":"1","changeType":"edit"}],"paginator":` + paginator + `}`, "changes[0].changeTime: missing"},
		"missing paginator":     {`{"changes":[]}`, "paginator: missing"},
		"number for a string":   {`{"changes":[{"code":1,"changeTime":null,"changeType":"edit"}],"paginator":` + paginator + `}`, "changes[0].code: want a string, got a number"},
		"string for an integer": {`{"changes":[],"paginator":{"totalCount":"1","page":1,"pageCount":1,"itemsOnPage":1,"itemsPerPage":50}}`, "paginator.totalCount: want an integer"},
		"fraction for integer":  {`{"changes":[],"paginator":{"totalCount":1.5,"page":1,"pageCount":1,"itemsOnPage":1,"itemsPerPage":50}}`, "paginator.totalCount: want an integer"},
		"null not allowed":      {`{"changes":null,"paginator":` + paginator + `}`, "changes: null where a value is required"},
		"object for an array":   {`{"changes":{},"paginator":` + paginator + `}`, "changes: want an array, got an object"},
		"array for an object":   {`{"changes":[],"paginator":[]}`, "paginator: want an object, got an array"},
		"bad time":              {`{"changes":[{"code":"1","changeTime":"yesterday","changeType":"edit"}],"paginator":` + paginator + `}`, "want a time"},
		"not JSON":              {`{"changes":[`, "unreadable JSON"},
		"after the answer":      {good + `{}`, "more after the answer"},
		"nothing":               {``, "no value"},
	} {
		t.Run(name, func(t *testing.T) {
			var out ChangeList
			err := decode([]byte(c.body), &out)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v; want %q", err, c.want)
			}
		})
	}
	// Null where the schema allows it is nil; optional members may be absent.
	var o Order
	if err := decode([]byte(minimalOrder), &o); err != nil {
		t.Fatalf("minimal order: %v", err)
	}
	if o.Email != nil || o.DeliveryAddress != nil || o.ShippingDetails != nil || o.Notes != nil || o.Shipping != nil || o.ChangeTime.At().IsZero() {
		t.Errorf("minimal order: %+v", o)
	}
}

// minimalOrder has only what the schema requires, null wherever it may be.
const minimalOrder = `{"code":"A-1","guid":"g","externalCode":null,"creationTime":null,"changeTime":"2026-11-23T10:00:00+0100",
"email":null,"phone":null,"clientIPAddress":null,"customerGuid":null,"cashDeskOrder":false,"stockId":1,"addressesEqual":true,"vatPayer":true,
"billingMethod":null,"paymentMethod":null,"shipping":null,"adminUrl":"https://x","status":null,
"price":{"vat":null,"toPay":null,"currencyCode":"CZK","withoutVat":null,"withVat":null,"exchangeRate":"1.00000000"},"paid":null,
"billingAddress":{"company":null,"fullName":null,"street":null,"houseNumber":null,"city":null,"district":null,"additional":null,"zip":null,"countryCode":null,"regionName":null,"regionShortcut":null,"companyId":null,"vatId":null,"taxId":null},
"deliveryAddress":null,"items":[]}`

// Shoptet's moments read the same with the quick reader as with time.Parse.
func TestTimesAreRead(t *testing.T) {
	for _, s := range []string{"2026-11-23T10:00:00+0100", "2026-03-29T03:30:00+0200", "1999-12-31T23:59:59-0930", "2026-11-23T10:00:00Z", "2026-11-23T10:00:00+01:00"} {
		got, err := parseTime(s)
		want, werr := time.Parse(TimeLayout, s)
		if werr != nil {
			want, werr = time.Parse(time.RFC3339, s)
		}
		if err != nil || werr != nil || !got.Equal(want) || got.Format(time.RFC3339) != want.Format(time.RFC3339) {
			t.Errorf("%s: %v %v, want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"2026-02-31T10:00:00+0100", "2026-11-23T24:00:00+0100", "2026-11-23 10:00:00+0100", "yesterday", "2026-1a-23T10:00:00+0100"} {
		if got, err := parseTime(s); err == nil {
			t.Errorf("%s read as %v", s, got)
		}
	}
}
