package staff

import (
	"context"
	"crypto/rand"
	"fmt"

	"shipdesk/apperr"
	"shipdesk/identity"
	"shipdesk/storage"
)

// Users lists every account.
func (s *Service) Users(ctx context.Context) ([]storage.User, error) { return s.db.ListUsers(ctx) }

// AddUser creates an account after checking the username and password rules.
func (s *Service) AddUser(ctx context.Context, by Actor, username string, role identity.Role, password string) (storage.User, error) {
	username = NormalizeUsername(username)
	fields := apperr.Problems{}
	if err := checkUsername(username); err != nil {
		fields.Put("username", apperr.ProblemsOf(err)["username"])
	}
	if _, err := identity.ParseRole(string(role)); err != nil {
		fields.Add("role", "staff.role")
	}
	if err := CheckPasswordRules(password); err != nil {
		fields.Put("password", apperr.ProblemsOf(err)["password"])
	}
	if len(fields) > 0 {
		return storage.User{}, apperr.Fields("users.fix", fields)
	}
	hash, err := s.hash.hash(password)
	if err != nil {
		return storage.User{}, err
	}
	var u storage.User
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		var err error
		if u, err = tx.CreateUser(ctx, username, role, hash); err != nil {
			if apperr.Is(err, apperr.Conflict) {
				return apperr.Fields("staff.username_other", apperr.Problems{"username": apperr.Msg("staff.username_taken")})
			}
			return err
		}
		return tx.Audit(ctx, by.ID, by.Name, "user added", username, map[string]any{"role": role}, by.Address)
	})
	return u, err
}

// SetPassword replaces a password (a reset by a manager, or from the terminal) and
// ends the account's sessions, so a leaked session does not outlive the reset.
func (s *Service) SetPassword(ctx context.Context, by Actor, userID int64, password string) error {
	if err := CheckPasswordRules(password); err != nil {
		return err
	}
	hash, err := s.hash.hash(password)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		if err := tx.SetPasswordHash(ctx, userID, hash); err != nil {
			return err
		}
		if err := tx.RevokeUserSessions(ctx, userID); err != nil {
			return err
		}
		return tx.Audit(ctx, by.ID, by.Name, "password reset", u.Username, nil, by.Address)
	})
}

// SetDisabled disables an account (ending its sessions) or enables it again. The
// last active manager cannot be disabled: nobody could manage staff afterwards.
// Once a disable is committed, no instance accepts the account's sessions.
func (s *Service) SetDisabled(ctx context.Context, by Actor, userID int64, disabled bool) error {
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		if disabled && by.ID != nil && *by.ID == userID {
			return apperr.New(apperr.Conflict, "staff.self_disable")
		}
		if disabled && u.Role == identity.Manager && !u.Disabled() {
			n, err := tx.ActiveManagers(ctx)
			if err != nil {
				return err
			}
			if n <= 1 {
				return apperr.New(apperr.Conflict, "staff.last_manager", u.Username)
			}
		}
		if err := tx.SetDisabled(ctx, userID, disabled); err != nil {
			return err
		}
		action := "user enabled"
		if disabled {
			action = "user disabled"
			if err := tx.RevokeUserSessions(ctx, userID); err != nil {
				return err
			}
		}
		return tx.Audit(ctx, by.ID, by.Name, action, u.Username, nil, by.Address)
	})
}

// UserID resolves a username for the command line.
func (s *Service) UserID(ctx context.Context, username string) (int64, error) {
	u, err := s.db.UserByUsername(ctx, NormalizeUsername(username))
	if err != nil {
		return 0, err
	}
	return u.ID, nil
}

// RandomPassword makes a password for demo accounts: 16 characters from an
// alphabet without look-alikes.
func RandomPassword() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random password: %w", err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}

// DemoUser is a seeded account and its password (empty when it existed already).
type DemoUser struct {
	Username string
	Role     identity.Role
	Password string
}

// SeedDemo creates one account per role (clerk, agent, manager) with random
// passwords, unless they exist. The passwords are returned to be printed once.
func (s *Service) SeedDemo(ctx context.Context) ([]DemoUser, error) {
	var out []DemoUser
	for _, role := range identity.Roles {
		name := string(role)
		if _, err := s.db.UserByUsername(ctx, name); err == nil {
			out = append(out, DemoUser{Username: name, Role: role})
			continue
		} else if !apperr.Is(err, apperr.NotFound) {
			return nil, err
		}
		pw, err := RandomPassword()
		if err != nil {
			return nil, err
		}
		if _, err := s.AddUser(ctx, Actor{Name: "seed"}, name, role, pw); err != nil {
			return nil, fmt.Errorf("seed demo user %s: %w", name, err)
		}
		out = append(out, DemoUser{Username: name, Role: role, Password: pw})
	}
	return out, nil
}
