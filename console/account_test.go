package console

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/partner-platform/partnerd/store"
)

var (
	secretRe   = regexp.MustCompile(`id="totp-secret">([A-Z2-7 ]+)<`)
	recoveryRe = regexp.MustCompile(`<code>([a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4})</code>`)
	handleRe   = regexp.MustCompile(`/console/account/sessions/([A-Za-z0-9_-]{16})/end`)
)

// totpCode is the current code of a secret on the harness's clock.
func (h *harness) totpCode(secret string) string {
	h.t.Helper()
	c, err := totp.GenerateCode(secret, h.clock.Now())
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// enrol sets up two-factor sign-in for the browser's user and returns the secret and codes.
func (b *browser) enrol() (string, []string) {
	b.h.t.Helper()
	page := b.get("/console/account/2fa")
	wantStatus(b.h.t, page, 200)
	m := secretRe.FindStringSubmatch(page.body)
	if m == nil {
		b.h.t.Fatalf("no secret on the enrolment page: %s", snippet(page.body))
	}
	secret := strings.ReplaceAll(m[1], " ", "")
	r := b.post("/console/account/2fa", url.Values{"code": {b.h.totpCode(secret)}})
	wantStatus(b.h.t, r, 200)
	var codes []string
	for _, m := range recoveryRe.FindAllStringSubmatch(r.body, -1) {
		codes = append(codes, m[1])
	}
	if len(codes) != 10 {
		b.h.t.Fatalf("%d recovery codes shown: %s", len(codes), snippet(r.body))
	}
	b.h.clock.Advance(30 * time.Second) // the enrolment's code is used
	return secret, codes
}

func TestAccountPassword(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open))
		c := h.consumer("acme")
		h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
		b := h.signedIn("dev@acme.example", "team password 123")
		other := h.signedIn("dev@acme.example", "team password 123")
		page := b.get("/console/account")
		wantStatus(t, page, 200)
		wantContains(t, page.body, "Change password", "Two-factor sign-in", "Sessions")

		for _, tc := range []struct {
			form url.Values
			want string
		}{
			{url.Values{"current": {"wrong password 1"}, "password": {"new password 12345"}, "confirm": {"new password 12345"}}, "current password is wrong"},
			{url.Values{"current": {"team password 123"}, "password": {"new password 12345"}, "confirm": {"new password 1234"}}, "differ"},
			{url.Values{"current": {"team password 123"}, "password": {"short"}, "confirm": {"short"}}, "12 to 256 characters"},
			{url.Values{}, "current password is wrong"},
			{url.Values{"password": {"new password 12345"}, "confirm": {"new password 12345"}}, "current password is wrong"},
		} {
			r := b.post("/console/account/password", tc.form)
			wantRedirect(t, r, "/console/account")
			if got := flashError(b.follow(r).body); !strings.Contains(got, tc.want) {
				t.Fatalf("%v: flash %q, want %q", tc.form, got, tc.want)
			}
		}
		r := b.post("/console/account/password", url.Values{"current": {"team password 123"}, "password": {"new password 12345"}, "confirm": {"new password 12345"}})
		wantRedirect(t, r, "/console/account")
		wantContains(t, b.follow(r).body, "Your password is changed.", "Your other sessions have ended (1)")
		wantStatus(t, b.get("/console/keys"), 200) // this session stays
		if r := other.get("/console/keys"); r.StatusCode != http.StatusSeeOther || !strings.Contains(r.location(), "why=ended") {
			t.Fatalf("the other session: %d %s", r.StatusCode, r.location())
		}
		h.signedIn("dev@acme.example", "new password 12345")
		if r := h.browser().post("/console/login", url.Values{"email": {"dev@acme.example"}, "password": {"team password 123"}}); r.StatusCode != 401 {
			t.Fatalf("old password: %d", r.StatusCode)
		}
	})
}

