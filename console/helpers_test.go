package console

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"golang.org/x/crypto/argon2"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent/consoleuser"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// testOperations are the operation ids the harness's console and access service know.
var testOperations = []string{"getTrending", "getPoolChart"}

// sessionCookie is the console's session cookie name.
const sessionCookie = "partner_console"

// clock is an injectable, goroutine-safe clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a console over a real store, served by an httptest server.
type harness struct {
	t       testing.TB
	st      *store.Store
	acc     *access.Service
	usage   *metering.UsageStore
	clock   *clock
	applied atomic.Int64
	// appliedErr is what Deps.Applied returns (nil: success).
	appliedErr atomic.Pointer[error]
	logs       *syncBuffer
	c          *Console
	handler    http.Handler
	ts         *httptest.Server
	tls        bool
}

type harnessOpt func(*harnessConfig)

type harnessConfig struct {
	tls         bool
	store       func(testing.TB) *store.Store
	start       time.Time
	noSecretKey bool
}

// withoutSecretKey runs the console's service without a secret key (two-factor sign-in cannot be
// set up).
func withoutSecretKey() harnessOpt { return func(c *harnessConfig) { c.noSecretKey = true } }

// withTLS serves over HTTPS with Secure cookies (the production setting).
func withTLS() harnessOpt { return func(c *harnessConfig) { c.tls = true } }

// withStore picks the backend (default storetest.SQLite).
func withStore(open func(testing.TB) *store.Store) harnessOpt {
	return func(c *harnessConfig) { c.store = open }
}

// withStart sets the injected clock's start (default: the real time, to the second).
func withStart(t time.Time) harnessOpt { return func(c *harnessConfig) { c.start = t } }

func newHarness(t testing.TB, opts ...harnessOpt) *harness {
	t.Helper()
	cfg := harnessConfig{store: storetest.SQLite, start: time.Now().UTC().Truncate(time.Second)}
	for _, o := range opts {
		o(&cfg)
	}
	h := &harness{t: t, clock: &clock{t: cfg.start}, logs: &syncBuffer{}, tls: cfg.tls}
	h.st = cfg.store(t)
	svcOpts := []access.ServiceOption{access.WithOperations(testOperations), access.WithServiceClock(h.clock.Now)}
	if !cfg.noSecretKey {
		key := make([]byte, access.SecretKeySize)
		rand.Read(key)
		box, err := access.NewSecretBox(key)
		if err != nil {
			t.Fatal(err)
		}
		svcOpts = append(svcOpts, access.WithSecretBox(box))
	}
	h.acc = access.NewService(h.st.Client, svcOpts...)
	h.usage = metering.NewUsageStore(h.st.Client, h.st.Dialect)
	h.c = New(Deps{
		Access:     h.acc,
		Usage:      h.usage,
		DB:         h.st.Client,
		Operations: testOperations,
		Applied: func(context.Context) error {
			h.applied.Add(1)
			if err := h.appliedErr.Load(); err != nil {
				return *err
			}
			return nil
		},
		InsecureCookies: !cfg.tls,
		Logger:          slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:             h.clock.Now,
	})
	r := chi.NewRouter()
	h.c.Mount(r)
	h.handler = r
	if cfg.tls {
		h.ts = httptest.NewTLSServer(r)
	} else {
		h.ts = httptest.NewServer(r)
	}
	t.Cleanup(h.ts.Close)
	return h
}

// operatorActor makes fixture changes.
var operatorActor = access.Operator("test-fixture")

// consumer creates a consumer with access on.
func (h *harness) consumer(name string) access.Consumer {
	h.t.Helper()
	on := true
	scopes := []string{"market:read"}
	c, err := h.acc.CreateConsumer(context.Background(), operatorActor, name,
		access.ConsumerChange{AccessEnabled: &on, Scopes: &scopes})
	if err != nil {
		h.t.Fatalf("create consumer %s: %v", name, err)
	}
	return c
}

// key creates a key of a consumer.
func (h *harness) key(consumerID int, name string) access.IssuedKey {
	h.t.Helper()
	k, err := h.acc.CreateKey(context.Background(), operatorActor, consumerID, name)
	if err != nil {
		h.t.Fatalf("create key: %v", err)
	}
	return k
}

// keys lists a consumer's keys as the service sees them.
func (h *harness) keys(consumerID int) []access.KeyInfo {
	h.t.Helper()
	ks, err := h.acc.ListKeys(context.Background(), operatorActor, consumerID)
	if err != nil {
		h.t.Fatalf("list keys: %v", err)
	}
	return ks
}

