package shoptet

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

// kind is a group of demo orders alike: how they ship and pay, where to,
// and what is special about them.
type kind struct {
	n             int
	ship, pay     int // indexes into ShippingMethods and PaymentMethods
	country, flag string
}

// Flags of a kind: noweight (items without weights), nophone, elsewhere (a
// tracking number already in the notes), unpaid (a transfer not paid yet),
// and the closed ones: done, sent, cancelled.
var demoKinds = []kind{
	{14, 0, 0, "CZ", ""}, {8, 0, 1, "CZ", ""}, {2, 0, 0, "SK", ""}, {3, 1, 0, "CZ", ""}, {2, 1, 1, "CZ", ""},
	{5, 2, 0, "CZ", ""}, {4, 2, 1, "CZ", ""}, {2, 2, 2, "CZ", ""}, {3, 3, 1, "CZ", ""}, {3, 3, 0, "CZ", ""},
	{3, 4, 0, "CZ", ""}, {3, 4, 1, "CZ", ""}, {4, 5, 1, "CZ", ""}, {2, 5, 0, "CZ", ""}, {1, 5, 1, "SK", ""},
	{1, 2, 1, "CH", ""}, {3, 6, 3, "CZ", ""}, {2, 7, 1, "CZ", ""},
	{1, 2, 0, "CZ", "noweight"}, {1, 0, 1, "CZ", "noweight"}, {1, 5, 1, "CZ", "noweight"},
	{1, 2, 0, "CZ", "nophone"}, {1, 5, 1, "CZ", "nophone"},
	{2, 2, 1, "CZ", "elsewhere"}, {2, 2, 2, "CZ", "unpaid"},
	{3, 0, 1, "CZ", "done"}, {2, 1, 0, "CZ", "cancelled"}, {2, 3, 1, "CZ", "sent"},
}

func (k kind) closed() bool { return k.flag == "done" || k.flag == "sent" || k.flag == "cancelled" }

type person struct {
	name   string
	female bool
}

var czechPeople = []person{
	{"Jan Novák", false}, {"Petra Svobodová", true}, {"Tomáš Dvořák", false}, {"Lucie Černá", true}, {"Martin Procházka", false},
	{"Kateřina Kučerová", true}, {"Jakub Veselý", false}, {"Tereza Horáková", true}, {"Ondřej Němec", false}, {"Veronika Marková", true},
	{"Lukáš Pokorný", false}, {"Eva Pospíšilová", true}, {"Michal Hájek", false}, {"Hana Jelínková", true}, {"David Král", false},
	{"Barbora Růžičková", true}, {"Petr Beneš", false}, {"Markéta Fialová", true}, {"Josef Sedláček", false}, {"Zuzana Doležalová", true},
	{"Pavel Zeman", false}, {"Jana Kolářová", true}, {"Filip Navrátil", false}, {"Monika Čermáková", true}, {"Vojtěch Urban", false},
	{"Alena Vaněčková", true}, {"Adam Blažek", false}, {"Klára Křížová", true}, {"Jiří Kovář", false}, {"Simona Bartošová", true},
}

var slovakPeople = []person{{"Marek Horváth", false}, {"Zuzana Kováčová", true}, {"Peter Varga", false}, {"Jana Tóthová", true}}

type place struct{ street, city, zip, country string }

var czechPlaces = []place{
	{"Vinohradská", "Praha 2", "120 00", "CZ"}, {"Sokolovská", "Praha 8", "186 00", "CZ"}, {"Kounicova", "Brno", "602 00", "CZ"},
	{"Nádražní", "Ostrava", "702 00", "CZ"}, {"Klatovská", "Plzeň", "301 00", "CZ"}, {"Masarykova", "Olomouc", "779 00", "CZ"},
	{"Jablonecká", "Liberec", "460 01", "CZ"}, {"Lannova", "České Budějovice", "370 01", "CZ"}, {"Gočárova třída", "Hradec Králové", "500 02", "CZ"},
	{"Třída Míru", "Pardubice", "530 02", "CZ"}, {"Třída Tomáše Bati", "Zlín", "760 01", "CZ"}, {"Havlíčkova", "Jihlava", "586 01", "CZ"},
	{"Dukelských hrdinů", "Kladno", "272 01", "CZ"}, {"Pražská", "Tábor", "390 01", "CZ"}, {"Moskevská", "Karlovy Vary", "360 01", "CZ"},
}

var slovakPlaces = []place{{"Obchodná", "Bratislava", "811 06", "SK"}, {"Hlavná", "Košice", "040 01", "SK"}, {"Národná", "Žilina", "010 01", "SK"}}

var swissPlace = place{"Bahnhofstrasse", "Zürich", "8001", "CH"}

