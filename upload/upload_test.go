package upload

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

func TestSafeNameTakesTheTypeOfTheContent(t *testing.T) {
	for _, c := range []struct{ name, ctype, want string }{
		{"evil.html", PNG, "evil.png"},
		{"evil.svg", PNG, "evil.png"},
		{"photo\u202egpj.hta", JPEG, "photogpj.jpg"}, // shown as "photoath.jpg" while the override stands
		{"\u2067invoice\u2069\u200f.pdf", PDF, "invoice.pdf"},
		{`C:\fakepath\faktura 12.PDF`, PDF, "faktura 12.PDF"},
		{"lid.jpeg", JPEG, "lid.jpeg"},
		{"lid.jpeg", PNG, "lid.png"},
		{"a.pdf.exe", PDF, "a.pdf"},
		{"report v2 final", PDF, "report v2 final.pdf"},
		{"  spaced \t  name .jpg", JPEG, "spaced name.jpg"},
		{`a<b>:c|d?e*"f.png`, PNG, "a_b__c_d_e__f.png"},
		{"CON.jpg", JPEG, "_CON.jpg"},
		{"...", JPEG, "photo.jpg"},
		{"", PDF, "photo.pdf"},
		{"\u202e.jpg", JPEG, "photo.jpg"},
		{strings.Repeat("ž", 300) + ".png", PNG, strings.Repeat("ž", 100) + ".png"},
		{"data.bin", "", "data"},
	} {
		if got := SafeName(c.name, c.ctype, "photo"); got != c.want {
			t.Errorf("SafeName(%q, %s) = %q, want %q", c.name, c.ctype, got, c.want)
		}
	}
}

