package desk

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/printout"
	"shipdesk/storage"
)

// MaxPrint is the most labels one print takes: the queue's length.
const MaxPrint = 500

// Print is what the clerk asked to print: shipments, in order, and the paper.
type Print struct {
	IDs    []int64
	Format printout.Format
	Start  int   // first position on the first A4 sheet, 1–4
	Of     int64 // the batch this prints again; 0 for a new print
}

func (p Print) check() error {
	if _, ok := printout.ParseFormat(string(p.Format)); !ok {
		return apperr.Fields("print.err.format", apperr.Problems{"format": apperr.Msg("print.err.format_field")})
	}
	if p.Start < 1 || p.Start > p.Format.PerPage() {
		return apperr.Fields("print.err.start", apperr.Problems{"start": apperr.Msg("print.err.start_field")})
	}
	if len(p.IDs) == 0 {
		return apperr.Fields("ship.err.select_labels", apperr.Problems{"ids": apperr.Msg("ship.err.select_one")})
	}
	if len(p.IDs) > MaxPrint {
		return apperr.Fields("print.err.too_many", apperr.Problems{"ids": apperr.Msg("print.err.too_many_field", MaxPrint)})
	}
	return nil
}

// printable says whether a shipment's label goes into a print: its label is
// ready, and it has one (a label-free shipment has a code instead).
func printable(s storage.Shipment) bool {
	return labelProblem(s) == nil && s.LabelMode != shipping.LabelCode
}

// printChunk is how many shipments a print reads at a time: a print of
// hundreds holds a few of them and a few labels at a time.
const printChunk = 50

// LabelFetches is how many labels a print asks the service for at once,
// after the first, which is asked for alone (a service that fails says so
// in one call). They are placed on the sheet in order as they come.
const LabelFetches = BatchWorkers

