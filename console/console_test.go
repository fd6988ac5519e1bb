package console

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent/consoleuser"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// ---- Sign-in and sessions ----

func TestSignInWrongPasswordAndUnknownEmailLookAlike(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "carol@c.example", password)
	b := h.browser()

	wrong := b.post("/console/login", url.Values{"email": {"carol@c.example"}, "password": {"not the password"}})
	wantStatus(t, wrong, http.StatusUnauthorized)
	wantContains(t, wrong.body, "Wrong email or password.")
	unknown := b.post("/console/login", url.Values{"email": {"nobody@c.example"}, "password": {"not the password"}})
	wantStatus(t, unknown, http.StatusUnauthorized)
	if wrong.body != unknown.body {
		t.Errorf("unknown email and wrong password give different pages")
	}
	malformed := b.post("/console/login", url.Values{"email": {"not an email"}, "password": {"x"}})
	wantStatus(t, malformed, http.StatusUnauthorized)
	if b.cookie() != "" {
		t.Errorf("a failed sign-in set a session cookie")
	}
	// The user is not signed in.
	wantRedirect(t, b.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys")

	wantRedirect(t, b.signIn("Carol@C.example", password), "/console/")
	r := b.get("/console/keys")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, "carol@c.example", "Sign out")
}

func TestSignInThrottledPerAccount(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "dave@c.example", password)
	h.consumerUser(c.ID, "erin@c.example", password)
	b := h.browser()
	for i := range access.SignInAccountLimit {
		r := b.post("/console/login", url.Values{"email": {"dave@c.example"}, "password": {fmt.Sprint("guess ", i)}})
		wantStatus(t, r, http.StatusUnauthorized)
	}
	// Throttled now, even with the right password.
	r := b.post("/console/login", url.Values{"email": {"dave@c.example"}, "password": {password}})
	wantStatus(t, r, http.StatusTooManyRequests)
	wantContains(t, r.body, "Too many failed sign-ins. Try again in 15 minutes.") // the clock stood still: the whole window
	h.clock.Advance(10*time.Minute + 30*time.Second)
	r = b.post("/console/login", url.Values{"email": {"dave@c.example"}, "password": {password}})
	wantStatus(t, r, http.StatusTooManyRequests)
	wantContains(t, r.body, "Too many failed sign-ins. Try again in 5 minutes.") // 4 min 30 s, rounded up
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || secs <= 0 || secs > int(access.SignInWindow/time.Second) {
		t.Errorf("Retry-After %q, want 1..%d seconds", r.Header.Get("Retry-After"), int(access.SignInWindow/time.Second))
	}
	if b.cookie() != "" {
		t.Errorf("a throttled sign-in set a session cookie")
	}
	// Another account from the same source is not held back.
	h.browser().signIn("erin@c.example", password)

	// After the window, the right password works again.
	h.clock.Advance(access.SignInWindow + time.Second)
	wantRedirect(t, b.signIn("dave@c.example", password), "/console/")
}

func TestSignInThrottledPerSource(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	b := h.browser()
	perAccount := access.SignInAccountLimit - 1 // stay under the per-account limit
	accounts := (access.SignInSourceLimit + perAccount - 1) / perAccount
	for i := range accounts + 1 {
		h.consumerUser(c.ID, fmt.Sprintf("u%d@c.example", i), password)
	}
	failures := 0
	for i := 0; failures < access.SignInSourceLimit; i++ {
		for range perAccount {
			if failures == access.SignInSourceLimit {
				break
			}
			r := b.post("/console/login", url.Values{"email": {fmt.Sprintf("u%d@c.example", i)}, "password": {"wrong password"}})
			wantStatus(t, r, http.StatusUnauthorized)
			failures++
		}
	}
	r := b.post("/console/login", url.Values{"email": {fmt.Sprintf("u%d@c.example", accounts)}, "password": {password}})
	wantStatus(t, r, http.StatusTooManyRequests)
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
}

// TestSignInPageSaysWhy: the sign-in page tells people why they are there: signed out, their
// session ended, or the page they opened needs them signed in. It says nothing about accounts.
func TestSignInPageSaysWhy(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "ivy@c.example", password)
	const (
		signedOut = `<p class="flash" role="status">You have been signed out.</p>`
		ended     = `<p class="flash warn" role="status">Your session has ended: sessions end after 30 minutes without activity, ` +
			`after 12 hours, and when the password is changed. Sign in again to continue.</p>`
		toContinue = `<p class="flash" role="status">Sign in to continue.</p>`
	)

	b := h.signedIn("ivy@c.example", password)
	page := b.follow(b.post("/console/logout", nil))
	wantStatus(t, page, http.StatusOK)
	wantContains(t, page.body, signedOut)
	wantNotContains(t, page.body, ended, toContinue)

	// A session that timed out: the next page says so, once (the dead cookie is dropped).
	b = h.signedIn("ivy@c.example", password)
	h.clock.Advance(sessionIdle + time.Minute)
	r := b.get("/console/usage")
	wantRedirect(t, r, "/console/login?next=%2Fconsole%2Fusage&why=ended")
	page = b.follow(r)
	wantContains(t, page.body, ended, `<input type="hidden" name="next" value="/console/usage">`)
	wantNotContains(t, page.body, signedOut, toContinue)
	if b.cookie() != "" {
		t.Error("the ended session's cookie was kept")
	}
	wantRedirect(t, b.get("/console/usage"), "/console/login?next=%2Fconsole%2Fusage")

	// Never signed in, or an unknown account: no word of sessions or accounts.
	anon := h.browser()
	page = anon.follow(anon.get("/console/keys"))
	wantContains(t, page.body, toContinue)
	wantNotContains(t, page.body, signedOut, ended)
	page = anon.get("/console/login")
	wantNotContains(t, page.body, signedOut, ended, toContinue)
	wrong := anon.post("/console/login", url.Values{"email": {"nobody@c.example"}, "password": {"whatever it is"}})
	wantNotContains(t, wrong.body, signedOut, ended, toContinue)
}

