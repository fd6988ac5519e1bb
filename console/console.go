// Package console is the web console: consumers manage their keys and see 30 days of usage;
// operators switch access, negotiate limits and read the audit log. Pages are templ components
// rendered on the server; they work without JavaScript.
package console

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/web"
)

// Session lifetimes.
const (
	sessionIdle     = 30 * time.Minute
	sessionAbsolute = 12 * time.Hour
)

// Deps is what the console needs.
type Deps struct {
	Access *access.Service
	Usage  *metering.UsageStore
	DB     *ent.Client // sessions
	// Applied runs after every change so it takes effect on this replica's API at once.
	Applied func(context.Context) error
	// Operations are the operation ids an operator can switch off per consumer.
	Operations []string
	// Endpoints describe operations (scope, method, path) so that the plan form groups them by scope;
	// an operation of Operations without one is listed under "Other operations".
	Endpoints []Endpoint
	// PublicURL is the console's base URL in links handed to people (set-password links); empty:
	// the request's own host.
	PublicURL string
	// UsageStats reports this replica's usage recorder (metering.Recorder.Stats): the operators'
	// consumer list shows what it wrote, holds and shed since the replica started. Nil leaves it out.
	UsageStats func() metering.Stats
	// InsecureCookies drops the Secure attribute, for plain-HTTP deployments other than localhost.
	InsecureCookies bool
	Logger          *slog.Logger
	Now             func() time.Time

	// OperatorTwoFactor requires operators to sign in with two factors: an operator without
	// them is sent to enrol before any other page.
	OperatorTwoFactor bool
}

// Console serves /console and /static.
type Console struct {
	deps     Deps
	log      *slog.Logger
	sessions *scs.SessionManager
	store    *sessionStore
	assets   *web.Assets
	router   chi.Router
	now      func() time.Time
}

// New builds the console.
func New(d Deps) *Console {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	c := &Console{deps: d, log: d.Logger, assets: web.New(), now: d.Now}
	c.store = &sessionStore{db: d.DB, now: d.Now}
	c.sessions = scs.New()
	c.sessions.Store = c.store
	c.sessions.HashTokenInStore = true // a database dump holds no usable session token
	c.sessions.IdleTimeout = sessionIdle
	c.sessions.Lifetime = sessionAbsolute
	c.sessions.Cookie.Name = "partner_console"
	c.sessions.Cookie.HttpOnly = true
	c.sessions.Cookie.SameSite = http.SameSiteLaxMode
	c.sessions.Cookie.Secure = !d.InsecureCookies
	c.sessions.Cookie.Path = "/console"
	c.sessions.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		c.log.Error("console session", "err", err)
		c.render(w, r, http.StatusServiceUnavailable, errorPage(c.bare(r, "Temporarily unavailable"),
			"The console is temporarily unavailable. Please try again in a moment."))
	}
	c.routes()
	return c
}

// Mount adds the console's routes to a router: /console/... and /static/..., and / redirecting to /console/.
// Owns tells the requests they serve.
func (c *Console) Mount(r chi.Router) {
	r.Get("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/console/", http.StatusFound) })
	r.Handle(web.Prefix+"*", c.assets)
	r.Mount("/console", c.router)
}

// Owns reports whether r is for the routes Mount adds (/, /console and below, the assets under
// web.Prefix), by the path a router matches: the escaped one when the URL has it. A server that
// serves the console beside another handler routes each request once, by this.
func Owns(r *http.Request) bool {
	path := cmp.Or(r.URL.RawPath, r.URL.Path)
	return path == "/" || path == "/console" || strings.HasPrefix(path, "/console/") || strings.HasPrefix(path, web.Prefix)
}

// SweepSessions deletes expired sessions; the server runs it periodically.
func (c *Console) SweepSessions(ctx context.Context) (int, error) { return c.store.sweep(ctx) }

func (c *Console) routes() {
	r := chi.NewRouter()
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(c.crossOrigin))
	r.Use(securityHeaders, csrf.Handler, c.sessions.LoadAndSave, c.loadUser)
	r.NotFound(c.notFound)
	r.Get("/", c.home)
	r.Get("/login", c.loginForm)
	r.Post("/login", c.login)
	r.Post("/logout", c.logout)
	r.Get("/set-password/{token}", c.setPasswordForm)
	r.Post("/set-password/{token}", c.setPassword)

	c.accountRoutes(r)

	r.Group(func(r chi.Router) {
		r.Use(c.require(roleConsumer))
		r.Get("/usage", c.usage)
		r.Get("/usage.csv", c.usageCSV)
		r.Get("/plan", c.plan)
		c.logRoutes(r)
		r.Group(func(r chi.Router) {
			r.Use(c.requireTeam(teamDeveloper))
			c.keyRoutes(r)
		})
		r.Group(func(r chi.Router) {
			r.Use(c.requireTeam(teamOwner))
			c.teamRoutes(r)
		})
	})
	r.Route("/operator", func(r chi.Router) {
		r.Use(c.require(roleOperator))
		r.Get("/", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/console/operator/consumers", http.StatusFound)
		})
		r.Get("/consumers", c.opConsumers)
		r.Get("/consumers/new", c.opNewConsumerForm)
		r.Post("/consumers", c.opCreateConsumer)
		r.Get("/consumers/{id}", c.opConsumer)
		r.Post("/consumers/{id}", c.opUpdateConsumer)
		r.Post("/consumers/{id}/access", c.opSetAccess)
		r.Get("/consumers/{id}/keys/{keyID}/revoke", c.opRevokeForm)
		r.Post("/consumers/{id}/keys/{keyID}/revoke", c.opRevokeKey)
		r.Post("/consumers/{id}/users", c.opCreateUser)
		r.Get("/consumers/{id}/usage", c.opUsage)
		r.Get("/consumers/{id}/usage.csv", c.opUsageCSV)
		r.Get("/audit", c.opAudit)
		c.opLogRoutes(r)
		c.opTeamRoutes(r)
	})
	c.router = r
}

// contentSecurityPolicy allows only the console's own assets: no inline script or style.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// securityHeaders sets the headers every console response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// applied makes a change take effect on this replica at once.
func (c *Console) applied(ctx context.Context) {
	if c.deps.Applied == nil {
		return
	}
	if err := c.deps.Applied(ctx); err != nil {
		c.log.Warn("apply console change", "err", err)
	}
}

// fail answers an error from the domain: not found is 404; anything unexpected is logged and 500.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, access.ErrNotFound) {
		c.notFound(w, r)
		return
	}
	c.log.Error("console", "path", r.URL.Path, "err", err)
	c.render(w, r, http.StatusInternalServerError, errorPage(c.page(r, "Something went wrong"), "Something went wrong on our side. Please try again."))
}

// crossOrigin answers a state-changing request that came from another site (refused by
// http.CrossOriginProtection before the session is loaded, so the page shows no user).
func (c *Console) crossOrigin(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusForbidden, errorPage(c.bare(r, "Request refused"),
		"This form was sent from another website, so nothing was changed: the console accepts changes only from its own pages, "+
			"to protect your account. If you meant to make this change, go back to the console, reload the page and try again."))
}

func (c *Console) notFound(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, http.StatusNotFound, errorPage(c.page(r, "Not found"), "There is nothing here."))
}
