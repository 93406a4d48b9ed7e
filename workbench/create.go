package workbench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// File is an uploaded file as received from the agent's browser.
type File struct {
	Name string
	Data []byte
}

// Form is the new-commission form.
type Form struct {
	Key       string
	Type      string
	Customer  Customer
	TypeID    int64
	ModelID   int64
	Serial    string
	Purchase  string
	Fault     string
	TwoWay    bool
	Reference string
	UploadID  int64 // a proof kept from an earlier attempt of this form
	File      *File

	unread apperr.Problems // what ParseForm could not read, reported by Check
}

// Check returns what must be fixed before anything is sent.
func (f Form) Check() apperr.Problems {
	p := apperr.Problems{}
	if !requestkey.Valid(f.Key) {
		p["form"] = "This form is damaged: open New commission again."
	}
	if !slices.Contains(Types, f.Type) {
		p["type"] = "Choose the kind of order."
	}
	if n := len([]rune(f.Customer.Name)); n == 0 || n > 200 {
		p["customer_name"] = "The customer's name is required (at most 200 characters)."
	}
	if a, err := mail.ParseAddress(f.Customer.Email); err != nil || a.Address != f.Customer.Email || len(f.Customer.Email) > 200 {
		p["customer_email"] = "A valid e-mail address is required: the customer receives the messages."
	}
	if f.TwoWay {
		for field, v := range map[string]string{"customer_street": f.Customer.Street, "customer_city": f.Customer.City, "customer_zip": f.Customer.Zip} {
			if v == "" {
				p[field] = "Required: the carrier collects the goods at this address."
			}
		}
	}
	if f.TypeID == 0 {
		p["type_id"] = "Choose the product type."
	}
	if f.ModelID == 0 {
		p["model_id"] = "Choose the model."
	}
	if n := len([]rune(f.Fault)); n == 0 || n > 5000 {
		p["fault"] = "Describe the fault (at most 5000 characters)."
	}
	if f.Purchase != "" {
		if _, err := time.Parse("2006-01-02", f.Purchase); err != nil {
			p["purchase_date"] = "Use the date picker (YYYY-MM-DD)."
		}
	}
	if len(f.Reference) > 64 {
		p["reference"] = "At most 64 characters."
	}
	if f.Type == "warranty" && f.File == nil && f.UploadID == 0 {
		p["proof"] = "A warranty order needs the proof of purchase (PDF, JPEG or PNG)."
	}
	if f.File != nil {
		if msg := CheckProof(f.File.Name, f.File.Data); msg != "" {
			p["proof"] = msg
		}
	}
	for field, msg := range f.unread { // said first: the rules above saw a cleaned value
		p[field] = msg
	}
	return p
}

// SniffProof tells the file's type by its first bytes, never by its name; the
// message says why a file is refused.
func SniffProof(data []byte) (string, string) {
	switch {
	case len(data) == 0:
		return "", "The file is empty."
	case len(data) > MaxUpload:
		return "", fmt.Sprintf("The file is larger than %d MiB.", MaxUpload>>20)
	case bytes.HasPrefix(data, []byte("%PDF-")):
		return "application/pdf", ""
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "image/jpeg", ""
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png", ""
	}
	return "", "Only PDF, JPEG or PNG files are accepted (checked by their content, not their name)."
}

// extensions are the names each accepted type goes by.
var extensions = map[string]string{".pdf": "application/pdf", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}

// CheckProof says why a proof of purchase is refused: not PDF, JPEG or PNG by
// its content, too big, or named as one type while being another (a PDF
// renamed .png is a mistake to catch before the customer's claim depends on it).
func CheckProof(name string, data []byte) string {
	ctype, msg := SniffProof(data)
	if msg != "" {
		return msg
	}
	ext := strings.ToLower(name[max(strings.LastIndex(name, "."), 0):])
	if want, known := extensions[ext]; known && want != ctype {
		return fmt.Sprintf("The file is named %s but its content is %s: choose the right file or rename it.", ext, typeName(ctype))
	}
	return ""
}

func typeName(ctype string) string {
	switch ctype {
	case "application/pdf":
		return "a PDF"
	case "image/jpeg":
		return "a JPEG image"
	}
	return "a PNG image"
}

// Result is what Create did, for the form when it did not finish: the proof
// kept so far is reused by the next attempt.
type Result struct {
	Commission storage.Commission
	UploadID   int64
}