func TestSignInRenewsSessionToken(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	_, link, err := h.acc.CreateConsumerUser(context.Background(), operatorActor, c.ID, "fay@c.example", 0)
	if err != nil {
		t.Fatal(err)
	}
	b := h.browser()
	// Setting the password leaves a flash message, so the browser holds an anonymous session.
	r := b.post("/console/set-password/"+link.Token, url.Values{"password": {password}, "confirm": {password}})
	wantRedirect(t, r, "/console/login")
	before := b.cookie()
	if before == "" {
		t.Fatal("no session before sign-in")
	}
	wantContains(t, b.get("/console/login").body, "Your password is set. Sign in with it.")

	b.signIn("fay@c.example", password)
	after := b.cookie()
	if after == "" || after == before {
		t.Fatalf("session token not renewed at sign-in: before %q, after %q", before, after)
	}
	if _, ok := h.sessionRows()[before]; ok {
		t.Error("the pre-sign-in session is still stored")
	}
	wantStatus(t, b.get("/console/keys"), http.StatusOK)
	// The old token (say, one an attacker planted) is worth nothing.
	planted := h.browser()
	planted.setCookie(before)
	wantRedirect(t, planted.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys&why=ended")
}

// TestNewPasswordEndsOlderSessions: once a user sets a new password (say, through a reset link
// after a stolen session), every session signed in with the old one is signed out, while one signed
// in with the new password stays.
func TestNewPasswordEndsOlderSessions(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	u := h.consumerUser(c.ID, "hal@c.example", password)
	laptop, thief := h.signedIn("hal@c.example", password), h.signedIn("hal@c.example", password)
	stolen := thief.cookie()
	wantStatus(t, thief.get("/console/keys"), http.StatusOK)
	link, err := h.acc.NewPasswordLink(context.Background(), operatorActor, u.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	const newPassword = "hal's brand new password"
	wantRedirect(t, h.browser().post("/console/set-password/"+link.Token, url.Values{"password": {newPassword}, "confirm": {newPassword}}), "/console/login")

	for name, b := range map[string]*browser{"laptop": laptop, "thief": thief} {
		if r := b.get("/console/keys"); r.StatusCode != http.StatusSeeOther || r.location() != "/console/login?next=%2Fconsole%2Fkeys&why=ended" {
			t.Errorf("%s after the new password: %d %q, want a redirect to sign in", name, r.StatusCode, r.location())
		}
	}
	replay := h.browser()
	replay.setCookie(stolen)
	wantRedirect(t, replay.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys&why=ended")
	wantStatus(t, h.browser().post("/console/login", url.Values{"email": {"hal@c.example"}, "password": {password}}), http.StatusUnauthorized)
	fresh := h.signedIn("hal@c.example", newPassword)
	wantStatus(t, fresh.get("/console/keys"), http.StatusOK)
	wantStatus(t, fresh.get("/console/keys"), http.StatusOK) // and it stays signed in
}

func TestSignOutDestroysSession(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "gus@c.example", password)
	b := h.signedIn("gus@c.example", password)
	token := b.cookie()
	sum := sha256.Sum256([]byte(token))
	stored := base64.RawURLEncoding.EncodeToString(sum[:]) // scs's HashTokenInStore form
	if _, ok := h.sessionRows()[stored]; !ok {
		t.Fatal("session not stored under the hash of its token")
	}
	if _, ok := h.sessionRows()[token]; ok {
		t.Fatal("the raw session token is stored")
	}
	r := b.post("/console/logout", nil)
	wantRedirect(t, r, "/console/login?why=signed-out")
	if b.cookie() != "" {
		t.Error("the session cookie survived sign-out")
	}
	if _, ok := h.sessionRows()[stored]; ok {
		t.Error("the session is still stored after sign-out")
	}
	replay := h.browser()
	replay.setCookie(token)
	wantRedirect(t, replay.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys&why=ended")
}

// TestIdleTimeoutInjectedClock advances the console's injected clock. The session store compares
// stored expiries with Deps.Now while scs computes them with time.Now, so only "past 30 minutes of
// idleness the session is gone" can be checked this way; TestSessionLifetimes checks the rest.
func TestIdleTimeoutInjectedClock(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "hal@c.example", password)
	b := h.signedIn("hal@c.example", password)
	h.clock.Advance(29 * time.Minute)
	wantStatus(t, b.get("/console/keys"), http.StatusOK)

	b2 := h.signedIn("hal@c.example", password)
	h.clock.Advance(31 * time.Minute)
	wantRedirect(t, b2.get("/console/usage"), "/console/login?next=%2Fconsole%2Fusage&why=ended")
	// Expired sessions are swept.
	if n, err := h.c.SweepSessions(context.Background()); err != nil || n == 0 {
		t.Errorf("SweepSessions: %d, %v; want the expired sessions deleted", n, err)
	}
}

// TestSessionLifetimes runs the console in a synctest bubble, where time.Now (which scs uses for
// expiries) is a fake clock time.Sleep advances: activity keeps a session alive past the idle
// timeout, 30 idle minutes end it, and 12 hours end it whatever the activity.
func TestSessionLifetimes(t *testing.T) {
	// Built outside the bubble: scs.New starts a memstore cleanup goroutine that never ends. Time
	// inside the bubble is fake for whatever runs there, scs and the session store included.
	st := storetest.SQLite(t)
	acc := access.NewService(st.Client, access.WithOperations(testOperations))
	c := New(Deps{Access: acc, Usage: metering.NewUsageStore(st.Client, st.Dialect), DB: st.Client,
		Operations: testOperations, InsecureCookies: true})
	r := chi.NewRouter()
	c.Mount(r)
	cons, err := acc.CreateConsumer(context.Background(), operatorActor, "Carrot", access.ConsumerChange{})
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := acc.CreateConsumerUser(context.Background(), operatorActor, cons.ID, "ida@c.example", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Client.ConsoleUser.UpdateOneID(u.ID).SetPasswordHash(cheapHash(password)).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		serve := func(req *http.Request) *httptest.ResponseRecorder {
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			return w
		}
		signIn := func() *http.Cookie {
			req := httptest.NewRequest("POST", "/console/login", strings.NewReader(url.Values{"email": {"ida@c.example"}, "password": {password}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			w := serve(req)
			if w.Code != http.StatusSeeOther {
				t.Fatalf("sign in: %d", w.Code)
			}
			for _, ck := range w.Result().Cookies() {
				if ck.Name == sessionCookie {
					return ck
				}
			}
			t.Fatal("no session cookie")
			return nil
		}
		keys := func(ck *http.Cookie) int {
			req := httptest.NewRequest("GET", "/console/keys", nil)
			req.AddCookie(ck)
			return serve(req).Code
		}

		start := time.Now()
		ck := signIn()
		for i := 1; i <= 3; i++ { // 87 minutes, never 30 idle ones
			time.Sleep(29 * time.Minute)
			if code := keys(ck); code != http.StatusOK {
				t.Fatalf("after %v with activity every 29 minutes: %d, want 200", time.Since(start), code)
			}
		}
		time.Sleep(30*time.Minute + time.Second)
		if code := keys(ck); code != http.StatusSeeOther {
			t.Fatalf("after 30 idle minutes: %d, want 303 to sign in", code)
		}

		start = time.Now()
		ck = signIn()
		for time.Since(start) < sessionAbsolute-20*time.Minute {
			time.Sleep(20 * time.Minute)
			if code := keys(ck); code != http.StatusOK {
				t.Fatalf("after %v with activity every 20 minutes: %d, want 200", time.Since(start), code)
			}
		}
		time.Sleep(time.Until(start.Add(sessionAbsolute)) - time.Second)
		if code := keys(ck); code != http.StatusOK {
			t.Fatalf("a second before 12 hours: %d, want 200", code)
		}
		time.Sleep(time.Second)
		if code := keys(ck); code != http.StatusSeeOther {
			t.Fatalf("after 12 hours of activity: %d, want 303 to sign in", code)
		}
	})
}

func TestSignInNextIsLocalOnly(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "jo@c.example", password)

	r := h.browser().get("/console/login?next=" + url.QueryEscape("/console/usage?key=1"))
	wantContains(t, r.body, `name="next" value="/console/usage?key=1"`)
	wantRedirect(t, h.browser().post("/console/login", url.Values{"email": {"jo@c.example"}, "password": {password},
		"next": {"/console/usage?key=1"}}), "/console/usage?key=1")

	for _, next := range []string{
		"//evil.example", "//evil.example/console/", "https://evil.example", "https://evil.example/console/",
		"/\\evil.example", "\\\\evil.example", "/console\\..\\\\evil.example", "javascript:alert(1)",
		"/console/\r\nLocation: https://evil.example", "http:/evil.example", "/keys", "",
	} {
		t.Run(next, func(t *testing.T) {
			if form := h.browser().get("/console/login?next=" + url.QueryEscape(next)).body; strings.Contains(form, `name="next"`) {
				t.Errorf("the sign-in form keeps next=%q", next)
			}
			r := h.browser().post("/console/login", url.Values{"email": {"jo@c.example"}, "password": {password}, "next": {next}})
			wantRedirect(t, r, "/console/")
		})
	}
	// Dot segments stay on this host: the redirect is a cleaned local path.
	r = h.browser().post("/console/login", url.Values{"email": {"jo@c.example"}, "password": {password}, "next": {"/console/..//evil.example"}})
	wantStatus(t, r, http.StatusSeeOther)
	if loc, err := url.Parse(r.location()); err != nil || loc.Host != "" || loc.Scheme != "" || strings.HasPrefix(r.location(), "//") {
		t.Errorf("next with dot segments redirects to %q", r.location())
	}
}

// ---- Headers ----

var (
	reStylesheet = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)"`)
	reScriptSrc  = regexp.MustCompile(`<script src="([^"]+)"`)
	reInlineJS   = regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]|<script>|\son[a-z]+=|javascript:`)
	reHashedName = regexp.MustCompile(`^/static/app\.[0-9a-f]{12}\.(css|js)$`)
)

func wantSecurityHeaders(t *testing.T, r response) {
	t.Helper()
	csp := r.Header.Get("Content-Security-Policy")
	if csp == "" || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") ||
		!strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("%s %s: Content-Security-Policy %q", r.Request.Method, r.Request.URL.Path, csp)
	}
	if got := r.Header.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("%s: X-Frame-Options %q", r.Request.URL.Path, got)
	}
	if cc := r.Header.Values("Cache-Control"); !slices.Contains(cc, "no-store") {
		t.Errorf("%s: Cache-Control %q, want no-store", r.Request.URL.Path, cc)
	}
	if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", r.Request.URL.Path, got)
	}
	// The policy forbids inline script and style; the pages must not need them.
	if strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		if m := reInlineJS.FindString(r.body); m != "" {
			t.Errorf("%s: inline script %q", r.Request.URL.Path, m)
		}
		if strings.Contains(r.body, " style=") || strings.Contains(r.body, "<style") {
			t.Errorf("%s: inline style", r.Request.URL.Path)
		}
	}
}

func TestSecurityHeadersOnEveryPage(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	ops := h.signedIn(tn.operator, password)
	anon := h.browser()
	_, link, err := h.acc.CreateConsumerUser(context.Background(), operatorActor, tn.a.ID, "new@a.example", 0)
	if err != nil {
		t.Fatal(err)
	}
	ka := strconv.Itoa(tn.keyA.ID)
	a := strconv.Itoa(tn.a.ID)
	pages := []response{
		anon.get("/console/login"),
		anon.get("/console/login?next=%2Fconsole%2Fkeys"),
		anon.get("/console/keys"), // redirect
		anon.get("/console/set-password/" + link.Token),
		anon.get("/console/set-password/nope"),
		anon.post("/console/login", url.Values{"email": {"x@y.example"}, "password": {"nope"}}),
		anon.post("/console/keys", nil, "Sec-Fetch-Site", "cross-site"),
		alice.get("/console/keys"),
		alice.post("/console/keys", url.Values{"name": {"headers"}}),
		alice.get("/console/keys/" + ka + "/rotate"),
		alice.get("/console/keys/" + ka + "/revoke"),
		alice.get("/console/usage"),
		alice.get("/console/usage?key=" + ka + "&requestId=nope"),
		alice.get("/console/plan"),
		alice.get("/console/nothing-here"),
		alice.get("/console/operator/consumers"), // 403
		ops.get("/console/operator/consumers"),
		ops.get("/console/operator/consumers?q=ac"),
		ops.get("/console/operator/consumers/new"),
		ops.get("/console/operator/consumers/" + a),
		ops.get("/console/operator/consumers/" + a + "/usage"),
		ops.post("/console/operator/consumers/"+a+"/users", url.Values{"email": {"other@a.example"}}),
		ops.get("/console/operator/audit"),
		ops.get("/console/keys"), // 403
	}
	for _, r := range pages {
		wantSecurityHeaders(t, r)
	}
	if t.Failed() {
		return
	}

	// Assets: hashed names, cached for ever.
	body := alice.get("/console/keys").body
	var assets []string
	for _, re := range []*regexp.Regexp{reStylesheet, reScriptSrc} {
		m := re.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no %v on the page", re)
		}
		assets = append(assets, m[1])
	}
	for _, p := range assets {
		if !reHashedName.MatchString(p) {
			t.Errorf("asset %q has no content hash in its name", p)
		}
		r := anon.get(p)
		wantStatus(t, r, http.StatusOK)
		if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", p, cc)
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") && !strings.HasPrefix(ct, "text/javascript") {
			t.Errorf("%s: Content-Type %q", p, ct)
		}
		if len(r.body) == 0 {
			t.Errorf("%s: empty", p)
		}
	}
	for _, p := range []string{"/static/app.css", "/static/app.js", "/static/app.000000000000.css", "/static/"} {
		if r := anon.get(p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, r.StatusCode)
		}
	}
}

func sessionCookieOf(t *testing.T, r response) *http.Cookie {
	t.Helper()
	for _, c := range r.Cookies() {
		if c.Name == sessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie set", sessionCookie)
	return nil
}

func TestSessionCookieAttributesTLS(t *testing.T) {
	h := newHarness(t, withTLS())
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "kim@c.example", password)
	b := h.browser()
	ck := sessionCookieOf(t, b.signIn("kim@c.example", password))
	if !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/console" {
		t.Errorf("cookie %q: Secure %v HttpOnly %v SameSite %v Path %q; want Secure, HttpOnly, Lax, /console",
			ck.String(), ck.Secure, ck.HttpOnly, ck.SameSite, ck.Path)
	}
	wantStatus(t, b.get("/console/keys"), http.StatusOK)
	// (Go's cookiejar, like browsers, sends Secure cookies to loopback hosts over plain HTTP too, so
	// the attribute itself is what is checked here.)
	// Links handed out over HTTPS are https links.
	h.operatorUser("ops@example.com", password)
	r := h.signedIn("ops@example.com", password).post(consumerPath(c.ID)+"/users", url.Values{"email": {"new@c.example"}})
	wantStatus(t, r, http.StatusOK)
	if m := reLink.FindStringSubmatch(r.body); m == nil || !strings.HasPrefix(m[1], h.ts.URL+"/console/set-password/") ||
		!strings.HasPrefix(h.ts.URL, "https://") {
		t.Errorf("set-password link over TLS: %q", m)
	}
	// Sign-out expires the cookie with the same attributes.
	out := sessionCookieOf(t, b.post("/console/logout", nil))
	if out.MaxAge >= 0 || !out.Secure || out.Path != "/console" {
		t.Errorf("sign-out cookie %q", out.String())
	}
}

func TestSessionCookieAttributesInsecureCookies(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Carrot")
	h.consumerUser(c.ID, "lee@c.example", password)
	ck := sessionCookieOf(t, h.browser().signIn("lee@c.example", password))
	if ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/console" {
		t.Errorf("cookie %q with InsecureCookies", ck.String())
	}
}

// ---- Keys ----

func TestKeysCreateShownOnce(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	ops := h.signedIn(tn.operator, password)
	keysBefore := len(h.keys(tn.a.ID))

	// Post/redirect/get: the POST creates the key and redirects; the secret is on the GET.
	post := alice.post("/console/keys", url.Values{"name": {"production backend"}})
	wantRedirect(t, post, revealPath)
	sealedSessions := h.sessionRows() // what the database holds between the POST and the GET
	var reveal *http.Cookie
	for _, ck := range post.Cookies() {
		if ck.Name == revealCookie {
			reveal = ck
		}
	}
	if reveal == nil || !reveal.HttpOnly || reveal.Path != revealPath || reveal.SameSite != http.SameSiteStrictMode ||
		reveal.MaxAge <= 0 || reveal.MaxAge > int(revealTTL/time.Second) {
		t.Fatalf("the POST sets the reveal cookie %+v, want HttpOnly, Path %s, SameSite=Strict, Max-Age up to %v", reveal, revealPath, revealTTL)
	}
	r, secret := alice.issued(post)
	wantContains(t, r.body, "<h1>Key created</h1>", "It will not be shown again.", "production backend", `data-copy="new-key"`)
	k, err := access.ParseKey(secret)
	if err != nil {
		t.Fatalf("the page shows %q: %v", secret, err)
	}
	rec, err := h.acc.LookupKey(context.Background(), k.Hash())
	if err != nil || rec.ConsumerID != tn.a.ID {
		t.Fatalf("the shown key is not a key of the consumer: %+v, %v", rec, err)
	}
	info := h.keyInfo(tn.a.ID, rec.KeyID)
	if info.Name != "production backend" || info.Status != access.KeyActive {
		t.Errorf("key %+v", info)
	}
	secretPart := secret[len(info.Prefix):] // what the display prefix does not show
	for _, data := range sealedSessions {
		if strings.Contains(string(data), secretPart) {
			t.Error("between the POST and the page, a stored session holds the secret in the clear")
		}
	}
	if strings.Contains(reveal.Value, secretPart) || strings.Contains(post.location(), secretPart) {
		t.Error("the redirect carries the secret")
	}

	// Reloading the page creates nothing and shows no secret: the keys list, with a note.
	reload := alice.get(revealPath)
	wantRedirect(t, reload, "/console/keys")
	list := alice.get("/console/keys")
	wantContains(t, list.body, `<p class="flash warn" role="status">A new key is shown only once`)
	wantNotContains(t, list.body, secretPart)
	if n := len(h.keys(tn.a.ID)); n != keysBefore+1 {
		t.Errorf("%d keys after creating one and reloading, want %d", n, keysBefore+1)
	}
	// The sealed secret has left the session; the browser is told to drop the cookie.
	for _, data := range h.sessionRows() {
		if strings.Contains(string(data), revealBoxKey) {
			t.Error("a stored session still holds the sealed key after it was shown")
		}
	}

	t.Run("sealed key expires", func(t *testing.T) {
		wantRedirect(t, alice.post("/console/keys", url.Values{"name": {"late"}}), revealPath)
		h.clock.Advance(revealTTL + time.Second)
		wantRedirect(t, alice.get(revealPath), "/console/keys")
	})
	t.Run("the session alone does not reveal it", func(t *testing.T) {
		wantRedirect(t, alice.post("/console/keys", url.Values{"name": {"split"}}), revealPath)
		thief := h.browser()
		thief.setCookie(alice.cookie()) // the session, without the reveal cookie
		r := thief.get(revealPath)
		wantRedirect(t, r, "/console/keys")
	})
	t.Run("another user sees nothing", func(t *testing.T) {
		bob := h.signedIn(tn.userB, password)
		wantRedirect(t, bob.get(revealPath), "/console/keys")
	})

	pages := []response{
		alice.get("/console/keys"),
		alice.get("/console/usage"),
		alice.get("/console/usage?key=" + strconv.Itoa(info.ID)),
		alice.get("/console/plan"),
		alice.get(fill("/keys/{id}/rotate", info.ID, 0)),
		alice.get(fill("/keys/{id}/revoke", info.ID, 0)),
		alice.get("/console/login"),
		ops.get("/console/operator/consumers"),
		ops.get(fill("/operator/consumers/{id}", tn.a.ID, 0)),
		ops.get(fill("/operator/consumers/{id}/usage", tn.a.ID, 0)),
		ops.get("/console/operator/audit"),
	}
	for _, p := range pages {
		wantNotContains(t, p.body, secretPart)
		for name, vals := range p.Header {
			if strings.Contains(strings.Join(vals, " "), secretPart) {
				t.Errorf("%s: header %s has the secret", p.Request.URL.Path, name)
			}
		}
	}
	keys := pages[0]
	wantContains(t, keys.body, info.Prefix+"…", "production backend")
	if card := keyCardOf(t, keys.body, info.ID); !strings.Contains(card, ">production backend</h3>") || !strings.Contains(card, `class="badge active">active<`) {
		t.Errorf("key card %q", card)
	}
	// Nor anywhere it is kept: sessions, audit log, logs.
	for id, data := range h.sessionRows() {
		if strings.Contains(string(data), secretPart) || strings.Contains(id, secretPart) {
			t.Error("a stored session holds the secret")
		}
	}
	entries, err := h.acc.Audit(context.Background(), operatorActor, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(entries); strings.Contains(string(b), secretPart) {
		t.Error("the audit log holds the secret")
	}
	if strings.Contains(h.logs.String(), secretPart) {
		t.Error("the logs hold the secret")
	}

	// A name is required.
	before := tn.snapshot(t)
	r = alice.post("/console/keys", url.Values{"name": {"   "}})
	wantStatus(t, r, http.StatusBadRequest)
	wantContains(t, r.body, "A key needs a name of 1 to 200 characters.", `aria-describedby="name-problem" aria-invalid="true"`)
	tn.wantUnchanged(t, before, "creating a key without a name")
}

func TestKeysRename(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	path := fill("/keys/{id}/rename", tn.keyA.ID, 0)
	wantRedirect(t, alice.post(path, url.Values{"name": {"  renamed backend "}}), "/console/keys")
	wantContains(t, alice.get("/console/keys").body, "Renamed the key to “renamed backend”.")
	if k := h.keyInfo(tn.a.ID, tn.keyA.ID); k.Name != "renamed backend" {
		t.Errorf("name %q", k.Name)
	}
	before := tn.snapshot(t)
	wantRedirect(t, alice.post(path, url.Values{"name": {""}}), "/console/keys")
	if msg := flashError(alice.get("/console/keys").body); msg != "A key needs a name of 1 to 200 characters." {
		t.Errorf("flash error %q", msg)
	}
	wantRedirect(t, alice.post(path, url.Values{"name": {strings.Repeat("x", 201)}}), "/console/keys")
	tn.wantUnchanged(t, before, "invalid renames")
}

func TestKeysRotateEachGrace(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	form := alice.get(fill("/keys/{id}/rotate", tn.keyA.ID, 0))
	for _, g := range graceChoices {
		wantContains(t, form.body, `value="`+g.Value+`"`)
	}
	for _, g := range []struct {
		value  string
		grace  time.Duration
		status string
	}{
		{"0", 0, access.KeyExpired},
		{"1h", time.Hour, access.KeyExpiring},
		{"24h", 24 * time.Hour, access.KeyExpiring},
		{"168h", 7 * 24 * time.Hour, access.KeyExpiring},
	} {
		t.Run(g.value, func(t *testing.T) {
			old := h.key(tn.a.ID, "rotate "+g.value)
			applied := h.applied.Load()
			now := h.clock.Now()
			r, secret := alice.issued(alice.post(fill("/keys/{id}/rotate", old.ID, 0), url.Values{"grace": {g.value}}))
			if secret == old.Key {
				t.Fatal("rotation showed the old key")
			}
			wantContains(t, r.body, "<h1>Key rotated</h1>", "It will not be shown again.",
				"The old key <code>"+old.Prefix+"…</code> stops working at <strong>"+when(now.Add(g.grace))+"</strong>.")
			if endGrace := `href="` + fill("/keys/{id}/end-grace", old.ID, 0) + `"`; g.grace > 0 {
				wantContains(t, r.body, endGrace)
			} else {
				wantNotContains(t, r.body, endGrace)
			}
			if got := h.applied.Load(); got != applied+1 {
				t.Errorf("Applied called %d times, want 1", got-applied)
			}
			o := h.keyInfo(tn.a.ID, old.ID)
			if o.ExpiresAt == nil || !o.ExpiresAt.Equal(now.Add(g.grace)) || o.Status != g.status {
				t.Errorf("old key: expires %v status %s; want %v %s", o.ExpiresAt, o.Status, now.Add(g.grace), g.status)
			}
			var successor *access.KeyInfo
			for _, k := range h.keys(tn.a.ID) {
				if k.RotatedFromID != nil && *k.RotatedFromID == old.ID {
					successor = &k
				}
			}
			if successor == nil || successor.Name != old.Name || successor.Status != access.KeyActive ||
				!strings.HasPrefix(secret, successor.Prefix) {
				t.Fatalf("successor %+v", successor)
			}
			// Reloading the page rotates nothing again: the keys list, with a note, and never the
			// new secret. It shows when the old key stops, and offers to end its grace, not to
			// rotate it again.
			keys := len(h.keys(tn.a.ID))
			wantRedirect(t, alice.get(revealPath), "/console/keys")
			list := alice.get("/console/keys").body
			wantContains(t, list, "A new key is shown only once")
			wantNotContains(t, list, secret[len(successor.Prefix):], fill("/keys/{id}/rotate", old.ID, 0))
			if n := len(h.keys(tn.a.ID)); n != keys {
				t.Errorf("reloading the rotated page made %d keys", n-keys)
			}
			if g.grace > 0 {
				wantContains(t, list, "expiring "+when(now.Add(g.grace)), fill("/keys/{id}/end-grace", old.ID, 0))
			}
		})
	}
	t.Run("a key in its grace is not rotated again", func(t *testing.T) {
		k := h.key(tn.a.ID, "in grace")
		successor, _, err := h.acc.RotateKey(context.Background(), operatorActor, k.ID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		end := h.clock.Now().Add(time.Hour)
		h.clock.Advance(10 * time.Minute)
		rotate, endGrace := fill("/keys/{id}/rotate", k.ID, 0), fill("/keys/{id}/end-grace", k.ID, 0)
		before := tn.snapshot(t)
		// Submitting the rotate form again (back, then submit) issues nothing: it offers to end
		// the grace instead.
		r := alice.post(rotate, url.Values{"grace": {"168h"}})
		wantRedirect(t, r, endGrace)
		page := alice.follow(r)
		wantStatus(t, page, http.StatusOK)
		if msg := flashError(page.body); msg != "“in grace” ("+k.Prefix+"…) was already rotated: its successor is "+successor.Prefix+"…. "+
			"It keeps working until "+when(end)+". A key is rotated once: rotate its successor, or end this key's grace now." {
			t.Errorf("flash error %q", msg)
		}
		wantContains(t, page.body, "<h1>End the grace</h1>", `<form class="row" method="post">`, "End the grace now")
		// So does the rotate page.
		wantRedirect(t, alice.get(rotate), endGrace)
		tn.wantUnchanged(t, before, "rotating a key in its grace")
		if o := h.keyInfo(tn.a.ID, k.ID); o.ExpiresAt == nil || !o.ExpiresAt.Equal(end) {
			t.Errorf("old key expires %v, want %v", o.ExpiresAt, end)
		}

		// Ending the grace stops the old key now; its successor keeps working.
		wantRedirect(t, alice.post(endGrace, nil), "/console/keys")
		if got := h.applied.Load(); got != before.applied+1 {
			t.Errorf("Applied called %d times, want 1", got-before.applied)
		}
		if o := h.keyInfo(tn.a.ID, k.ID); o.Status != access.KeyExpired || o.ExpiresAt == nil || !o.ExpiresAt.Equal(h.clock.Now()) {
			t.Errorf("old key after ending its grace: %+v", o)
		}
		v := access.NewVerifier(h.acc.LookupKey, access.WithClock(h.clock.Now))
		if _, err := v.Verify(context.Background(), k.Key); !errors.Is(err, access.ErrExpiredKey) {
			t.Errorf("the old key verifies after its grace ended: %v", err)
		}
		if _, err := v.Verify(context.Background(), successor.Key); err != nil {
			t.Errorf("the successor no longer verifies: %v", err)
		}
		wantContains(t, alice.get("/console/keys").body, "Ended the grace of “in grace” ("+k.Prefix+"…). Calls with it now get 401; its successor keeps working.")
		entries, err := h.acc.Audit(context.Background(), operatorActor, tn.a.ID, 1)
		if err != nil || len(entries) != 1 || entries[0].Action != "key.end_grace" || entries[0].Actor != "user:"+tn.userA {
			t.Errorf("newest audit entry %+v, %v; want key.end_grace by user:%s", entries, err, tn.userA)
		}
		// Nothing is left to end.
		again := tn.snapshot(t)
		wantRedirect(t, alice.get(endGrace), "/console/keys")
		wantRedirect(t, alice.post(endGrace, nil), "/console/keys")
		if msg := flashError(alice.get("/console/keys").body); !strings.Contains(msg, "is not in a rotation grace (it is expired)") {
			t.Errorf("flash error %q", msg)
		}
		tn.wantUnchanged(t, again, "ending a grace that has ended")
	})
	t.Run("bad grace", func(t *testing.T) {
		before := tn.snapshot(t)
		path := fill("/keys/{id}/rotate", tn.keyA.ID, 0)
		for _, g := range []string{"", "2h", "169h", "-1h"} {
			wantRedirect(t, alice.post(path, url.Values{"grace": {g}}), path)
		}
		wantContains(t, alice.get(path).body, "Choose how long the old key keeps working.")
		tn.wantUnchanged(t, before, "rotations with bad graces")
	})
	t.Run("revoked key", func(t *testing.T) {
		k := h.key(tn.a.ID, "gone")
		if _, err := h.acc.RevokeKey(context.Background(), operatorActor, k.ID); err != nil {
			t.Fatal(err)
		}
		before := tn.snapshot(t)
		wantRedirect(t, alice.post(fill("/keys/{id}/rotate", k.ID, 0), url.Values{"grace": {"1h"}}), "/console/keys")
		wantContains(t, alice.get("/console/keys").body, "That key can no longer be rotated: it is revoked or expired.")
		wantRedirect(t, alice.get(fill("/keys/{id}/end-grace", k.ID, 0)), "/console/keys")
		tn.wantUnchanged(t, before, "rotating a revoked key")
	})
}

func TestKeysRevokeWithConfirmation(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	path := fill("/keys/{id}/revoke", tn.keyA.ID, 0)
	before := tn.snapshot(t)
	confirm := alice.get(path)
	wantStatus(t, confirm, http.StatusOK)
	wantContains(t, confirm.body, `<form class="row" method="post">`, "Revoke key", "This cannot be undone.", tn.keyA.Prefix+"…")
	tn.wantUnchanged(t, before, "the confirmation page")

	wantRedirect(t, alice.post(path, nil), "/console/keys")
	if got := h.applied.Load(); got != before.applied+1 {
		t.Errorf("Applied called %d times, want 1", got-before.applied)
	}
	k := h.keyInfo(tn.a.ID, tn.keyA.ID)
	if k.Status != access.KeyRevoked || k.RevokedAt == nil || !k.RevokedAt.Equal(h.clock.Now()) {
		t.Errorf("key %+v", k)
	}
	list := alice.get("/console/keys").body
	wantContains(t, list, "Revoked “acme prod” ("+tn.keyA.Prefix+"…). Calls with it now get 401.", `<span class="badge revoked">revoked</span>`)
	wantNotContains(t, list, path, fill("/keys/{id}/rotate", tn.keyA.ID, 0))
	// The revoked key no longer authenticates.
	v := access.NewVerifier(h.acc.LookupKey)
	if _, err := v.Verify(context.Background(), tn.keyA.Key); err == nil {
		t.Error("the revoked key still verifies")
	}
}

// ---- Operators ----

func TestOperatorCreateAndEditConsumer(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	ops := h.signedIn(tn.operator, password)

	form := ops.get("/console/operator/consumers/new")
	wantStatus(t, form, http.StatusOK)
	for _, s := range access.Scopes {
		wantContains(t, form.body, `name="scopes" value="`+s+`"`)
	}
	for _, op := range testOperations {
		wantContains(t, form.body, `name="disabled" value="`+op+`"`)
	}

	applied := h.applied.Load()
	r := ops.post("/console/operator/consumers", url.Values{
		"name": {"Carrot Inc"}, "scopes": {"market:read", "tx:build"}, "rpm": {"90"}, "burst": {"15"},
		"allow": {"192.0.2.0/24\r\n2001:db8::/48"}, "price": {"EUR 1 per 1000 calls"}, "disabled": {"getPoolChart"},
		"enabled": {"on"},
	})
	wantStatus(t, r, http.StatusSeeOther)
	id, err := strconv.Atoi(strings.TrimPrefix(r.location(), "/console/operator/consumers/"))
	if err != nil {
		t.Fatalf("redirect to %q", r.location())
	}
	got := h.consumerNow(id)
	want := access.Consumer{ID: id, Name: "Carrot Inc", AccessEnabled: true, Scopes: []string{"market:read", "tx:build"},
		RatePerMinute: 90, Burst: 15, Allow: []string{"192.0.2.0/24", "2001:db8::/48"},
		DisabledOperations: []string{"getPoolChart"}, Price: "EUR 1 per 1000 calls", CreatedAt: got.CreatedAt, UpdatedAt: got.UpdatedAt,
		AccessChangedAt: got.AccessChangedAt}
	if got.AccessChangedAt == nil || !got.AccessChangedAt.Equal(got.CreatedAt) {
		t.Errorf("created consumer's AccessChangedAt %v, want its creation %v", got.AccessChangedAt, got.CreatedAt)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("created %+v\nwant    %+v", got, want)
	}
	if h.applied.Load() != applied+1 {
		t.Error("Applied not called after creating a consumer")
	}
	page := ops.get(r.location()).body
	wantContains(t, page, "Created consumer “Carrot Inc”.")

	t.Run("duplicate name", func(t *testing.T) {
		before := tn.snapshot(t)
		r := ops.post("/console/operator/consumers", url.Values{"name": {"Carrot Inc"}, "rpm": {"1"}, "burst": {"7"}, "enabled": {"on"}})
		wantStatus(t, r, http.StatusBadRequest)
		wantContains(t, r.body, "<h1>New consumer</h1>", "The consumer was not created: one field needs attention; it is marked below.",
			`name="name" value="Carrot Inc"`, `aria-describedby="name-problem" aria-invalid="true"`,
			`<span class="field-problem" id="name-problem">A consumer named &#34;Carrot Inc&#34; exists.</span>`,
			`value="7"`, `name="enabled" checked`)
		tn.wantUnchanged(t, before, "a duplicate consumer")
	})

	path := consumerPath(id)
	plan := url.Values{
		"name": {"Carrot Inc"}, "scopes": {"quote:read", "market:read"}, "rpm": {"120"}, "burst": {"30"},
		"allow": {"10.0.0.0/8, 2001:db8:1::/64\n203.0.113.7"}, "disabled": {"getTrending", "getPoolChart"},
		"price": {"USD 0.002 per call"},
	}
	t.Run("update plan", func(t *testing.T) {
		applied := h.applied.Load()
		wantRedirect(t, ops.post(path, plan), path)
		wantContains(t, ops.get(path).body, "Saved the plan. It applies to the next call.")
		got := h.consumerNow(id)
		want := access.Consumer{ID: id, Name: "Carrot Inc", AccessEnabled: true, Scopes: []string{"market:read", "quote:read"},
			RatePerMinute: 120, Burst: 30, Allow: []string{"10.0.0.0/8", "2001:db8:1::/64", "203.0.113.7/32"},
			DisabledOperations: []string{"getPoolChart", "getTrending"}, Price: "USD 0.002 per call",
			CreatedAt: got.CreatedAt, UpdatedAt: got.UpdatedAt, AccessChangedAt: got.AccessChangedAt}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v\nwant    %+v", got, want)
		}
		if h.applied.Load() != applied+1 {
			t.Error("Applied not called after a plan change")
		}
		// The form shows the plan back.
		page := ops.get(path).body
		wantContains(t, page, `value="120"`, `value="30"`, "10.0.0.0/8\n2001:db8:1::/64\n203.0.113.7/32", `value="USD 0.002 per call"`,
			`name="scopes" value="quote:read" checked`, `name="disabled" value="getTrending" checked`)
	})

	bad := []struct {
		name, field, value string
		problems           map[string]string // by form field: the message beside it
	}{
		{"IPv4 prefix too long", "allow", "10.0.0.0/8\n10.1.0.0/33", map[string]string{
			"allow": "10.1.0.0/33 is not a CIDR range: the prefix length after the / must be 0 to 32 for IPv4."}},
		{"IPv6 prefix too long", "allow", "2001:db8::/129", map[string]string{
			"allow": "2001:db8::/129 is not a CIDR range: the prefix length after the / must be 0 to 128 for IPv6."}},
		{"not an address", "allow", "10.0.0.0/8 office", map[string]string{
			"allow": "office is not an IP address or CIDR range (like 192.0.2.0/24 or 2001:db8::/48)."}},
		{"zoned IPv6", "allow", "fe80::1%eth0/64", map[string]string{
			"allow": "fe80::1%eth0/64 names a network interface (after the %): write the address without it."}},
		{"rpm not a number", "rpm", "fast", map[string]string{"rpm": "Rate per minute must be a whole number from 0 to 1000000."}},
		{"rpm negative", "rpm", "-1", map[string]string{"rpm": "Rate per minute must be 0 to 1000000."}},
		{"burst too high", "burst", "1000001", map[string]string{"burst": "Burst must be 0 to 1000000."}},
		{"unknown scope", "scopes", "admin", map[string]string{
			"scopes": `Unknown scope "admin" (want market:read, portfolio:read, quote:read, tx:build).`}},
		{"unknown operation", "disabled", "dropTables", map[string]string{"disabled": `Unknown operation "dropTables".`}},
		{"empty name", "name", " ", map[string]string{"name": "Name must be 1 to 200 characters."}},
		{"taken name", "name", "Acme", map[string]string{"name": `A consumer named "Acme" exists.`}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			before := tn.snapshot(t)
			cons := h.consumerNow(id)
			f := url.Values{}
			for k, v := range plan {
				f[k] = v
			}
			f.Set(c.field, c.value)
			f.Set("burst", "31") // an edit beside the invalid field: shown back, not saved
			if c.field == "burst" {
				f.Set("burst", c.value)
			}
			r := ops.post(path, f)
			wantStatus(t, r, http.StatusBadRequest)
			if got := fieldProblems(r.body); !reflect.DeepEqual(got, c.problems) {
				t.Errorf("field problems %q\nwant %q", got, c.problems)
			}
			wantContains(t, r.body, "The plan was not saved: one field needs attention; it is marked below.",
				`aria-describedby="`+c.field+`-problem" aria-invalid="true"`, `value="`+html.EscapeString(f.Get("burst"))+`"`)
			if focused := reAutofocus.FindAllStringSubmatch(r.body, -1); len(focused) != 1 || focused[0][1] != c.field {
				t.Errorf("focused fields %q, want the invalid %s only", focused, c.field)
			}
			wantNotContains(t, r.body, "parse cidrs", "netip.", "invalid:", "conflict:")
			// What was typed is shown back.
			switch c.field {
			case "allow":
				wantContains(t, r.body, ">"+html.EscapeString(c.value)+"</textarea>")
			case "scopes":
				wantNotContains(t, r.body, `name="scopes" value="quote:read" checked`)
			case "disabled":
				wantContains(t, r.body, `name="scopes" value="quote:read" checked`, `<details open>`)
			case "rpm":
				wantContains(t, r.body, `name="rpm" min="0" max="1000000" value="`+c.value+`"`)
			case "burst":
			default:
				wantContains(t, r.body, `name="name" value="`+html.EscapeString(c.value)+`"`)
			}
			if after := h.consumerNow(id); !reflect.DeepEqual(after, cons) {
				t.Errorf("consumer changed:\n%+v\n%+v", cons, after)
			}
			tn.wantUnchanged(t, before, c.name)
		})
	}
	t.Run("every invalid field at once", func(t *testing.T) {
		before := tn.snapshot(t)
		r := ops.post(path, url.Values{"name": {""}, "rpm": {"many"}, "burst": {"-3"}, "allow": {"10.0.0.0/33, 2001:db8::/48, nope"},
			"scopes": {"root"}, "price": {strings.Repeat("€", 200)}})
		wantStatus(t, r, http.StatusBadRequest)
		want := map[string]string{
			"name":   "Name must be 1 to 200 characters.",
			"scopes": `Unknown scope "root" (want market:read, portfolio:read, quote:read, tx:build).`,
			"rpm":    "Rate per minute must be a whole number from 0 to 1000000.",
			"burst":  "Burst must be 0 to 1000000.",
			"allow": "10.0.0.0/33 is not a CIDR range: the prefix length after the / must be 0 to 32 for IPv4. " +
				"nope is not an IP address or CIDR range (like 192.0.2.0/24 or 2001:db8::/48).",
			"price": "Price must be at most 500 characters.",
		}
		if got := fieldProblems(r.body); !reflect.DeepEqual(got, want) {
			t.Errorf("field problems %q\nwant %q", got, want)
		}
		wantContains(t, r.body, "The plan was not saved: 6 fields need attention; they are marked below.")
		if n := strings.Count(r.body, " autofocus"); n != 1 {
			t.Errorf("%d fields have autofocus, want the first invalid one only", n)
		}
		tn.wantUnchanged(t, before, "a plan with every field invalid")
	})
	t.Run("zero rate or burst is saved with a warning", func(t *testing.T) {
		for _, tc := range []struct {
			rpm, burst, field, warning string
		}{
			{"0", "30", "rpm", "Rate per minute is 0: the allowance never refills, so once its burst of 30 calls is used, every call gets 429 rate_limited."},
			{"120", "0", "burst", "Burst is 0: no call ever fits, so every call of this consumer gets 429 rate_limited."},
			{"0", "0", "burst", "Burst is 0: no call ever fits, so every call of this consumer gets 429 rate_limited."},
		} {
			f := url.Values{}
			for k, v := range plan {
				f[k] = v
			}
			f.Set("rpm", tc.rpm)
			f.Set("burst", tc.burst)
			wantRedirect(t, ops.post(path, f), path)
			if got := h.consumerNow(id); strconv.Itoa(got.RatePerMinute) != tc.rpm || strconv.Itoa(got.Burst) != tc.burst {
				t.Errorf("saved rate %d burst %d, want %s %s", got.RatePerMinute, got.Burst, tc.rpm, tc.burst)
			}
			page := ops.get(path).body
			wantContains(t, page, "Saved the plan. It applies to the next call.", `<p class="flash warn" role="status">`+tc.warning+`</p>`,
				`<span class="field-warning" id="`+tc.field+`-hint">`+tc.warning+`</span>`)
			if tc.rpm == "0" && tc.burst == "0" {
				wantNotContains(t, page, "Rate per minute is 0")
			}
			// The warning stays beside the field, not on later pages.
			wantNotContains(t, ops.get(path).body, `class="flash warn"`)
		}
		wantRedirect(t, ops.post(path, plan), path)
		wantNotContains(t, ops.get(path).body, "field-warning")
	})

	t.Run("access off needs a reason", func(t *testing.T) {
		before := tn.snapshot(t)
		wantRedirect(t, ops.post(path+"/access", url.Values{"access": {"off"}, "reason": {"  "}}), path)
		wantContains(t, ops.get(path).body, "Give a reason for switching access; it goes into the audit log.")
		tn.wantUnchanged(t, before, "access off without a reason")

		wantRedirect(t, ops.post(path+"/access", url.Values{"access": {"off"}, "reason": {"invoice 42 unpaid"}}), path)
		if h.consumerNow(id).AccessEnabled {
			t.Fatal("access still on")
		}
		if h.applied.Load() != before.applied+1 {
			t.Error("Applied not called after switching access off")
		}
		page := ops.get(path).body
		wantContains(t, page, html.EscapeString("Access is off: calls with this consumer's keys now get 401 access_disabled."),
			`<span class="badge off">off</span>`, "Switch access on")
		list := ops.get("/console/operator/consumers").body
		if row := rowWith(t, list, "Carrot Inc"); row[1] != "off" {
			t.Errorf("consumers list row %q", row)
		}
	})

	t.Run("audit log", func(t *testing.T) {
		page := ops.get("/console/operator/audit").body
		found := map[string][]string{}
		for _, r := range rows(page) { // When, Who, What, Consumer (by name), Reason, Change
			if len(r) == 6 && r[3] == "Carrot Inc" {
				found[strings.Fields(r[2])[0]] = r
			}
		}
		for _, action := range []string{"consumer.create", "consumer.update", "consumer.disable"} {
			r, ok := found[action]
			if !ok {
				t.Errorf("no %s entry in\n%s", action, snippet(page))
				continue
			}
			if r[1] != "operator:"+tn.operator {
				t.Errorf("%s by %q", action, r[1])
			}
		}
		if r := found["consumer.disable"]; r != nil && (r[4] != "invoice 42 unpaid" || r[5] != "accessEnabled: true → false") {
			t.Errorf("disable entry %q", r)
		}
		if r := found["consumer.update"]; r != nil && (!strings.Contains(r[5], "ratePerMinute: 90 → 120") ||
			!strings.Contains(r[5], "burst: 15 → 30") || !strings.Contains(r[5], "price: EUR 1 per 1000 calls → USD 0.002 per call")) {
			t.Errorf("update entry %q", r)
		}
		if r := found["consumer.create"]; r != nil && !strings.Contains(r[5], "name: Carrot Inc") {
			t.Errorf("create entry %q", r)
		}
		// Filtered by another consumer, none of these show.
		other := ops.get("/console/operator/audit?consumer=" + strconv.Itoa(tn.b.ID)).body
		for _, r := range rows(other) {
			if len(r) == 6 && r[3] == "Carrot Inc" {
				t.Errorf("audit filtered by %d shows %q", tn.b.ID, r)
			}
		}
	})

	t.Run("revoke a key with confirmation", func(t *testing.T) {
		k := h.key(id, "carrot prod")
		revoke := fill("/operator/consumers/{id}/keys/{keyID}/revoke", id, k.ID)
		page := ops.get(path).body
		wantContains(t, page, `<a class="button danger" href="`+revoke+`">Revoke</a>`)
		before := tn.snapshot(t)
		confirm := ops.get(revoke)
		wantStatus(t, confirm, http.StatusOK)
		wantContains(t, confirm.body, "<h1>Revoke key</h1>", "Revoke <strong>carrot prod</strong> (<code>"+k.Prefix+"…</code>)?",
			"This cannot be undone.", `<form class="row" method="post">`, `<a class="button secondary" href="`+path+`">Cancel</a>`)
		tn.wantUnchanged(t, before, "the revoke confirmation page")
		applied := h.applied.Load()
		wantRedirect(t, ops.post(revoke, nil), path)
		if got := h.keyInfo(id, k.ID); got.Status != access.KeyRevoked {
			t.Errorf("key %s", got.Status)
		}
		if h.applied.Load() != applied+1 {
			t.Error("Applied not called after revoking")
		}
		page = ops.get(path).body
		wantContains(t, page, "Revoked “carrot prod” ("+k.Prefix+"…).")
		wantNotContains(t, page, k.Key[len(k.Prefix):], revoke)
	})
}

