package returns

import (
	"fmt"
	"math/rand/v2"

	"shipdesk/sandbox/apijson"
)

// ProductType is a product category, named in the answer's language.
type ProductType struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`

	name apijson.Phrase
}

// ProductModel is a product model of a type: its brand, the type's name and
// its code ("Bexon Kávovar K101").
type ProductModel struct {
	ID     int64  `json:"id"`
	TypeID int64  `json:"type_id"`
	Brand  string `json:"brand"`
	Name   string `json:"name"`

	typeName apijson.Phrase
	code     string
}

var typeNames = []apijson.Phrase{
	{CS: "Pračka", EN: "Washing machine"},
	{CS: "Myčka nádobí", EN: "Dishwasher"},
	{CS: "Chladnička", EN: "Refrigerator"},
	{CS: "Vysavač", EN: "Vacuum cleaner"},
	{CS: "Kávovar", EN: "Coffee machine"},
	{CS: "Televizor", EN: "Television"},
	{CS: "Notebook", EN: "Laptop"},
	{CS: "Mobilní telefon", EN: "Mobile phone"},
	{CS: "Mikrovlnná trouba", EN: "Microwave oven"},
	{CS: "Fén", EN: "Hair dryer"},
	{CS: "Rychlovarná konvice", EN: "Electric kettle"},
	{CS: "Sluchátka", EN: "Headphones"},
}
var brands = []string{"Alvora", "Bexon", "Corvia", "Dentra", "Elvix", "Fornax"}

// generateProducts makes the catalog from the seed, so lists repeat.
func generateProducts(seed int64) ([]ProductType, []ProductModel) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0xbeef))
	var types []ProductType
	var models []ProductModel
	for i, name := range typeNames {
		t := ProductType{ID: int64(i + 1), name: name}
		types = append(types, t)
		for j := 0; j < 4+rng.IntN(5); j++ {
			b := brands[rng.IntN(len(brands))]
			models = append(models, ProductModel{ID: int64(len(models) + 1), TypeID: t.ID, Brand: b,
				typeName: name, code: fmt.Sprintf("%c%d", 'A'+rune(rng.IntN(26)), 100+rng.IntN(900))})
		}
	}
	return typesIn(types, apijson.Czech), modelsIn(models, apijson.Czech)
}

// typesIn names the types in lang.
func typesIn(types []ProductType, lang apijson.Lang) []ProductType {
	out := make([]ProductType, len(types))
	for i, t := range types {
		t.Name = t.name.In(lang)
		out[i] = t
	}
	return out
}

// modelsIn names the models in lang.
func modelsIn(models []ProductModel, lang apijson.Lang) []ProductModel {
	out := make([]ProductModel, len(models))
	for i, m := range models {
		m.Name = fmt.Sprintf("%s %s %s", m.Brand, m.typeName.In(lang), m.code)
		out[i] = m
	}
	return out
}