type product struct {
	code, name, brand, weight string
	czk                       int
}

var products = []product{
	{"KV-17-TEF", "Rychlovarná konvice Tefal 1,7 l", "Tefal", "1.150", 899}, {"FEN-2200-PH", "Fén na vlasy Philips 2200 W", "Philips", "0.650", 749},
	{"MIX-500-BO", "Tyčový mixér Bosch ErgoMixx", "Bosch", "1.400", 1290}, {"KAV-ESAM", "Kávovar DeLonghi Magnifica S", "DeLonghi", "9.500", 8990},
	{"TOP-2607-SE", "Topinkovač Sencor STS 2607", "Sencor", "1.300", 549}, {"VYS-XF-RO", "Tyčový vysavač Rowenta X-Force", "Rowenta", "3.200", 5490},
	{"ZEH-FV28-TE", "Napařovací žehlička Tefal FV2867", "Tefal", "1.300", 1190}, {"VAH-4001-SE", "Kuchyňská váha Sencor SKS 4001", "Sencor", "0.450", 299},
	{"PAN-24-TE", "Pánev Tefal Ingenio 24 cm", "Tefal", "0.900", 690}, {"SLU-510-JB", "Bluetooth sluchátka JBL Tune 510BT", "JBL", "0.350", 1190},
	{"REP-GO3-JB", "Přenosný reproduktor JBL Go 3", "JBL", "0.250", 890}, {"KAB-USBC-2M", "Kabel USB-C 2 m", "Swissten", "0.080", 199},
	{"POW-10K-XI", "Powerbanka Xiaomi 10000 mAh", "Xiaomi", "0.240", 549}, {"BAND-8-XI", "Chytrý náramek Xiaomi Smart Band 8", "Xiaomi", "0.120", 990},
	{"CAJ-SEN-100", "Zelený čaj Sencha 100 g", "Oxalis", "0.110", 149}, {"KAV-BRA-1KG", "Zrnková káva Brazil Santos 1 kg", "Rioba", "1.050", 459},
	{"HRN-KER-4", "Sada keramických hrnků (4 ks)", "Banquet", "1.600", 399}, {"LAM-LED-USB", "Stolní LED lampa s USB", "Solight", "0.950", 690},
	{"ZAR-E27-3", "LED žárovka E27 9 W (3 ks)", "Philips", "0.180", 229}, {"BAT-AA-8", "Baterie AA alkalické (8 ks)", "Varta", "0.190", 179},
	{"KNI-PRINC", "Kniha: Malý princ", "Albatros", "0.300", 249}, {"HRA-KATAN", "Desková hra Osadníci z Katanu", "Albi", "1.250", 1090},
	{"RUC-FROTE", "Froté ručník 50 × 100 cm", "Veba", "0.420", 249}, {"DEK-FLEECE", "Fleecová deka 150 × 200 cm", "Veba", "1.100", 499},
	{"TER-05-TES", "Termoska 0,5 l", "Tescoma", "0.380", 449},
}

var remarks = []string{"Prosím doručit po 16. hodině.", "Zvonek nefunguje, volejte prosím.", "Dárek – nevkládejte prosím fakturu.", "Nechte na vrátnici.", "Děkuji!"}

// seedDemo fills the shop with the demo orders of the three days up to now.
// Called with s.mu held.
func (s *Service) seedDemo(now time.Time) {
	rng := rand.New(rand.NewPCG(uint64(s.cfg.Seed), 0x5409))
	var list []kind
	for _, k := range demoKinds {
		for range k.n {
			list = append(list, k)
		}
	}
	rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	sort.SliceStable(list, func(i, j int) bool { return list[i].closed() && !list[j].closed() }) // the closed ones are the oldest
	span := 72 * time.Hour
	for i, k := range list {
		at := now.Add(-span + time.Duration(i)*span/time.Duration(len(list)) + time.Duration(rng.IntN(30))*time.Minute).Truncate(time.Second)
		s.newOrder(rng, k, at, now)
	}
}