// fieldProblems returns the messages beside the fields of a form, by field name.
func fieldProblems(body string) map[string]string {
	out := map[string]string{}
	for _, m := range reFieldProblem.FindAllStringSubmatch(body, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// reAutofocus finds the controls with autofocus, by name.
var reAutofocus = regexp.MustCompile(`<(?:input|textarea)[^>]* name="([a-z]+)"[^>]* autofocus[ >/]`)

var reFieldProblem = regexp.MustCompile(`<span class="field-problem" id="([a-z]+)-problem">([^<]*)</span>`)

func TestOperatorCreatesConsoleUser(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	ops := h.signedIn(tn.operator, password)
	path := consumerPath(tn.a.ID)

	r := ops.post(path+"/users", url.Values{"email": {"Nia@A.example"}})
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r.body, "nia@a.example", "It will not be shown again.", "expires at "+when(h.clock.Now().Add(access.DefaultPasswordLinkTTL)))
	m := reLink.FindStringSubmatch(r.body)
	if m == nil {
		t.Fatalf("no link\n%s", snippet(r.body))
	}
	link := m[1]
	if !strings.HasPrefix(link, h.ts.URL+"/console/set-password/") {
		t.Fatalf("link %q", link)
	}
	token := strings.TrimPrefix(link, h.ts.URL+"/console/set-password/")
	linkPath := "/console/set-password/" + token
	page := ops.get(path).body
	wantContains(t, page, "nia@a.example", "(password not set yet)")
	wantNotContains(t, page, token)
	wantNotContains(t, ops.get("/console/operator/audit").body, token)

	t.Run("duplicate email", func(t *testing.T) {
		wantRedirect(t, ops.post(path+"/users", url.Values{"email": {"nia@a.example"}}), path)
		if msg := flashError(ops.get(path).body); !strings.Contains(msg, "nia@a.example") {
			t.Errorf("flash error %q", msg)
		}
		wantRedirect(t, ops.post(path+"/users", url.Values{"email": {"not an email"}}), path)
		if msg := flashError(ops.get(path).body); msg == "" {
			t.Error("no message for a bad email")
		}
	})

	nia := h.browser()
	form := nia.get(linkPath)
	wantStatus(t, form, http.StatusOK)
	wantContains(t, form.body, "Choose a password for <strong>nia@a.example</strong>")

	mismatch := nia.post(linkPath, url.Values{"password": {"a long password 1"}, "confirm": {"a long password 2"}})
	wantStatus(t, mismatch, http.StatusBadRequest)
	wantContains(t, mismatch.body, "The two passwords differ.", "<strong>nia@a.example</strong>")

	weak := nia.post(linkPath, url.Values{"password": {"short"}, "confirm": {"short"}})
	wantStatus(t, weak, http.StatusBadRequest)
	wantContains(t, weak.body, "Password must be 12 to 256 characters.", "<strong>nia@a.example</strong>")
	wantNotContains(t, weak.body, "set password:", "invalid:")

	wantRedirect(t, nia.post(linkPath, url.Values{"password": {"nia's good password"}, "confirm": {"nia's good password"}}), "/console/login")
	for _, r := range []response{
		nia.get(linkPath),
		nia.post(linkPath, url.Values{"password": {"another password!"}, "confirm": {"another password!"}}),
		nia.post(linkPath, url.Values{"password": {"another password!"}, "confirm": {"mismatched password"}}),
	} {
		wantStatus(t, r, http.StatusNotFound)
		wantContains(t, r.body, "This link is no longer valid.")
	}
	wantRedirect(t, nia.signIn("nia@a.example", "nia's good password"), "/console/")
	keys := nia.get("/console/keys")
	wantStatus(t, keys, http.StatusOK)
	wantContains(t, keys.body, tn.keyA.Prefix+"…")
	wantNotContains(t, ops.get(path).body, "(password not set yet)")

	t.Run("link expires", func(t *testing.T) {
		r := ops.post(path+"/users", url.Values{"email": {"oz@a.example"}})
		wantStatus(t, r, http.StatusOK)
		m := reLink.FindStringSubmatch(r.body)
		lp := strings.TrimPrefix(m[1], h.ts.URL)
		wantStatus(t, h.browser().get(lp), http.StatusOK)
		h.clock.Advance(access.DefaultPasswordLinkTTL)
		wantStatus(t, h.browser().get(lp), http.StatusNotFound)
		wantStatus(t, h.browser().post(lp, url.Values{"password": {"a long password"}, "confirm": {"a long password"}}), http.StatusNotFound)
	})
}

// fixedStart is noon on a fixed day, away from UTC day and hour edges.
var fixedStart = time.Date(2025, 6, 15, 12, 30, 0, 0, time.UTC)

func eachBackend(t *testing.T, fn func(t *testing.T, open func(testing.TB) *store.Store)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, storetest.SQLite) })
	t.Run("postgres", func(t *testing.T) { fn(t, storetest.Postgres) })
}

