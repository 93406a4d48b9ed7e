package textin

import (
	"reflect"
	"strings"
	"unicode/utf8"
)

// FromService cleans, in place, every string reachable from v (a pointer to
// an answer of the service, or to a value built from one) before it is stored:
// PostgreSQL refuses NUL in text and "\u0000" in jsonb, and invalid UTF-8
// anywhere, so one such character would make the record unwritable for good.
// Broken bytes become U+FFFD, control characters other than tab and line
// breaks are dropped; everything else is kept as the service sent it.
func FromService(v any) {
	clean(reflect.ValueOf(v))
}

// ServiceText is FromService for one string (an error message of the service).
func ServiceText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !allowed(r, true) }) {
		return s
	}
	return Safe(strings.ToValidUTF8(s, "\uFFFD"), true)
}

func clean(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface {
				// The value inside an interface cannot be changed: clean a copy.
				inner := reflect.New(v.Elem().Type()).Elem()
				inner.Set(v.Elem())
				clean(inner)
				if v.CanSet() {
					v.Set(inner)
				}
				return
			}
			clean(v.Elem())
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(ServiceText(v.String()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				clean(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes (a PDF, raw JSON) are not text
		}
		for i := range v.Len() {
			clean(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		iter := v.MapRange()
		type entry struct{ old, key, val reflect.Value }
		var entries []entry
		for iter.Next() {
			k := reflect.New(iter.Key().Type()).Elem()
			k.Set(iter.Key())
			x := reflect.New(iter.Value().Type()).Elem()
			x.Set(iter.Value())
			clean(k)
			clean(x)
			entries = append(entries, entry{iter.Key(), k, x})
		}
		for _, e := range entries {
			v.SetMapIndex(e.old, reflect.Value{})
			v.SetMapIndex(e.key, e.val)
		}
	}
}
