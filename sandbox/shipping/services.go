package shipping

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"shipdesk/cod"
	"shipdesk/i18n"
	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/labelpdf"
)

// Codes of the additional services, upper-case after normalize; clients write
// them in either case (the provider's documentation uses cod and ins).
const (
	codeCOD       = "COD"
	codeInsurance = "INS"
)

// Insurance price: a share of the insured value, with a minimum, in CZK.
const (
	insuranceRate   = 0.004
	insuranceMinCZK = 10
)

// checkServiceCodes allows each known additional service once per shipment.
func checkServiceCodes(p *problems, svcs []serviceReq) {
	seen := map[string]bool{}
	for i, sv := range svcs {
		field := fmt.Sprintf("services[%d].code", i)
		switch sv.Code {
		case codeCOD, codeInsurance:
			if seen[sv.Code] {
				p.add(field, msgServiceOnce, serviceName(sv.Code).With())
			}
			seen[sv.Code] = true
		default:
			p.add(field, msgServiceCode, sv.Code)
		}
	}
}

func serviceName(code string) apijson.Phrase {
	if code == codeCOD {
		return msgNameCOD
	}
	return msgNameInsurance
}

// codPhrase is a broken rule of cash on delivery in the words the dashboard's
// catalog gives it in each language: the rules and their texts are shared.
func codPhrase(pr cod.Problem) apijson.Phrase {
	return apijson.Phrase{CS: pr.Text.In(czech), EN: pr.Message()}
}

var czech = i18n.WithLang(context.Background(), i18n.Czech)

// decodeServiceData reads a service's data object; a malformed amount is named
// at data.value.value, anything else at data.
func decodeServiceData(p *problems, field string, raw json.RawMessage, dst any, shape string) bool {
	if len(raw) == 0 {
		p.add(field, msgDataObject, shape)
		return false
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var bad *errMoneyValue
		if errors.As(err, &bad) {
			p.add(field+".value.value", msgAmount, bad.got)
		} else {
			p.add(field, msgDataObject, shape)
		}
		return false
	}
	return true
}

func (s *Service) checkCOD(p *problems, field string, raw json.RawMessage, r *shipmentReq, from address, sv *Svc, forRates bool) *codData {
	var d codData
	if !decodeServiceData(p, field, raw, &d, "with value {value, currency}") {
		return nil
	}
	if d.Value == nil {
		p.add(field+".value", msgCODRequired)
		return nil
	}
	usesPoint := r.PickupBranch != "" || r.PickupBranchLocation != 0 || r.DeliveryBranch != "" || r.DeliveryBranchLocation != 0
	for _, pr := range cod.Check(cod.Input{
		Value: d.Value.Value, Currency: d.Value.Currency, BankAccount: d.BankAccount, BankCode: d.BankCode,
		BankVariable: d.BankVariable, BankCurrency: d.BankCurrency, From: orCZ(from.Country), To: r.To.Country,
		Packages: len(r.Packages), Group: sv.carrier.CODGroup, UsesPoint: usesPoint, MaxCZK: sv.MaxCOD, ForRates: forRates,
	}) {
		if pr.Field == "packages" {
			p.add("packages", codPhrase(pr))
			continue
		}
		p.add(field+"."+pr.Field, codPhrase(pr))
	}
	return &d
}

// checkInsurance checks the insured value against the service's maximum and the
// order currency; nil when it cannot be used.
func checkInsurance(p *problems, field string, raw json.RawMessage, sv *Svc, currency string) *money {
	var d insuranceData
	if !decodeServiceData(p, field, raw, &d, "with value {value, currency}") {
		return nil
	}
	if d.Value == nil {
		p.add(field+".value", msgInsuredRequired)
		return nil
	}
	v := *d.Value
	limit := sv.MaxInsured / rate(currency)
	switch {
	case v.Currency != currency:
		p.add(field+".value", msgInsuredCurrency, currency)
	case v.Value <= 0:
		p.add(field+".value", msgInsuredPositive)
	case v.Value > limit:
		p.add(field+".value", msgInsuredMax, math.Floor(limit), currency)
	default:
		return &v
	}
	return nil
}

// insurancePriceCZK is what insuring a value costs.
func insurancePriceCZK(insured money) float64 {
	return math.Max(insuranceMinCZK, math.Round(insured.Value*rate(insured.Currency)*insuranceRate*100)/100)
}

// rate converts a currency to CZK (fixed, as the sandbox is deterministic).
func rate(currency string) float64 {
	if currency == "EUR" {
		return cod.EURRate
	}
	return 1
}

func orCZ(country string) string {
	if country == "" {
		return "CZ"
	}
	return country
}

// serviceMoney is the amount of an additional service of a stored shipment,
// for the label and the hand-over protocol; nil when absent.
func serviceMoney(svcs []serviceReq, code string) *labelpdf.Money {
	for _, sv := range svcs {
		if sv.Code != code {
			continue
		}
		var d struct {
			Value *money `json:"value"`
		}
		if json.Unmarshal(sv.Data, &d) == nil && d.Value != nil {
			return &labelpdf.Money{Value: d.Value.Value, Currency: d.Value.Currency}
		}
	}
	return nil
}

// fillStoredBank gives a COD without bank details the account's stored ones,
// as the published create example relies on; a COD that names an account
// keeps its own. Data that is not an object is left for the checks to refuse.
func fillStoredBank(svcs []serviceReq, bank BankDetails) {
	for i, sv := range svcs {
		if sv.Code != codeCOD || bank.Account == "" {
			continue
		}
		var d map[string]json.RawMessage
		if json.Unmarshal(sv.Data, &d) != nil || d == nil {
			continue
		}
		if acct, ok := d["bank_account"]; ok && string(acct) != `""` && string(acct) != "null" {
			continue
		}
		d["bank_account"], _ = json.Marshal(bank.Account)
		d["bank_code"], _ = json.Marshal(bank.Code)
		if _, ok := d["bank_currency"]; !ok {
			d["bank_currency"], _ = json.Marshal(bank.Currency)
		}
		svcs[i].Data, _ = json.Marshal(d)
	}
}
