package console

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
)

// route is a console route behind sign-in, as chi knows it (relative to /console).
type route struct {
	method, pattern, role string
}

// protectedRoutes is every console route that needs a signed-in user. TestRouteTablesComplete
// fails when the router has one this list lacks.
var protectedRoutes = []route{
	{"GET", "/keys", roleConsumer},
	{"POST", "/keys", roleConsumer},
	{"GET", "/keys/issued", roleConsumer},
	{"POST", "/keys/{id}/rename", roleConsumer},
	{"GET", "/keys/{id}/rotate", roleConsumer},
	{"POST", "/keys/{id}/rotate", roleConsumer},
	{"GET", "/keys/{id}/revoke", roleConsumer},
	{"POST", "/keys/{id}/revoke", roleConsumer},
	{"GET", "/keys/{id}/end-grace", roleConsumer},
	{"POST", "/keys/{id}/end-grace", roleConsumer},
	{"GET", "/usage", roleConsumer},
	{"GET", "/usage.csv", roleConsumer},
	{"GET", "/plan", roleConsumer},
	{"GET", "/log", roleConsumer},
	{"GET", "/log.csv", roleConsumer},
	{"GET", "/log/{requestID}", roleConsumer},
	{"GET", "/operator/", roleOperator},
	{"GET", "/operator/consumers", roleOperator},
	{"GET", "/operator/consumers/new", roleOperator},
	{"POST", "/operator/consumers", roleOperator},
	{"GET", "/operator/consumers/{id}", roleOperator},
	{"POST", "/operator/consumers/{id}", roleOperator},
	{"POST", "/operator/consumers/{id}/access", roleOperator},
	{"GET", "/operator/consumers/{id}/keys/{keyID}/revoke", roleOperator},
	{"POST", "/operator/consumers/{id}/keys/{keyID}/revoke", roleOperator},
	{"POST", "/operator/consumers/{id}/users", roleOperator},
	{"GET", "/operator/consumers/{id}/usage", roleOperator},
	{"GET", "/operator/consumers/{id}/usage.csv", roleOperator},
	{"GET", "/operator/audit", roleOperator},
	{"GET", "/operator/consumers/{id}/log", roleOperator},
	{"GET", "/operator/consumers/{id}/log.csv", roleOperator},
	{"GET", "/operator/consumers/{id}/log/{requestID}", roleOperator},
	// Teams and sign-in (part D): the team pages are the consumer owners' and the operators';
	// the account pages are every signed-in user's (roleAny).
	{"GET", "/team", roleConsumer},
	{"POST", "/team/invite", roleConsumer},
	{"POST", "/team/{userID}/role", roleConsumer},
	{"GET", "/team/{userID}/remove", roleConsumer},
	{"POST", "/team/{userID}/remove", roleConsumer},
	{"POST", "/team/{userID}/resend", roleConsumer},
	{"GET", "/operator/consumers/{id}/team", roleOperator},
	{"POST", "/operator/consumers/{id}/team/invite", roleOperator},
	{"POST", "/operator/consumers/{id}/team/{userID}/role", roleOperator},
	{"GET", "/operator/consumers/{id}/team/{userID}/remove", roleOperator},
	{"POST", "/operator/consumers/{id}/team/{userID}/remove", roleOperator},
	{"POST", "/operator/consumers/{id}/team/{userID}/resend", roleOperator},
	{"GET", "/account", roleAny},
	{"POST", "/account/password", roleAny},
	{"GET", "/account/2fa", roleAny},
	{"POST", "/account/2fa", roleAny},
	{"POST", "/account/2fa/off", roleAny},
	{"POST", "/account/2fa/recovery-codes", roleAny},
	{"POST", "/account/sessions/end-others", roleAny},
	{"POST", "/account/sessions/{handle}/end", roleAny},
}

// roleAny marks a route every signed-in user may open, whatever the role.
const roleAny = "any"

