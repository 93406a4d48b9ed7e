package shopid

import (
	"context"
	netmail "net/mail"
	"net/url"
	"strings"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/upload"
)

// MaxLogoBytes is the most a logo file may have.
const MaxLogoBytes = 2 << 20

// Service keeps the identity a manager sets.
type Service struct {
	db    *storage.DB
	files *upload.Keeper
}

// New is the identity's settings on db.
func New(db *storage.DB) *Service { return &Service{db: db, files: upload.NewKeeper()} }

// Identity reads the shop's identity.
func (s *Service) Identity(ctx context.Context) (storage.ShopIdentity, error) {
	return s.db.ShopIdentity(ctx)
}

// Form is what a manager types.
type Form struct{ Name, Web, ReplyEmail, Phone string }

// Save checks the form and keeps it; its problems are on its fields (name,
// web, reply_email, phone). Every field may be empty.
func (s *Service) Save(ctx context.Context, f Form) error {
	id, problems := check(f)
	if len(problems) > 0 {
		return problems.Err("shopid.err.form")
	}
	return s.db.SaveShopIdentity(ctx, id)
}

func check(f Form) (storage.ShopIdentity, apperr.Problems) {
	p := apperr.Problems{}
	var id storage.ShopIdentity
	var t apperr.Text
	if id.Name, t = textin.Line(f.Name, 100); !t.IsZero() {
		p.Put("name", t)
	}
	if id.Web, t = textin.Line(f.Web, 200); !t.IsZero() {
		p.Put("web", t)
	} else if id.Web != "" && !webAddress(id.Web) {
		p.Add("web", "shopid.err.web")
	}
	if id.ReplyEmail, t = textin.Line(f.ReplyEmail, 200); !t.IsZero() {
		p.Put("reply_email", t)
	} else if a, err := netmail.ParseAddress(id.ReplyEmail); id.ReplyEmail != "" && (err != nil || a.Address != id.ReplyEmail) {
		p.Add("reply_email", "shopid.err.email")
	}
	if phone := strings.TrimSpace(f.Phone); phone != "" {
		if _, t = textin.Phone(phone); !t.IsZero() {
			p.Put("phone", t)
		}
		id.Phone, _ = textin.Line(phone, 40)
	}
	return id, p
}

// webAddress says whether s is a web page's address a customer can open:
// http or https, with a host, nothing that would run.
func webAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// SaveLogo keeps f (spooled by the caller, who removes it) as the logo: a
// PNG or JPEG only, drawn again (upload.Keeper), so nothing but its pixels
// is kept.
func (s *Service) SaveLogo(ctx context.Context, f upload.File) error {
	if f.Type == upload.PDF {
		return apperr.Fields("shopid.err.form", apperr.Problems{"logo": apperr.Msg("shopid.err.logo_type")})
	}
	kept, problem := s.files.Keep(f, "logo")
	if !problem.IsZero() {
		return apperr.Fields("shopid.err.form", apperr.Problems{"logo": problem})
	}
	defer kept.Remove()
	data, err := kept.Bytes()
	if err != nil {
		return err
	}
	return s.db.SaveShopLogo(ctx, data, kept.Type)
}

// RemoveLogo drops the logo.
func (s *Service) RemoveLogo(ctx context.Context) error { return s.db.SaveShopLogo(ctx, nil, "") }

// Logo is the stored logo and its type; none is empty.
func (s *Service) Logo(ctx context.Context) ([]byte, string, error) { return s.db.ShopLogo(ctx) }