func TestAccountTwoFactor(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open))
		c := h.consumer("acme")
		h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
		b := h.signedIn("dev@acme.example", "team password 123")

		// The enrolment page keeps its secret across reloads, shows a QR code as a PNG data: URL, and
		// refuses a wrong code.
		p1, p2 := b.get("/console/account/2fa"), b.get("/console/account/2fa")
		s1, s2 := secretRe.FindStringSubmatch(p1.body), secretRe.FindStringSubmatch(p2.body)
		if s1 == nil || s2 == nil || s1[1] != s2[1] {
			t.Fatalf("secrets %v %v", s1, s2)
		}
		wantContains(t, p1.body, `src="data:image/png;base64,`, "QR code")
		for _, bad := range []string{"", "123", "abcdef", "9999999"} {
			r := b.post("/console/account/2fa", url.Values{"code": {bad}})
			wantStatus(t, r, 400)
			wantContains(t, r.body, "not the current one")
		}
		secret, codes := b.enrol()
		if secret != strings.ReplaceAll(s1[1], " ", "") {
			t.Fatal("the confirmed secret is not the one shown first")
		}
		page := b.get("/console/account")
		wantContains(t, page.body, "10 unused recovery code(s) left")
		wantNotContains(t, page.body, codes[0], secret)
		if r := b.get("/console/account/2fa"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("enrolment page when on: %d", r.StatusCode)
		}

		// Sign-in in two steps.
		n := h.browser()
		r := n.post("/console/login", url.Values{"email": {"dev@acme.example"}, "password": {"team password 123"}, "next": {"/console/usage"}})
		wantRedirect(t, r, "/console/login/code")
		wantStatus(t, n.get("/console/keys"), http.StatusSeeOther) // not signed in yet
		wantStatus(t, n.get("/console/login/code"), 200)
		r = n.post("/console/login/code", url.Values{"code": {"000000"}})
		wantStatus(t, r, 401)
		wantContains(t, r.body, "Wrong or already used code")
		code := h.totpCode(secret)
		wantRedirect(t, n.post("/console/login/code", url.Values{"code": {code}}), "/console/usage")
		wantStatus(t, n.get("/console/keys"), 200)

		// The same code again, in another browser: refused. A recovery code: once.
		m := h.browser()
		wantRedirect(t, m.post("/console/login", url.Values{"email": {"dev@acme.example"}, "password": {"team password 123"}}), "/console/login/code")
		wantStatus(t, m.post("/console/login/code", url.Values{"code": {code}}), 401)
		wantRedirect(t, m.post("/console/login/code", url.Values{"code": {strings.ToUpper(codes[0])}}), "/console/")
		k := h.browser()
		k.post("/console/login", url.Values{"email": {"dev@acme.example"}, "password": {"team password 123"}})
		wantStatus(t, k.post("/console/login/code", url.Values{"code": {codes[0]}}), 401)

		// Without the password step, or after it expired: back to the password.
		wantRedirect(t, h.browser().post("/console/login/code", url.Values{"code": {codes[1]}}), "/console/login")
		h.clock.Advance(6 * time.Minute)
		wantRedirect(t, k.post("/console/login/code", url.Values{"code": {codes[1]}}), "/console/login")

		// New recovery codes and switching off need proof.
		b = h.signedIn2FA("dev@acme.example", "team password 123", secret)
		r = b.post("/console/account/2fa/recovery-codes", url.Values{"proof": {"wrong password 99"}})
		if got := flashError(b.follow(r).body); !strings.Contains(got, "Nothing was changed") {
			t.Fatalf("regenerate with a wrong proof: %q", got)
		}
		r = b.post("/console/account/2fa/recovery-codes", url.Values{"proof": {"team password 123"}})
		wantStatus(t, r, 200)
		if got := recoveryRe.FindAllString(r.body, -1); len(got) != 10 || strings.Contains(r.body, codes[1]) {
			t.Fatalf("new codes page: %d codes", len(got))
		}
		r = b.post("/console/account/2fa/off", url.Values{"proof": {"123456"}})
		if got := flashError(b.follow(r).body); !strings.Contains(got, "Nothing was changed") {
			t.Fatalf("off with a wrong code: %q", got)
		}
		h.clock.Advance(30 * time.Second)
		r = b.post("/console/account/2fa/off", url.Values{"proof": {h.totpCode(secret)}})
		wantRedirect(t, r, "/console/account")
		wantContains(t, b.follow(r).body, "Two-factor sign-in is off")
		h.signedIn("dev@acme.example", "team password 123") // the password alone again
	})
}

