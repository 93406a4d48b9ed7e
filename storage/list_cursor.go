package storage

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"shipdesk/apperr"
)

// cursor is a row a page ends or begins at: its sort key and id, and its
// place in the list (from 0) when the link was made, for "51–100 of 1 234".
type cursor struct {
	at   time.Time
	text string
	id   int64
	pos  int
}

// cursorSorts are the letters that say which order a cursor belongs to.
var cursorSorts = map[string]string{"": "n", "new": "n", "old": "o", "recipient": "r"}

// maxCursorText bounds the recipient's name a cursor carries.
const maxCursorText = 1000

func encodeCursor(sort string, s Shipment, pos int) string {
	key := strconv.FormatInt(s.CreatedAt.UnixMicro(), 10)
	if sort == "recipient" {
		key = s.RecipientName
	}
	raw := cursorSorts[sort] + ":" + strconv.FormatInt(s.ID, 10) + ":" + strconv.Itoa(pos) + ":" + key
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// Cursors are checked before they reach the database: a link that was cut,
// edited or made for another order is refused with a message, never an error
// of the database (a name with a NUL, a year 300000).
var (
	cursorMin = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	cursorMax = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// ErrDamagedCursor is a page link that cannot be read.
var ErrDamagedCursor = apperr.New(apperr.Invalid, "rec.page_link")

func decodeCursor(sort, s string) (cursor, error) {
	if len(s) > 4*maxCursorText {
		return cursor{}, ErrDamagedCursor
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, ErrDamagedCursor
	}
	parts := strings.SplitN(string(raw), ":", 4)
	if len(parts) != 4 || parts[0] != cursorSorts[sort] {
		return cursor{}, ErrDamagedCursor
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id <= 0 {
		return cursor{}, ErrDamagedCursor
	}
	pos, err := strconv.Atoi(parts[2])
	if err != nil || pos < 0 || pos > 1<<40 {
		return cursor{}, ErrDamagedCursor
	}
	c := cursor{id: id, pos: pos, text: parts[3]}
	if sort == "recipient" {
		if !utf8.ValidString(c.text) || strings.ContainsRune(c.text, 0) || len(c.text) > maxCursorText {
			return cursor{}, ErrDamagedCursor
		}
		return c, nil
	}
	us, err := strconv.ParseInt(c.text, 10, 64)
	if err != nil || us < cursorMin.UnixMicro() || us > cursorMax.UnixMicro() {
		return cursor{}, ErrDamagedCursor
	}
	c.at = time.UnixMicro(us)
	return c, nil
}

// CheckCursor says whether a page link's cursor can be read for the order sort.
func CheckCursor(sort, s string) error {
	_, err := decodeCursor(sort, s)
	return err
}
