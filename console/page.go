package console

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
)

// page is what the layout needs on every page.
type page struct {
	Title      string
	User       *viewer
	Path       string
	Flash      string
	FlashError string
	CSS, JS    string // asset URLs
}

// page builds a page for r, taking its one-time messages.
func (c *Console) page(r *http.Request, title string) page {
	p := page{Title: title, User: viewerOf(r), Path: r.URL.Path, CSS: c.assets.URL("app.css"), JS: c.assets.URL("app.js")}
	if c.sessions.Exists(r.Context(), "flash") {
		p.Flash = c.sessions.PopString(r.Context(), "flash")
	}
	if c.sessions.Exists(r.Context(), "flashError") {
		p.FlashError = c.sessions.PopString(r.Context(), "flashError")
	}
	return p
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