func TestOperatorConsumerListUsage(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open), withStart(fixedStart))
		x, y := h.consumer("Xylo Ltd"), h.consumer("Yarrow plc")
		kx := h.key(x.ID, "xylo")
		h.operatorUser("ops@example.com", password)
		now := h.clock.Now()
		call := func(ago time.Duration, cost, status int) metering.Call {
			return metering.Call{ConsumerID: x.ID, KeyID: kx.ID, Operation: "getTrending", Status: status, Cost: cost,
				RequestID: fmt.Sprint("req-", ago), At: now.Add(-ago)}
		}
		h.writeCalls(
			call(30*time.Minute, 3, 200), call(30*time.Minute+time.Second, 3, 200), call(23*time.Hour, 5, 500), // last 24 h
			call(25*time.Hour, 7, 200), call(10*24*time.Hour, 1000, 200), call(29*24*time.Hour, 13, 200), // last 30 days
			call(31*24*time.Hour, 100000, 200), // older
		)
		ops := h.signedIn("ops@example.com", password)
		list := ops.get("/console/operator/consumers")
		wantStatus(t, list, http.StatusOK)
		if got, want := rowWith(t, list.body, "Xylo Ltd"), []string{"Xylo Ltd", "on", "3", "11", "1", "0", "60", "60"}; !reflect.DeepEqual(got, want) {
			t.Errorf("row %q, want %q", got, want)
		}
		if got, want := rowWith(t, list.body, "Yarrow plc"), []string{"Yarrow plc", "on", "0", "0", "0", "0", "60", "60"}; !reflect.DeepEqual(got, want) {
			t.Errorf("row %q, want %q", got, want)
		}
		search := ops.get("/console/operator/consumers?q=" + url.QueryEscape("XYL")).body
		wantContains(t, search, "Xylo Ltd")
		wantNotContains(t, search, "Yarrow plc")
		wantContains(t, ops.get("/console/operator/consumers?q=zzz").body, "No consumers matching “zzz”.")

		c := cards(ops.get(consumerPath(x.ID)).body)
		if c["Calls 24 h / 30 d"] != "3 / 6" || c["Units 24 h / 30 d"] != "11 / 1,031" {
			t.Errorf("consumer page cards %q", c)
		}
		_ = y
	})
}

