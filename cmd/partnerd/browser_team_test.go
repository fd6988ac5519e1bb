package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/store"
)

// Passwords of the team browser test's users (12+ characters).
const (
	teamOwnerPassword  = "owner-password-12"
	teamDevPassword    = "developer-password-1"
	teamViewerPassword = "viewer-password-123"
)

// TestBrowserTeam walks the console's teams and sign-in in Chromium: an owner invites a developer
// and a viewer, who set their passwords through the links and sign in; the viewer has no keys link
// and POST /console/keys answers 403; the owner resends an invitation (the old link dies) and
// removes the viewer (whose next page is the sign-in); the developer enrols TOTP, signs in with a
// generated code and with a recovery code, which works once; the owner's sessions list shows two
// browsers, and "sign out everywhere else" ends the other; an operator who must use two-factor
// sign-in is sent to enrol first. Screenshots: team, team-invite-link, account, account-2fa-enrol,
// account-recovery-codes, login-2fa, sessions, operator-2fa-required-enrol and
// operator-2fa-required-recovery-codes.
func TestBrowserTeam(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	m := startBrowserService(t, func(c *Config) { c.OperatorTwoFactor = true })
	base := "http://" + m.Addr()
	consumerID := seedTeam(t, m.Config.DatabaseURL)
	browserCtx := startChromium(t, chromium)

	owner := newTab(t, browserCtx, base, shots)
	owner.open("owner: login page", "/console/login", http.StatusOK)
	owner.signIn("owner@acme.example", teamOwnerPassword)
	owner.expectPath("owner signed in", "/console/keys")

	// Invite a developer and a viewer; each link is shown once.
	owner.open("team page", "/console/team", http.StatusOK)
	owner.expectHeading("team page", "Team")
	devLink := owner.invite("dev@acme.example", "developer")
	owner.screenshot("team-invite-link")
	viewerLink := owner.invite("viewer@acme.example", "viewer")
	owner.open("team page with invitations", "/console/team", http.StatusOK)
	if got := owner.text("team page: members", "main .members"); !strings.Contains(got, "viewer@acme.example") || !strings.Contains(got, "pending") {
		t.Errorf("team page lists %q, want the pending invitations", got)
	}
	owner.screenshot("team")

	dev := newTab(t, browserCtx, base, shots)
	dev.acceptInvitation(devLink, "dev@acme.example", teamDevPassword)
	dev.expectPath("developer signed in", "/console/keys")

	// The viewer: no keys link, no key form, and the server refuses a key by POST.
	viewer := newTab(t, browserCtx, base, shots)
	viewer.acceptInvitation(viewerLink, "viewer@acme.example", teamViewerPassword)
	viewer.expectPath("viewer signed in", "/console/usage")
	if n := browserRun(viewer, "viewer: keys links", chromedp.Evaluate[int](`document.querySelectorAll('a[href="/console/keys"], form[action="/console/keys"]').length`)); n != 0 {
		t.Errorf("the viewer's page has %d keys links or forms, want none", n)
	}
	viewer.expectRefusal(base + "/console/keys")
	viewer.open("viewer opens the keys page by URL", "/console/keys", http.StatusForbidden)
	// A form posted to /console/keys from the viewer's page, as a crafted page of the console would.
	resp := viewer.post("viewer posts a key", "/console/keys", map[string]string{"name": "sneaky"})
	if resp == nil || resp.Status != http.StatusForbidden {
		t.Errorf("POST /console/keys as a viewer: %v, want 403", resp)
	}

	// Resend an invitation: the new link works, the old one no longer.
	oldLink := owner.invite("later@acme.example", "viewer")
	owner.open("team page", "/console/team", http.StatusOK)
	owner.submit("resend the invitation", `form[action$="/resend"] button`)
	owner.expectHeading("invitation resent", "Invitation sent again")
	newLink := owner.text("resent link", "#set-password-link")
	if newLink == oldLink || !strings.Contains(newLink, "/console/set-password/") {
		t.Errorf("resent link %q (old %q)", newLink, oldLink)
	}
	other := newTab(t, browserCtx, base, shots)
	other.expectRefusal(oldLink)
	other.visit("the old invitation link", oldLink, http.StatusNotFound)
	other.visit("the new invitation link", newLink, http.StatusOK)

	// Remove the viewer: their session ends at once.
	owner.open("team page", "/console/team", http.StatusOK)
	owner.submit("remove the viewer", `a[href="/console/team/`+owner.memberID("viewer@acme.example")+`/remove"]`)
	owner.expectHeading("remove confirmation", "Remove viewer@acme.example")
	owner.submit("confirm removal", `main form button.danger`)
	owner.expectFlash("viewer removed", "Removed viewer@acme.example")
	viewer.open("the removed viewer's next page", "/console/usage", http.StatusOK)
	viewer.expectPath("the removed viewer's next page", "/console/login")

	// The developer enrols TOTP.
	dev.open("account page", "/console/account", http.StatusOK)
	dev.expectHeading("account page", "Account")
	dev.screenshot("account")
	dev.submit("set up two-factor sign-in", `a[href="/console/account/2fa"]`)
	secret, codes := dev.enrolTOTP("account-2fa-enrol", "account-recovery-codes")
	// Sign out; sign in with a generated code (the next step's: the enrolment used this one).
	dev.submit("sign out", `form[action="/console/logout"] button`)
	dev.signIn("dev@acme.example", teamDevPassword)
	dev.expectPath("password step", "/console/login/code")
	dev.screenshot("login-2fa")
	code, err := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	dev.enterCode(code)
	dev.expectPath("signed in with a TOTP code", "/console/keys")
	// Again with a recovery code; then the same code is refused, and so is the TOTP code.
	dev.submit("sign out", `form[action="/console/logout"] button`)
	dev.signIn("dev@acme.example", teamDevPassword)
	dev.enterCode(codes[0])
	dev.expectPath("signed in with a recovery code", "/console/keys")
	dev.submit("sign out", `form[action="/console/logout"] button`)
	dev.signIn("dev@acme.example", teamDevPassword)
	for _, used := range []string{codes[0], code} {
		dev.expectRefusal(base + "/console/login/code")
		dev.enterCode(used)
		dev.expectPath("a used code", "/console/login/code")
		if got := dev.text("a used code: error", "main .flash.error"); !strings.Contains(got, "Wrong or already used code") {
			t.Errorf("a used code: %q", got)
		}
	}

	// Sessions: the owner in a second browser; "sign out everywhere else" ends it.
	second := newTab(t, browserCtx, base, shots)
	second.open("second browser: login", "/console/login", http.StatusOK)
	second.signIn("owner@acme.example", teamOwnerPassword)
	second.expectPath("second browser signed in", "/console/keys")
	owner.open("account page: sessions", "/console/account", http.StatusOK)
	if n := browserRun(owner, "sessions listed", chromedp.Evaluate[int](`document.querySelectorAll('.sessions > li').length`)); n != 2 {
		t.Errorf("%d sessions listed, want 2", n)
	}
	if got := owner.text("this session", ".sessions .badge"); got != "this session" {
		t.Errorf("the current session is marked %q", got)
	}
	owner.screenshot("sessions")
	owner.submit("sign out everywhere else", `form[action="/console/account/sessions/end-others"] button`)
	owner.expectFlash("signed out elsewhere", "1 other session(s) ended")
	second.open("the other browser's next page", "/console/keys", http.StatusOK)
	second.expectPath("the other browser's next page", "/console/login")
	owner.open("the owner's own session stays", "/console/team", http.StatusOK)
	owner.expectPath("the owner's own session stays", "/console/team")

	// An operator who must use two-factor sign-in enrols before anything else.
	op := newTab(t, browserCtx, base, shots)
	op.open("operator: login", "/console/login", http.StatusOK)
	op.signIn("ops@example.com", browserOperatorPassword)
	op.expectPath("operator without 2FA", "/console/account/2fa")
	op.expectHeading("operator without 2FA", "Set up two-factor sign-in")
	op.enrolTOTP("operator-2fa-required-enrol", "operator-2fa-required-recovery-codes")
	op.open("operator: team of a consumer", fmt.Sprintf("/console/operator/consumers/%d/team", consumerID), http.StatusOK)
	if got := op.text("operator team page", "main .members"); !strings.Contains(got, "dev@acme.example") {
		t.Errorf("operator's team page lists %q", got)
	}
}