// PrintLabels writes one PDF of the labels of the shipments onto w, in the
// format asked for, and records the print as a batch (which marks the labels
// printed). Shipments without a label ready are left out; when none has one,
// nothing is written. Labels are fetched from the service a few at a time and
// written one at a time, in order. When the service fails after some labels
// are written, the PDF ends with them and only they are recorded: the rest
// stay in the queue.
func (d *Desk) PrintLabels(ctx context.Context, w io.Writer, p Print, by int64) (storage.PrintBatch, error) {
	if err := p.check(); err != nil {
		return storage.PrintBatch{}, err
	}
	ids := make([]int64, 0, len(p.IDs))
	seen := make(map[int64]bool, len(p.IDs))
	for _, id := range p.IDs {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	fetching, stop := context.WithCancel(ctx)
	defer stop()
	sheet := printout.NewSheet(w, p.Format, p.Start)
	var printed []int64
	for next := range d.fetchLabels(fetching, ids) {
		got := <-next
		err := got.err
		if err == nil {
			err = sheet.Add(got.pdf)
			if err != nil && sheet.Labels() == 0 {
				err = &apperr.Error{Code: apperr.Unavailable, Err: err, Message: apperr.Msg("print.err.unreadable", got.s.Tracking())}
			}
		}
		if err != nil {
			if len(printed) == 0 || ctx.Err() != nil {
				return storage.PrintBatch{}, err
			}
			d.log.Warn("print ends early", "printed", len(printed), "selected", len(ids), "shipment", got.s.ID, "err", err)
			stop()
			break
		}
		printed = append(printed, got.s.ID)
	}
	if len(printed) == 0 {
		return storage.PrintBatch{}, apperr.New(apperr.Conflict, "ship.err.none_ready")
	}
	if err := sheet.Close(); err != nil {
		return storage.PrintBatch{}, err
	}
	b := storage.PrintBatch{PrintedBy: storage.UserRef(by), PrintedAt: d.now(), Format: string(p.Format), StartAt: p.Start,
		Labels: sheet.Labels(), ShipmentIDs: printed}
	if p.Of != 0 {
		b.ReprintOf = &p.Of
	}
	// The PDF is out: the record is kept even when the clerk's browser has gone.
	return d.db.RecordPrintBatch(context.WithoutCancel(ctx), b)
}

// fetchedLabel is a shipment's label as the service sent it, or why not.
type fetchedLabel struct {
	s   storage.Shipment
	pdf []byte
	err error
}

// fetchLabels asks the service for the labels of the printable shipments
// among ids: the shipments are read a chunk at a time, the first label is
// asked for alone, the others up to LabelFetches at once. Each label comes
// on its own channel, and the channels come in the order of ids; a failure
// comes as a label with its error, and nothing after it. Ending ctx stops
// the asking.
func (d *Desk) fetchLabels(ctx context.Context, ids []int64) <-chan chan fetchedLabel {
	queue := make(chan chan fetchedLabel, LabelFetches-1)
	go func() {
		defer close(queue)
		queued := func(ch chan fetchedLabel) bool {
			select {
			case queue <- ch:
				return true
			case <-ctx.Done():
				return false
			}
		}
		first := true
		for chunk := range slices.Chunk(ids, printChunk) {
			list, err := d.printableOf(ctx, chunk)
			if err != nil {
				ch := make(chan fetchedLabel, 1)
				ch <- fetchedLabel{err: err}
				queued(ch)
				return
			}
			for _, s := range list {
				ch := make(chan fetchedLabel, 1)
				if first {
					first = false
					got := d.fetchLabel(ctx, s)
					ch <- got
					if !queued(ch) || got.err != nil {
						return
					}
					continue
				}
				if !queued(ch) {
					return
				}
				go func() { ch <- d.fetchLabel(ctx, s) }()
			}
		}
	}()
	return queue
}

func (d *Desk) fetchLabel(ctx context.Context, s storage.Shipment) fetchedLabel {
	pdf, err := d.ship.Label(ctx, []string{s.Tracking()})
	if err != nil {
		err = UpstreamError("ship.doing.labels", err)
	}
	return fetchedLabel{s: s, pdf: pdf, err: err}
}

// printableOf reads shipments and keeps those whose label goes into a
// print, in the order of ids.
func (d *Desk) printableOf(ctx context.Context, ids []int64) ([]storage.Shipment, error) {
	list, err := d.db.ShipmentsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	order := make(map[int64]int, len(ids))
	for i, id := range ids {
		order[id] = i
	}
	slices.SortFunc(list, func(a, b storage.Shipment) int { return cmp.Compare(order[a.ID], order[b.ID]) })
	return slices.DeleteFunc(list, func(s storage.Shipment) bool { return !printable(s) }), nil
}

// Reprint prints a batch's shipments again, in the format asked for; the
// reprint is a batch of its own. Shipments cancelled since are left out.
func (d *Desk) Reprint(ctx context.Context, w io.Writer, batch int64, f printout.Format, start int, by int64) (storage.PrintBatch, error) {
	b, err := d.db.PrintBatchByID(ctx, batch)
	if err != nil {
		return b, err
	}
	return d.PrintLabels(ctx, w, Print{IDs: b.ShipmentIDs, Format: f, Start: start, Of: b.ID}, by)
}

// Handover is the hand-over protocol of one pickup: the parcels one carrier
// takes from one place on one day.
type Handover struct {
	Carrier     string // the carrier's code
	CarrierName string
	Day         time.Time // the pickup day
	Sender      Address   // the place: where the courier takes the parcels
	Parcels     []Parcel
}

// Parcel is one shipment on a hand-over protocol.
type Parcel struct {
	ID        int64
	Tracking  string
	Recipient string
	City      string
	Packages  int
	COD       *Money
}

// Packages is how many packages the parcels have in all.
func (h Handover) Packages() int {
	n := 0
	for _, p := range h.Parcels {
		n += p.Packages
	}
	return n
}

// Handovers are the hand-over protocols of a day (midnight in the shop's
// zone): one per carrier and place, each with its parcels. A shipment without
// a pickup date is handed over on the day it was ordered.
func (d *Desk) Handovers(ctx context.Context, day time.Time) ([]Handover, error) {
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, day.Location())
	list, err := d.db.HandoverShipments(ctx, start.Format(time.DateOnly), start, start.AddDate(0, 0, 1))
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return d.handovers(ctx, list, start)
}

