package views

import (
	"strconv"

	"shipdesk/identity"
)

// mayEditRules says whether the staff member edits the offer rules: managers,
// as the route guards them (with the Connection area).
func mayEditRules(s *identity.Staff) bool { return s != nil && s.Role.May(identity.Connection) }

// RuleRow is one of the managers' rules as the list shows it: its place, its
// conditions and its choice in words.
type RuleRow struct {
	ID          int64
	Place       int // 1 for the rule tried first
	Name        string
	Conditions  []string
	Choice      string
	First, Last bool
}

// RulesPage is the managers' list of rules and the form of a new or edited rule.
type RulesPage struct {
	Rows      []RuleRow
	Form      Form
	EditID    int64           // the rule the form edits; 0: a new one
	EditName  string          // its name as stored
	Action    string          // where the form posts
	Countries []Option        // the shop's destinations
	Carriers  []Option        // the carrier table
	Ticked    map[string]bool // "countries:CZ", "carriers:PPL": the boxes ticked
}

// IsTicked says whether a box of a list is ticked.
func (p RulesPage) IsTicked(list, value string) bool { return p.Ticked[list+":"+value] }

// RulePath is the page of one rule (its form); its actions are under it.
func RulePath(id int64) string { return "/shipping/rules/" + strconv.FormatInt(id, 10) }
