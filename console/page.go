package console

import (
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
)

// page is what the layout needs on every page.
type page struct {
	Title      string
	User       *viewer
	Path       string
	Notice     string // for information
	Flash      string // done
	FlashWarn  string // done, but mind this
	FlashError string // not done
	CSS, JS    string // asset URLs
	// AccessOff is set on a consumer's pages while its API access is switched off; AccessOffSince
	// is when it was switched off (nil when not recorded).
	AccessOff      bool
	AccessOffSince *time.Time
}

// page builds a page for r, taking its one-time messages from the session.
func (c *Console) page(r *http.Request, title string) page {
	p := c.bare(r, title)
	p.Flash = c.popFlash(r, flashKey)
	p.FlashWarn = c.popFlash(r, flashWarnKey)
	p.FlashError = c.popFlash(r, flashErrorKey)
	c.accessBanner(r, &p)
	return p
}

// accessBanner marks a consumer's page when its API access is off, and since when. A failure to
// read the consumer leaves the banner out (and is logged): the page itself still renders.
func (c *Console) accessBanner(r *http.Request, p *page) {
	v := p.User
	if v == nil || v.Role != roleConsumer || v.ConsumerID == 0 {
		return
	}
	cons, err := c.deps.Access.Consumer(r.Context(), v.actor, v.ConsumerID)
	if err != nil {
		c.log.Warn("read consumer for the access banner", "consumer", v.ConsumerID, "err", err)
		return
	}
	if !cons.AccessEnabled {
		p.AccessOff, p.AccessOffSince = true, cons.AccessChangedAt
	}
}

// bare builds a page without touching the session: for answers given before the session is loaded
// (a refused cross-origin request) or when it cannot be (the session store failing).
func (c *Console) bare(r *http.Request, title string) page {
	return page{Title: title, User: viewerOf(r), Path: r.URL.Path, CSS: c.assets.URL("app.css"), JS: c.assets.URL("app.js")}
}

// Session keys of the one-time messages.
const (
	flashKey      = "flash"
	flashWarnKey  = "flashWarn"
	flashErrorKey = "flashError"
)

func (c *Console) popFlash(r *http.Request, key string) string {
	if !c.sessions.Exists(r.Context(), key) {
		return ""
	}
	return c.sessions.PopString(r.Context(), key)
}

// flash keeps a one-time message for the next page: the change is done.
func (c *Console) flash(r *http.Request, msg string) { c.sessions.Put(r.Context(), flashKey, msg) }

// flashWarn keeps a one-time warning for the next page: done, but something needs attention.
func (c *Console) flashWarn(r *http.Request, msg string) {
	c.sessions.Put(r.Context(), flashWarnKey, msg)
}

// flashError keeps a one-time error message for the next page: nothing was done.
func (c *Console) flashError(r *http.Request, msg string) {
	c.sessions.Put(r.Context(), flashErrorKey, msg)
}

// render writes a component as an HTML page with the given status.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, comp templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := comp.Render(r.Context(), w); err != nil {
		c.log.Warn("render console page", "path", r.URL.Path, "err", err)
	}
}

// pathID reads a positive integer path parameter; anything else is no such page, and it has
// answered 404.
func (c *Console) pathID(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	id, err := strconv.Atoi(chi.URLParam(r, name))
	if err != nil || id <= 0 {
		c.notFound(w, r)
		return 0, false
	}
	return id, true
}

// confirmation is the step before a change that cannot be undone, rendered by the server so that it
// works without JavaScript: a GET shows the question, and its form posts to the same path. Consumers
// and operators confirm with it alike.
type confirmation struct {
	Title       string // the page's title
	Verb        string // the question is "<Verb> name (prefix…)?"
	Consequence string // what happens, in a sentence or two
	Button      string // the confirming button's label
	Cancel      string // where Cancel leads
}

// accessOffDetail is what a consumer whose access is off can and cannot do.
const accessOffDetail = "Every call with your keys is refused with 401 access_disabled. You can still manage keys and read usage here; ask your operator to switch access back on."

// accessOffHeadline says that access is off, and since when if known.
func accessOffHeadline(since *time.Time) string {
	if since == nil {
		return "Your API access is switched off."
	}
	return "Your API access has been switched off since " + when(*since) + "."
}
