// Package handlers turns HTTP requests into calls of the domain packages and renders
// the answer with views. Each handler parses, calls and renders; nothing more.
package handlers

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/staff"
	"shipdesk/storage"
	"shipdesk/views"
)

// StaffService is sign-in and account management (staff.Service).
type StaffService interface {
	SignIn(ctx context.Context, username, password, address, userAgent string) (*identity.Staff, string, error)
	SignOut(ctx context.Context, st *identity.Staff, token, address string) error
	Users(ctx context.Context) ([]storage.User, error)
	AddUser(ctx context.Context, by staff.Actor, username string, role identity.Role, password string) (storage.User, error)
	SetPassword(ctx context.Context, by staff.Actor, userID int64, password string) error
	SetDisabled(ctx context.Context, by staff.Actor, userID int64, disabled bool) error
	SetLanguage(ctx context.Context, st *identity.Staff, lang string) error
	SetMail(ctx context.Context, by staff.Actor, userID int64, email string, daily bool) error
}

// AuditLog reads the audit log and users for the manager pages.
type AuditLog interface {
	ListAuditAbout(ctx context.Context, username string, limit int) ([]storage.AuditEntry, error)
	UserByID(ctx context.Context, id int64) (storage.User, error)
}

// Sessions keeps the session cookie: its token and one-time flash messages.
type Sessions interface {
	Token(r *http.Request) string
	Start(w http.ResponseWriter, r *http.Request, token string) error
	End(w http.ResponseWriter, r *http.Request) error
	AddFlash(w http.ResponseWriter, r *http.Request, f views.Flash)
	TakeFlashes(w http.ResponseWriter, r *http.Request) []views.Flash
}

// Pinger checks a dependency for /readyz.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Handlers holds what the handlers depend on.
type Handlers struct {
	Staff     StaffService
	Audit     AuditLog
	Sessions  Sessions
	Database  Pinger
	Log       *slog.Logger
	Link      Link      // the connection to the shipping service (or the sandbox)
	ShipDesk  ShipDesk  // the shipping desk: every shipping write (desk.Desk)
	ShipReads ShipReads // the shipping tables, read only (storage.DB)
	SentMail  SentMail  // the outbox and the caught copies (sandbox mode's Sent mail page)
	UserMails UserMails // staff members' e-mail settings (storage.DB)
	Tracker   Tracker   // asks the service about one shipment now (desk.Refresher)
	// RefreshAfter: a pending shipment is asked about at most this often when its
	// page polls (negative: every time, for tests).
	RefreshAfter time.Duration
	// RefusalHold is how long the customers' pages wait before they answer
	// a client the limiter in memory refused: a flood's connection then asks
	// about once per hold instead of as fast as we answer, and costs nothing
	// meanwhile.
	RefusalHold  time.Duration
	Returns      ReturnsBench   // the returns workbench: every write of the returns pages
	Queue        AttentionQueue // the "needs attention" queue (attention.Queue)
	ReturnsStore ReturnsStore   // what the returns pages read straight from storage
	Claims       ClaimPage      // the customers' claim page (claims.Service)
	ShopHooks    ShopHooks      // the connected shop's webhooks (shoptet.Hooks)
	Shop         ShopDesk       // the shop's orders: the inbox, shipping them, the connection (shop.Service)
	ShopConn     ShopSettings   // the Connection page's shop section (shop.Service)
	ShopAPI      string         // the address of the shop platform's API the connection form starts from
	TrustProxy   bool           // believe X-Forwarded-For / -Proto from a reverse proxy
	Identity     ShopIdentity   // the shop as its customers know it (shopid.Service)
	// PublicURL is the dashboard's address as customers reach it, which
	// their links start with (a shipment's tracking page).
	PublicURL string
	// Clock is the dashboard's one clock (the simulator's in sandbox mode):
	// every time a page shows or a handler hands down is read from it.
	Clock *clock.Clock
}

// now is the time on the dashboard's clock.
func (h *Handlers) now() time.Time { return h.Clock.Now() }

// page builds the layout model for a request; it takes the pending flashes.
func (h *Handlers) page(w http.ResponseWriter, r *http.Request, title string, area identity.Area) views.Page {
	st := identity.From(r.Context())
	// Forms post Path back as where to return. Before sign-in the query (a
	// ?next= that may be hostile) is not carried.
	u := r.URL
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// A form drawn again after its post: the post's own address answers
		// no GET, so returning means the page it was posted from.
		u = postedFrom(r)
	}
	path := httpx.LocalPath(u.RequestURI())
	if st == nil {
		path = httpx.LocalPath(u.Path)
	}
	p := views.Page{
		Title:   title,
		Staff:   st,
		Area:    area,
		Flashes: h.Sessions.TakeFlashes(w, r),
		Sandbox: h.Link.IsSandbox(),
		Path:    path,
	}
	if p.Sandbox {
		p.SandboxState = h.sandboxState(r.Context())
	}
	return p
}

