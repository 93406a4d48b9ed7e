package workbench

import (
	"context"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
)

// ProductType is a kind of product the service repairs, with its models.
type ProductType struct {
	ID     int64
	Name   string
	Models []ProductModel
}

// ProductModel is a model of a product type.
type ProductModel struct {
	ID   int64
	Name string // "Brand Model" (see ModelName)
}

// Products lists the product types with their models from the cache; on
// first use, when the cache is empty, it loads the service's lists first.
func (w *Workbench) Products(ctx context.Context) ([]ProductType, error) {
	types, models, err := w.db.Products(ctx)
	if err != nil {
		return nil, err
	}
	if len(types) == 0 { // first use: load the lists now
		if err := w.RefreshProducts(ctx); err == nil {
			types, models, _ = w.db.Products(ctx)
		}
	}
	return productsOf(types, models), nil
}

// productsOf groups the cached models under their types, in the cache's order.
func productsOf(types []storage.ProductType, models []storage.ProductModel) []ProductType {
	out := make([]ProductType, 0, len(types))
	for _, t := range types {
		pt := ProductType{ID: t.ID, Name: t.Name}
		for _, m := range models {
			if m.TypeID == t.ID {
				pt.Models = append(pt.Models, ProductModel{ID: m.ID, Name: ModelName(m.Brand, m.Name)})
			}
		}
		out = append(out, pt)
	}
	return out
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

// productName is the label a commission of this model keeps; a model not of
// the chosen type is a problem of the form.
func (w *Workbench) productName(ctx context.Context, typeID, modelID int64) (string, error) {
	t, m, err := w.db.ProductOf(ctx, typeID, modelID)
	if apperr.Is(err, apperr.NotFound) {
		return "", invalid(apperr.Problems{"model_id": i18n.T(ctx, "ret.err.model_type")})
	}
	if err != nil {
		return "", err
	}
	return ModelName(m.Brand, m.Name) + " (" + t.Name + ")", nil
}

// ModelName is "Brand Model", without repeating a brand the model's name has.
func ModelName(brand, name string) string {
	if brand == "" || strings.HasPrefix(strings.ToLower(name), strings.ToLower(brand)) {
		return name
	}
	return brand + " " + name
}
