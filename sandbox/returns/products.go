package returns

import (
	"fmt"
	"math/rand/v2"
)

// ProductType is a product category.
type ProductType struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// ProductModel is a product model of a type.
type ProductModel struct {
	ID     int64  `json:"id"`
	TypeID int64  `json:"type_id"`
	Brand  string `json:"brand"`
	Name   string `json:"name"`
}

var typeNames = []string{"Washing machine", "Dishwasher", "Refrigerator", "Vacuum cleaner", "Coffee machine", "Television", "Laptop", "Mobile phone", "Microwave oven", "Hair dryer", "Electric kettle", "Headphones"}
var brands = []string{"Alvora", "Bexon", "Corvia", "Dentra", "Elvix", "Fornax"}

// generateProducts makes the catalog from the seed, so lists repeat.
func generateProducts(seed int64) ([]ProductType, []ProductModel) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0xbeef))
	var types []ProductType
	var models []ProductModel
	for i, name := range typeNames {
		t := ProductType{ID: int64(i + 1), Name: name}
		types = append(types, t)
		for j := 0; j < 4+rng.IntN(5); j++ {
			b := brands[rng.IntN(len(brands))]
			models = append(models, ProductModel{ID: int64(len(models) + 1), TypeID: t.ID, Brand: b,
				Name: fmt.Sprintf("%s %s %c%d", b, name, 'A'+rune(rng.IntN(26)), 100+rng.IntN(900))})
		}
	}
	return types, models
}