// Create checks the form, keeps and uploads the proof (or reuses the one an
// earlier attempt uploaded), records the intent and creates the commission.
func (w *Workbench) Create(ctx context.Context, f Form, by int64) (Result, error) {
	var kept *storage.Upload
	if f.File == nil && f.UploadID != 0 {
		// Only the agent who kept a file may use it; any other id is as unknown,
		// and the form asks for the proof again.
		up, err := w.db.KeptUpload(ctx, f.UploadID, by)
		switch {
		case err == nil:
			kept = &up
		case apperr.Is(err, apperr.NotFound):
			f.UploadID = 0
		default:
			return Result{}, err
		}
	}
	res := Result{UploadID: f.UploadID}
	problems := f.Check()
	product := ""
	if problems["type_id"] == "" && problems["model_id"] == "" {
		// A model of another type is the form's problem, said with the others.
		var err error
		product, err = w.productName(ctx, f.TypeID, f.ModelID)
		switch {
		case apperr.CodeOf(err) == apperr.Invalid:
			problems["model_id"] = apperr.FieldsOf(err)["model_id"]
		case err != nil:
			return res, err
		}
	}
	if len(problems) > 0 {
		// A good file is kept even when other fields need fixing: the agent
		// does not have to choose it again.
		if f.File != nil && problems["proof"] == "" {
			ctype, _ := SniffProof(f.File.Data)
			if up, err := w.db.SaveUpload(ctx, cleanName(f.File.Name), ctype, f.File.Data, storage.UserRef(by)); err == nil {
				res.UploadID = up.ID
			}
		}
		return res, invalid(problems)
	}
	if existing, err := w.db.CommissionByKey(ctx, f.Key); err == nil {
		res.Commission = existing
		return res, nil // this form was sent already
	}
	token := ""
	if f.File != nil { // a new file replaces one kept from an earlier attempt
		ctype, _ := SniffProof(f.File.Data)
		up, err := w.db.SaveUpload(ctx, cleanName(f.File.Name), ctype, f.File.Data, storage.UserRef(by))
		if err != nil {
			return res, err
		}
		res.UploadID, kept = up.ID, &up
	}
	if kept != nil {
		up := *kept
		if up.Token != nil {
			token = *up.Token
		} else {
			file, err := w.api.Upload(ctx, up.Filename, up.ContentType, up.Data)
			if err != nil {
				return res, mapError("upload the proof of purchase", err)
			}
			if err := w.db.SetUploadToken(ctx, up.ID, file.Token); err != nil {
				return res, err
			}
			token = file.Token
		}
	}
	req := f.request(token)
	raw, _ := json.Marshal(req)
	intent := storage.Commission{RequestKey: f.Key, Reference: req.Reference, Type: f.Type, CustomerName: f.Customer.Name,
		CustomerEmail: f.Customer.Email, ProductLabel: product, TwoWay: f.TwoWay, Request: raw, CreatedBy: storage.UserRef(by),
		CreatedAt: w.clock()}
	if res.UploadID != 0 {
		intent.UploadID = &res.UploadID
	}
	now := w.now()
	c, attempt, fresh, err := w.db.BeginCommission(ctx, intent, now, w.deadline(now))
	if err != nil || !fresh {
		res.Commission = c
		return res, err
	}
	if res.UploadID != 0 {
		if err := w.db.AttachUpload(ctx, res.UploadID, c.ID); err != nil {
			return res, err
		}
	}
	res.Commission, err = w.send(ctx, c, attempt, req, true)
	return res, err
}

// request is the form as the service's create call takes it, with the
// uploaded proof's token.
func (f Form) request(token string) returns.CreateRequest {
	return returns.CreateRequest{Type: f.Type, Customer: f.Customer.wire(), ShipmentFromCustomer: f.TwoWay, InvoiceFileToken: token,
		Reference: f.reference(), Product: returns.Product{TypeID: f.TypeID, ModelID: f.ModelID, SerialNumber: f.Serial,
			PurchaseDate: f.Purchase, Fault: f.Fault}}
}

// reference is ours as typed, else one made of the form's request key.
func (f Form) reference() string {
	return cmp.Or(f.Reference, "RC-"+strings.ToUpper(strings.ReplaceAll(f.Key, "-", "")[:12]))
}

func cleanName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if r < 32 || r == '"' {
			return -1
		}
		return r
	}, name)
	if len(name) > 120 {
		name = name[len(name)-120:]
	}
	if name == "" {
		name = "proof"
	}
	return name
}
