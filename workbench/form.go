package workbench

import (
	"net/url"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/textin"
)

// ParseForm reads the new-commission form as posted (without its file). Text
// that cannot be read or is too long is a problem of its field, which Check
// reports with the others, before anything is sent.
func ParseForm(v url.Values) Form {
	p := apperr.Problems{}
	fields := textin.NewFields(v, p)
	text := fields.Line
	id := func(name string) int64 {
		n, _ := strconv.ParseInt(text(name, 20), 10, 64)
		return max(n, 0)
	}
	f := Form{Key: text("key", 40), Type: text("type", 20), TypeID: id("type_id"), ModelID: id("model_id"), Serial: text("serial", 100),
		Purchase: text("purchase_date", 10), Fault: fields.Lines("fault", 5000), TwoWay: v.Get("two_way") == "on",
		Reference: text("reference", 64), UploadID: id("upload_id"),
		Customer: returns.Customer{Name: text("customer_name", 200), Email: text("customer_email", 200), Phone: text("customer_phone", 30),
			Street: text("customer_street", 100), City: text("customer_city", 100), Zip: text("customer_zip", 10), Country: "CZ"}}
	f.unread = p
	return f
}