// signedIn2FA signs in with a password and the current TOTP code (advancing the clock a step).
func (h *harness) signedIn2FA(email, password, secret string) *browser {
	h.t.Helper()
	h.clock.Advance(30 * time.Second)
	b := h.browser()
	wantRedirect(h.t, b.post("/console/login", url.Values{"email": {email}, "password": {password}}), "/console/login/code")
	if r := b.post("/console/login/code", url.Values{"code": {h.totpCode(secret)}}); r.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("code step: %d %s", r.StatusCode, snippet(r.body))
	}
	return b
}

func TestSessionsList(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(testing.TB) *store.Store) {
		h := newHarness(t, withStore(open))
		c := h.consumer("acme")
		h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
		h.teamUser(c.ID, "other@acme.example", teamDeveloper)
		b := h.signedIn("dev@acme.example", "team password 123")
		o1 := h.signedIn("dev@acme.example", "team password 123")
		o2 := h.signedIn("dev@acme.example", "team password 123")
		stranger := h.signedIn("other@acme.example", "team password 123")

		page := b.get("/console/account")
		handles := handleRe.FindAllStringSubmatch(page.body, -1)
		if len(handles) != 3 || strings.Count(page.body, `badge active">this session`) != 1 {
			t.Fatalf("%d sessions listed: %s", len(handles), snippet(page.body))
		}
		wantContains(t, page.body, "127.0.0.1", "Go-http-client")
		// The sessions table holds who, when and from where.
		rows, err := h.st.Client.ConsoleSession.Query().All(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.UserID == nil || r.CreatedAt == nil || r.LastSeenAt == nil || r.IP != "127.0.0.1" || r.UserAgent == "" {
				t.Fatalf("session row %+v", r)
			}
		}
		// Another user's session handle: 404; an unknown one too.
		sp := stranger.get("/console/account")
		strangerHandle := handleRe.FindStringSubmatch(sp.body)[1]
		wantStatus(t, b.post("/console/account/sessions/"+strangerHandle+"/end", nil), 404)
		wantStatus(t, b.post("/console/account/sessions/AAAAAAAAAAAAAAAA/end", nil), 404)
		wantStatus(t, stranger.get("/console/keys"), 200)

		endedCookie := o1.cookie()
		ended := storedID(endedCookie)
		endedData := h.sessionRows()[ended]
		if endedData == nil {
			t.Fatal("no stored session for the browser's cookie")
		}
		// Sign out everywhere else: both other sessions end, this one stays.
		r := b.post("/console/account/sessions/end-others", nil)
		wantRedirect(t, r, "/console/account#sessions")
		wantContains(t, html.UnescapeString(b.follow(r).body), "2 other session(s) ended")
		for _, o := range []*browser{o1, o2} {
			if r := o.get("/console/keys"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.location(), "/console/login") {
				t.Fatalf("another session after sign out everywhere: %d", r.StatusCode)
			}
		}
		wantStatus(t, b.get("/console/keys"), 200)
		wantStatus(t, stranger.get("/console/keys"), 200)
		// A request of an ended session still in flight commits into nothing: it does not come back.
		if err := h.c.store.CommitCtx(t.Context(), ended, endedData, h.clock.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		o1.setCookie(endedCookie)
		if r := o1.get("/console/keys"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("an ended session came back after a late commit: %d", r.StatusCode)
		}

		// One session by handle.
		o3 := h.signedIn("dev@acme.example", "team password 123")
		// The handle listed by o3 for itself is the one marked "this session" on its page.
		o3page := o3.get("/console/account").body
		i := strings.Index(o3page, `badge active">this session`)
		self := handleRe.FindStringSubmatch(o3page[i:])[1]
		wantRedirect(t, b.post("/console/account/sessions/"+self+"/end", nil), "/console/account#sessions")
		if r := o3.get("/console/keys"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("ended session: %d", r.StatusCode)
		}
		wantStatus(t, b.get("/console/keys"), 200)
	})
}

