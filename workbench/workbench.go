// Package workbench is the returns desk: service orders (commissions) through the
// returns API, proofs of purchase checked by their content and kept locally,
// messages to the customer kept apart from internal notes, and the moves a
// commission may make.
package workbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/mail"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/requestkey"
	"shipdesk/serviceerr"
	"shipdesk/storage"
	"shipdesk/textin"
)

// MaxUpload is the largest proof of purchase (the service takes 10 MiB).
const MaxUpload = 10 << 20

// WarrantyDays is the statutory period to settle a warranty claim.
const WarrantyDays = 30

// Moves are the changes an agent may ask for, by status; the others happen by
// themselves (goods delivered to the service → processing; delivered back →
// closed). "outgoing" is ordering the shipment back to the customer.
var Moves = map[string][]string{
	"new":               {"processing", "cancelled"},
	"waiting_for_goods": {"cancelled"},
	"processing":        {"outgoing", "closed", "cancelled"},
}

// Workbench runs the returns desk.
type Workbench struct {
	db  *storage.DB
	api *returns.Client
	log *slog.Logger
	now func() time.Time
	// SyncEvery is how often open commissions are read again.
	SyncEvery time.Duration
	// CreateTimeout bounds one create call; the call goes on when the agent's
	// browser goes away.
	CreateTimeout time.Duration
	// Settle is how long after a create call's time limit the service may
	// still create the commission; only then may it be called missing.
	Settle time.Duration
}

// New returns a workbench.
func New(db *storage.DB, api *returns.Client, log *slog.Logger) *Workbench {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Workbench{db: db, api: api, log: log, now: time.Now, SyncEvery: 10 * time.Minute,
		CreateTimeout: time.Minute, Settle: 3 * time.Minute}
}

// File is an uploaded file as received from the agent's browser.
type File struct {
	Name string
	Data []byte
}

