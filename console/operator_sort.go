package console

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// consumerSort is the operators' consumer list order: a column and a direction.
type consumerSort struct {
	Column string // one of consumerColumns' keys
	Desc   bool
}

// consumerColumns are the sortable columns: the value compared (numbers before the name).
var consumerColumns = map[string]func(consumerRow) int64{
	"name":   nil,
	"calls":  func(r consumerRow) int64 { return r.Last24h.Calls },
	"units":  func(r consumerRow) int64 { return r.Last24h.Cost },
	"errors": func(r consumerRow) int64 { return r.Last24h.Errors },
	"429":    func(r consumerRow) int64 { return r.Refused24h },
}

// consumerSortOf reads ?sort=&dir= of the consumer list; an unknown column or direction is a
// problem to show, and the list falls back to names A to Z. Numbers sort largest first, names A
// to Z, unless dir says otherwise.
func consumerSortOf(q url.Values) (consumerSort, string) {
	col, dir := q.Get("sort"), q.Get("dir")
	if col == "" {
		col = "name"
	}
	if _, ok := consumerColumns[col]; !ok {
		return consumerSort{Column: "name"}, "The list cannot be sorted by “" + col + "”: choose a column heading."
	}
	s := consumerSort{Column: col, Desc: col != "name"}
	switch dir {
	case "":
	case "asc":
		s.Desc = false
	case "desc":
		s.Desc = true
	default:
		return consumerSort{Column: "name"}, "The sort direction must be asc or desc."
	}
	return s, ""
}

// apply sorts rows; ties go by name, then id, A to Z.
func (s consumerSort) apply(rows []consumerRow) {
	byName := func(a, b consumerRow) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	}
	val := consumerColumns[s.Column]
	slices.SortStableFunc(rows, func(a, b consumerRow) int {
		c := 0
		if val == nil {
			c = byName(a, b)
		} else {
			c = cmp.Compare(val(a), val(b))
		}
		if s.Desc {
			c = -c
		}
		if c == 0 && val != nil {
			c = byName(a, b)
		}
		return c
	})
}

// link is the URL of a column heading: that column, in its first direction, or the other
// direction when it is the current one; the search is kept.
func (s consumerSort) link(q, col string) string {
	next := consumerSort{Column: col, Desc: col != "name"}
	if s.Column == col {
		next.Desc = !s.Desc
	}
	v := url.Values{"sort": {col}, "dir": {"asc"}}
	if next.Desc {
		v.Set("dir", "desc")
	}
	if q != "" {
		v.Set("q", q)
	}
	return "/console/operator/consumers?" + v.Encode()
}

// ariaSort is a column heading's aria-sort: ascending, descending or none.
func (s consumerSort) ariaSort(col string) string {
	switch {
	case s.Column != col:
		return "none"
	case s.Desc:
		return "descending"
	default:
		return "ascending"
	}
}

// arrow marks the current column's direction next to its heading (aria-sort says it to screen readers).
func (s consumerSort) arrow(col string) string {
	switch {
	case s.Column != col:
		return ""
	case s.Desc:
		return "↓"
	default:
		return "↑"
	}
}

// sortDir is the dir parameter of a direction.
func sortDir(desc bool) string {
	if desc {
		return "desc"
	}
	return "asc"
}

// sortClass is a sortable heading's class: num for numbers (right-aligned), sort otherwise.
func sortClass(numeric bool) string {
	if numeric {
		return "num"
	}
	return "sort"
}

// sortColumns are the sortable columns in page order, with their headings.
var sortColumns = []struct{ key, label string }{
	{"name", "Consumer"}, {"calls", "Calls 24 h"}, {"units", "Units 24 h"}, {"errors", "Errors 24 h"}, {"429", "429s 24 h"},
}
