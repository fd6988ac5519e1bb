package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// The console across replicas: sessions live in the database and failed sign-ins are counted in
// Redis, so a browser's next request may land on any replica.

// consolePassword is the password of the operators these tests create.
const consolePassword = "replicas share one console, correct horse"

// consoleBrowser is a browser without JavaScript: a cookie jar, and redirects not followed, so
// each answer can be checked.
type consoleBrowser struct {
	t      *testing.T
	client *http.Client
}

func newConsoleBrowser(t *testing.T) *consoleBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &consoleBrowser{t: t, client: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// consolePage is one answer of the console.
type consolePage struct {
	status   int
	location string
	retry    string // Retry-After
	body     string
}

// do sends one request to base+path; a form makes it a POST. header: name, value, ...
func (b *consoleBrowser) do(base, path string, form url.Values, header ...string) consolePage {
	b.t.Helper()
	method, body := http.MethodGet, io.Reader(nil)
	if form != nil {
		method, body = http.MethodPost, strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s%s: %v", method, base, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatalf("%s %s%s: read body: %v", method, base, path, err)
	}
	return consolePage{status: resp.StatusCode, location: resp.Header.Get("Location"), retry: resp.Header.Get("Retry-After"), body: string(raw)}
}

// signIn posts the sign-in form to base.
func (b *consoleBrowser) signIn(base, email, password string) consolePage {
	b.t.Helper()
	return b.do(base, "/console/login", url.Values{"email": {email}, "password": {password}})
}

// session is the console session cookie the browser would send to base ("" when none).
func (b *consoleBrowser) session(base string) string {
	u, _ := url.Parse(base + "/console/")
	for _, c := range b.client.Jar.Cookies(u) {
		if c.Name == "partner_console" {
			return c.Value
		}
	}
	return ""
}

// createOperator creates an operator with consolePassword through the CLI.
func createOperator(r *e2e, email string) {
	r.t.Helper()
	op := *r
	op.env = append(slices.Clip(r.env), "PARTNER_OPERATOR_PASSWORD="+consolePassword)
	op.cli("operator", "create", "--email", email)
}

// TestReplicasConsole: two replicas on one PostgreSQL database and one Redis. A session signed in
// on A works on B; signed out on B, its cookie is refused on A. Failed sign-ins alternated over A
// and B are refused at exactly the count one replica refuses at, per account and per source.
func TestReplicasConsole(t *testing.T) {
	t.Parallel()
	rs := startReplicas(t, 2, 60_000, 1000, true, "PARTNER_REDIS_URL="+testRedisURL(t))
	a, b := rs.replicas[0], rs.replicas[1]
	name := map[*e2e]string{a: "A", b: "B"}
	for _, email := range []string{"ops@example.com", "victim@example.com", "solo@example.com"} {
		createOperator(a, email)
	}

	t.Run("session", func(t *testing.T) {
		br := newConsoleBrowser(t)
		p := br.signIn(a.base, "ops@example.com", consolePassword)
		if p.status != http.StatusSeeOther || p.location != "/console/" {
			a.fatalf("sign in on A: %d to %q, want 303 to /console/\n%s", p.status, p.location, p.body)
		}
		cookie := br.session(a.base)
		if cookie == "" {
			t.Fatal("sign in on A set no session cookie")
		}
		p = br.do(b.base, "/console/operator/consumers", nil)
		if p.status != http.StatusOK || !strings.Contains(p.body, "ops@example.com") || !strings.Contains(p.body, "Sign out") {
			b.fatalf("the signed-in page on B with A's session: %d, want 200 showing ops@example.com signed in\n%s", p.status, p.body)
		}
		t.Logf("signed in on A; B served the signed-in page with that cookie: %d", p.status)

		p = br.do(b.base, "/console/logout", url.Values{})
		if p.status != http.StatusSeeOther || !strings.Contains(p.location, "why=signed-out") {
			b.fatalf("sign out on B: %d to %q", p.status, p.location)
		}
		if n, err := rs.db.Client.ConsoleSession.Query().Count(t.Context()); err != nil || n != 0 {
			t.Fatalf("%d sessions left in the database after signing out (%v), want 0", n, err)
		}
		// The browser dropped the cookie; whoever kept a copy gets nothing from it on A.
		p = newConsoleBrowser(t).do(a.base, "/console/operator/consumers", nil, "Cookie", "partner_console="+cookie)
		if p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/console/login") || !strings.Contains(p.location, "why=ended") {
			a.fatalf("the signed-out cookie on A: %d to %q, want 303 to the sign-in page (why=ended)\n%s", p.status, p.location, p.body)
		}
		t.Logf("signed out on B; the old cookie on A: %d to %s", p.status, p.location)
	})

	t.Run("throttle", func(t *testing.T) {
		br := newConsoleBrowser(t)
		// failUntilRefused signs in with a wrong password through replicas in turn (accounts in
		// turn too when there are several) until one answers 429, and returns how many answered
		// 401 before, and the refusal.
		failUntilRefused := func(replicas []*e2e, accounts ...string) (int, consolePage, *e2e) {
			t.Helper()
			for i := 0; i < 100; i++ {
				r := replicas[i%len(replicas)]
				p := br.signIn(r.base, accounts[i%len(accounts)], "wrong password")
				switch p.status {
				case http.StatusUnauthorized:
					continue
				case http.StatusTooManyRequests:
					return i, p, r
				default:
					r.fatalf("failed sign-in %d on %s: %d, want 401 or 429\n%s", i+1, name[r], p.status, p.body)
				}
			}
			t.Fatal("no failed sign-in was refused after 100")
			return 0, consolePage{}, nil
		}
		checkRefusal := func(what string, p consolePage) {
			t.Helper()
			secs, err := strconv.Atoi(p.retry)
			if err != nil || secs < 1 || secs > int(access.SignInWindow.Seconds()) {
				t.Errorf("%s: Retry-After %q, want 1 to %d seconds", what, p.retry, int(access.SignInWindow.Seconds()))
			}
			if !strings.Contains(p.body, "Too many failed sign-ins") {
				t.Errorf("%s: the page does not say why:\n%s", what, p.body)
			}
		}

		// Per account, alternating A and B.
		across, p, on := failUntilRefused([]*e2e{a, b}, "victim@example.com")
		checkRefusal("victim on "+name[on], p)
		t.Logf("per account over A and B alternately: %d failures answered 401, the next (on %s) 429 with Retry-After %s s", across, name[on], p.retry)
		// Refused everywhere now, even with the right password.
		for _, r := range []*e2e{a, b} {
			if p := br.signIn(r.base, "victim@example.com", consolePassword); p.status != http.StatusTooManyRequests {
				r.fatalf("the right password for the throttled account on %s: %d, want 429", name[r], p.status)
			}
		}
		// The same on one replica.
		alone, p, _ := failUntilRefused([]*e2e{a}, "solo@example.com")
		checkRefusal("solo on A", p)
		t.Logf("per account on A alone: %d failures answered 401, the next 429", alone)
		if across != alone || alone != access.SignInAccountLimit {
			t.Errorf("refused after %d failures over two replicas and %d on one, want both %d", across, alone, access.SignInAccountLimit)
		}

		// Per source: this test's address (127.0.0.1) has used 2*SignInAccountLimit failures;
		// fresh accounts over A and B use up the rest.
		var fresh []string
		for i := range access.SignInSourceLimit {
			fresh = append(fresh, "guess"+strconv.Itoa(i)+"@example.com")
		}
		more, p, on := failUntilRefused([]*e2e{a, b}, fresh...)
		checkRefusal("source on "+name[on], p)
		source := across + alone + more
		t.Logf("per source over A and B: refused after %d failures from 127.0.0.1 (limit %d), the refusal on %s", source, access.SignInSourceLimit, name[on])
		if source != access.SignInSourceLimit {
			t.Errorf("the source was refused after %d failures, want %d", source, access.SignInSourceLimit)
		}
	})
}

