package web_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"shipdesk/orderfile"
)

// benchOrder is order i of a generated day's file in our template's
// columns: a Czech address the sandbox prices and orders, every third with
// cash on delivery, every fifth insured; numbers as numbers.
func benchOrder(prefix string, i int) []any {
	places := [][3]string{
		{"Praha 10", "100 00", "Vinohradská"}, {"Brno", "602 00", "Masarykova"}, {"Ostrava", "702 00", "Nádražní"},
		{"Plzeň", "301 00", "Americká"}, {"Olomouc", "779 00", "Třída Svobody"}, {"Liberec", "460 01", "Pražská"},
		{"Zlín", "760 01", "Štefánikova"}, {"České Budějovice", "370 01", "Husova"}, {"Hradec Králové", "500 02", "Palackého"},
		{"Pardubice", "530 02", "Třída Míru"},
	}
	firsts := []string{"Jana", "Petr", "Lucie", "Tomáš", "Marie", "Jiří", "Kateřina", "Martin", "Eva", "Ondřej"}
	surnames := []string{"Nováková", "Dvořák", "Černá", "Procházka", "Svobodová", "Kučera", "Marková", "Němec", "Veselá", "Horák"}
	p := places[i%len(places)]
	var cod, currency, insured any
	if i%3 == 0 {
		cod, currency = 300+i%40*25, "CZK"
	}
	if i%5 == 0 {
		insured = 2000 + i%7*500
	}
	return []any{fmt.Sprintf("%s-%05d", prefix, i+1), firsts[i%len(firsts)], surnames[(i/len(firsts))%len(surnames)], nil,
		fmt.Sprintf("%s %d", p[2], 1+i%300), p[0], p[1], "CZ", fmt.Sprintf("+420 7%02d %03d %03d", 20+i%80, (i*7)%1000, (i*13)%1000),
		fmt.Sprintf("zakaznik%d@example.cz", i), float64(1+i%8) + float64(i%10)/10, 20 + i%30, 15 + i%20, 5 + i%15,
		cod, currency, insured, nil, nil}
}

// benchOrders is a CSV file in our template of n generated orders, their
// references starting with prefix, as Czech Excel saves it.
func benchOrders(prefix string, n int) []byte {
	var b bytes.Buffer
	b.WriteString("\ufeff" + strings.Join(orderfile.Header(), ";") + "\r\n")
	for i := range n {
		for j, v := range benchOrder(prefix, i) {
			if j > 0 {
				b.WriteByte(';')
			}
			switch v := v.(type) {
			case nil:
			case float64:
				b.WriteString(strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", ",", 1))
			default:
				fmt.Fprint(&b, v)
			}
		}
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

// benchWorkbook is the same file as an XLSX workbook.
func benchWorkbook(b *testing.B, prefix string, n int) []byte {
	b.Helper()
	x := excelize.NewFile()
	defer x.Close()
	sw, err := x.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	header := make([]any, len(orderfile.Header()))
	for i, h := range orderfile.Header() {
		header[i] = h
	}
	if err := sw.SetRow("A1", header); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := sw.SetRow("A"+strconv.Itoa(i+2), benchOrder(prefix, i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	buf, err := x.WriteToBuffer()
	if err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}
