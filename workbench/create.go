package workbench

import (
	"cmp"
	"context"
	"encoding/json"
	"net/mail"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/upload"
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
	// Remedy the customer asks for (Remedies; "" not said) and the language
	// the customer reads the written confirmations in.
	Remedy   string
	Language string
	UploadID int64 // a proof kept from an earlier attempt of this form
	File     *File

	unread apperr.Problems // what ParseForm could not read, reported by Check
}

// Check returns what must be fixed before anything is sent.
func (f Form) Check() apperr.Problems {
	p := apperr.Problems{}
	if !requestkey.Valid(f.Key) {
		p["form"] = apperr.Msg("ret.err.damaged")
	}
	if !slices.Contains(Types, f.Type) {
		p["type"] = apperr.Msg("ret.err.kind")
	}
	if n := len([]rune(f.Customer.Name)); n == 0 || n > 200 {
		p["customer_name"] = apperr.Msg("ret.err.name")
	}
	if a, err := mail.ParseAddress(f.Customer.Email); err != nil || a.Address != f.Customer.Email || len(f.Customer.Email) > 200 {
		p["customer_email"] = apperr.Msg("ret.err.email")
	}
	if f.TwoWay {
		for field, v := range map[string]string{"customer_street": f.Customer.Street, "customer_city": f.Customer.City, "customer_zip": f.Customer.Zip} {
			if v == "" {
				p[field] = apperr.Msg("ret.err.address")
			}
		}
	}
	if f.Remedy != "" && !slices.Contains(Remedies, f.Remedy) {
		p["remedy"] = apperr.Msg("conf.err.remedy")
	}
	if _, ok := i18n.Parse(f.Language); f.Language != "" && (!ok || len(f.Language) != 2) {
		p["language"] = apperr.Msg("conf.err.language")
	}
	if f.TypeID == 0 {
		p["type_id"] = apperr.Msg("ret.err.product_type")
	}
	if f.ModelID == 0 {
		p["model_id"] = apperr.Msg("ret.err.model")
	}
	if n := len([]rune(f.Fault)); n == 0 || n > 5000 {
		p["fault"] = apperr.Msg("ret.err.fault")
	}
	if f.Purchase != "" {
		if _, err := time.Parse("2006-01-02", f.Purchase); err != nil {
			p["purchase_date"] = apperr.Msg("form.date_picker")
		}
	}
	if len(f.Reference) > 64 {
		p["reference"] = apperr.Count(textin.TooLong, 64)
	}
	if f.Type == "warranty" && f.File == nil && f.UploadID == 0 {
		p["proof"] = apperr.Msg("ret.err.proof_needed")
	}
	if f.File != nil {
		if msg := CheckProof(f.File.Name, f.File.Data); !msg.IsZero() {
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
func SniffProof(data []byte) (string, apperr.Text) {
	ctype := upload.Sniff(data)
	if msg := upload.Check("", ctype, int64(len(data)), MaxUpload); !msg.IsZero() {
		return "", msg
	}
	return ctype, apperr.Text{}
}

// CheckProof says why a proof of purchase is refused: not PDF, JPEG or PNG by
// its content, too big, or named as one type while being another (upload.Check).
func CheckProof(name string, data []byte) apperr.Text {
	return upload.Check(name, upload.Sniff(data), int64(len(data)), MaxUpload)
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
	return w.create(ctx, f, kept, by)
}

// CreateForCustomer creates the commission of a claim a customer filed on
// the claim page, with the proof of purchase kept with the claim (proofID,
// 0 for none); nobody of the staff made it.
func (w *Workbench) CreateForCustomer(ctx context.Context, f Form, proofID int64) (Result, error) {
	var kept *storage.Upload
	if proofID != 0 {
		up, err := w.db.UploadByID(ctx, proofID)
		if err != nil {
			return Result{}, err
		}
		kept, f.UploadID = &up, up.ID
	}
	return w.create(ctx, f, kept, 0)
}

// create is Create once the proof is known: kept (from an earlier attempt,
// or the customer's claim) or in f.File.
func (w *Workbench) create(ctx context.Context, f Form, kept *storage.Upload, by int64) (Result, error) {
	res := Result{UploadID: f.UploadID}
	problems := f.Check()
	product := ""
	if problems["type_id"].IsZero() && problems["model_id"].IsZero() {
		// A model of another type is the form's problem, said with the others.
		var err error
		product, err = w.productName(ctx, f.TypeID, f.ModelID)
		switch {
		case apperr.CodeOf(err) == apperr.Invalid:
			problems["model_id"] = apperr.ProblemsOf(err)["model_id"]
		case err != nil:
			return res, err
		}
	}
	if len(problems) > 0 {
		// A good file is kept even when other fields need fixing: the agent
		// does not have to choose it again.
		if _, bad := problems["proof"]; f.File != nil && !bad {
			ctype, _ := SniffProof(f.File.Data)
			if up, err := w.db.SaveUpload(ctx, cleanName(f.File.Name, ctype), ctype, f.File.Data, storage.UserRef(by)); err == nil {
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
		up, err := w.db.SaveUpload(ctx, cleanName(f.File.Name, ctype), ctype, f.File.Data, storage.UserRef(by))
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
				return res, mapError("ret.doing.upload", err)
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
		CreatedAt: w.now(), Remedy: f.Remedy, Language: f.Language}
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
	// A claim's intake confirmation is issued where the commission is
	// recorded as created (recordCreated), whichever way that happens.
	res.Commission, err = w.creates().Send(ctx, c, attempt, req, true)
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

// cleanName is a proof's name as kept (upload.SafeName: readable, of the
// type its content is).
func cleanName(name, ctype string) string { return upload.SafeName(name, ctype, "proof") }