// ---- Usage ----

type usageFixture struct {
	h          *harness
	a, b       access.Consumer
	k1, k2, kb access.IssuedKey
	calls      []metering.Call
}

// newUsageFixture seeds consumer A (keys k1, k2) with calls on each of the last 30 days and one
// older, and consumer B with its own calls.
func newUsageFixture(t *testing.T, open func(testing.TB) *store.Store) *usageFixture {
	h := newHarness(t, withStore(open), withStart(fixedStart))
	f := &usageFixture{h: h, a: h.consumer("Acme"), b: h.consumer("Bobco")}
	f.k1, f.k2 = h.key(f.a.ID, "acme one"), h.key(f.a.ID, "acme two")
	f.kb = h.key(f.b.ID, "bobco key")
	h.consumerUser(f.a.ID, "alice@a.example", password)
	h.consumerUser(f.b.ID, "bob@b.example", password)
	h.operatorUser("ops@example.com", password)
	today := time.Date(fixedStart.Year(), fixedStart.Month(), fixedStart.Day(), 0, 0, 0, 0, time.UTC)
	for i := range 31 {
		day := today.AddDate(0, 0, -i)
		for j := range i%4 + 1 {
			f.calls = append(f.calls, metering.Call{ConsumerID: f.a.ID, KeyID: f.k1.ID, Operation: "getTrending", Status: 200,
				Cost: 2, Latency: 1500 * time.Microsecond, RequestID: fmt.Sprintf("req-a1-%d-%d", i, j), At: day.Add(time.Duration(j+1) * time.Hour)})
		}
		if i%2 == 0 {
			f.calls = append(f.calls, metering.Call{ConsumerID: f.a.ID, KeyID: f.k2.ID, Operation: "getPoolChart", Status: 502,
				Cost: 0, Latency: 800 * time.Microsecond, RequestID: fmt.Sprintf("req-a2-%d", i), At: day.Add(90 * time.Minute)})
		}
		f.calls = append(f.calls, metering.Call{ConsumerID: f.b.ID, KeyID: f.kb.ID, Operation: "getBobSecret", Status: 200,
			Cost: 7777, RequestID: fmt.Sprintf("req-b-%d", i), At: day.Add(2 * time.Hour)})
	}
	h.writeCalls(f.calls...)
	return f
}