// seedTeam creates an operator (no two-factor sign-in yet) and a consumer with one owner.
func seedTeam(t *testing.T, databaseURL string) int {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	defer st.Close()
	svc := access.NewService(st.Client)
	op := access.Operator("test")
	if _, err := svc.CreateOperator(ctx, op, "ops@example.com", browserOperatorPassword); err != nil {
		t.Fatalf("seed operator: %v", err)
	}
	on := true
	cons, err := svc.CreateConsumer(ctx, op, "Acme Trading", access.ConsumerChange{AccessEnabled: &on})
	if err != nil {
		t.Fatalf("seed consumer: %v", err)
	}
	_, link, err := svc.Invite(ctx, op, cons.ID, "owner@acme.example", access.TeamOwner, 0)
	if err != nil {
		t.Fatalf("seed owner: %v", err)
	}
	if _, err := svc.SetPassword(ctx, link.Token, teamOwnerPassword); err != nil {
		t.Fatalf("seed owner password: %v", err)
	}
	return cons.ID
}

// invite fills the team page's invitation form and returns the link shown once.
func (b *tab) invite(email, role string) string {
	b.t.Helper()
	b.open("team page", "/console/team", http.StatusOK)
	b.fill("invite: email", `form.team-invite input[name="email"]`, email)
	browserRun(b, "invite: role", chromedp.SetValue(chromedp.CSS(`form.team-invite select[name="role"]`), role))
	b.submit("invite: submit", `form.team-invite button[type="submit"]`)
	b.expectHeading("invitation page", "Invitation created")
	link := b.text("invitation link", "#set-password-link")
	if !strings.HasPrefix(link, b.base+"/console/set-password/") {
		b.fatalf("invitation link", fmt.Errorf("link %q", link))
	}
	return link
}

