// Package identity describes who is signed in: the staff member, their role and what
// each role may use. Handlers, views and the router all ask it, so the navigation
// and the route guards can never disagree.
package identity

import (
	"context"
	"fmt"
)

// Role is a staff role.
type Role string

const (
	Clerk   Role = "clerk"   // warehouse: shipping and tracking
	Agent   Role = "agent"   // returns desk: commissions
	Manager Role = "manager" // everything, reports and staff
)

// Roles lists every role in display order.
var Roles = []Role{Clerk, Agent, Manager}

// ParseRole accepts a role name.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown role %q (want clerk, agent or manager)", s)
}

// Area is a part of the dashboard with its own navigation entry.
type Area string

const (
	Shipping Area = "shipping"
	Tracking Area = "tracking"
	Returns  Area = "returns"
	Reports  Area = "reports"
	Users    Area = "users"
	// Connection is the state of the link to the shipping service.
	Connection Area = "connection"
	// Attention is the queue of what needs a person; each role sees the
	// kinds of its own areas there.
	Attention Area = "attention"
)

// Areas lists every area in navigation order.
var Areas = []Area{Shipping, Tracking, Returns, Attention, Reports, Users, Connection}

// areaRoles says which roles may use each area.
var areaRoles = map[Area][]Role{
	Shipping:   {Clerk, Manager},
	Tracking:   {Clerk, Manager},
	Returns:    {Agent, Manager},
	Reports:    {Manager},
	Users:      {Manager},
	Connection: {Manager},
	Attention:  {Clerk, Agent, Manager},
}

// RolesFor returns the roles allowed in an area.
func RolesFor(a Area) []Role { return areaRoles[a] }

// May reports whether role r may use area a.
func (r Role) May(a Area) bool {
	for _, allowed := range areaRoles[a] {
		if allowed == r {
			return true
		}
	}
	return false
}

// Staff is the signed-in person.
type Staff struct {
	ID       int64
	Username string
	Role     Role
	Lang     string // the language saved with the account; "" for the installation's default
}

// ContextKey is the context key of the signed-in staff member (With); the
// web server's request state answers it itself.
type ContextKey struct{}

// With returns ctx carrying the signed-in staff member.
func With(ctx context.Context, s *Staff) context.Context {
	return context.WithValue(ctx, ContextKey{}, s)
}

// From returns the signed-in staff member, or nil for an anonymous request.
func From(ctx context.Context) *Staff {
	s, _ := ctx.Value(ContextKey{}).(*Staff)
	return s
}
