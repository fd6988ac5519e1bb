package console

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// Endpoint is one API operation an operator can switch off per consumer, as the plan form shows it.
type Endpoint struct {
	ID     string // operation id, e.g. "getTrending"
	Scope  string // the scope it requires, e.g. "market:read"
	Method string // e.g. "GET"
	Path   string // e.g. "/v1/markets/trending"
}

// endpointGroup is the endpoints of one scope.
type endpointGroup struct {
	Scope     string // empty: operations the console knows no scope of
	Endpoints []Endpoint
}

// otherGroup names the group of operations without a known scope.
const otherGroup = "other"

// label is the group's heading.
func (g endpointGroup) label() string {
	if g.Scope == "" {
		return "Other operations"
	}
	return "Scope " + g.Scope
}

// value is the group's form value in disabled_group.
func (g endpointGroup) value() string {
	if g.Scope == "" {
		return otherGroup
	}
	return g.Scope
}

// endpointGroups groups the console's operations by scope (scopes in alphabetical order, the other
// operations last; within a group by path, then method). Every operation id of Deps.Operations is
// in a group, described by Deps.Endpoints when it is there.
func (c *Console) endpointGroups() []endpointGroup {
	byID := map[string]Endpoint{}
	for _, e := range c.deps.Endpoints {
		byID[e.ID] = e
	}
	ids := slices.Clone(c.deps.Operations)
	for _, e := range c.deps.Endpoints {
		if !slices.Contains(ids, e.ID) {
			ids = append(ids, e.ID)
		}
	}
	groups := map[string]*endpointGroup{}
	for _, id := range ids {
		e, ok := byID[id]
		if !ok {
			e = Endpoint{ID: id}
		}
		g := groups[e.Scope]
		if g == nil {
			g = &endpointGroup{Scope: e.Scope}
			groups[e.Scope] = g
		}
		g.Endpoints = append(g.Endpoints, e)
	}
	out := make([]endpointGroup, 0, len(groups))
	for _, g := range groups {
		slices.SortFunc(g.Endpoints, func(a, b Endpoint) int {
			return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Method, b.Method), cmp.Compare(a.ID, b.ID))
		})
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b endpointGroup) int {
		if (a.Scope == "") != (b.Scope == "") {
			if a.Scope == "" {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Scope, b.Scope)
	})
	return out
}

// withGroups adds to the switched-off operations every operation of each group selected with
// "select the whole group" (form field disabled_group, which works without JavaScript). It returns
// the groups that do not exist.
func withGroups(disabled, selected []string, groups []endpointGroup) ([]string, []string) {
	out := slices.Clone(disabled)
	var unknown []string
	for _, s := range selected {
		i := slices.IndexFunc(groups, func(g endpointGroup) bool { return g.value() == s })
		if i < 0 {
			unknown = append(unknown, s)
			continue
		}
		for _, e := range groups[i].Endpoints {
			if !slices.Contains(out, e.ID) {
				out = append(out, e.ID)
			}
		}
	}
	return out, unknown
}

// disabledOf reads the switched-off operations of a plan form, whole groups included, and a
// problem naming a group that does not exist ("" when none).
func (c *Console) disabledOf(f url.Values) ([]string, string) {
	disabled, unknown := withGroups(f["disabled"], f["disabled_group"], c.endpointGroups())
	if len(unknown) > 0 {
		return disabled, "There is no group of endpoints called " + strings.Join(unknown, ", ") + "."
	}
	return disabled, ""
}