// memberID is the user id in the team page's links of a member's card.
func (b *tab) memberID(email string) string {
	b.t.Helper()
	href := browserRun(b, "member "+email, chromedp.Evaluate[string](fmt.Sprintf(
		`[...document.querySelectorAll('.members > li')].find(li => li.querySelector('h3').textContent.includes(%q)).querySelector('a[href$="/remove"]').getAttribute('href')`, email)))
	parts := strings.Split(href, "/")
	return parts[len(parts)-2]
}

// acceptInvitation sets a password through an invitation link and signs in.
func (b *tab) acceptInvitation(link, email, password string) {
	b.t.Helper()
	b.visit("open the invitation", link, http.StatusOK)
	b.expectHeading("set-password page", "Set your password")
	b.fill("new password", `input[name="password"]`, password)
	b.fill("confirm", `input[name="confirm"]`, password)
	b.submit("set the password", `main form button[type="submit"]`)
	b.expectPath("password set", "/console/login")
	b.signIn(email, password)
}

// enrolTOTP confirms the enrolment page's secret with its current code and returns the secret and
// the recovery codes shown once, with a screenshot of each page.
func (b *tab) enrolTOTP(enrolShot, codesShot string) (string, []string) {
	b.t.Helper()
	if n := browserRun(b, "QR code", chromedp.Evaluate[int](`document.querySelector('img.qr').naturalWidth`)); n == 0 {
		b.fatalf("enrolment page", fmt.Errorf("the QR code image did not load"))
	}
	b.screenshot(enrolShot)
	secret := strings.ReplaceAll(b.text("secret", "#totp-secret"), " ", "")
	code, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		b.t.Fatal(err)
	}
	b.fill("enrol: code", `input[name="code"]`, code)
	b.submit("enrol: submit", `main form[action="/console/account/2fa"] button[type="submit"]`)
	b.expectHeading("recovery codes", "Recovery codes")
	codes := browserRun(b, "recovery codes", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#recovery-codes code')].map(c => c.textContent)`))
	if len(codes) != access.RecoveryCodeCount {
		b.fatalf("recovery codes", fmt.Errorf("%d codes shown", len(codes)))
	}
	b.screenshot(codesShot)
	return secret, codes
}

// enterCode submits the sign-in's second step.
func (b *tab) enterCode(code string) {
	b.t.Helper()
	b.expectHeading("code step", "Two-factor sign-in")
	b.fill("code", `input[name="code"]`, code)
	b.submit("code: submit", `main form[action="/console/login/code"] button[type="submit"]`)
}

// post submits a form built in the current page (same origin) and returns the response.
func (b *tab) post(step, action string, fields map[string]string) *network.Response {
	b.t.Helper()
	js := `(() => { const f = document.createElement('form'); f.method = 'post'; f.action = ` + strconv.Quote(action) + `;`
	for k, v := range fields {
		js += ` { const i = document.createElement('input'); i.type = 'hidden'; i.name = ` + strconv.Quote(k) + `; i.value = ` + strconv.Quote(v) + `; f.appendChild(i); }`
	}
	js += ` document.body.appendChild(f); f.submit(); return true; })()`
	ctx, cancel := context.WithTimeout(b.ctx, browserStepTimeout)
	defer cancel()
	submit := chromedp.Evaluate[bool](js)
	resp, err := chromedp.RunResponse(ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := submit(ctx, t)
		return chromedp.Void{}, err
	})
	if err != nil {
		b.fatalf(step, err)
	}
	return resp
}
