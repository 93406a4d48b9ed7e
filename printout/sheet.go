// Package printout draws the PDFs we make ourselves: sheets of the service's
// label PDFs (one A6 label per page for thermal printers, or four to an A4
// sheet) and the hand-over protocols for couriers.
//
// A label sheet is written as it goes: each label PDF is imported (gofpdi, the
// importer fpdf supports), written out and dropped before the next one is read,
// so a batch of hundreds of labels never holds more than one label in memory.
// fpdf itself keeps the whole document until its end, so the sheet writes the
// PDF's structure (objects, page tree, cross-reference table) itself.
package printout

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/phpdave11/gofpdi"
)

// Format is how labels are laid out on paper.
type Format string

const (
	// A6 is one label per A6 page, for thermal label printers.
	A6 Format = "A6"
	// A4 is four A6 labels on an A4 sheet (2 × 2), for office printers and
	// sheets of self-adhesive labels.
	A4 Format = "A4"
)

// Formats are the formats offered, the thermal printer's first.
var Formats = []Format{A6, A4}

// ParseFormat reads a format as a form sends it; ok is false for anything else.
func ParseFormat(s string) (Format, bool) {
	f := Format(strings.ToUpper(strings.TrimSpace(s)))
	return f, slices.Contains(Formats, f)
}

// PerPage is how many labels fit on one page of the format.
func (f Format) PerPage() int {
	if f == A4 {
		return 4
	}
	return 1
}

// Page sizes in PDF points (1/72 inch), as fpdf has them.
const (
	a4W, a4H = 595.28, 841.89
	a6W, a6H = 297.64, 419.53
)

// PageSize is the width and height of a page of the format, in points.
func (f Format) PageSize() (w, h float64) {
	if f == A4 {
		return a4W, a4H
	}
	return a6W, a6H
}

// Slot is where one label goes: the page (from 1), the position on it (1–4 on
// A4: top left, top right, bottom left, bottom right; always 1 on A6) and the
// rectangle in points from the page's bottom left corner.
type Slot struct {
	Page, Position int
	X, Y, W, H     float64
}

// Place is the slot of the i-th label (from 0) of a sheet that starts at
// position start (1–4; only A4 sheets start elsewhere than 1, when some of
// their labels are used already).
func Place(f Format, start, i int) Slot {
	per := f.PerPage()
	if f != A4 || start < 1 || start > per {
		start = 1
	}
	n := start - 1 + i
	s := Slot{Page: n/per + 1, Position: n%per + 1}
	pw, ph := f.PageSize()
	if f != A4 {
		s.W, s.H = pw, ph
		return s
	}
	s.W, s.H = pw/2, ph/2
	col, row := (s.Position-1)%2, (s.Position-1)/2
	s.X = float64(col) * s.W
	s.Y = ph - float64(row+1)*s.H
	return s
}

// Sheet writes labels into one PDF as they come. Nothing is written until the
// first label has been read, so a failure before it leaves the writer untouched.
type Sheet struct {
	out    *countingWriter
	buf    *bufio.Writer
	format Format
	start  int

	next    int   // the next object number
	offsets []int // byte offset of each object, by number (0: not written)
	kids    []int // page objects, in order
	labels  int   // labels placed so far
	page    []placed
	pageNo  int
	started bool
}

type placed struct {
	obj  int // the label page's form XObject
	slot Slot
	w, h float64 // its size in points
}

const (
	catalogObj = 1
	pagesObj   = 2
	infoObj    = 3
)

// NewSheet starts a sheet of format written to w from position start.
func NewSheet(w io.Writer, f Format, start int) *Sheet {
	cw := &countingWriter{w: w}
	return &Sheet{out: cw, buf: bufio.NewWriterSize(cw, 64<<10), format: f, start: start, next: infoObj + 1, offsets: make([]int, infoObj+1)}
}

// Labels is how many labels (label pages) the sheet holds so far.
func (s *Sheet) Labels() int { return s.labels }

// Pages is how many pages the sheet has so far.
func (s *Sheet) Pages() int { return len(s.kids) + min(len(s.page), 1) }

// Add reads one label PDF and places each of its pages in the next slot. The
// PDF is not kept: only the objects written out and their numbers remain.
func (s *Sheet) Add(pdf []byte) (err error) {
	tpls, objs, err := importPages(pdf, s.next)
	if err != nil {
		return err
	}
	if !s.started {
		s.started = true
		// The binary comment line tells readers the file holds binary data.
		s.write([]byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"))
	}
	ids := make([]int, 0, len(objs))
	for id := range objs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		s.object(id, []byte(objs[id]))
	}
	if len(ids) > 0 {
		s.next = max(s.next, ids[len(ids)-1]+1)
	}
	for _, t := range tpls {
		slot := Place(s.format, s.start, s.labels)
		if len(s.page) > 0 && s.page[0].slot.Page != slot.Page {
			s.flushPage()
		}
		s.page = append(s.page, placed{obj: t.obj, slot: slot, w: t.w, h: t.h})
		s.labels++
	}
	return s.failed()
}

