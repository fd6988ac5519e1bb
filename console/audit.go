package console

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/access"
)

// auditView is the operators' audit log page: one page of entries, the filters and their choices.
type auditView struct {
	Filter    access.AuditFilter
	Page      access.AuditPage
	Cursor    string // the page's own cursor; empty on the newest page
	Facets    access.AuditFacets
	Consumers []access.Consumer // the consumer filter's choices
}

// auditPageSize is how many entries a page of the audit log shows.
const auditPageSize = access.DefaultAuditPageSize

// opAudit shows the audit log newest first, a page at a time (?after=<cursor>), filtered by
// consumer, actor and action (a GET form). A filter that is not a number or a page position the
// log did not give out is answered 400 with the unfiltered choices and a message.
func (c *Console) opAudit(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	q := r.URL.Query()
	view := auditView{
		Filter: access.AuditFilter{Actor: strings.TrimSpace(q.Get("actor")), Action: strings.TrimSpace(q.Get("action"))},
		Cursor: q.Get("after"),
	}
	var problem string
	if s := strings.TrimSpace(q.Get("consumer")); s != "" {
		id, err := strconv.Atoi(s)
		if err != nil || id <= 0 {
			problem = "Choose a consumer from the list: “" + s + "” is not one."
		}
		view.Filter.ConsumerID = id
	}
	var err error
	if view.Facets, err = c.deps.Access.AuditFacetsOf(r.Context(), v.actor); err != nil {
		c.fail(w, r, err)
		return
	}
	if view.Consumers, err = c.deps.Access.ListConsumers(r.Context(), v.actor, ""); err != nil {
		c.fail(w, r, err)
		return
	}
	if problem == "" {
		view.Page, err = c.deps.Access.AuditPageOf(r.Context(), v.actor, view.Filter, view.Cursor, auditPageSize)
		if errors.Is(err, access.ErrInvalid) {
			problem = "That page of the audit log does not exist: start again from the newest entries."
		} else if err != nil {
			c.fail(w, r, err)
			return
		}
	}
	p := c.page(r, "Audit log")
	status := http.StatusOK
	if problem != "" {
		p.FlashError = problem
		status = http.StatusBadRequest
		view.Page, view.Cursor = access.AuditPage{}, ""
	}
	c.render(w, r, status, auditPage(p, view))
}

// filtered reports whether any filter is set.
func (v auditView) filtered() bool { return v.Filter != access.AuditFilter{} }

// link is the audit log with the view's filters, after the cursor (empty: from the newest).
func (v auditView) link(after string) string {
	q := url.Values{}
	if v.Filter.ConsumerID != 0 {
		q.Set("consumer", strconv.Itoa(v.Filter.ConsumerID))
	}
	if v.Filter.Actor != "" {
		q.Set("actor", v.Filter.Actor)
	}
	if v.Filter.Action != "" {
		q.Set("action", v.Filter.Action)
	}
	if after != "" {
		q.Set("after", after)
	}
	if len(q) == 0 {
		return "/console/operator/audit"
	}
	return "/console/operator/audit?" + q.Encode()
}

// choices are a filter's options: what exists, and the current value even when it matches nothing.
func choices(have []string, current string) []string {
	if current != "" && !slices.Contains(have, current) {
		return append(slices.Clone(have), current)
	}
	return have
}

// consumerName names an entry's consumer: its current name, or its id when it no longer exists.
func (v auditView) consumerName(id int) string {
	if name, ok := v.Page.Consumers[id]; ok {
		return name
	}
	return "consumer " + strconv.Itoa(id) + " (no longer exists)"
}

// target names what an entry changed: a key by its current name and prefix (or its id when it no
// longer exists), anything else as recorded.
func (v auditView) target(e access.AuditRecord) string {
	id, ok := access.KeyTarget(e.Target)
	if !ok {
		return e.Target
	}
	k, ok := v.Page.Keys[id]
	if !ok {
		return "key " + strconv.Itoa(id) + " (no longer exists)"
	}
	return "key “" + k.Name + "” (" + k.Prefix + "…)"
}
