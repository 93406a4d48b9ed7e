package handlers

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"shipdesk/apperr"
	"shipdesk/views"
)

// pageOrder are the form's fields in the order the page shows them (the
// packages' cells go where "packages" is).
var pageOrder = []string{"to_firstname", "to_surname", "to_company", "to_street", "to_city", "to_zip", "to_country",
	"to_phone", "to_email", "offer", "pickup_branch", "delivery_branch", "label_less", "packages", "sender", "handover",
	"pickup_date", "reference", "note", "cod", "cod_value", "cod_currency", "cod_bank_account", "cod_bank_code",
	"cod_bank_variable", "cod_bank_currency", "insured_value"}

// focusOf is what takes the focus when the form is drawn: the first field
// with a problem (the summary when that field is not on the page), else what
// the step says comes next. "offers" becomes the first offer's Choose button.
func focusOf(problems apperr.Problems, next string, v views.NewShipment) string {
	if len(problems) > 0 {
		for _, field := range pageOrder {
			if field == "packages" {
				if cell := firstPackageProblem(problems, len(v.Packages)); cell != "" {
					return cell
				}
			}
			if problems[field].IsZero() {
				continue
			}
			switch field {
			case "offer":
				return "problems"
			case "packages":
				return "pkg_weight_0"
			case "pickup_branch", "delivery_branch":
				if v.Chosen == nil {
					return "problems"
				}
				return strings.TrimSuffix(field, "_branch") + "_q"
			case "label_less":
				if !v.LabelFreeOK {
					return "problems"
				}
			}
			return field
		}
		return "problems"
	}
	if v.Form.Message != "" {
		return "problems"
	}
	if next == "offers" {
		for _, o := range v.Offers {
			if o.Selectable {
				return "choose-" + o.Choice
			}
		}
		for _, o := range v.LabelFreeOffer {
			if o.Selectable {
				return "choose-" + o.Choice
			}
		}
	}
	return next
}

// firstPackageProblem is the first cell of the packages table with a problem.
func firstPackageProblem(problems apperr.Problems, rows int) string {
	for i := range rows {
		for _, col := range []string{"weight", "length", "width", "height"} {
			if cell := fmt.Sprintf("pkg_%s_%d", col, i); !problems[cell].IsZero() {
				return cell
			}
		}
	}
	return ""
}

// unseenProblems are the errors about parts not on the page yet, for the
// summary, so none is lost.
func unseenProblems(ctx context.Context, problems apperr.Problems, v views.NewShipment) string {
	var unseen []string
	for field, msg := range problems {
		shown := field == "form" || !strings.Contains("offer pickup_branch delivery_branch label_less", field)
		if !shown && field == "offer" && v.Compared || v.Chosen != nil && field != "offer" {
			shown = true
		}
		if !shown {
			unseen = append(unseen, msg.In(ctx))
		}
	}
	sort.Strings(unseen)
	return strings.Join(unseen, " ")
}