// newOrder makes one order of a kind, created at, as it stands at now.
func (s *Service) newOrder(rng *rand.Rand, k kind, at, now time.Time) *Order {
	s.seq++
	code := fmt.Sprintf("%d%06d", at.In(apijson.Zone).Year(), 100+s.seq)
	sm, pm := ShippingMethods[k.ship], PaymentMethods[k.pay]
	people, places, currency, phone := czechPeople, czechPlaces, "CZK", fmt.Sprintf("+420%d%08d", 6+rng.IntN(2), rng.IntN(1e8))
	switch k.country {
	case "SK":
		people, places, currency, phone = slovakPeople, slovakPlaces, "EUR", fmt.Sprintf("+421 9%02d %03d %03d", rng.IntN(100), rng.IntN(1000), rng.IntN(1000))
	case "CH":
		places, currency, phone = []place{swissPlace}, "EUR", fmt.Sprintf("+41 79 %03d %02d %02d", rng.IntN(1000), rng.IntN(100), rng.IntN(100))
	}
	if rng.IntN(3) == 0 && k.country == "CZ" { // shops keep phones as customers type them
		phone = phone[:4] + " " + phone[4:7] + " " + phone[7:10] + " " + phone[10:]
	}
	who := people[rng.IntN(len(people))]
	where := places[rng.IntN(len(places))]
	o := &Order{Code: code, GUID: guid(s.cfg.Seed, code), Created: at, Changed: at, Status: openStatus(rng), Shipping: sm.GUID, Payment: pm.GUID, Currency: currency,
		Email: mailOf(who.name, k.country), Phone: phone,
		Billing: Address{FullName: who.name, Street: where.street, HouseNumber: fmt.Sprintf("%d/%d", 100+rng.IntN(2900), 1+rng.IntN(40)), City: where.city, Zip: where.zip, Country: where.country}}
	if k.flag == "nophone" {
		o.Phone = ""
	}
	if !sm.ToPoint && !sm.PersonalPickup && rng.IntN(5) == 0 { // to work
		d := o.Billing
		d.Company, d.Street, d.HouseNumber = "Kancelář "+strings.Fields(who.name)[1]+" s.r.o.", places[rng.IntN(len(places))].street, fmt.Sprint(1+rng.IntN(99))
		d.City, d.Zip = where.city, where.zip
		o.Delivery = &d
	}
	if sm.ToPoint {
		o.Point = s.pointFor(rng, sm, k.country)
	}
	if rng.IntN(5) == 0 {
		o.CustomerRemark = remarks[rng.IntN(len(remarks))]
	}
	s.addItems(rng, o, k, sm, pm)
	paid := pm.Online || (pm.TypeCode == "bank-transfer" && k.flag != "unpaid")
	o.Paid = &paid
	switch k.flag {
	case "unpaid":
		o.Status = StatusAwaitPay
	case "elsewhere":
		o.Status, o.TrackingNumber, o.EshopRemark = StatusHandling, fmt.Sprintf("4021%07d", rng.IntN(1e7)), "Odesláno ze skladu Brno."
	case "done", "sent", "cancelled":
		o.Status = map[string]int{"done": StatusDone, "sent": StatusSent, "cancelled": StatusCancelled}[k.flag]
		if k.flag != "cancelled" {
			o.TrackingNumber = fmt.Sprintf("4021%07d", rng.IntN(1e7))
			done := true
			o.Paid = &done
		}
		o.Changed = minTime(at.Add(time.Duration(2+rng.IntN(20))*time.Hour), now)
	}
	s.orders[code] = o
	return o
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func openStatus(rng *rand.Rand) int {
	switch r := rng.IntN(20); {
	case r < 12:
		return StatusNew
	case r < 17:
		return StatusHandling
	}
	return StatusReady
}

// addItems puts one to three goods on the order, then its shipping and
// payment rows, as Shoptet lists them.
func (s *Service) addItems(rng *rand.Rand, o *Order, k kind, sm ShippingMethod, pm PaymentMethod) {
	eur := o.Currency == "EUR"
	price := func(czk int) string {
		if eur {
			return fmt.Sprintf("%d.90", max(czk/25, 1))
		}
		return fmt.Sprintf("%d.00", czk)
	}
	picked := map[int]bool{}
	for range 1 + rng.IntN(3) {
		i := rng.IntN(len(products))
		if picked[i] || sm.ToPoint && products[i].code == "KAV-ESAM" { // a point takes no 9 kg coffee machine
			continue
		}
		picked[i] = true
		p := products[i]
		weight := p.weight
		if k.flag == "noweight" {
			weight = "0.000"
		}
		amount := "1.000"
		if rng.IntN(5) == 0 {
			amount = "2.000"
		}
		s.nextItem++
		o.Items = append(o.Items, Item{ID: s.nextItem, Type: "product", Code: p.code, EAN: fmt.Sprintf("859%010d", 1e9+i*7919), Name: p.name, Brand: p.brand,
			Amount: amount, Weight: weight, Price: price(p.czk), VatRate: "21.00"})
	}
	if len(o.Items) == 0 {
		p := products[len(products)-1]
		s.nextItem++
		o.Items = append(o.Items, Item{ID: s.nextItem, Type: "product", Code: p.code, Name: p.name, Brand: p.brand, Amount: "1.000", Weight: p.weight, Price: price(p.czk), VatRate: "21.00"})
	}
	rowPrice := func(czk string) string {
		c, _ := cents(czk)
		if eur && c > 0 {
			return fmt.Sprintf("%d.50", max(c/100/25, 1))
		}
		return czk
	}
	s.nextItem++
	o.Items = append(o.Items, Item{ID: s.nextItem, Type: "shipping", Name: sm.Name, Amount: "1.000", Weight: "0.000", Price: rowPrice(sm.Price), VatRate: "21.00"})
	s.nextItem++
	o.Items = append(o.Items, Item{ID: s.nextItem, Type: "billing", Name: pm.Name, Amount: "1.000", Weight: "0.000", Price: rowPrice(pm.Price), VatRate: "21.00"})
}

// pointFor picks a point of the method's carrier in the country among the
// shipping sandbox's points; nil when it has none there.
func (s *Service) pointFor(rng *rand.Rand, sm ShippingMethod, country string) *Point {
	var match []ParcelPoint
	for _, p := range s.cfg.Points {
		if p.Carrier == sm.Carrier && p.Country == country {
			match = append(match, p)
		}
	}
	if len(match) == 0 {
		return nil
	}
	p := match[rng.IntN(len(match))]
	pt := &Point{BranchID: p.Code, CompanyCode: sm.CompanyCode, ServiceCode: sm.CompanyCode + "-pickup", Name: p.Name, Street: p.Street, City: p.City,
		Zip: strings.ReplaceAll(p.Zip, " ", ""), Country: p.Country, Latitude: fmt.Sprintf("%.6f", p.Lat), Longitude: fmt.Sprintf("%.6f", p.Lng)}
	if sm.CompanyCode == "zasilkovna" && country != "CZ" {
		id := 131
		pt.CarrierID = &id
	}
	return pt
}

func mailOf(name, country string) string {
	domain := "example.cz"
	if country == "SK" {
		domain = "example.sk"
	}
	return strings.ReplaceAll(strings.ToLower(foldASCII(name)), " ", ".") + "@" + domain
}

func foldASCII(s string) string {
	const from, to = "áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ", "aacdeeillnoorrstuuyzAACDEEILLNOORRSTUUYZ"
	fr, tr := []rune(from), []rune(to)
	return strings.Map(func(r rune) rune {
		for i, x := range fr {
			if x == r {
				return tr[i]
			}
		}
		return r
	}, s)
}

// guid is a stable GUID of an order code.
func guid(seed int64, code string) string {
	h := fnv.New128a()
	fmt.Fprint(h, seed, code)
	b := fmt.Sprintf("%x", h.Sum(nil))
	return b[0:8] + "-" + b[8:12] + "-" + b[12:16] + "-" + b[16:20] + "-" + b[20:32]
}

// Shop hours: new orders arrive between 7:00 and 22:00, Prague time, about
// one in every arrivalEvery minutes, each minute's chance fixed by the seed
// and the minute: the same clock always brings the same orders.
const (
	arrivalEvery = 8
	openAt       = 7
	closeAt      = 22
	catchUpLimit = 48 * time.Hour
)

func arrivalIn(seed, minute int64) (bool, int) {
	h := fnv.New64a()
	fmt.Fprint(h, seed, "/", minute)
	x := h.Sum64()
	return x%arrivalEvery == 0, int(x / arrivalEvery % 60)
}

// catchUp lets the orders of every whole minute up to now arrive, and tells
// the webhooks. Called with s.mu held.
func (s *Service) catchUp(now time.Time) {
	if !s.settings.Arrivals || !now.After(s.arrived) {
		if !s.settings.Arrivals {
			s.arrived = now.Truncate(time.Minute)
		}
		return
	}
	from := s.arrived
	if now.Sub(from) > catchUpLimit {
		from = now.Add(-catchUpLimit).Truncate(time.Minute)
	}
	var open []kind
	for _, k := range demoKinds {
		if !k.closed() && k.flag != "elsewhere" && k.flag != "unpaid" {
			for range k.n {
				open = append(open, k)
			}
		}
	}
	m := from.Unix() / 60
	for ; (m+1)*60 <= now.Unix(); m++ {
		at := time.Unix(m*60, 0)
		if h := at.In(apijson.Zone).Hour(); h < openAt || h >= closeAt {
			continue
		}
		yes, sec := arrivalIn(s.cfg.Seed, m)
		if !yes {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(s.cfg.Seed), uint64(m)))
		o := s.newOrder(rng, open[rng.IntN(len(open))], at.Add(time.Duration(sec)*time.Second), now)
		o.Status = StatusNew
		s.emit("order:create", o.Code, o.Created)
	}
	s.arrived = time.Unix(m*60, 0)
}
