package storage

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// PackageInfo is one package as the service last reported it.
type PackageInfo struct {
	Number   string `json:"number"`
	Status   string `json:"status,omitempty"`
	Password string `json:"password,omitempty"` // hand-over code, owner only
}

// Packages is stored as a JSON array.
type Packages []PackageInfo

// Value encodes the list for PostgreSQL.
func (p Packages) Value() (driver.Value, error) {
	if p == nil {
		return "[]", nil
	}
	b, err := json.Marshal(p)
	return string(b), err
}

// Scan decodes the list.
func (p *Packages) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		return json.Unmarshal(v, p)
	case string:
		return json.Unmarshal([]byte(v), p)
	case nil:
		*p = nil
		return nil
	}
	return fmt.Errorf("packages: cannot scan %T", src)
}

// JSON is a raw JSON column.
type JSON []byte

// Value stores the raw JSON.
func (j JSON) Value() (driver.Value, error) {
	return j.text(), nil
}

// text is the JSON as stored ("null" when empty).
func (j JSON) text() string {
	if len(j) == 0 {
		return "null"
	}
	return string(j)
}

// Scan reads the raw JSON.
func (j *JSON) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		*j = append((*j)[:0], v...)
	case string:
		*j = JSON(v)
	case nil:
		*j = nil
	default:
		return fmt.Errorf("json: cannot scan %T", src)
	}
	return nil
}