// The usage page's ranges, charts and tables are tested in usage_page_test.go.

// TestUsageRecentCallsKeyFilter: with a key filter the recent-calls log shows only that key's calls.
func TestUsageRecentCallsKeyFilter(t *testing.T) {
	f := newUsageFixture(t, storetest.SQLite)
	alice := f.h.signedIn("alice@a.example", password)
	r := alice.get("/console/usage?key=" + strconv.Itoa(f.k1.ID))
	shown := rows(section(r.body, "Recent calls"))[1:]
	if len(shown) == 0 {
		t.Fatal("filtered by a key with calls, the recent calls log is empty")
	}
	for _, row := range shown {
		if row[2] != f.k1.Name+" ("+f.k1.Prefix+"…)" {
			t.Errorf("filtered by %q, the recent calls show %q", f.k1.Name, row)
			break
		}
	}
}

// ---- Failures ----

func TestDeletedUserSessionIsDropped(t *testing.T) {
	tn := newTenants(t)
	alice := tn.h.signedIn(tn.userA, password)
	token := alice.cookie()
	n, err := tn.h.st.Client.ConsoleUser.Delete().Where(consoleuser.Email(tn.userA)).Exec(context.Background())
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	wantRedirect(t, alice.get("/console/keys"), "/console/login?next=%2Fconsole%2Fkeys&why=ended")
	if _, ok := tn.h.sessionRows()[token]; ok {
		t.Error("the session of a deleted user is still stored")
	}
}

