package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/attention"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// AttentionQueue is the "needs attention" queue (attention.Queue).
type AttentionQueue interface {
	Now() time.Time
	Items(ctx context.Context, st *identity.Staff, v attention.View) ([]storage.AttentionItem, error)
	Summary(ctx context.Context, st *identity.Staff) ([]storage.AttentionItem, error)
	Take(ctx context.Context, st *identity.Staff, k attention.Key, to string) error
	Note(ctx context.Context, st *identity.Staff, k attention.Key, text string) error
	Dismiss(ctx context.Context, st *identity.Staff, k attention.Key, reason, text string) error
	Restore(ctx context.Context, st *identity.Staff, k attention.Key) error
}

// attentionView reads the page's filter; a value that is none of the
// choices is refused (false).
func attentionView(q map[string][]string, role identity.Role) (attention.View, bool) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	v := attention.View{Kind: get("kind"), Who: get("who"), Show: get("show")}
	if v.Who == "" {
		v.Who = storage.AttnEveryone
	}
	if v.Show == "" {
		v.Show = storage.AttnOpen
	}
	ok := (v.Kind == "" || slices.Contains(attention.KindsFor(role), v.Kind)) &&
		slices.Contains([]string{storage.AttnEveryone, storage.AttnMine, storage.AttnUnassigned}, v.Who) &&
		slices.Contains([]string{storage.AttnOpen, storage.AttnDismissed}, v.Show)
	return v, ok
}

// Attention is the queue of what needs a person, for every staff role: the
// kinds of the role's areas, filtered by kind, by whose, open or dismissed.
func (h *Handlers) Attention(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st := identity.From(ctx)
	v, ok := attentionView(r.URL.Query(), st.Role)
	if !ok {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "attn.err.filter"))
		return
	}
	items, err := h.Queue.Items(ctx, st, v)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	now := h.Queue.Now()
	m := views.AttentionPage{Kind: v.Kind, Who: v.Who, Show: v.Show, Manager: st.Role == identity.Manager, Me: st.ID,
		Full: len(items) >= storage.AttentionLimit}
	for _, k := range attention.KindsFor(st.Role) {
		m.Kinds = append(m.Kinds, views.Option{Value: k, Label: i18n.T(ctx, "attn.kind."+k)})
	}
	for _, reason := range attention.DismissReasons {
		m.Reasons = append(m.Reasons, views.Option{Value: reason, Label: i18n.T(ctx, "attn.reason."+reason)})
	}
	if m.Manager {
		users, err := h.Staff.Users(ctx)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		for _, u := range users {
			if !u.Disabled() && u.ID != st.ID {
				m.People = append(m.People, views.Option{Value: strconv.FormatInt(u.ID, 10), Label: u.Username})
			}
		}
	}
	names := h.carrierNames(ctx)
	for _, it := range items {
		m.Rows = append(m.Rows, attentionRow(ctx, it, now, st, names))
	}
	h.render(w, r, http.StatusOK, views.Attention(h.page(w, r, i18n.T(ctx, "attn.title"), identity.Attention), m))
}

// attentionKey is the item a post is about.
func attentionKey(r *http.Request) attention.Key {
	return attention.Key{Kind: r.PostFormValue("kind"), Record: r.PostFormValue("record"), Occurrence: r.PostFormValue("occurrence")}
}

// attentionBack is where a post returns: the queue's page with the filter
// it was sent from.
func attentionBack(r *http.Request) string {
	back := httpx.LocalPath(r.PostFormValue("back"))
	if back != "/attention" && !strings.HasPrefix(back, "/attention?") {
		return "/attention"
	}
	return back
}

// TakeAttention gives an item to the poster (or, for a manager, to the
// person chosen).
func (h *Handlers) TakeAttention(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	err := h.Queue.Take(ctx, identity.From(ctx), attentionKey(r), r.PostFormValue("to"))
	h.finish(w, r, err, i18n.T(ctx, "attn.taken"), attentionBack(r))
}

// NoteAttention adds a note to an item.
func (h *Handlers) NoteAttention(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	err := h.Queue.Note(ctx, identity.From(ctx), attentionKey(r), r.PostFormValue("text"))
	h.finish(w, r, err, i18n.T(ctx, "attn.noted"), attentionBack(r))
}

// DismissAttention hides an item with a reason until its problem recurs.
func (h *Handlers) DismissAttention(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	err := h.Queue.Dismiss(ctx, identity.From(ctx), attentionKey(r), r.PostFormValue("reason"), r.PostFormValue("reason_text"))
	h.finish(w, r, err, i18n.T(ctx, "attn.dismissed"), attentionBack(r))
}

// RestoreAttention brings a dismissed item back into the open queue.
func (h *Handlers) RestoreAttention(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	err := h.Queue.Restore(ctx, identity.From(ctx), attentionKey(r))
	h.finish(w, r, err, i18n.T(ctx, "attn.restored"), attentionBack(r))
}