// postedFrom is the page a post came from: the Referer when it is of this
// host (the browser sends it only for the same origin), else the start page.
func postedFrom(r *http.Request) *url.URL {
	if ref, err := url.Parse(r.Referer()); err == nil && ref.Host == r.Host && ref.Path != "" {
		return &url.URL{Path: ref.Path, RawPath: ref.RawPath, RawQuery: ref.RawQuery}
	}
	return &url.URL{Path: "/"}
}

func (h *Handlers) address(r *http.Request) string { return httpx.ClientAddress(r, h.TrustProxy) }

func (h *Handlers) actor(r *http.Request) staff.Actor {
	return staff.ActorOf(identity.From(r.Context()), h.address(r))
}

// render writes a component with status. It renders into a buffer first, so a
// template error becomes a clean 500 instead of half a page.
func (h *Handlers) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	err := c.Render(r.Context(), &buf)
	if err == nil && h.bannerFollows(r) {
		// After the fragment: a leading span would end a table's rows.
		err = views.SandboxNowOOB(h.sandboxState(r.Context())).Render(r.Context(), &buf)
	}
	if err != nil {
		h.Log.Error("render", "err", err, "request_id", httpx.RequestID(r.Context()))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Add("Vary", "HX-Request")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// bannerFollows says an answer carries the sandbox banner's time again: an
// htmx answer to staff in sandbox mode (a whole page draws its banner).
func (h *Handlers) bannerFollows(r *http.Request) bool {
	return r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-Boosted") == "" && h.Link.IsSandbox() && identity.From(r.Context()) != nil
}

// streamPage renders a long page onto the answer as it is drawn, so a page
// of hundreds of rows holds none of them at once. The first bytes go once a
// buffer is full: a failure before them gets the error page; a failure after
// them cuts the connection, so the browser shows a failed load rather than
// half a page. failed is the error of what the page read as it was drawn.
func (h *Handlers) streamPage(w http.ResponseWriter, r *http.Request, status int, c templ.Component, failed func() error) {
	out := &pageStream{w: w, status: status}
	buf := bufio.NewWriterSize(out, 16<<10) // a few rows of a long table per write
	err := c.Render(r.Context(), buf)
	if err == nil {
		err = failed()
	}
	if err == nil {
		err = buf.Flush()
	}
	switch {
	case err == nil:
	case out.started:
		h.Log.Error("page cut short", "err", err, "request_id", httpx.RequestID(r.Context()))
		panic(http.ErrAbortHandler)
	default:
		h.Fail(w, r, err)
	}
}

// pageStream writes a page's headers before its first bytes.
type pageStream struct {
	w       http.ResponseWriter
	status  int
	started bool
}

func (p *pageStream) Write(b []byte) (int, error) {
	if !p.started {
		p.started = true
		p.w.Header().Set("Content-Type", "text/html; charset=utf-8")
		p.w.Header().Set("Cache-Control", "no-store")
		p.w.Header().Add("Vary", "HX-Request")
		p.w.WriteHeader(p.status)
	}
	return p.w.Write(b)
}

// redirect answers a successful post: 303 to target, or HX-Redirect for htmx.
func redirect(w http.ResponseWriter, r *http.Request, target string) {
	if httpx.IsHTMX(r) {
		w.Header().Set("HX-Redirect", target)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// statusOf maps an error code to an HTTP status.
func statusOf(code apperr.Code) int {
	switch code {
	case apperr.Invalid:
		return http.StatusUnprocessableEntity
	case apperr.NotFound:
		return http.StatusNotFound
	case apperr.Conflict:
		return http.StatusConflict
	case apperr.Unauthorized:
		return http.StatusUnauthorized
	case apperr.Forbidden:
		return http.StatusForbidden
	case apperr.TooMany:
		return http.StatusTooManyRequests
	case apperr.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// answerStatus is the status of the answer to err; a request refused for
// coming too often is told when to come back (Retry-After, whole seconds),
// whichever throttle refused it.
func answerStatus(w http.ResponseWriter, err error) int {
	code := apperr.CodeOf(err)
	if code == apperr.TooMany {
		retryAfter(w, apperr.WaitOf(err))
	}
	return statusOf(code)
}

// retryAfter says Retry-After for a wait (rounded up to a second); nothing
// when the wait is not known.
func retryAfter(w http.ResponseWriter, wait time.Duration) {
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	}
}

// Fail renders err for a person: its own message for expected errors, an apology
// with the request id for internal ones (which are logged, never shown; by the
// request's id, which the request log's line has with its path, so a
// customer's key in a path is written down once, replaced).
func (h *Handlers) Fail(w http.ResponseWriter, r *http.Request, err error) {
	code := apperr.CodeOf(err)
	status := answerStatus(w, err)
	ctx := r.Context()
	text := apperr.MessageOf(ctx, err, "")
	if code == apperr.Internal || text == "" {
		if h.databaseDown(ctx) {
			h.Log.Warn("request failed: the database is not answering", "err", err, "request_id", httpx.RequestID(ctx))
			h.ErrorStatus(w, r, http.StatusServiceUnavailable, i18n.T(ctx, "error.unavailable"))
			return
		}
		h.Log.Error("request failed", "err", err, "request_id", httpx.RequestID(ctx))
		status = http.StatusInternalServerError
		text = i18n.T(ctx, "error.500.text", httpx.RequestID(ctx))
	}
	h.ErrorStatus(w, r, status, text)
}

// databaseDown reports whether the database has stopped answering, so a
// failure during an outage reads as "try again in a minute" (503), not as a
// fault of ours (500).
func (h *Handlers) databaseDown(ctx context.Context) bool {
	if h.Database == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	return h.Database.Ping(ctx) != nil
}

// ErrorStatus renders the error page (or, for htmx, the error box) for status;
// an empty text takes the catalog's text for the status.
func (h *Handlers) ErrorStatus(w http.ResponseWriter, r *http.Request, status int, text string) {
	ctx := r.Context()
	key := errorKey(status)
	switch {
	case text != "":
	case key.title == "error.500.title": // the one text that names the request
		text = i18n.T(ctx, key.text, httpx.RequestID(ctx))
	default:
		text = i18n.T(ctx, key.text)
	}
	title := i18n.T(ctx, key.title)
	if httpx.IsHTMX(r) {
		h.render(w, r, status, views.ErrorBox(title, text, status))
		return
	}
	h.render(w, r, status, views.ErrorPage(h.page(w, r, title, ""), title, text, status))
}

// errorKeys are the catalog keys of an error page's title and text.
type errorKeys struct{ title, text string }

// errorKey is the catalog keys of the title and text for a status, written
// out whole: the 404 is asked for often enough that joining them shows.
func errorKey(status int) errorKeys {
	switch {
	case status == http.StatusForbidden:
		return errorKeys{"error.403.title", "error.403.text"}
	case status == http.StatusNotFound:
		return errorKeys{"error.404.title", "error.404.text"}
	case status == http.StatusServiceUnavailable:
		return errorKeys{"error.503.title", "error.503.text"}
	case status >= 500:
		return errorKeys{"error.500.title", "error.500.text"}
	}
	return errorKeys{"error.4xx.title", "error.4xx.text"}
}

// NotFound is the 404 page.
func (h *Handlers) NotFound(w http.ResponseWriter, r *http.Request) {
	h.ErrorStatus(w, r, http.StatusNotFound, "")
}

// Forbidden is the 403 page.
func (h *Handlers) Forbidden(w http.ResponseWriter, r *http.Request) {
	h.ErrorStatus(w, r, http.StatusForbidden, "")
}

// confirmed says whether a destructive post carries its ticked confirmation;
// without it the person goes back to back and is told why.
func (h *Handlers) confirmed(w http.ResponseWriter, r *http.Request, back, why string) bool {
	if r.PostFormValue("confirm") == "yes" {
		return true
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: why})
	redirect(w, r, back)
	return false
}

// finish ends a button's post: the outcome as a flash, then back to target. An
// internal error is the error page instead (logged, never shown).
func (h *Handlers) finish(w http.ResponseWriter, r *http.Request, err error, done, target string) {
	switch {
	case err == nil:
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: done})
	case apperr.CodeOf(err) != apperr.Internal:
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: apperr.MessageOf(r.Context(), err, "")})
	default:
		h.Fail(w, r, err)
		return
	}
	redirect(w, r, target)
}

// pageLinks are the next and first pages of a keyset-paged list whose filter
// is vals (without its cursor).
func pageLinks(path string, vals map[string]string, next string) (filter map[string]string, nextURL, firstURL string) {
	filter = map[string]string{}
	for k, x := range vals {
		if k != "after" {
			filter[k] = x
		}
	}
	if next != "" {
		q := map[string]string{"after": next}
		for k, x := range filter {
			q[k] = x
		}
		nextURL = views.QueryURL(path, q)
	}
	if vals["after"] != "" {
		firstURL = views.QueryURL(path, filter)
	}
	return filter, nextURL, firstURL
}
