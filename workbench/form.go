package workbench

import (
	"cmp"
	"io"
	"mime/multipart"
	"net/url"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/textin"
)

// ParseForm reads the new-commission form as posted, with its proof of
// purchase from files (the multipart form's files; nil when none were sent).
// Text that cannot be read or is too long is a problem of its field: the
// problems are returned, and the form keeps them so that Check reports them
// with the others, before anything is sent.
func ParseForm(v url.Values, files map[string][]*multipart.FileHeader) (Form, apperr.Problems) {
	p := apperr.Problems{}
	fields := textin.NewFields(v, p)
	text := fields.Line
	id := func(name string) int64 {
		n, _ := strconv.ParseInt(text(name, 20), 10, 64)
		return max(n, 0)
	}
	f := Form{Key: text("key", 40), Type: text("type", 20), TypeID: id("type_id"), ModelID: id("model_id"), Serial: text("serial", 100),
		Purchase: isoDay(text("purchase_date", 20)), Fault: fields.Lines("fault", 5000), TwoWay: v.Get("two_way") == "on",
		Reference: text("reference", 64), UploadID: id("upload_id"), Remedy: text("remedy", 20), Language: cmp.Or(text("language", 5), "cs"),
		Customer: Customer{Name: text("customer_name", 200), Email: text("customer_email", 200), Phone: text("customer_phone", 30),
			Street: text("customer_street", 100), City: text("customer_city", 100), Zip: text("customer_zip", 10), Country: "CZ"}}
	f.File = proofOf(files["proof"])
	f.unread = p
	return f, p
}

// isoDay stores a purchase date typed the Czech way ("22. 11. 2026") or as
// ISO as ISO; what is no date stays as typed, for Check to report.
func isoDay(s string) string {
	if d, problem := textin.Date(s); s != "" && problem.IsZero() {
		return d.Format("2006-01-02")
	}
	return s
}

// proofOf reads the chosen proof of purchase, at most one byte over the
// limit so that Check can say it is too large; nil when none was chosen.
func proofOf(headers []*multipart.FileHeader) *File {
	if len(headers) == 0 {
		return nil
	}
	h := headers[0]
	file, err := h.Open()
	if err != nil {
		return nil
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxUpload+1))
	if err != nil || (len(data) == 0 && h.Filename == "") {
		return nil
	}
	return &File{Name: h.Filename, Data: data}
}