func TestOperatorTwoFactorRequired(t *testing.T) {
	h := newHarness(t)
	h.c.deps.OperatorTwoFactor = true
	h.consumer("acme")
	h.operatorUser("root@example.com", "operator password")
	b := h.signedIn("root@example.com", "operator password")
	for _, p := range []string{"/console/operator/consumers", "/console/account", "/console/"} {
		wantRedirect(t, b.get(p), "/console/account/2fa")
	}
	wantRedirect(t, b.post("/console/operator/consumers", url.Values{"name": {"x"}}), "/console/account/2fa")
	page := b.get("/console/account/2fa")
	wantStatus(t, page, 200)
	wantContains(t, page.body, "Operators must use two-factor sign-in")
	secret, _ := b.enrol()
	wantStatus(t, b.get("/console/operator/consumers"), 200)
	account := b.get("/console/account")
	wantNotContains(t, account.body, "Switch two-factor sign-in off")
	r := b.post("/console/account/2fa/off", url.Values{"proof": {"operator password"}})
	if got := flashError(b.follow(r).body); !strings.Contains(got, "cannot be switched off") {
		t.Fatalf("off for a required operator: %q", got)
	}
	h.signedIn2FA("root@example.com", "operator password", secret).get("/console/operator/consumers")
	// Consumers' users are not concerned.
	c := h.consumer("beta")
	h.teamUser(c.ID, "dev@beta.example", teamDeveloper)
	wantStatus(t, h.signedIn("dev@beta.example", "team password 123").get("/console/keys"), 200)
}

// TestAccountTwoFactorSecretKey: without the service's secret key two-factor sign-in cannot be
// set up (503, saying so, never a secret); with a stored seed the key no longer opens (the key
// changed), a TOTP code at sign-in is answered 503 with the way out, a recovery code, which works,
// and a TOTP code as proof on the account page is refused in favour of the password.
func TestAccountTwoFactorSecretKey(t *testing.T) {
	t.Run("no key", func(t *testing.T) {
		h := newHarness(t, withoutSecretKey())
		c := h.consumer("acme")
		h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
		b := h.signedIn("dev@acme.example", "team password 123")
		r := b.get("/console/account/2fa")
		wantStatus(t, r, http.StatusServiceUnavailable)
		wantContains(t, r.body, "started without a secret key")
		if secretRe.MatchString(r.body) {
			t.Error("the page shows a secret")
		}
		wantContains(t, h.logs.String(), "PARTNER_SECRET_KEY")
	})
	t.Run("key changed", func(t *testing.T) {
		h := newHarness(t)
		c := h.consumer("acme")
		u := h.teamUser(c.ID, "dev@acme.example", teamDeveloper)
		b := h.signedIn("dev@acme.example", "team password 123")
		secret, codes := b.enrol()
		// The seed as sealed with another key: this service's key does not open it.
		if err := h.st.Client.ConsoleUser.UpdateOneID(u.ID).SetTotpSecret("v1.c2VhbGVkIHdpdGggYW5vdGhlciBrZXkgYnkgYW5vdGhlciBzZXJ2aWNl").Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		n := h.browser()
		wantRedirect(t, n.post("/console/login", url.Values{"email": {"dev@acme.example"}, "password": {"team password 123"}}), "/console/login/code")
		r := n.post("/console/login/code", url.Values{"code": {h.totpCode(secret)}})
		wantStatus(t, r, http.StatusServiceUnavailable)
		wantContains(t, r.body, "Sign in with one of your recovery codes")
		wantRedirect(t, n.post("/console/login/code", url.Values{"code": {codes[0]}}), "/console/")

		r = n.post("/console/account/2fa/recovery-codes", url.Values{"proof": {h.totpCode(secret)}})
		if got := flashError(n.follow(r).body); !strings.Contains(got, "Confirm with your password instead") {
			t.Errorf("a TOTP code as proof: flash %q", got)
		}
		wantStatus(t, n.post("/console/account/2fa/recovery-codes", url.Values{"proof": {"team password 123"}}), http.StatusOK)
	})
}