// HandoverCount is the most shipments one hand-over of a selection takes.
const HandoverCount = MaxPrint

// HandoversOf are the hand-over protocols of chosen shipments, handed over
// on day: one per carrier and place, as a day's. Only shipments ordered and
// not cancelled, returned or delivered go on a protocol; the others are left
// out (the caller counts them). None of them is a conflict.
func (d *Desk) HandoversOf(ctx context.Context, ids []int64, day time.Time) ([]Handover, error) {
	if len(ids) == 0 {
		return nil, apperr.Fields("ship.err.select_labels", apperr.Problems{"ids": apperr.Msg("ship.err.select_one")})
	}
	if len(ids) > HandoverCount {
		return nil, apperr.Fields("print.err.too_many", apperr.Problems{"ids": apperr.Msg("print.err.too_many_field", HandoverCount)})
	}
	list, err := d.db.ShipmentsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	list = slices.DeleteFunc(list, func(s storage.Shipment) bool { return !HandsOver(s) })
	if len(list) == 0 {
		return nil, apperr.New(apperr.Conflict, "bulk.err.none_to_hand_over")
	}
	slices.SortStableFunc(list, func(a, b storage.Shipment) int {
		return cmp.Or(cmp.Compare(a.Carrier, b.Carrier), cmp.Compare(a.ID, b.ID))
	})
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, day.Location())
	return d.handovers(ctx, list, start)
}

// HandsOver says a shipment can go on a hand-over protocol: it was ordered
// and is neither cancelled nor at its end.
func HandsOver(s storage.Shipment) bool {
	return s.State == storage.StateCreated && !Cancelled(s) && !s.Returned && s.Status != shipping.StatusDelivered
}

// carrierNames are the carriers' names by code.
func (d *Desk) carrierNames(ctx context.Context) (map[string]string, error) {
	carriers, err := d.db.Carriers(ctx)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(carriers))
	for _, c := range carriers {
		names[c.Code] = c.Name
	}
	return names, nil
}

// batchShipments are a batch's shipment ids in the file's order and the
// shipments themselves.
func (d *Desk) batchShipments(ctx context.Context, batch int64) ([]int64, []storage.Shipment, error) {
	ids, err := d.db.BatchShipmentIDs(ctx, batch)
	if err != nil || len(ids) == 0 {
		return nil, nil, err
	}
	list, err := d.db.ShipmentsByID(ctx, ids)
	return ids, list, err
}

// handovers groups shipments into protocols of a day: one per carrier and place.
func (d *Desk) handovers(ctx context.Context, list []storage.Shipment, start time.Time) ([]Handover, error) {
	p, err := d.protocolParties(ctx, list)
	if err != nil {
		return nil, err
	}
	return d.groupHandovers(list, start, p), nil
}

// parties are what a protocol names besides its parcels: the carriers by
// code, the senders' addresses by their contact, and the points parcels are
// handed in at by carrier and code (nil: each point by its code alone).
type parties struct {
	names     map[string]string
	byContact map[int64]Address
	points    map[string]Address
}

// protocolParties reads the parties of protocols of list.
func (d *Desk) protocolParties(ctx context.Context, list []storage.Shipment) (parties, error) {
	names, err := d.carrierNames(ctx)
	if err != nil {
		return parties{}, err
	}
	byContact, err := d.sendersByContact(ctx)
	if err != nil {
		return parties{}, err
	}
	points, err := d.handoverPoints(ctx, list)
	return parties{names: names, byContact: byContact, points: points}, err
}

