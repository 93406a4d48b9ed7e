package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/xuri/excelize/v2"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// codOrder orders a cash-on-delivery shipment through the pages and returns
// its page and the price of the chosen offer ("121.00 CZK").
func codOrder(t *testing.T, b *apptest.Browser, form url.Values, carrier string) (string, string) {
	t.Helper()
	_, full := order(t, b, with(form, "key", requestkey.New()), carrier)
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return resp.Header.Get("Location"), full.Get("offer_price")
}

// sums adds amounts per currency, in cents.
type sums map[string]int64

func (s sums) add(currency string, value float64) { s[currency] += int64(value*100 + 0.5) }

func cents(v float64) int64 { return int64(v*100 + 0.5) }

// The reports' money: cash on delivery collected, outstanding and returned
// per currency, and the spend per carrier from the chosen offers, against
// shipments ordered in the sandbox and delivered by its clock and the
// tracking job; each table downloads as Czech and English CSV and as XLSX.
func TestReportsMoney(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	cz := with(shipmentForm(t, env), "cod", "on", "cod_currency", "CZK", "cod_bank_account", "19-2000145399", "cod_bank_code", "0800")
	sk := with(cz, "to_country", "SK", "to_city", "Bratislava", "to_zip", "811 01", "to_phone", "+421 900 123 456",
		"cod_currency", "EUR", "cod_value", "20")
	type placedOrder struct {
		page, price string
		cod         float64
		currency    string
	}
	var orders []placedOrder
	for _, v := range []string{"500", "750", "1200"} {
		at, price := codOrder(t, b, with(cz, "cod_value", v), "UPS")
		x, _ := strconv.ParseFloat(v, 64)
		orders = append(orders, placedOrder{at, price, x, "CZK"})
	}
	at, price := codOrder(t, b, sk, "UPS")
	orders = append(orders, placedOrder{at, price, 20, "EUR"})
	at, price = codOrder(t, b, shipmentForm(t, env), "UPS") // no COD
	orders = append(orders, placedOrder{at, price, 0, ""})
	// Printed, then delivered (or returned) by the sandbox's clock and the tracking job.
	env.LabelsFetched()
	env.Sandbox.Advance(48 * time.Hour)
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}
	// One more, still on the way.
	at, price = codOrder(t, b, with(cz, "cod_value", "300"), "UPS")
	orders = append(orders, placedOrder{at, price, 300, "CZK"})

	collected, onTheWay, returned, spend := sums{}, sums{}, sums{}, sums{}
	counts := map[string]int{}
	for _, o := range orders {
		s, err := env.App.DB.ShipmentByID(ctx, idOf(o.page))
		if err != nil {
			t.Fatal(err)
		}
		value, currency, ok := strings.Cut(o.price, " ")
		x, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil || x <= 0 {
			t.Fatalf("offer price %q", o.price)
		}
		spend.add(currency, x)
		if s.PriceVAT == nil || cents(*s.PriceVAT) != cents(x) || *s.PriceCurrency != currency {
			t.Errorf("shipment %d: stored price %v %v, chosen %s", s.ID, s.PriceVAT, s.PriceCurrency, o.price)
		}
		switch {
		case o.cod == 0:
		case s.Returned:
			returned.add(o.currency, o.cod)
			counts["returned"]++
		case s.Status == "DELIVERED":
			collected.add(o.currency, o.cod)
			counts["collected"]++
		default:
			onTheWay.add(o.currency, o.cod)
			counts["on the way"]++
		}
	}
	if counts["collected"] < 2 || onTheWay["CZK"] < 30000 {
		t.Fatalf("the sandbox delivered too little to check: %v %v", counts, onTheWay)
	}

	manager := env.SignedIn(identity.Manager)
	resp := manager.Get("/reports")
	if resp.StatusCode != 200 {
		t.Fatalf("reports: %d", resp.StatusCode)
	}
	doc := page(t, resp.Body)
	money := func(currency string, c int64) string {
		if c == 0 && currency == "" {
			return ""
		}
		x := float64(c) / 100
		switch currency {
		case "EUR":
			return fmt.Sprintf("€%s", grouped(x))
		}
		return currency + "\u00a0" + grouped(x)
	}
	for _, cur := range []string{"CZK", "EUR"} {
		row := doc.Find(`[data-testid=cod-` + cur + `]`)
		for name, want := range map[string]int64{"collected": collected[cur], "on-the-way": onTheWay[cur], "returned": returned[cur]} {
			got := strings.TrimSpace(row.Find(`[data-testid=` + name + `] .amount`).Text())
			if got != money(cur, want) {
				t.Errorf("COD %s %s: %q, want %q", cur, name, got, money(cur, want))
			}
		}
	}
	if rows := doc.Find(`[data-testid=cod-table] tbody tr`); rows.Length() != 2 || rows.First().AttrOr("data-testid", "") != "cod-CZK" {
		t.Errorf("COD rows: %d, first %s", rows.Length(), rows.First().AttrOr("data-testid", ""))
	}
	g3 := doc.Find(`[data-testid=spend-table] tbody [data-testid=spend-UPS]`)
	if got := strings.TrimSpace(g3.Find(`[data-testid=shipments]`).Text()); got != "6" {
		t.Errorf("UPS shipments: %q", got)
	}
	var amounts []string
	g3.Find(`[data-testid=spend] .amount`).Each(func(_ int, s *goquery.Selection) { amounts = append(amounts, s.Text()) })
	if len(amounts) != 1 || amounts[0] != money("CZK", spend["CZK"]) || len(spend) != 1 {
		t.Errorf("UPS spend %q, want %q", amounts, money("CZK", spend["CZK"]))
	}
	if got := strings.TrimSpace(g3.Find(`[data-testid=unknown]`).Text()); got != "0" {
		t.Errorf("UPS unknown prices: %q", got)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid=spend-table] tfoot [data-testid=spend] .amount`).Text()); got != money("CZK", spend["CZK"]) {
		t.Errorf("total spend %q", got)
	}

	// A shipment ordered before prices were kept: "unknown".
	if _, err := env.App.DB.SQL().Exec(`UPDATE shipments SET price_vat = NULL, price_currency = NULL WHERE id = $1`, idOf(orders[0].page)); err != nil {
		t.Fatal(err)
	}
	doc = page(t, manager.Get("/reports").Body)
	if got := strings.TrimSpace(doc.Find(`[data-testid=spend-UPS] [data-testid=unknown]`).Text()); got != "1" {
		t.Errorf("unknown after forgetting a price: %q", got)
	}

	// Downloads: Czech CSV with ";", decimal commas and a byte-order mark.
	exports := map[string]string{}
	doc.Find(`[data-testid^=export-] a`).Each(func(_ int, s *goquery.Selection) {
		href := s.AttrOr("href", "")
		u, _ := url.Parse(href)
		exports[u.Query().Get("table")+"."+u.Query().Get("format")] = href
	})
	for _, want := range []string{"cod.csv", "cod.xlsx", "carriers.csv", "carriers.xlsx", "statuses.csv", "statuses.xlsx", "days.csv", "days.xlsx"} {
		if exports[want] == "" {
			t.Errorf("no download %s on the page", want)
		}
	}
	manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/reports"}})
	rows := czechCSV(t, manager, exports["cod.csv"])
	if strings.Join(rows[0], "|") != "Měna|Vybráno|Vybráno (zásilek)|Nevybráno|Nevybráno (zásilek)|Vráceno|Vráceno (zásilek)" {
		t.Errorf("Czech COD header: %q", rows[0])
	}
	decimal := func(c int64, comma string) string {
		s := fmt.Sprintf("%d.%02d", c/100, c%100)
		return strings.Replace(s, ".", comma, 1)
	}
	if len(rows) != 3 || rows[1][0] != "CZK" || rows[1][1] != decimal(collected["CZK"], ",") || rows[1][3] != decimal(onTheWay["CZK"], ",") ||
		rows[2][0] != "EUR" || rows[2][1]+rows[2][5] != decimal(collected["EUR"], ",")+decimal(returned["EUR"], ",") {
		t.Errorf("Czech COD rows: %q", rows)
	}
	rows = czechCSV(t, manager, exports["carriers.csv"])
	if len(rows) != 2 || rows[1][0] != "UPS" || rows[1][1] != "6" || rows[1][2] != "CZK" || rows[1][6] != "1" {
		t.Errorf("Czech carriers: %q", rows)
	}
	rows = czechCSV(t, manager, exports["days.csv"])
	if len(rows) != 31 || !czechDay.MatchString(rows[30][0]) || rows[0][0] != "Den" {
		t.Errorf("Czech days: %d rows, last %q", len(rows), rows[len(rows)-1])
	}
	rows = czechCSV(t, manager, exports["statuses.csv"])
	if len(rows) < 2 || rows[0][0] != "Stav" {
		t.Errorf("Czech statuses: %q", rows)
	}
	// English CSV: "," and decimal points, no byte-order mark.
	manager.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/reports"}})
	resp = manager.Get(exports["cod.csv"])
	if resp.StatusCode != 200 || strings.HasPrefix(resp.Body, "\ufeff") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("English COD: %d %s", resp.StatusCode, resp.Header)
	}
	rows, err := csv.NewReader(strings.NewReader(resp.Body)).ReadAll()
	if err != nil || rows[0][0] != "currency" || rows[1][1] != decimal(collected["CZK"], ".") {
		t.Errorf("English COD: %q %v", rows, err)
	}
	// XLSX: numbers as numbers.
	resp = manager.Get(exports["cod.xlsx"])
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "spreadsheetml") {
		t.Fatalf("xlsx: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	book, err := excelize.OpenReader(strings.NewReader(resp.Body))
	if err != nil {
		t.Fatal(err)
	}
	sheet := book.GetSheetName(0)
	if v, _ := book.GetCellValue(sheet, "A2"); v != "CZK" {
		t.Errorf("xlsx A2 %q", v)
	}
	if typ, _ := book.GetCellType(sheet, "B2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("xlsx B2 is %v, not a number", typ)
	}
	if v, _ := book.GetCellValue(sheet, "B2", excelize.Options{RawCellValue: true}); !sameAmount(v, collected["CZK"]) {
		t.Errorf("xlsx collected CZK %q", v)
	}
	for _, name := range []string{"carriers.xlsx", "statuses.xlsx", "days.xlsx"} {
		resp := manager.Get(exports[name])
		book, err := excelize.OpenReader(strings.NewReader(resp.Body))
		if resp.StatusCode != 200 || err != nil {
			t.Errorf("%s: %d %v", name, resp.StatusCode, err)
			continue
		}
		if name != "days.xlsx" {
			continue
		}
		// Days are dates, shown the English way.
		sheet := book.GetSheetName(0)
		shown, _ := book.GetCellValue(sheet, "A2")
		raw, _ := book.GetCellValue(sheet, "A2", excelize.Options{RawCellValue: true})
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(shown) || !regexp.MustCompile(`^\d{5}$`).MatchString(raw) {
			t.Errorf("days.xlsx A2 shows %q, holds %q: not a date", shown, raw)
		}
	}
	// Downloads that cannot be made say why, 400.
	for _, q := range []string{"table=secrets&format=csv&from=2026-11-01&to=2026-11-20", "table=cod&format=pdf&from=2026-11-01&to=2026-11-20",
		"table=cod&format=csv&from=2026-11-20&to=2026-11-01", "table=cod&format=csv&from=2020-01-01&to=2026-11-01",
		"table=cod&format=csv&from=%00&to=2026-11-01", "table=cod&format=csv", "table=" + strings.Repeat("x", 100<<10)} {
		if resp := manager.Get("/reports/export?" + q); resp.StatusCode != 400 {
			t.Errorf("%s: %d", clip(q), resp.StatusCode)
		}
	}
}

var czechDay = regexp.MustCompile(`^\d{1,2}\.\s\d{1,2}\.\s\d{4}$`)

// sameAmount says whether a spreadsheet's raw number is c cents.
func sameAmount(raw string, c int64) bool {
	x, err := strconv.ParseFloat(raw, 64)
	return err == nil && cents(x) == c
}

// grouped writes x the English way with two decimals: 1,250.00.
func grouped(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String() + "." + frac
}

func czechCSV(t *testing.T, b *apptest.Browser, path string) [][]string {
	t.Helper()
	resp := b.Get(path)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "\ufeff") {
		t.Fatalf("%s: %d, byte-order mark %v", path, resp.StatusCode, strings.HasPrefix(resp.Body, "\ufeff"))
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(resp.Body, "\ufeff")))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}