func TestStoreFailuresAreNotShown(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	if _, err := h.st.DB.ExecContext(context.Background(), "DROP TABLE usage_dailies"); err != nil {
		t.Fatal(err)
	}
	r := alice.get("/console/usage")
	wantStatus(t, r, http.StatusInternalServerError)
	wantContains(t, r.body, "Something went wrong on our side. Please try again.")
	wantNotContains(t, r.body, "usage_dailies", "SQL", "sqlite")
	wantSecurityHeaders(t, r)
	if !strings.Contains(h.logs.String(), "usage_dailies") {
		t.Error("the failure is not logged")
	}

	// A session store that fails answers 503 for every page.
	if _, err := h.st.DB.ExecContext(context.Background(), "DROP TABLE console_sessions"); err != nil {
		t.Fatal(err)
	}
	r = alice.get("/console/keys")
	wantStatus(t, r, http.StatusServiceUnavailable)
	wantContains(t, r.body, "The console is temporarily unavailable.")
	wantNotContains(t, r.body, "console_sessions")
}

func TestAppliedFailureIsLoggedNotFatal(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	boom := fmt.Errorf("replica reload failed")
	h.appliedErr.Store(&boom)
	alice := h.signedIn(tn.userA, password)
	wantRedirect(t, alice.post(fill("/keys/{id}/revoke", tn.keyA.ID, 0), nil), "/console/keys")
	if k := h.keyInfo(tn.a.ID, tn.keyA.ID); k.Status != access.KeyRevoked {
		t.Errorf("key %s", k.Status)
	}
	if !strings.Contains(h.logs.String(), "replica reload failed") {
		t.Error("the failed Applied is not logged")
	}
}