// Form is the new-commission form.
type Form struct {
	Key       string
	Type      string
	Customer  returns.Customer
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
	if !slices.Contains(returns.Types, f.Type) {
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

func invalid(p apperr.Problems) error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Fields("Some fields need attention: see the marked fields.", p)
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
	if problems := f.Check(); len(problems) > 0 {
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
	product, err := w.productName(ctx, f.TypeID, f.ModelID)
	if err != nil {
		return res, err
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
	req := returns.CreateRequest{Type: f.Type, Customer: f.Customer, ShipmentFromCustomer: f.TwoWay, InvoiceFileToken: token,
		Reference: reference(f), Product: returns.Product{TypeID: f.TypeID, ModelID: f.ModelID, SerialNumber: f.Serial,
			PurchaseDate: f.Purchase, Fault: f.Fault}}
	raw, _ := json.Marshal(req)
	intent := storage.Commission{RequestKey: f.Key, Reference: req.Reference, Type: f.Type, CustomerName: f.Customer.Name,
		CustomerEmail: f.Customer.Email, ProductLabel: product, TwoWay: f.TwoWay, Request: raw, CreatedBy: storage.UserRef(by)}
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

func reference(f Form) string {
	if f.Reference != "" {
		return f.Reference
	}
	return "RC-" + strings.ToUpper(strings.ReplaceAll(f.Key, "-", "")[:12])
}

func (w *Workbench) productName(ctx context.Context, typeID, modelID int64) (string, error) {
	t, m, err := w.db.ProductOf(ctx, typeID, modelID)
	if apperr.Is(err, apperr.NotFound) {
		return "", invalid(apperr.Problems{"model_id": "Choose a model of the chosen type from the list."})
	}
	if err != nil {
		return "", err
	}
	return ModelName(m.Brand, m.Name) + " (" + t.Name + ")", nil
}

// OpenClaim: a warranty claim not yet settled, so its 30 days run (counted
// from when the agent lodged it).
func OpenClaim(c *returns.Commission) bool {
	return c.Type == "warranty" && c.Status != "closed" && c.Status != "cancelled"
}

// Sync reads a commission again and stores it.
func (w *Workbench) Sync(ctx context.Context, id int64) (storage.Commission, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil || c.RemoteID == nil {
		return c, err
	}
	full, err := w.api.Get(ctx, *c.RemoteID)
	if err != nil {
		return c, mapError("refresh the commission", err)
	}
	if err := w.record(ctx, id, full); err != nil {
		return c, err
	}
	return w.db.CommissionByID(ctx, id)
}

// AddNote adds an internal note: the customer never sees it. key is the
// form's request key: the same form posted again is not sent again.
func (w *Workbench) AddNote(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error) {
	return w.activity(ctx, id, key, false, text, by)
}

// SendMessage sends a public message to the customer, once per form.
func (w *Workbench) SendMessage(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error) {
	return w.activity(ctx, id, key, true, text, by)
}

// activity sends a note or a message as a recorded intent: recorded before the
// call, never sent twice by a repeated post; a lost answer is settled by
// reading the commission's activities back.
func (w *Workbench) activity(ctx context.Context, id int64, key string, public bool, text string, by int64) (storage.Commission, error) {
	field := "note_text"
	if public {
		field = "message_text"
	}
	text, problem := textin.Lines(text, 5000)
	switch {
	case textin.IsUnreadable(problem):
		return storage.Commission{}, invalid(apperr.Problems{field: problem})
	case problem != "" || text == "":
		return storage.Commission{}, invalid(apperr.Problems{field: "Write the text (at most 5000 characters)."})
	}
	if !requestkey.Valid(key) {
		return storage.Commission{}, invalid(apperr.Problems{field: "This form is damaged: open the commission again."})
	}
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil {
		return c, err
	}
	if c.RemoteID == nil {
		return c, apperr.New(apperr.Conflict, "Commission %d is not at the service yet.", id)
	}
	a, fresh, err := w.db.BeginActivity(ctx, storage.Activity{RequestKey: key, CommissionID: id, Public: public, Text: text}, by)
	if err != nil {
		return c, err
	}
	if !fresh {
		if a.State == storage.ActivitySent {
			return c, nil // this form was sent already
		}
		return c, apperr.New(apperr.Conflict, "This was sent already and the service has not confirmed it yet: see the commission before writing it again.")
	}
	ctx, callCtx, cancel := w.detach(ctx)
	defer cancel()
	got, err := w.api.AddActivity(callCtx, *c.RemoteID, public, text)
	switch {
	case err == nil:
		if err := w.db.ActivitySentAs(ctx, a.ID, got.ID); err != nil {
			return c, err
		}
	case transport.IsRefused(err):
		if derr := w.db.DropActivity(ctx, a.ID); derr != nil {
			return c, derr
		}
		return c, mapError("add the activity", err)
	default:
		w.log.Warn("activity outcome unknown", "commission", id, "activity", a.ID, "err", err)
		if err := w.db.ActivityLost(ctx, a.ID, err.Error()); err != nil {
			return c, err
		}
	}
	return w.Sync(ctx, id)
}

// settleActivities marks open activities sent when the commission the service
// reports holds them (same kind and text), so a lost answer is never sent again.
func (w *Workbench) settleActivities(ctx context.Context, id int64, rc *returns.Commission) error {
	open, err := w.db.OpenActivities(ctx, id)
	if err != nil || len(open) == 0 {
		return err
	}
	taken := map[int64]bool{}
	for _, a := range open {
		for _, ra := range rc.Activities {
			if !taken[ra.ID] && ra.Public == a.Public && strings.TrimSpace(ra.Text) == a.Text {
				taken[ra.ID] = true
				if err := w.db.ActivitySentAs(ctx, a.ID, ra.ID); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// Move asks for one of the moves the status allows; "outgoing" orders the
// shipment back to the customer.
func (w *Workbench) Move(ctx context.Context, id int64, to string) (storage.Commission, error) {
	c, err := w.Sync(ctx, id)
	if err != nil {
		return c, err
	}
	if c.RemoteID == nil || !slices.Contains(Moves[c.Status], to) {
		return c, apperr.New(apperr.Conflict, "Commission %d is %s: it cannot move to %s now.", id, orDash(c.Status), to)
	}
	req := returns.EditRequest{ID: *c.RemoteID, Status: to}
	if to == "outgoing" {
		yes := true
		req.ShipmentToCustomer = &yes
	}
	edited, err := w.api.Edit(ctx, req)
	if err != nil {
		return c, mapError("change the commission", err)
	}
	if err := w.record(ctx, id, edited); err != nil {
		return c, err
	}
	return w.db.CommissionByID(ctx, id)
}

func orDash(s string) string {
	if s == "" {
		return "not created"
	}
	return s
}

// RefreshProducts copies the product types and models into the cache.
func (w *Workbench) RefreshProducts(ctx context.Context) error {
	types, err := w.api.ProductTypes(ctx)
	if err != nil {
		return mapError("load the product types", err)
	}
	models, err := w.api.ProductModels(ctx, 0)
	if err != nil {
		return mapError("load the product models", err)
	}
	textin.FromService(&types)
	textin.FromService(&models)
	var st []storage.ProductType
	for _, t := range types {
		st = append(st, storage.ProductType{ID: t.ID, Name: t.Name})
	}
	var sm []storage.ProductModel
	for _, m := range models {
		sm = append(sm, storage.ProductModel{ID: m.ID, TypeID: m.TypeID, Brand: m.Brand, Name: m.Name})
	}
	return w.db.ReplaceProducts(ctx, st, sm, w.now())
}

// NoAnswer is desk.NoAnswer for the returns desk.
const NoAnswer = "The shipping service did not answer in time. Nothing was lost: try again, or check the commission's status."

// mapError turns a failed call into a message on the form's fields.
// upstream maps the service's failures for the returns desk's forms.
var upstream = serviceerr.Mapper{Field: FormField, NoAnswer: NoAnswer,
	NotFound: "the service does not know this commission (yet).",
	Refused:  "The returns service refused our API key: a manager should check the Connection page."}

func mapError(doing string, err error) error { return upstream.Map(doing, err) }

// FormField names the form field of a returns API field path.
func FormField(path string) string {
	switch {
	case strings.HasPrefix(path, "customer."):
		return "customer_" + strings.TrimPrefix(path, "customer.")
	case path == "product.type_id":
		return "type_id"
	case path == "product.model_id":
		return "model_id"
	case path == "product.fault":
		return "fault"
	case path == "product.purchase_date":
		return "purchase_date"
	case path == "product.serial_number":
		return "serial"
	case path == "invoice_file_token", path == "file":
		return "proof"
	case path == "type", path == "reference":
		return path
	case path == "text":
		return "text"
	}
	return "form"
}

// DaysLeft counts calendar days from today to the deadline's day (negative:
// overdue by that many days), as a person counts them.
func DaysLeft(deadline, now time.Time) int {
	day := func(t time.Time) time.Time {
		t = t.In(time.Local)
		return time.Date(t.Year(), t.Month(), t.Day(), 12, 0, 0, 0, time.UTC)
	}
	return int(day(deadline).Sub(day(now)).Hours() / 24)
}

// ModelName is "Brand Model", without repeating a brand the model's name has.
func ModelName(brand, name string) string {
	if brand == "" || strings.HasPrefix(strings.ToLower(name), strings.ToLower(brand)) {
		return name
	}
	return brand + " " + name
}
