package shoptet

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"
)

// Notification is one webhook notification and what became of it.
type Notification struct {
	Event     string    `json:"event"`
	Instance  string    `json:"eventInstance"`
	URL       string    `json:"url"`
	Body      []byte    `json:"-"`
	Signature string    `json:"signature"`
	Attempts  int       `json:"attempts"`
	Status    int       `json:"last_status"` // 0: no answer
	Delivered bool      `json:"delivered"`
	GaveUp    bool      `json:"gave_up"`
	due       time.Time // real time of the next attempt
}

// Delivery: six attempts, the waits between them doubling from the first.
const (
	deliveryAttempts = 6
	deliveryTimeout  = 5 * time.Second
	keptNotes        = 500
)

// deliverer posts notifications one by one off the API's path, so no answer
// of the API waits for a receiver; failures are sent again later.
type deliverer struct {
	retry  time.Duration
	stop   <-chan struct{}
	client *http.Client

	mu    sync.Mutex
	all   []*Notification // kept for Notifications, the newest keptNotes
	todo  []*Notification
	wake  chan struct{}
	ctx   context.Context
	abort context.CancelFunc
}

func newDeliverer(retry time.Duration, stop <-chan struct{}) *deliverer {
	ctx, cancel := context.WithCancel(context.Background())
	return &deliverer{retry: retry, stop: stop, wake: make(chan struct{}, 1), ctx: ctx, abort: cancel,
		client: &http.Client{Timeout: deliveryTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (d *deliverer) queue(n Notification) {
	d.mu.Lock()
	n.due = time.Now()
	p := &n
	d.todo = append(d.todo, p)
	d.all = append(d.all, p)
	if len(d.all) > keptNotes {
		d.all = d.all[len(d.all)-keptNotes:]
	}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *deliverer) list() []Notification {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Notification, len(d.all))
	for i, n := range d.all {
		out[i] = *n
	}
	return out
}

// next is the notification due first and how long until it is due.
func (d *deliverer) next() (*Notification, time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var first *Notification
	for _, n := range d.todo {
		if first == nil || n.due.Before(first.due) {
			first = n
		}
	}
	if first == nil {
		return nil, time.Hour
	}
	return first, time.Until(first.due)
}

func (d *deliverer) run() {
	defer d.abort()
	go func() { <-d.stop; d.abort() }()
	for {
		n, wait := d.next()
		if n == nil || wait > 0 {
			timer := time.NewTimer(max(wait, 0))
			select {
			case <-d.stop:
				timer.Stop()
				return
			case <-d.wake:
			case <-timer.C:
			}
			timer.Stop()
			continue
		}
		status := d.send(n)
		d.mu.Lock()
		n.Attempts++
		n.Status = status
		switch {
		case status >= 200 && status < 300:
			n.Delivered = true
		case n.Attempts >= deliveryAttempts:
			n.GaveUp = true
		default:
			n.due = time.Now().Add(d.retry << (n.Attempts - 1))
		}
		if n.Delivered || n.GaveUp {
			for i, x := range d.todo {
				if x == n {
					d.todo = append(d.todo[:i:i], d.todo[i+1:]...)
					break
				}
			}
		}
		d.mu.Unlock()
	}
}

// send posts one notification; its HTTP status, 0 when nothing answered.
func (d *deliverer) send(n *Notification) int {
	req, err := http.NewRequestWithContext(d.ctx, http.MethodPost, n.URL, bytes.NewReader(n.Body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Shoptet-Webhooks (sandbox)")
	req.Header.Set("Shoptet-Webhook-Signature", n.Signature)
	resp, err := d.client.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