// Close ends the document: the last page, the page tree, the catalog and
// the cross-reference table. A sheet without labels is an error.
func (s *Sheet) Close() error {
	if !s.started || s.labels == 0 {
		return errors.New("label sheet: no labels")
	}
	s.flushPage()
	kids := make([]string, len(s.kids))
	for i, k := range s.kids {
		kids[i] = strconv.Itoa(k) + " 0 R"
	}
	s.object(pagesObj, fmt.Appendf(nil, "<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n", strings.Join(kids, " "), len(s.kids)))
	s.object(catalogObj, []byte("<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"))
	s.object(infoObj, []byte("<< /Producer (shipdesk) /Title (Labels) >>\nendobj\n"))
	xref := s.out.n + s.buf.Buffered()
	var b bytes.Buffer
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(s.offsets))
	for _, off := range s.offsets[1:] {
		if off == 0 {
			b.WriteString("0000000000 65535 f \n")
			continue
		}
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(s.offsets), catalogObj, infoObj, xref)
	s.write(b.Bytes())
	if err := s.failed(); err != nil {
		return err
	}
	return s.buf.Flush()
}

// flushPage writes the page being filled: its content draws each label's
// form XObject scaled into its slot, centred.
func (s *Sheet) flushPage() {
	if len(s.page) == 0 {
		return
	}
	var content, xobjects bytes.Buffer
	for i, p := range s.page {
		scale := min(p.slot.W/p.w, p.slot.H/p.h)
		tx := p.slot.X + (p.slot.W-p.w*scale)/2
		ty := p.slot.Y + (p.slot.H-p.h*scale)/2
		fmt.Fprintf(&content, "q %.5f 0 0 %.5f %.2f %.2f cm /L%d Do Q %% position %d\n", scale, scale, tx, ty, i+1, p.slot.Position)
		fmt.Fprintf(&xobjects, "/L%d %d 0 R ", i+1, p.obj)
	}
	contentObj := s.alloc()
	s.object(contentObj, fmt.Appendf(nil, "<< /Length %d >>\nstream\n%sendstream\nendobj\n", content.Len(), content.Bytes()))
	pw, ph := s.format.PageSize()
	pageObj := s.alloc()
	s.object(pageObj, fmt.Appendf(nil, "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << %s>> >> /Contents %d 0 R >>\nendobj\n",
		pagesObj, pw, ph, xobjects.String(), contentObj))
	s.kids = append(s.kids, pageObj)
	s.page = s.page[:0]
}

func (s *Sheet) alloc() int {
	n := s.next
	s.next++
	return n
}

// object writes object n; body ends with "endobj".
func (s *Sheet) object(n int, body []byte) {
	for len(s.offsets) <= n {
		s.offsets = append(s.offsets, 0)
	}
	s.offsets[n] = s.out.n + s.buf.Buffered()
	s.write(strconv.AppendInt(nil, int64(n), 10))
	s.write([]byte(" 0 obj\n"))
	s.write(body)
}

func (s *Sheet) write(b []byte) { _, _ = s.buf.Write(b) }

// failed is the first error writing out: bufio.Writer keeps it, and an
// empty write reports it.
func (s *Sheet) failed() error {
	if _, err := s.buf.Write(nil); err != nil {
		return fmt.Errorf("write label sheet: %w", err)
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += n
	return n, err
}

// template is one imported label page.
type template struct {
	obj  int     // object number of its form XObject
	w, h float64 // size in points, turned as the page shows
}

// importPages imports every page of a label PDF as form XObjects numbered
// from first on, and returns them with every object they need, by number.
// gofpdi panics on a PDF it cannot read: that becomes an error.
func importPages(pdf []byte, first int) (tpls []template, objs map[int]string, err error) {
	defer func() {
		if v := recover(); v != nil {
			tpls, objs, err = nil, nil, fmt.Errorf("read label PDF: %v", v)
		}
	}()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return nil, nil, errors.New("read label PDF: not a PDF")
	}
	imp := gofpdi.NewImporter()
	var rs io.ReadSeeker = &eofGuard{ReadSeeker: bytes.NewReader(pdf)}
	imp.SetSourceStream(&rs)
	pages := imp.GetNumPages()
	if pages < 1 {
		return nil, nil, errors.New("read label PDF: no pages")
	}
	ids := make([]int, pages)
	for p := 1; p <= pages; p++ {
		ids[p-1] = imp.ImportPage(p, "/MediaBox")
	}
	imp.SetNextObjectID(first)
	names := imp.PutFormXobjects()
	for _, id := range ids {
		// UseTemplate at the page's own size gives its height (as -ty), and at
		// width 1 its width (as 1/scale): gofpdi keeps both private otherwise.
		name, _, _, _, ty := imp.UseTemplate(id, 0, 0, 0, 0)
		_, sx, _, _, _ := imp.UseTemplate(id, 0, 0, 1, 0)
		obj, ok := names[name]
		if !ok || sx <= 0 || ty >= 0 {
			return nil, nil, fmt.Errorf("read label PDF: page %d has no size", id+1)
		}
		tpls = append(tpls, template{obj: obj, w: 1 / sx, h: -ty})
	}
	return tpls, imp.GetImportedObjects(), nil
}

// eofGuard ends the importer's reading of a broken PDF. gofpdi takes the end
// of the file for an empty token and looks on for the one it needs (a file
// without "startxref" keeps it looking for ever); after a few reads at the
// end the guard answers with an error it does stop at.
type eofGuard struct {
	io.ReadSeeker
	ends int
}

var errTruncated = errors.New("the PDF ends too early")

func (g *eofGuard) Read(b []byte) (int, error) {
	n, err := g.ReadSeeker.Read(b)
	if err == io.EOF {
		if g.ends++; g.ends > 64 {
			return n, errTruncated
		}
	}
	return n, err
}