// publicRoutes need no session.
var publicRoutes = []route{
	{"GET", "/", ""},
	{"GET", "/login", ""},
	{"POST", "/login", ""},
	{"POST", "/logout", ""},
	{"GET", "/set-password/{token}", ""},
	{"POST", "/set-password/{token}", ""},
	{"GET", "/login/code", ""},
	{"POST", "/login/code", ""},
}

// isolationRoutes is every consumer route that takes an id: each is tried with another tenant's key.
var isolationRoutes = []struct {
	method, pattern string
	form            url.Values
}{
	{"GET", "/keys/{id}/rotate", nil},
	{"POST", "/keys/{id}/rotate", url.Values{"grace": {"1h"}}},
	{"GET", "/keys/{id}/revoke", nil},
	{"POST", "/keys/{id}/revoke", nil},
	{"POST", "/keys/{id}/rename", url.Values{"name": {"taken over"}}},
	{"GET", "/keys/{id}/end-grace", nil},
	{"POST", "/keys/{id}/end-grace", nil},
	{"GET", "/usage?key={id}", nil}, // the key id is a query parameter
	{"GET", "/usage.csv?key={id}", nil},
}

// validForms are forms that would change something if the route let the request through.
var validForms = map[string]url.Values{
	"POST /keys":                                       {"name": {"intruder"}},
	"POST /keys/{id}/rename":                           {"name": {"intruder"}},
	"POST /keys/{id}/rotate":                           {"grace": {"0"}},
	"POST /operator/consumers":                         {"name": {"Intruder Ltd"}, "rpm": {"5"}, "burst": {"5"}, "enabled": {"on"}},
	"POST /operator/consumers/{id}":                    {"name": {"Renamed"}, "rpm": {"1"}, "burst": {"1"}},
	"POST /operator/consumers/{id}/access":             {"access": {"off"}, "reason": {"intrusion"}},
	"POST /operator/consumers/{id}/users":              {"email": {"intruder@example.com"}},
	"POST /team/invite":                                {"email": {"intruder@example.com"}, "role": {"owner"}},
	"POST /team/{userID}/role":                         {"role": {"owner"}},
	"POST /operator/consumers/{id}/team/invite":        {"email": {"intruder@example.com"}, "role": {"owner"}},
	"POST /operator/consumers/{id}/team/{userID}/role": {"role": {"owner"}},
	"POST /account/password":                           {"current": {password}, "password": {"intruder password"}, "confirm": {"intruder password"}},
}

// fill puts ids into a route pattern.
func fill(pattern string, id, keyID int) string {
	p := strings.ReplaceAll(pattern, "{keyID}", strconv.Itoa(keyID))
	p = strings.NewReplacer("{userID}", "1", "{handle}", "AAAAAAAAAAAAAAAA", "{requestID}", "req_0").Replace(p)
	return "/console" + strings.ReplaceAll(p, "{id}", strconv.Itoa(id))
}

