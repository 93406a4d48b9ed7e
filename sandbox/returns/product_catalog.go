package returns

import (
	"fmt"
	"net/http"

	"shipdesk/sandbox/apijson"
)

func (s *Service) productTypes(w http.ResponseWriter, r *http.Request) {
	if s.account(r) < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	apijson.Write(w, r, http.StatusOK, msgFoundTypes.With(len(s.types)), typesIn(s.types, apijson.DataLangOf(r)))
}

func (s *Service) productModels(w http.ResponseWriter, r *http.Request) {
	if s.account(r) < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	out := []ProductModel{}
	tid := r.URL.Query().Get("type_id")
	for _, m := range s.models {
		if tid == "" || fmt.Sprint(m.TypeID) == tid {
			out = append(out, m)
		}
	}
	apijson.Write(w, r, http.StatusOK, msgFoundModels.With(len(out)), modelsIn(out, apijson.DataLangOf(r)))
}

func (s *Service) typeExists(id int64) bool {
	for _, t := range s.types {
		if t.ID == id {
			return true
		}
	}
	return false
}

func (s *Service) model(id int64) *ProductModel {
	for i := range s.models {
		if s.models[i].ID == id {
			return &s.models[i]
		}
	}
	return nil
}
