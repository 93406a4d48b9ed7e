package shiprules

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// apply lets a rule whose conditions hold choose among the offers: the index
// of its pick and why each other offer was not chosen, or -1 and why it chose
// nothing.
func (c Chooser) apply(r Rule, offers []Offer, blocked []*Text) (int, map[int]Text, Text, *Text) {
	if strings.TrimSpace(r.Choice) == Named {
		return c.named(r, offers, blocked)
	}
	fastest := strings.TrimSpace(r.Choice) == Fastest
	others := map[int]Text{}
	var open, ofCarriers, priced []int // what passes each filter in turn
	var cands []int
	for i, o := range offers {
		if blocked[i] != nil {
			others[i] = *blocked[i]
			continue
		}
		open = append(open, i)
		if len(r.Carriers) > 0 && !r.Carriers.has(o.Carrier) {
			others[i] = text("rules.offer.carrier_excluded", c.carriers(r.Carriers))
			continue
		}
		ofCarriers = append(ofCarriers, i)
		if cur := strings.TrimSpace(o.PriceVAT.Currency); cur != "" && !strings.EqualFold(cur, c.Currency) {
			others[i] = text("rules.offer.currency", clip(cur), c.Currency)
			continue
		}
		if _, ok := cents(o.PriceVAT); !ok {
			others[i] = text("rules.offer.no_price")
			continue
		}
		priced = append(priced, i)
		if fastest && !isDate(o.Delivery) {
			others[i] = text("rules.offer.no_date")
			continue
		}
		cands = append(cands, i)
	}
	if len(cands) == 0 {
		switch {
		case len(open) == 0:
			return -1, nil, text("rules.skip.no_offer"), nil
		case len(ofCarriers) == 0:
			return -1, nil, text("rules.skip.no_offer_carriers", c.carriers(r.Carriers)), nil
		case len(priced) == 0:
			return -1, nil, text("rules.skip.no_offer_priced", c.Currency), nil
		}
		return -1, nil, text("rules.skip.no_offer_dated"), nil
	}
	type ranked struct {
		i     int
		price int64
		date  string // "" sorts last
		id    int
	}
	rank := func(i int) ranked {
		p, _ := cents(offers[i].PriceVAT)
		date := offers[i].Delivery
		if !isDate(date) {
			date = ""
		}
		return ranked{i: i, price: p, date: date, id: offers[i].ServiceID}
	}
	byDate := func(a, b ranked) int {
		switch {
		case a.date == b.date:
			return 0
		case a.date == "":
			return 1
		case b.date == "":
			return -1
		}
		return strings.Compare(a.date, b.date)
	}
	list := make([]ranked, len(cands))
	for k, i := range cands {
		list[k] = rank(i)
	}
	compare := func(a, b ranked) int {
		first, second := cmp.Compare(a.price, b.price), byDate(a, b)
		if fastest {
			first, second = second, first
		}
		return cmp.Or(first, second, cmp.Compare(a.id, b.id), cmp.Compare(a.i, b.i))
	}
	slices.SortFunc(list, compare)
	win := list[0]
	for _, o := range list[1:] {
		price, date := cmp.Compare(o.price, win.price), byDate(o, win)
		switch {
		case !fastest && price > 0:
			others[o.i] = text("rules.offer.pricier")
		case !fastest && date > 0:
			others[o.i] = text("rules.offer.slower_same_price")
		case fastest && date > 0:
			others[o.i] = text("rules.offer.slower")
		case fastest && price > 0:
			others[o.i] = text("rules.offer.pricier_same_date")
		case o.id == win.id:
			others[o.i] = text("rules.offer.duplicate")
		default:
			others[o.i] = text("rules.offer.tie")
		}
	}
	return win.i, others, Text{}, nil
}

// named takes the rule's carrier's service: by its id when the rule gives
// one, else by its name; the first such offer that may be chosen.
func (c Chooser) named(r Rule, offers []Offer, blocked []*Text) (int, map[int]Text, Text, *Text) {
	carrier, service := strings.TrimSpace(r.Carrier), strings.TrimSpace(r.Service)
	is := func(o Offer) bool {
		if !strings.EqualFold(strings.TrimSpace(o.Carrier), carrier) {
			return false
		}
		if r.ServiceID > 0 {
			return o.ServiceID == r.ServiceID
		}
		return strings.EqualFold(strings.TrimSpace(o.Service), service)
	}
	pick, found := -1, -1
	others := map[int]Text{}
	for i, o := range offers {
		switch {
		case !is(o):
			others[i] = orElse(blocked[i], "rules.offer.not_named")
		case found < 0:
			found = i
			fallthrough
		default:
			switch {
			case blocked[i] != nil:
				others[i] = *blocked[i]
			case pick >= 0:
				others[i] = text("rules.offer.duplicate")
			default:
				pick = i
			}
		}
	}
	if pick >= 0 {
		return pick, others, Text{}, nil
	}
	if found < 0 {
		if r.ServiceID > 0 {
			return -1, nil, text("rules.skip.named_id_missing", c.carrier(carrier), strconv.Itoa(r.ServiceID)), nil
		}
		return -1, nil, text("rules.skip.named_missing", c.carrier(carrier), clipTo(service, MaxService)), nil
	}
	if r.ServiceID > 0 {
		return -1, nil, text("rules.skip.named_id_unavailable", c.carrier(carrier), strconv.Itoa(r.ServiceID)), blocked[found]
	}
	return -1, nil, text("rules.skip.named_unavailable", c.carrier(carrier), clipTo(service, MaxService)), blocked[found]
}

// cents is a price in hundredths, when it is a price at all.
func cents(m Money) (int64, bool) {
	if !finite(m.Value) || m.Value < 0 || m.Value > 1e12 || strings.TrimSpace(m.Currency) == "" {
		return 0, false
	}
	return int64(math.Round(m.Value * 100)), true
}

func isDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