func spool(t *testing.T, name string, data []byte) File {
	t.Helper()
	f, err := Spool(t.TempDir(), bytes.NewReader(data), name, 10<<20)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// quadrants is an image of four colours, one a quarter: red, green / blue, white.
func quadrants(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{255, 255, 255, 255}
			switch {
			case x < w/2 && y < h/2:
				c = color.RGBA{255, 0, 0, 255}
			case y < h/2:
				c = color.RGBA{0, 255, 0, 255}
			case x < w/2:
				c = color.RGBA{0, 0, 255, 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func jpegOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withExif puts an EXIF segment saying orientation right after the SOI.
func withExif(data []byte, orientation uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00*")
	for _, v := range []any{uint32(8), uint16(1), uint16(0x0112), uint16(3), uint32(1), orientation, uint16(0), uint32(0)} {
		_ = binary.Write(&tiff, binary.BigEndian, v)
	}
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	app1 := []byte{0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out := append([]byte{}, data[:2]...)
	out = append(append(out, app1...), seg...)
	return append(out, data[2:]...)
}

// near: a colour through JPEG is the colour, give or take.
func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, b uint8) bool { return int(a>>8)-int(b) < 40 && int(b)-int(a>>8) < 40 }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

// A kept photo is drawn again: what was hidden in its segments or after its
// end is gone, and it is turned as its EXIF says (the EXIF itself is gone,
// so nothing would turn it later).
func TestKeepDrawsAPhotoAgain(t *testing.T) {
	src := withExif(jpegOf(t, quadrants(64, 32)), 6)
	comment := []byte{0xFF, 0xFE, 0x00, 0x12}
	comment = append(comment, "<script>x</script>"[:16]...)
	hostile := append(append(append([]byte{}, src[:2]...), comment...), src[2:]...)
	hostile = append(hostile, "<html><script>alert(1)</script>"...)
	f := spool(t, "lid\u202egpj.hta", hostile)
	if msg := f.Problem(); !msg.IsZero() {
		t.Fatalf("a good photo refused: %v", msg)
	}
	k, msg := NewKeeper().Keep(f, "photo")
	if !msg.IsZero() {
		t.Fatalf("keep: %v", msg)
	}
	defer k.Remove()
	data, err := k.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if k.Name != "lidgpj.jpg" || k.Type != JPEG || k.Size != int64(len(data)) {
		t.Errorf("kept as %q %s %d bytes (%d read)", k.Name, k.Type, k.Size, len(data))
	}
	for _, hidden := range []string{"<script", "<html", "Exif"} {
		if bytes.Contains(data, []byte(hidden)) {
			t.Errorf("the kept photo still holds %q", hidden)
		}
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// Orientation 6: turned a quarter clockwise, so 32×64 with the blue
	// quarter (bottom left) now at the top left and red at the top right.
	if b := img.Bounds(); b.Dx() != 32 || b.Dy() != 64 {
		t.Fatalf("turned to %v", b)
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{{4, 4, color.RGBA{0, 0, 255, 255}}, {28, 4, color.RGBA{255, 0, 0, 255}}, {4, 60, color.RGBA{255, 255, 255, 255}}, {28, 60, color.RGBA{0, 255, 0, 255}}} {
		if got := img.At(c.x, c.y); !near(got, c.want) {
			t.Errorf("at %d,%d: %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

// Every orientation turns the picture the way EXIF says.
func TestTurnedFollowsEveryOrientation(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 3, 2)) // 0 1 2 / 3 4 5
	for i := range src.Pix {
		src.Pix[i] = uint8(i)
	}
	for o, want := range map[int][]uint8{
		1: {0, 1, 2, 3, 4, 5}, 2: {2, 1, 0, 5, 4, 3}, 3: {5, 4, 3, 2, 1, 0}, 4: {3, 4, 5, 0, 1, 2},
		5: {0, 3, 1, 4, 2, 5}, 6: {3, 0, 4, 1, 5, 2}, 7: {5, 2, 4, 1, 3, 0}, 8: {2, 5, 1, 4, 0, 3},
	} {
		got := turned(src, o).(*image.Gray)
		if !bytes.Equal(got.Pix, want) {
			t.Errorf("orientation %d: %v, want %v", o, got.Pix, want)
		}
	}
}

// pngHeader is a PNG that claims w×h pixels: its signature, its header and
// a few bytes of data that never get drawn.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(kind)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	chunk("IHDR", append(ihdr, 8, 6, 0, 0, 0))
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegClaiming is a real JPEG whose frame header claims w×h pixels.
func jpegClaiming(t *testing.T, w, h uint16) []byte {
	data := jpegOf(t, quadrants(16, 16))
	i := bytes.Index(data, []byte{0xFF, 0xC0})
	binary.BigEndian.PutUint16(data[i+5:], h)
	binary.BigEndian.PutUint16(data[i+7:], w)
	return data
}

// An image over MaxPixels (or over the memory its decoding may take) is
// refused from its header: it is never decoded.
func TestPixelBombsAreRefusedFromTheHeader(t *testing.T) {
	for name, data := range map[string][]byte{
		"png 60000×60000":  pngHeader(60000, 60000),
		"png 7000×7000":    pngHeader(7000, 7000), // 49 megapixels
		"jpeg 60000×60000": jpegClaiming(t, 60000, 60000),
	} {
		f := spool(t, "bomb.png", data)
		if f.Type == JPEG {
			f.Name = "bomb.jpg"
		}
		if msg := f.Problem(); msg.Key != "ret.err.file_pixels" {
			t.Errorf("%s: %v", name, msg)
		}
		if _, msg := NewKeeper().Keep(f, "photo"); msg.Key != "ret.err.file_pixels" {
			t.Errorf("%s kept: %v", name, msg)
		}
	}
	// A good PNG within the bounds is drawn again.
	var b bytes.Buffer
	_ = png.Encode(&b, quadrants(40, 30))
	k, msg := NewKeeper().Keep(spool(t, "ok.png", b.Bytes()), "photo")
	if !msg.IsZero() || k.Name != "ok.png" {
		t.Errorf("a good PNG: %q %v", k.Name, msg)
	}
}

// Files that are not what they say are refused with the reason.
func TestProblemsOfFiles(t *testing.T) {
	good := jpegOf(t, quadrants(16, 16))
	for name, c := range map[string]struct {
		file, data string
		key        string
	}{
		"svg":           {"evil.svg", `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`, "ret.err.file_type"},
		"html":          {"lid.jpg", "<html>", "ret.err.file_type"},
		"empty":         {"lid.jpg", "", "ret.err.file_empty"},
		"pdf as png":    {"lid.png", "%PDF-1.4", "ret.err.file_named"},
		"no frame":      {"lid.jpg", "\xff\xd8\xff\xe0\x00\x10JFIF\x00 a photo", "ret.err.file_damaged"},
		"truncated png": {"lid.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "ret.err.file_damaged"},
	} {
		if msg := spool(t, c.file, []byte(c.data)).Problem(); msg.Key != c.key {
			t.Errorf("%s: %v, want %s", name, msg, c.key)
		}
	}
	// A header that reads well over data that does not is found out when drawn.
	f := spool(t, "cut.jpg", good[:len(good)/2])
	if msg := f.Problem(); !msg.IsZero() {
		t.Fatalf("a cut photo's header: %v", msg)
	}
	if _, msg := NewKeeper().Keep(f, "photo"); msg.Key != "ret.err.file_damaged" {
		t.Errorf("a cut photo kept: %v", msg)
	}
	// Over its limit: only the limit and a byte are read.
	over, err := Spool(t.TempDir(), strings.NewReader("%PDF-"+strings.Repeat("x", 100)), "a.pdf", 50)
	if err != nil || !over.Over() || over.Size != 51 || over.Problem().Key != "ret.err.file_large" {
		t.Errorf("over the limit: %+v %v", over, err)
	}
}