// ---- Small pieces ----

func TestNamesAreEscaped(t *testing.T) {
	const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	h := newHarness(t)
	c := h.consumer("Evil " + payload)
	k := h.key(c.ID, "key "+payload)
	h.consumerUser(c.ID, "eve@e.example", password)
	h.operatorUser("ops@example.com", password)
	h.writeCalls(metering.Call{ConsumerID: c.ID, KeyID: k.ID, Operation: "op " + payload, Status: 200, Cost: 1,
		RequestID: "req " + payload, At: h.clock.Now()})
	eve := h.signedIn("eve@e.example", password)
	ops := h.signedIn("ops@example.com", password)
	wantRedirect(t, eve.post(fill("/keys/{id}/rename", k.ID, 0), url.Values{"name": {"renamed " + payload}}), "/console/keys")
	for _, r := range []response{
		eve.get("/console/keys"), // with the rename flash
		eve.follow(eve.post("/console/keys", url.Values{"name": {"new " + payload}})), // the key shown once
		eve.get(fill("/keys/{id}/revoke", k.ID, 0)),
		ops.get(fill("/operator/consumers/{id}/keys/{keyID}/revoke", c.ID, k.ID)),
		eve.get("/console/usage"),
		eve.get("/console/usage?requestId=" + url.QueryEscape("req "+payload)),
		eve.get("/console/plan"),
		eve.get(fill("/keys/{id}/rotate", k.ID, 0)),
		ops.get("/console/operator/consumers"),
		ops.get("/console/operator/consumers?q=" + url.QueryEscape(payload)),
		ops.get(consumerPath(c.ID)),
		ops.get(consumerPath(c.ID) + "/usage"),
		ops.get("/console/operator/audit"),
		h.browser().get("/console/login?next=" + url.QueryEscape("/console/"+payload)),
	} {
		wantStatus(t, r, http.StatusOK)
		wantNotContains(t, r.body, "<script>alert", "<img src=x")
	}
	// A plan form refused comes back with what was typed, escaped.
	refused := ops.post(consumerPath(c.ID), url.Values{"name": {"Evil " + payload}, "rpm": {payload}, "burst": {"1"},
		"allow": {payload}, "price": {payload}, "scopes": {payload}})
	wantStatus(t, refused, http.StatusBadRequest)
	wantNotContains(t, refused.body, "<script>alert", "<img src=x")
	// So does the page of a key in its grace.
	if _, _, err := h.acc.RotateKey(context.Background(), operatorActor, k.ID, time.Hour); err != nil {
		t.Fatal(err)
	}
	grace := eve.follow(eve.get(fill("/keys/{id}/rotate", k.ID, 0)))
	wantStatus(t, grace, http.StatusOK)
	wantNotContains(t, grace.body, "<script>alert", "<img src=x")
	// Shown, escaped.
	wantContains(t, eve.get("/console/keys").body, `value="renamed `+html.EscapeString(payload)+`"`)
	wantContains(t, ops.get("/console/operator/consumers").body, ">Evil "+html.EscapeString(payload)+"</a>")
}

func TestPlanPage(t *testing.T) {
	tn := newTenants(t)
	rpm, burst, price := 250, 40, "USD 1 per 1000 calls"
	allow, err := netipPrefixes("198.51.100.0/24", "2001:db8::/32")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tn.h.acc.UpdateConsumer(context.Background(), operatorActor, tn.a.ID, access.ConsumerChange{
		RatePerMinute: &rpm, Burst: &burst, Price: &price, Allow: &allow, DisabledOperations: &[]string{"getPoolChart"},
	}, ""); err != nil {
		t.Fatal(err)
	}
	r := tn.h.signedIn(tn.userA, password).get("/console/plan")
	wantStatus(t, r, http.StatusOK)
	got := text(r.body[strings.Index(r.body, `<dl class="plan">`):])
	for _, want := range []string{"API access on", "Scopes market:read", "Source allowlist 198.51.100.0/24, 2001:db8::/32",
		"Rate per minute 250", "Burst 40", "Switched-off endpoints getPoolChart", "Price USD 1 per 1000 calls"} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks %q: %s", want, got)
		}
	}
	wantNotContains(t, r.body, "<form class=\"stack\"", "Bobco")
}

func TestHelpers(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := num(n); got != want {
			t.Errorf("num(%d) = %q, want %q", n, got, want)
		}
	}
	for v, want := range map[int64]int64{0: 4, 4: 4, 5: 5, 7: 10, 11: 20, 100: 100, 101: 200, 250: 500, 999_999: 1_000_000} {
		if got := niceMax(v); got != want {
			t.Errorf("niceMax(%d) = %d, want %d", v, got, want)
		}
	}
	if got := latency(999); got != "999 µs" {
		t.Errorf("latency(999) = %q", got)
	}
	if got := latency(1500); got != "1.5 ms" {
		t.Errorf("latency(1500) = %q", got)
	}
	for in, want := range map[string]string{"/console/keys": "/console/keys", "/console/": "/console/", "/console": "",
		"//evil.example": "", "/console//evil": "/console//evil", "/console/\\evil": "", "https://x/console/": ""} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
	for d, want := range map[time.Duration]string{
		0: "1 second", time.Second: "1 second", 1500 * time.Millisecond: "2 seconds", 45 * time.Second: "45 seconds",
		time.Minute: "1 minute", 61 * time.Second: "2 minutes", 15 * time.Minute: "15 minutes", 59*time.Minute + time.Second: "1 hour",
		time.Hour: "1 hour", 65 * time.Minute: "1 hour 5 minutes", 2*time.Hour + time.Minute: "2 hours 1 minute", 24 * time.Hour: "24 hours",
	} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if got := userMessage(fmt.Errorf("update consumer 3: %w: rate per minute must be 0 to 1000000", access.ErrInvalid)); got != "Rate per minute must be 0 to 1000000." {
		t.Errorf("userMessage = %q", got)
	}
}

// TestOwnsMatchesMount: Owns claims exactly the requests that one router holding the console's
// routes (Mount) and a catch-all for everything else would give the console, so routing by it sends
// nothing of the console's elsewhere and nothing else to the console.
func TestOwnsMatchesMount(t *testing.T) {
	h := newHarness(t)
	both := chi.NewRouter()
	h.c.Mount(both)
	both.Handle("/*", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Header().Set("X-Served-By", "other") }))
	for _, target := range []string{
		"/", "/console", "/console/", "/console/login", "/console/keys/7", "/console/no-such-page", "/static/app.css",
		"/static/", "/v1/chains", "/v1/tokens/x/price", "/healthz", "/readyz", "/consoles", "/console-x", "/statics",
		"/static", "/v1/console/", "/x/static/app.css", "/console%2Flogin", "/%63onsole/login", "//console/login",
	} {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		w := httptest.NewRecorder()
		both.ServeHTTP(w, r)
		if console := w.Header().Get("X-Served-By") == ""; Owns(r) != console {
			t.Errorf("Owns(%s) = %v, but a router with the console's routes and a catch-all gives it to the console: %v", target, Owns(r), console)
		}
	}
}