// TestConsoleSignInRedisDown: with Redis down, sign-in fails closed: the form answers 503 with
// Retry-After and asks to try again (no password is checked), while a session signed in before
// keeps working (sessions are in the database); once Redis is back, sign-in works again without
// a restart.
func TestConsoleSignInRedisDown(t *testing.T) {
	t.Parallel()
	rd := startPrivateRedis(t)
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "p.db"), "PARTNER_ACCESS_LOG=0",
		"PARTNER_DEVNET_TRADE_INTERVAL=0", "PARTNER_REDIS_URL="+rd.url())
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: 30 * time.Second}}
	createOperator(e, "ops@example.com")

	before := newConsoleBrowser(t)
	if p := before.signIn(e.base, "ops@example.com", consolePassword); p.status != http.StatusSeeOther {
		e.fatalf("sign in with Redis up: %d\n%s", p.status, p.body)
	}

	rd.stop()
	br := newConsoleBrowser(t)
	for _, pw := range []string{consolePassword, "wrong password"} {
		start := time.Now()
		p := br.signIn(e.base, "ops@example.com", pw)
		took := time.Since(start)
		if p.status != http.StatusServiceUnavailable || p.retry == "" || !strings.Contains(p.body, "try again") || br.session(e.base) != "" {
			e.fatalf("sign in with Redis down: %d, Retry-After %q, session %q; want 503 asking to try again, no session\n%s",
				p.status, p.retry, br.session(e.base), p.body)
		}
		t.Logf("sign in with Redis down: %d after %v, Retry-After %s", p.status, took.Round(time.Millisecond), p.retry)
	}
	if p := before.do(e.base, "/console/operator/consumers", nil); p.status != http.StatusOK {
		e.fatalf("a session signed in before Redis went down: %d, want 200", p.status)
	}

	rd.start()
	start := time.Now()
	for {
		p := br.signIn(e.base, "ops@example.com", consolePassword)
		if p.status == http.StatusSeeOther && br.session(e.base) != "" {
			t.Logf("signing in again %v after Redis came back", time.Since(start).Round(time.Millisecond))
			break
		}
		if time.Since(start) > 10*time.Second {
			e.fatalf("sign in 10s after Redis came back: %d\n%s", p.status, p.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
