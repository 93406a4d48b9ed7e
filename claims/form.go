package claims

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/workbench"
)

// Kinds of a claim: a withdrawal from the purchase (no reason needed, within
// 14 days of delivery) or a claim of a defect.
const (
	KindWithdrawal = "withdrawal"
	KindDefect     = "defect"
)

// Kinds and Transports are the form's choices, in the order shown.
var (
	Kinds      = []string{KindDefect, KindWithdrawal}
	Transports = []string{storage.TransportCode, storage.TransportCourier, storage.TransportShop}
)

// Form is the claim form as the customer filled it.
type Form struct {
	Key                                string
	Kind                               string
	Remedy                             string
	Description                        string
	ModelID                            int64
	Item                               string                // the code of the shop's item claimed (a purchase from the shop)
	Customer                           storage.ClaimCustomer // the e-mail is the link's, never typed
	Transport                          string
	PointCarrier, PointCode, PointName string
	RefundAmount, RefundAccount        string
	Proof                              *File
	Photos                             []File

	unread apperr.Problems // what could not be read, said first
}

// ParseForm reads the posted form and its files.
func ParseForm(v url.Values, proof *File, photos []File) Form {
	p := apperr.Problems{}
	fields := textin.NewFields(v, p)
	line := fields.Line
	f := Form{
		Key: strings.ToLower(line("key", 40)), Kind: line("kind", 20), Remedy: line("remedy", 20),
		Description: fields.Lines("description", MaxText), Transport: line("transport", 20), Item: line("item", 200),
		PointCarrier: line("point_carrier", 40), PointCode: line("point_code", 60), PointName: line("point_name", 200),
		RefundAmount: line("refund_amount", 40), RefundAccount: line("refund_account", 80),
		Customer: storage.ClaimCustomer{Name: line("name", 200), Street: line("street", desk.MaxText), City: line("city", desk.MaxText),
			Zip: line("zip", 10), Country: cmp.Or(strings.ToUpper(line("country", 2)), countries.Home), Phone: desk.NormalPhone(line("phone", 30))},
		Proof: proof, Photos: photos, unread: p,
	}
	if s := line("model_id", 20); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			p.Add("model_id", "claim.err.model")
		}
		f.ModelID = id
	}
	return f
}

// Check says what must be fixed before the claim is kept.
func (f Form) Check() apperr.Problems {
	p := apperr.Problems{}
	if !requestkey.Valid(f.Key) {
		p.Add("form", "claim.err.damaged")
	}
	if !slices.Contains(Kinds, f.Kind) {
		p.Add("kind", "claim.err.kind")
	}
	if n := len([]rune(f.Customer.Name)); n == 0 {
		p.Add("name", "claim.err.name")
	}
	if f.Kind == KindDefect {
		if strings.TrimSpace(f.Description) == "" {
			p.Add("description", "claim.err.description")
		}
		if !slices.Contains(workbench.Remedies, f.Remedy) {
			p.Add("remedy", "claim.err.remedy")
		}
		if f.Proof == nil {
			p.Add("proof", "claim.err.proof")
		}
	}
	if f.Kind == KindWithdrawal {
		_, problems := workbench.CheckRefund(f.RefundAmount, f.RefundAccount)
		for field, msg := range problems {
			p[field] = msg
		}
	}
	switch f.Transport {
	case storage.TransportCode:
		if f.PointCarrier == "" || f.PointCode == "" {
			p.Add("point", "claim.err.point")
		}
	case storage.TransportCourier:
		for field, v := range map[string]string{"street": f.Customer.Street, "city": f.Customer.City, "zip": f.Customer.Zip} {
			if v == "" {
				p.Add(field, "claim.err.address")
			}
		}
	case storage.TransportShop:
	default:
		p.Add("transport", "claim.err.transport")
	}
	for field, msg := range f.addressProblems() { // after the form's own words: the desk's rules, as its parcel will meet them
		p.Put(field, msg)
	}
	checkFiles(f, p)
	for field, msg := range f.unread { // said first: the rules above saw a cleaned value
		p[field] = msg
	}
	return p
}