// handoverPoints are the points the parcels of list are handed in at, as
// places: the point's name and address, by carrier and code. A point the
// service's list no longer has is left out (its code names the place).
func (d *Desk) handoverPoints(ctx context.Context, list []storage.Shipment) (map[string]Address, error) {
	out := map[string]Address{}
	for _, s := range list {
		code := handoverPoint(s)
		key := s.Carrier + "/" + code
		if _, seen := out[key]; seen || code == "" {
			continue
		}
		p, err := d.db.PointByCode(ctx, s.Carrier, code)
		switch {
		case apperr.Is(err, apperr.NotFound):
			out[key] = Address{Company: code}
		case err != nil:
			return nil, err
		default:
			out[key] = Address{Company: p.Name, Street: p.Street, City: p.City, Zip: p.Zip, Country: p.Country}
		}
	}
	return out, nil
}

// handoverPoint is the code of the point a shipment is handed in at ("" for
// a pickup from an address, or any point of the carrier).
func handoverPoint(s storage.Shipment) string {
	var order struct {
		Shipments []struct {
			PickupBranch string `json:"pickup_branch"`
		} `json:"shipments"`
	}
	if json.Unmarshal(s.Request, &order) != nil || len(order.Shipments) == 0 {
		return ""
	}
	if code := order.Shipments[0].PickupBranch; code != shipping.AnyBranch {
		return code
	}
	return ""
}

// sendersByContact are the senders' addresses by their contact at the service.
func (d *Desk) sendersByContact(ctx context.Context) (map[int64]Address, error) {
	senders, err := d.db.Senders(ctx)
	if err != nil {
		return nil, err
	}
	byContact := map[int64]Address{}
	for _, s := range senders {
		if s.ContactID != nil {
			byContact[*s.ContactID] = AddressOf(s.Address)
		}
	}
	return byContact, nil
}

// groupHandovers groups shipments into protocols of a day, with their
// parties already read: a parcel handed in at a point is on that point's
// protocol, the others on their sender's.
func (d *Desk) groupHandovers(list []storage.Shipment, start time.Time, p parties) []Handover {
	var out []Handover
	index := map[string]int{}
	for _, s := range list {
		var order shipping.Order
		if err := json.Unmarshal(s.Request, &order); err != nil || len(order.Shipments) == 0 {
			d.log.Warn("hand-over: stored order unreadable", "shipment", s.ID, "err", err)
			order.Shipments = []shipping.Shipment{{}}
		}
		sh := order.Shipments[0]
		from := addressOf(sh.From)
		if sh.From.ID != 0 {
			from = p.byContact[sh.From.ID]
		}
		key := s.Carrier + "\x00" + placeKey(from)
		if code := handoverPoint(s); code != "" {
			from = cmp.Or(p.points[s.Carrier+"/"+code], Address{Company: code})
			key = s.Carrier + "\x00point\x00" + code
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Handover{Carrier: s.Carrier, CarrierName: cmp.Or(p.names[s.Carrier], s.Carrier), Day: start, Sender: from})
		}
		parcel := Parcel{ID: s.ID, Tracking: s.Tracking(), Recipient: s.RecipientName, City: s.RecipientCity, Packages: cmp.Or(len(s.Packages), len(sh.Packages), 1)}
		if m, ok := COD(s); ok {
			parcel.COD = &m
		}
		out[i].Parcels = append(out[i].Parcels, parcel)
	}
	slices.SortStableFunc(out, func(a, b Handover) int {
		return cmp.Or(cmp.Compare(a.CarrierName, b.CarrierName), cmp.Compare(a.Carrier, b.Carrier), cmp.Compare(placeKey(a.Sender), placeKey(b.Sender)))
	})
	return out
}

func placeKey(a Address) string {
	return strings.ToLower(strings.Join([]string{a.Company, a.Firstname, a.Surname, a.Street, a.Zip, a.City, a.Country}, "|"))
}
