package shipping

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/sandbox/apijson"
)

// Parcel point paging, used only when page or per_page is given: a client that
// asks without them gets every matching point (public-evidence.md).
const (
	DefaultPointsPerPage = 100
	MaxPointsPerPage     = 1000
)

func (s *Service) parcelPoints(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := &problems{}
	carrier, country := strings.ToUpper(q.Get("carrier")), strings.ToUpper(q.Get("country"))
	if carrier != "" && s.carrier(carrier) == nil {
		p.add("carrier", msgCarrierUnknown, carrier)
	}
	if country != "" && !slices.Contains(recipientCountries, country) {
		p.add("country", msgCountryUnknown, country, strings.Join(recipientCountries, ", "))
	}
	paged := q.Has("page") || q.Has("per_page")
	page := intParam(p, q.Get("page"), "page", 1, 1, 1<<20)
	perPage := intParam(p, q.Get("per_page"), "per_page", DefaultPointsPerPage, 1, MaxPointsPerPage)
	if len(q.Get("q")) > 100 {
		p.add("q", msgSearchLong)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	city, zip := fold(q.Get("city")), strings.ReplaceAll(q.Get("zip"), " ", "")
	text := fold(q.Get("q"))
	var match []*Point
	for _, pt := range s.points { // generated in id order
		if (carrier != "" && pt.Carrier != carrier) || (country != "" && pt.Country != country) ||
			(city != "" && fold(pt.City) != city) || (zip != "" && !strings.HasPrefix(strings.ReplaceAll(pt.Zip, " ", ""), zip)) {
			continue
		}
		if text != "" && !strings.Contains(fold(pt.Name+" "+pt.Street+" "+pt.City+" "+pt.Zip+" "+pt.Code), text) {
			continue
		}
		match = append(match, pt)
	}
	total := len(match)
	if !paged {
		page, perPage = 1, max(total, 1)
	}
	lo := min((page-1)*perPage, total)
	hi := min(lo+perPage, total)
	data := map[string]any{}
	for _, pt := range match[lo:hi] {
		data[strconv.FormatInt(pt.ID, 10)] = s.pointView(pt)
	}
	apijson.WriteRaw(w, r, http.StatusOK, map[string]any{
		"status": http.StatusOK, "message": msgFoundPoints.With(total).In(apijson.LangOf(r)), "data": data,
		"paging": map[string]int{"page": page, "per_page": perPage, "total": total, "pages": (total + perPage - 1) / perPage},
	})
}

// pointView is a point as answered: the fields public-evidence.md names, as
// the provider's documented example writes them (is_locker 0 or 1, lat and
// lng as strings), plus in the documented shapes its id and size limits.
func (s *Service) pointView(pt *Point) map[string]any {
	locker := 0
	if pt.IsLocker {
		locker = 1
	}
	v := map[string]any{
		"code": pt.Code, "name": pt.Name, "street": pt.Street, "city": pt.City, "zip": pt.Zip, "country": pt.Country,
		"carrier": pt.Carrier, "is_locker": locker, "pickup_branch_location_id": pt.LocationID,
		"location": map[string]string{"lat": strconv.FormatFloat(pt.Location.Lat, 'f', -1, 64), "lng": strconv.FormatFloat(pt.Location.Lng, 'f', -1, 64)},
	}
	if s.documented() {
		v["id"] = pt.ID
		v["max_length"], v["max_width"], v["max_height"], v["max_weight"] = pt.MaxLength, pt.MaxWidth, pt.MaxHeight, pt.MaxWeight
	}
	return v
}

// fold lowercases and strips Czech and Slovak diacritics, so "plzen" finds Plzeň.
func fold(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if i := strings.IndexRune(accented, r); i >= 0 {
			return []rune(plain)[len([]rune(accented[:i]))]
		}
		return r
	}, s))
}

const (
	accented = "áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ"
	plain    = "aacdeeillnoorrstuuyzAACDEEILLNOORRSTUUYZ"
)
