package shipping

import (
	"cmp"
	"context"
	"net/url"
	"sort"
	"strconv"
)

// ListStep is how many shipments one answer of shipments/list holds: the
// service pages the list by the query parameter offset in steps of 100, and
// data is an object keyed by tracking number with nothing else in it
// (public-evidence.md).
const ListStep = 100

// ListQuery filters shipments/list. Zero fields are not sent.
type ListQuery struct {
	Status    string // OPEN, ACTIVE, DELIVERED, STORNO
	From, To  string // creation date range, YYYY-MM-DD, inclusive
	Reference string
	Tracking  bool // include tracking_information
	Offset    int  // how many matching shipments to skip: 0, 100, 200…
}

// ListPage is one answer of shipments/list: up to ListStep shipments, newest
// first.
type ListPage struct {
	Shipments []ShipmentInfo
	Offset    int  // the offset asked for
	Last      bool // fewer than ListStep came: no page follows
}

// Next is the offset of the page after this one.
func (p *ListPage) Next() int { return p.Offset + ListStep }

func (q ListQuery) values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("status", q.Status)
	set("date_from", q.From)
	set("date_to", q.To)
	set("reference", q.Reference)
	if q.Tracking {
		v.Set("tracking", "1")
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	return v
}

// List returns one page of the account's shipments from q.Offset. It needs a
// valid key, so it also proves one.
func (c *Client) List(ctx context.Context, q ListQuery) (*ListPage, error) {
	ans, err := c.get(ctx, "shipments/list", q.values())
	if err != nil {
		return nil, err
	}
	list, err := dataCollection(ans, "shipments/list", func(s *ShipmentInfo, key string) { s.TrackingNumber = cmp.Or(s.TrackingNumber, key) })
	if err != nil {
		return nil, err
	}
	// An object has no order: put the newest first again, as the service counts.
	sort.Slice(list, func(i, j int) bool {
		if list[i].OrderDate != list[j].OrderDate {
			return list[i].OrderDate > list[j].OrderDate
		}
		return list[i].TrackingNumber > list[j].TrackingNumber
	})
	return &ListPage{Shipments: list, Offset: q.Offset, Last: len(list) < ListStep}, nil
}

// ListAll pages through every shipment q matches (from offset 0) and returns
// them newest first.
func (c *Client) ListAll(ctx context.Context, q ListQuery) ([]ShipmentInfo, error) {
	var out []ShipmentInfo
	for q.Offset = 0; ; q.Offset += ListStep {
		page, err := c.List(ctx, q)
		if err != nil {
			return out, err
		}
		out = append(out, page.Shipments...)
		if page.Last {
			return out, nil
		}
	}
}