func TestRouteTablesComplete(t *testing.T) {
	h := newHarness(t)
	known := map[string]bool{}
	for _, r := range slices.Concat(protectedRoutes, publicRoutes) {
		known[r.method+" "+r.pattern] = true
	}
	isolated := map[string]bool{}
	for _, r := range isolationRoutes {
		isolated[r.method+" "+strings.Split(r.pattern, "?")[0]] = true
	}
	err := chi.Walk(h.c.router, func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		pattern = strings.ReplaceAll(pattern, "/*/", "/")
		if !known[method+" "+pattern] {
			t.Errorf("route %s %s is in no test table", method, pattern)
		}
		if strings.HasPrefix(pattern, "/keys/{") && !isolated[method+" "+pattern] {
			t.Errorf("route %s %s takes a key id but has no tenant isolation test", method, pattern)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tenants is two consumers, each with a user and a key, and an operator.
type tenants struct {
	h            *harness
	a, b         access.Consumer
	keyA, keyB   access.IssuedKey
	userA, userB string
	operator     string
}

const password = "correct horse battery"

func newTenants(t *testing.T, opts ...harnessOpt) *tenants {
	h := newHarness(t, opts...)
	tn := &tenants{h: h, userA: "alice@a.example", userB: "bob@b.example", operator: "ops@example.com"}
	tn.a, tn.b = h.consumer("Acme"), h.consumer("Bobco")
	tn.keyA, tn.keyB = h.key(tn.a.ID, "acme prod"), h.key(tn.b.ID, "bobco prod")
	h.consumerUser(tn.a.ID, tn.userA, password)
	h.consumerUser(tn.b.ID, tn.userB, password)
	h.operatorUser(tn.operator, password)
	return tn
}

// snapshot is everything a refused request must leave as it was.
type snapshot struct {
	revision   int
	applied    int64
	keysA      []access.KeyInfo
	keysB      []access.KeyInfo
	consA      access.Consumer
	consB      access.Consumer
	consumers  int
	consoleUsr int
}

func (tn *tenants) snapshot(t *testing.T) snapshot {
	t.Helper()
	ctx := context.Background()
	rev, err := tn.h.acc.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list, err := tn.h.acc.ListConsumers(ctx, operatorActor, "")
	if err != nil {
		t.Fatal(err)
	}
	users, err := tn.h.acc.ListUsers(ctx, operatorActor, 0)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{revision: rev, applied: tn.h.applied.Load(), keysA: tn.h.keys(tn.a.ID), keysB: tn.h.keys(tn.b.ID),
		consA: tn.h.consumerNow(tn.a.ID), consB: tn.h.consumerNow(tn.b.ID), consumers: len(list), consoleUsr: len(users)}
}

func (tn *tenants) wantUnchanged(t *testing.T, before snapshot, what string) {
	t.Helper()
	if after := tn.snapshot(t); !reflect.DeepEqual(before, after) {
		t.Errorf("%s changed state:\nbefore %+v\nafter  %+v", what, before, after)
	}
}

func TestTenantIsolationConsumerRoutes(t *testing.T) {
	tn := newTenants(t)
	alice := tn.h.signedIn(tn.userA, password)
	// Alice's own key works on the same routes, so a 404 below is about the tenant, not the route.
	wantStatus(t, alice.get(fill("/keys/{id}/rotate", tn.keyA.ID, 0)), http.StatusOK)
	wantStatus(t, alice.get("/console/usage?key="+strconv.Itoa(tn.keyA.ID)), http.StatusOK)

	for _, rt := range isolationRoutes {
		t.Run(rt.method+" "+rt.pattern, func(t *testing.T) {
			before := tn.snapshot(t)
			r := alice.request(rt.method, fill(rt.pattern, tn.keyB.ID, 0), rt.form)
			wantStatus(t, r, http.StatusNotFound)
			wantNotContains(t, r.body, tn.keyB.Prefix, tn.keyB.Name, "Bobco")
			tn.wantUnchanged(t, before, rt.method+" "+rt.pattern)
		})
	}
	// Ids that are no key at all are no different.
	for _, id := range []string{"999999", "0", "-1", "abc"} {
		r := alice.get("/console/keys/" + id + "/rotate")
		wantStatus(t, r, http.StatusNotFound)
	}
}

func TestTenantIsolationOperatorRoutes(t *testing.T) {
	tn := newTenants(t)
	ops := tn.h.signedIn(tn.operator, password)

	t.Run("revoke another consumer's key", func(t *testing.T) {
		before := tn.snapshot(t)
		r := ops.post(fill("/operator/consumers/{id}/keys/{keyID}/revoke", tn.a.ID, tn.keyB.ID), nil)
		wantStatus(t, r, http.StatusNotFound)
		tn.wantUnchanged(t, before, "revoking B's key under A")
		if k := tn.h.keyInfo(tn.b.ID, tn.keyB.ID); k.Status != access.KeyActive {
			t.Errorf("B's key is %s", k.Status)
		}
	})
	t.Run("usage filtered by another consumer's key", func(t *testing.T) {
		r := ops.get(fill("/operator/consumers/{id}/usage", tn.a.ID, 0) + "?key=" + strconv.Itoa(tn.keyB.ID))
		wantStatus(t, r, http.StatusNotFound)
	})
	const missing = 999999
	for _, rt := range protectedRoutes {
		if rt.role != roleOperator || !strings.Contains(rt.pattern, "{id}") {
			continue
		}
		t.Run("no such consumer "+rt.method+" "+rt.pattern, func(t *testing.T) {
			before := tn.snapshot(t)
			r := ops.request(rt.method, fill(rt.pattern, missing, tn.keyA.ID), validForms[rt.method+" "+rt.pattern])
			wantStatus(t, r, http.StatusNotFound)
			tn.wantUnchanged(t, before, rt.method+" "+rt.pattern)
		})
	}
}

func TestWithoutSessionRedirectsToSignIn(t *testing.T) {
	tn := newTenants(t)
	anon := tn.h.browser()
	for _, rt := range protectedRoutes {
		t.Run(rt.method+" "+rt.pattern, func(t *testing.T) {
			before := tn.snapshot(t)
			path := fill(rt.pattern, tn.a.ID, tn.keyA.ID)
			if rt.role == roleConsumer {
				path = fill(rt.pattern, tn.keyA.ID, 0)
			}
			r := anon.request(rt.method, path, validForms[rt.method+" "+rt.pattern])
			if rt.method == http.MethodGet {
				wantRedirect(t, r, "/console/login?next="+url.QueryEscape(path))
			} else {
				wantRedirect(t, r, "/console/login") // a form post cannot be replayed after sign-in
			}
			tn.wantUnchanged(t, before, rt.method+" "+path)
		})
	}
	t.Run("signing in after a refused form post lands on a page", func(t *testing.T) {
		for _, rt := range protectedRoutes {
			if rt.method != http.MethodPost {
				continue
			}
			b := tn.h.browser()
			path := fill(rt.pattern, tn.a.ID, tn.keyA.ID)
			email := tn.operator
			if rt.role == roleConsumer {
				path, email = fill(rt.pattern, tn.keyA.ID, 0), tn.userA
			}
			r := b.post(path, validForms[rt.method+" "+rt.pattern])
			wantStatus(t, r, http.StatusSeeOther)
			loc, err := url.Parse(r.location())
			if err != nil || loc.Path != "/console/login" {
				t.Fatalf("POST %s: redirected to %q", path, r.location())
			}
			r = b.post("/console/login", url.Values{"email": {email}, "password": {password}, "next": {loc.Query().Get("next")}})
			wantStatus(t, r, http.StatusSeeOther)
			for i := 0; r.StatusCode == http.StatusSeeOther && i < 3; i++ {
				r = b.get(r.location())
			}
			if r.StatusCode != http.StatusOK {
				t.Errorf("POST %s signed out, then signing in: ends on %s with %d, want a page (200)", path, r.Request.URL.Path, r.StatusCode)
			}
		}
	})
	t.Run("with query", func(t *testing.T) {
		r := anon.get("/console/usage?key=" + strconv.Itoa(tn.keyA.ID))
		wantRedirect(t, r, "/console/login?next="+url.QueryEscape("/console/usage?key="+strconv.Itoa(tn.keyA.ID)))
	})
	t.Run("unknown session token", func(t *testing.T) {
		anon.setCookie("not-a-session-token")
		wantRedirect(t, anon.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys&why=ended")
	})
	t.Run("home", func(t *testing.T) {
		wantRedirect(t, tn.h.browser().get("/console/"), "/console/login")
		r := tn.h.browser().get("/")
		if r.StatusCode != http.StatusFound || r.location() != "/console/" {
			t.Errorf("GET /: %d %q, want 302 to /console/", r.StatusCode, r.location())
		}
	})
}

func TestRolesForbidden(t *testing.T) {
	tn := newTenants(t)
	alice := tn.h.signedIn(tn.userA, password)
	ops := tn.h.signedIn(tn.operator, password)
	for _, rt := range protectedRoutes {
		if rt.role == roleAny {
			continue // every role's
		}
		t.Run(rt.method+" "+rt.pattern, func(t *testing.T) {
			before := tn.snapshot(t)
			var r response
			if rt.role == roleOperator {
				// Alice's own consumer and key in the path: being a tenant is not being an operator.
				r = alice.request(rt.method, fill(rt.pattern, tn.a.ID, tn.keyA.ID), validForms[rt.method+" "+rt.pattern])
			} else {
				r = ops.request(rt.method, fill(rt.pattern, tn.keyA.ID, 0), validForms[rt.method+" "+rt.pattern])
			}
			wantStatus(t, r, http.StatusForbidden)
			wantContains(t, r.body, "Your account cannot open this page.")
			tn.wantUnchanged(t, before, rt.method+" "+rt.pattern)
		})
	}
	// Home sends each role to its own pages.
	wantRedirect(t, alice.get("/console/"), "/console/keys")
	wantRedirect(t, ops.get("/console/"), "/console/operator/consumers")
}

func TestCrossOriginPostsRefused(t *testing.T) {
	tn := newTenants(t)
	alice := tn.h.signedIn(tn.userA, password)
	ops := tn.h.signedIn(tn.operator, password)
	attacks := []struct {
		name    string
		headers []string
	}{
		{"Sec-Fetch-Site cross-site", []string{"Sec-Fetch-Site", "cross-site"}},
		{"foreign Origin", []string{"Origin", "https://evil.example"}},
	}
	posts := []struct {
		b    *browser
		path string
		form url.Values
	}{
		{alice, "/console/keys", url.Values{"name": {"csrf"}}},
		{alice, fill("/keys/{id}/revoke", tn.keyA.ID, 0), nil},
		{alice, fill("/keys/{id}/rotate", tn.keyA.ID, 0), url.Values{"grace": {"0"}}},
		{ops, fill("/operator/consumers/{id}/access", tn.a.ID, 0), url.Values{"access": {"off"}, "reason": {"csrf"}}},
		{ops, fill("/operator/consumers/{id}/users", tn.a.ID, 0), url.Values{"email": {"csrf@example.com"}}},
		{alice, "/console/logout", nil},
		{tn.h.browser(), "/console/login", url.Values{"email": {tn.userA}, "password": {password}}},
	}
	for _, a := range attacks {
		for _, p := range posts {
			t.Run(a.name+" "+p.path, func(t *testing.T) {
				before := tn.snapshot(t)
				sessions := len(tn.h.sessionRows())
				r := p.b.post(p.path, p.form, a.headers...)
				wantStatus(t, r, http.StatusForbidden)
				// A page for people, in the console's layout, with a way back.
				wantContains(t, r.body, "<h1>Request refused</h1>", "This form was sent from another website, so nothing was changed",
					`<link rel="stylesheet" href="/static/`, `<a href="/console/">Back to the console</a>`)
				if ct, csp := r.Header.Get("Content-Type"), r.Header.Get("Content-Security-Policy"); ct != "text/html; charset=utf-8" || csp != contentSecurityPolicy {
					t.Errorf("Content-Type %q, Content-Security-Policy %q", ct, csp)
				}
				tn.wantUnchanged(t, before, "cross-origin POST "+p.path)
				if n := len(tn.h.sessionRows()); n != sessions {
					t.Errorf("sessions: %d, want %d", n, sessions)
				}
			})
		}
	}
	// Still signed in (the refused logout did nothing), and a same-origin POST goes through.
	wantStatus(t, alice.get("/console/keys"), http.StatusOK)
	r := alice.post("/console/keys", url.Values{"name": {"same origin"}}, "Origin", tn.h.ts.URL, "Sec-Fetch-Site", "same-origin")
	wantRedirect(t, r, revealPath)
}