func (h *harness) keyInfo(consumerID, keyID int) access.KeyInfo {
	h.t.Helper()
	for _, k := range h.keys(consumerID) {
		if k.ID == keyID {
			return k
		}
	}
	h.t.Fatalf("key %d of consumer %d not found", keyID, consumerID)
	return access.KeyInfo{}
}

func (h *harness) consumerNow(id int) access.Consumer {
	h.t.Helper()
	c, err := h.acc.Consumer(context.Background(), operatorActor, id)
	if err != nil {
		h.t.Fatalf("read consumer %d: %v", id, err)
	}
	return c
}

// cheapHash is a valid argon2id PHC hash with tiny parameters: CheckPassword uses a hash's own
// parameters, so fixture users sign in through the real SignIn without 64 MiB argon2 runs (the
// set-password tests go through the real HashPassword).
func cheapHash(password string) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, 1, 64, 1, 32)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=64,t=1,p=1$%s$%s", argon2.Version, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// consumerUser creates a console user of a consumer (through the service) with a password.
func (h *harness) consumerUser(consumerID int, email, password string) access.User {
	h.t.Helper()
	u, _, err := h.acc.CreateConsumerUser(context.Background(), operatorActor, consumerID, email, 0)
	if err != nil {
		h.t.Fatalf("create user %s: %v", email, err)
	}
	if err := h.st.Client.ConsoleUser.UpdateOneID(u.ID).SetPasswordHash(cheapHash(password)).Exec(context.Background()); err != nil {
		h.t.Fatalf("set password of %s: %v", email, err)
	}
	return u
}

// operatorUser creates an operator console user with a password.
func (h *harness) operatorUser(email, password string) {
	h.t.Helper()
	err := h.st.Client.ConsoleUser.Create().SetEmail(email).SetPasswordHash(cheapHash(password)).
		SetRole(consoleuser.RoleOperator).SetCreatedAt(h.clock.Now()).Exec(context.Background())
	if err != nil {
		h.t.Fatalf("create operator %s: %v", email, err)
	}
}

// writeCalls records usage.
func (h *harness) writeCalls(calls ...metering.Call) {
	h.t.Helper()
	if err := h.usage.WriteCalls(context.Background(), calls); err != nil {
		h.t.Fatalf("write calls: %v", err)
	}
}

// sessionRows returns the data of every stored console session.
func (h *harness) sessionRows() map[string][]byte {
	h.t.Helper()
	rows, err := h.st.Client.ConsoleSession.Query().All(context.Background())
	if err != nil {
		h.t.Fatalf("read sessions: %v", err)
	}
	out := map[string][]byte{}
	for _, r := range rows {
		out[r.ID] = r.Data
	}
	return out
}

// browser is one person's HTTP client: its own cookie jar, redirects not followed.
type browser struct {
	h      *harness
	client *http.Client
	jar    *cookiejar.Jar
}

func (h *harness) browser() *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		h.t.Fatal(err)
	}
	c := &http.Client{}
	if h.tls {
		c = h.ts.Client()
	}
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &browser{h: h, client: c, jar: jar}
}

// signedIn returns a browser signed in as email.
func (h *harness) signedIn(email, password string) *browser {
	h.t.Helper()
	b := h.browser()
	b.signIn(email, password)
	return b
}

// response is a read response.
type response struct {
	*http.Response
	body string
}

func (r response) location() string { return r.Header.Get("Location") }

func (b *browser) do(req *http.Request) response {
	b.h.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.h.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.h.t.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return response{resp, string(body)}
}

func (b *browser) get(path string) response {
	b.h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.h.ts.URL+path, nil)
	if err != nil {
		b.h.t.Fatal(err)
	}
	return b.do(req)
}

// post submits a form; extra headers are name, value pairs.
func (b *browser) post(path string, form url.Values, headers ...string) response {
	b.h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.h.ts.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return b.do(req)
}

// follow GETs where a 303 leads, failing unless r is one.
func (b *browser) follow(r response) response {
	b.h.t.Helper()
	wantStatus(b.h.t, r, http.StatusSeeOther)
	return b.get(r.location())
}

// issued follows the redirect of a POST that created or rotated a key to the page that shows it
// once, and returns that page and the secret on it.
func (b *browser) issued(r response) (response, string) {
	b.h.t.Helper()
	wantRedirect(b.h.t, r, revealPath)
	page := b.follow(r)
	wantStatus(b.h.t, page, http.StatusOK)
	return page, secretOf(b.h.t, page.body)
}

