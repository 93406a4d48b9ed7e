package orderfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encodings a CSV file is read in (File.Encoding).
const (
	UTF8        = "utf-8"
	UTF8BOM     = "utf-8-bom"
	Windows1250 = "windows-1250"
	UTF16       = "utf-16"
)

var (
	errTooLarge = errors.New("orderfile: the file is larger than the limit")
	errEncoding = errors.New("orderfile: the text is in no encoding we read")
)

// capped reads at most limit bytes of r; one more is errTooLarge.
type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n, errTooLarge
	}
	return n, err
}

// sniffSize is how much text decides between UTF-8 and Windows-1250.
const sniffSize = 64 << 10

// decodeText decodes the bytes of a CSV file into UTF-8: a BOM says UTF-8 or UTF-16;
// without one, the text is ASCII until its first other byte, where what
// follows decides between UTF-8 and Windows-1250 (see sniffer).
func decodeText(br *bufio.Reader) (io.Reader, func() string) {
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		_, _ = br.Discard(3)
		return br, func() string { return UTF8BOM }
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		// Excel's "Unicode text": the BOM says which end comes first.
		dec := xunicode.UTF16(xunicode.LittleEndian, xunicode.ExpectBOM).NewDecoder()
		return transform.NewReader(br, dec), func() string { return UTF16 }
	}
	s := &sniffer{src: br, enc: UTF8}
	return s, func() string { return s.enc }
}

// sniffer passes ASCII through until the first byte that is not ASCII; there
// it looks ahead and decides the encoding of the rest. Everything before was
// ASCII, which reads the same in either.
type sniffer struct {
	src *bufio.Reader
	out io.Reader // nil until decided
	enc string
}

func (s *sniffer) Read(p []byte) (int, error) {
	if s.out != nil {
		return s.out.Read(p)
	}
	if s.src.Buffered() == 0 {
		if _, err := s.src.Peek(1); err != nil {
			return 0, err
		}
	}
	b, _ := s.src.Peek(s.src.Buffered())
	ascii := len(b)
	for i, c := range b {
		if c >= utf8.RuneSelf {
			ascii = i
			break
		}
	}
	if ascii > 0 {
		n := copy(p, b[:ascii])
		_, _ = s.src.Discard(n)
		return n, nil
	}
	sample, err := s.src.Peek(min(sniffSize, s.src.Size()))
	s.enc = guess(sample, err != nil)
	switch s.enc {
	case Windows1250:
		s.out = transform.NewReader(s.src, charmap.Windows1250.NewDecoder())
	case "":
		return 0, errEncoding
	default:
		s.out = s.src
	}
	return s.out.Read(p)
}

// czechLetters are the letters of Czech and Slovak beyond ASCII.
const czechLetters = "áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ"

// guess says how text that does not start as ASCII is encoded: UTF-8 when its
// sequences are mostly valid (a few broken cells become problems of their
// rows), Windows-1250 when it is not UTF-8 and reads as Czech text in 1250,
// "" when neither.
func guess(b []byte, atEOF bool) string {
	valid, invalid := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		if !atEOF && !utf8.FullRune(b[i:]) {
			break // cut by the sample's end
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			invalid++
		} else {
			valid++
		}
		i += n
	}
	if invalid == 0 || valid >= invalid {
		return UTF8
	}
	decoded, err := charmap.Windows1250.NewDecoder().Bytes(b)
	if err != nil {
		return ""
	}
	czech, odd, other := 0, 0, 0
	for _, r := range string(decoded) {
		switch {
		case r < utf8.RuneSelf:
		case strings.ContainsRune(czechLetters, r):
			czech++
		case r == utf8.RuneError || unicode.IsControl(r):
			odd++
		default:
			other++ // other letters, no-break spaces, „quotes“, dashes
		}
	}
	if czech > 0 && odd*10 <= czech+other {
		return Windows1250
	}
	return ""
}