func (b *browser) request(method, path string, form url.Values) response {
	b.h.t.Helper()
	if method == http.MethodPost {
		return b.post(path, form)
	}
	return b.get(path)
}

// signIn signs in and checks the redirect into the console.
func (b *browser) signIn(email, password string) response {
	b.h.t.Helper()
	r := b.post("/console/login", url.Values{"email": {email}, "password": {password}})
	if r.StatusCode != http.StatusSeeOther {
		b.h.t.Fatalf("sign in %s: status %d, want 303\n%s", email, r.StatusCode, r.body)
	}
	return r
}

// cookie is the session cookie the browser holds for /console ("" if none).
func (b *browser) cookie() string {
	u, _ := url.Parse(b.h.ts.URL + "/console/")
	for _, c := range b.jar.Cookies(u) {
		if c.Name == sessionCookie {
			return c.Value
		}
	}
	return ""
}

// setCookie replaces the browser's session cookie.
func (b *browser) setCookie(value string) {
	u, _ := url.Parse(b.h.ts.URL + "/console/")
	b.jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: value, Path: "/console"}})
}

// wantStatus fails unless the response has the status.
func wantStatus(t testing.TB, r response, status int) {
	t.Helper()
	if r.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d\nLocation: %s\n%s", r.Request.Method, r.Request.URL.Path, r.StatusCode, status,
			r.location(), snippet(r.body))
	}
}

// wantRedirect fails unless the response is a 303 to location.
func wantRedirect(t testing.TB, r response, location string) {
	t.Helper()
	wantStatus(t, r, http.StatusSeeOther)
	if got := r.location(); got != location {
		t.Fatalf("%s %s: Location %q, want %q", r.Request.Method, r.Request.URL.Path, got, location)
	}
}

func wantContains(t testing.TB, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("page lacks %q\n%s", s, snippet(body))
		}
	}
}

func wantNotContains(t testing.TB, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(body, s) {
			t.Errorf("page contains %q", s)
		}
	}
}

// snippet is the main content of a page, for failure messages.
func snippet(body string) string {
	if i := strings.Index(body, `<main`); i >= 0 {
		body = body[i:]
	}
	if len(body) > 3000 {
		body = body[:3000] + "…"
	}
	return body
}

var (
	reNewKey   = regexp.MustCompile(`<code id="new-key">([^<]+)</code>`)
	reLink     = regexp.MustCompile(`<code id="set-password-link">([^<]+)</code>`)
	reTag      = regexp.MustCompile(`<[^>]*>`)
	reSpace    = regexp.MustCompile(`\s+`)
	reRow      = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	reCell     = regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`)
	reBigCard  = regexp.MustCompile(`(?s)<div class="muted">([^<]+)</div><div class="big">(.*?)</div>`)
	reFlashErr = regexp.MustCompile(`(?s)<p class="flash error" role="alert">(.*?)</p>`)
)

// secretOf extracts the key shown once on a created or rotated page.
func secretOf(t testing.TB, body string) string {
	t.Helper()
	m := reNewKey.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no key on the page\n%s", snippet(body))
	}
	return html.UnescapeString(m[1])
}

// text is the visible text of an HTML fragment.
func text(s string) string {
	return strings.TrimSpace(reSpace.ReplaceAllString(html.UnescapeString(reTag.ReplaceAllString(s, " ")), " "))
}

// rows returns the text of each table row's cells.
func rows(body string) [][]string {
	var out [][]string
	for _, m := range reRow.FindAllStringSubmatch(body, -1) {
		var cells []string
		for _, c := range reCell.FindAllStringSubmatch(m[1], -1) {
			cells = append(cells, text(c[1]))
		}
		out = append(out, cells)
	}
	return out
}

// rowWith returns the cells of the first row whose first cell is first.
func rowWith(t testing.TB, body, first string) []string {
	t.Helper()
	for _, r := range rows(body) {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	t.Fatalf("no table row starting with %q\n%s", first, snippet(body))
	return nil
}

// section is the part of body from the heading text to the next <h2> (or the end).
func section(body, heading string) string {
	i := strings.Index(body, ">"+heading+"</h2>")
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest[1:], "<h2"); j >= 0 {
		return rest[:j+1]
	}
	return rest
}

// cards returns the big figures of a page's cards by label.
func cards(body string) map[string]string {
	out := map[string]string{}
	for _, m := range reBigCard.FindAllStringSubmatch(body, -1) {
		out[m[1]] = text(m[2])
	}
	return out
}

// flashError returns the error message on a page ("" if none).
func flashError(body string) string {
	m := reFlashErr.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return text(m[1])
}

func netipPrefixes(ss ...string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range ss {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
