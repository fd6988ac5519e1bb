package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/store"
)

// The browser tests drive the console in real headless Chromium (DESIGN.md section 9): a consumer
// sets a password, signs in, creates a key and sees it once (a reload shows it no more and creates
// nothing), calls the API with it, finds the call in usage, rotates it (once: the old key offers
// to end its grace instead) and revokes it; an operator has a plan form with a bad field come back
// as typed, switches a consumer's access off and on and the API follows at once, and revokes a key
// after confirming; signing out ends the session and says so; a form posted from another site is
// refused with a console page. Screenshots of the main pages go to $PARTNER_TEST_OUTPUT (default
// <repo>/testout/screenshots) for a look by eye.

// browserStepTimeout bounds one browser step, so that a page that never shows what a step waits
// for fails that step by name instead of hanging the test.
const browserStepTimeout = 15 * time.Second

// Passwords of the seeded console users (12+ characters).
const (
	browserOperatorPassword = "operator-password-1"
	browserConsumerPassword = "consumer-password-1"
	browserLeadPassword     = "lead-user-password-1"
)

func TestBrowserConsole(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	started := time.Now()
	t.Cleanup(func() {
		t.Logf("browser test took %v; screenshots in %s", time.Since(started).Round(time.Millisecond), shots)
	})

	// The service, in-process; its log is kept to check that no key secret reaches it.
	serverLog := &lockedBuffer{}
	m := &Main{
		Config: Config{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", SyncInterval: 500 * time.Millisecond},
		Log:    slog.New(slog.NewTextHandler(serverLog, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	})
	base := "http://" + m.Addr()
	seed := seedConsole(t, m.Config.DatabaseURL)

	// One browser for the whole test; each flow gets its own browser context (its own cookies).
	browserCtx := startChromium(t, chromium)

	var issued []string // every key secret seen, to check that none leaks into the log
	t.Cleanup(func() {
		for _, k := range append(issued, seed.opsKey) {
			if k != "" && strings.Contains(serverLog.String(), k) {
				t.Errorf("the server log contains the key secret %s…", k[:12])
			}
		}
	})

	t.Run("Consumer", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)

		// Set the password through the one-time link.
		b.open("open the set-password link", "/console/set-password/"+seed.link, http.StatusOK)
		b.expectHeading("set-password page", "Set your password")
		if got := b.text("set-password page: email", "main p strong"); got != seed.consumerEmail {
			t.Errorf("set-password page names %q, want %q", got, seed.consumerEmail)
		}
		b.screenshot("set-password")
		b.fill("set-password: new password", `input[name="password"]`, browserConsumerPassword)
		b.fill("set-password: confirm", `input[name="confirm"]`, browserConsumerPassword)
		b.submit("set-password: submit", `main form button[type="submit"]`)
		b.expectPath("after setting the password", "/console/login")
		b.expectFlash("after setting the password", "password is set")
		b.screenshot("login")

		// Sign in and land on the keys page, with a Secure, HttpOnly session cookie.
		b.signIn(seed.consumerEmail, browserConsumerPassword)
		b.expectPath("after signing in", "/console/keys")
		b.expectHeading("keys page", "API keys")
		b.expectSessionCookie()

		// Create a key: shown once, with the warning, on the page the form redirects to.
		keyRows := b.keyRowCount("keys before creating one")
		b.fill("create key: name", `form[action="/console/keys"] input[name="name"]`, "backend")
		b.submit("create key: submit", `form[action="/console/keys"] button[type="submit"]`)
		b.expectPath("key created page", "/console/keys/issued")
		b.expectHeading("key created page", "Key created")
		key := strings.TrimSpace(b.text("key created page: #new-key", "#new-key"))
		issued = append(issued, key)
		if !strings.HasPrefix(key, access.KeyPrefix) {
			t.Fatalf("key created page: #new-key = %q, want a key starting with %s", key, access.KeyPrefix)
		}
		if warn := b.text("key created page: warning", ".secret"); !strings.Contains(warn, "will not be shown again") {
			t.Errorf("key created page: the secret box says %q, want the warning that it will not be shown again", warn)
		}
		b.screenshot("keys-created")

		// Reloading shows the keys list with a note, creates no second key, and shows no secret.
		b.reload("reload the key created page")
		b.expectPath("key created page reloaded", "/console/keys")
		b.expectNote("key created page reloaded", "shown only once")
		if n := b.keyRowCount("keys after the reload"); n != keyRows+1 {
			t.Errorf("reloading the key created page: %d key rows, want %d (one new key)", n, keyRows+1)
		}
		if strings.Contains(b.html(), key) {
			t.Errorf("key created page reloaded: the whole key appears in the page HTML")
		}
		b.screenshot("keys-shown-once")

		// The keys list shows the prefix only.
		b.open("open the keys list", "/console/keys", http.StatusOK)
		prefix := b.keyRowPrefix("keys list", key)
		if html := b.html(); strings.Contains(html, key) {
			t.Errorf("keys list: the whole key appears in the page HTML")
		} else if !strings.Contains(html, prefix) {
			t.Errorf("keys list: the key's prefix %q is not in the page", prefix)
		}
		b.screenshot("keys")

		// Use the key against the API.
		other := apiGet(t, base, key)
		expectAPI(t, "GET trending with the new key (first call)", other, http.StatusOK, "")
		call := apiGet(t, base, key)
		expectAPI(t, "GET trending with the new key", call, http.StatusOK, "")
		if call.requestID == "" || call.requestID == other.requestID {
			t.Fatalf("GET trending: X-Request-Id %q (previous call %q), want a fresh request id", call.requestID, other.requestID)
		}

		// Usage: the call is in the recent calls log (written within a second or so) and in the
		// by-operation table.
		b.awaitInPage("usage page shows the call", "/console/usage", call.requestID, 10*time.Second)
		b.expectHeading("usage page", "Usage")
		if ops := b.tableAfterHeading("usage page", "By operation"); !strings.Contains(ops, "getTrending") {
			t.Errorf("usage page: the By operation table does not list getTrending:\n%s", ops)
		}
		b.screenshot("usage")

		// Search the recent calls by request id: exactly that call.
		b.fill("usage: request id search", `input[name="requestId"]`, call.requestID)
		b.submit("usage: find the call", `form:has(input[name="requestId"]) button[type="submit"]`)
		if got := b.query("usage search").Get("requestId"); got != call.requestID {
			t.Errorf("usage search: URL requestId = %q, want %q", got, call.requestID)
		}
		rows := browserRun(b, "usage search: recent call rows", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('#recent ~ table tbody tr')].map(tr => tr.innerText)`))
		if len(rows) != 1 || !strings.Contains(rows[0], call.requestID) || !strings.Contains(rows[0], "getTrending") || !strings.Contains(rows[0], "200") {
			t.Errorf("usage search by request id %s: rows %q, want exactly that call (getTrending, 200)", call.requestID, rows)
		}

		// The plan page, read-only.
		b.open("open the plan page", "/console/plan", http.StatusOK)
		b.expectHeading("plan page", "Plan")
		if plan := b.text("plan page: details", "dl.plan"); !strings.Contains(plan, "market:read") || !strings.Contains(plan, "tx:build") {
			t.Errorf("plan page: scopes missing from %q", plan)
		}
		b.screenshot("plan")

		// Rotate with a grace of 1 hour: a new key is shown once; the old one keeps working.
		b.open("open the keys list to rotate", "/console/keys", http.StatusOK)
		keyRows = b.keyRowCount("keys before rotating")
		rotateForm := b.keyRowAction("keys list", key, "rotate")
		b.submit("keys list: open Rotate", rotateForm)
		b.expectHeading("rotate page", "Rotate key")
		rotatePath := b.location("rotate page").Path
		b.click("rotate page: choose 1 hour", `input[name="grace"][value="1h"]`)
		b.submit("rotate page: submit", `main form button[type="submit"]`)
		b.expectPath("key rotated page", "/console/keys/issued")
		b.expectHeading("key rotated page", "Key rotated")
		rotated := strings.TrimSpace(b.text("key rotated page: #new-key", "#new-key"))
		issued = append(issued, rotated)
		if !strings.HasPrefix(rotated, access.KeyPrefix) || rotated == key {
			t.Fatalf("key rotated page: #new-key = %q, want a new key starting with %s", rotated, access.KeyPrefix)
		}
		if warn := b.text("key rotated page: warning", ".secret"); !strings.Contains(warn, "will not be shown again") {
			t.Errorf("key rotated page: the secret box says %q, want the warning that it will not be shown again", warn)
		}
		b.screenshot("key-rotated")
		expectAPI(t, "GET trending with the old key in its grace", apiGet(t, base, key), http.StatusOK, "")
		expectAPI(t, "GET trending with the rotated key", apiGet(t, base, rotated), http.StatusOK, "")

		// Reloading rotates nothing again.
		b.reload("reload the key rotated page")
		b.expectPath("key rotated page reloaded", "/console/keys")
		b.expectNote("key rotated page reloaded", "shown only once")
		if n := b.keyRowCount("keys after reloading the rotated page"); n != keyRows+1 {
			t.Errorf("reloading the key rotated page: %d key rows, want %d (one successor)", n, keyRows+1)
		}

		// The old key is not rotated twice: its row offers to end the grace, and its rotate page
		// (say, from the history) explains and leads there.
		if html := b.html(); strings.Contains(html, `href="`+rotatePath+`"`) {
			t.Errorf("keys list: the rotated key still has a Rotate link")
		}
		endGrace := b.keyRowAction("keys list", key, "end-grace")
		b.open("open the old key's rotate page again", rotatePath, http.StatusOK)
		b.expectHeading("old key's rotate page", "End the grace")
		if msg := b.text("old key's rotate page: message", "main .flash.error"); !strings.Contains(msg, "was already rotated") {
			t.Errorf("old key's rotate page says %q, want that the key was already rotated", msg)
		}
		b.screenshot("end-grace")
		b.open("open the keys list to end the grace", "/console/keys", http.StatusOK)
		b.submit("keys list: open End grace now", endGrace)
		b.expectHeading("end grace confirmation page", "End the grace")
		b.submit("end grace: confirm", `main form button.danger`)
		b.expectPath("after ending the grace", "/console/keys")
		b.expectFlash("after ending the grace", "Ended the grace")
		expectAPI(t, "GET trending with the old key after its grace ended", apiGet(t, base, key), http.StatusUnauthorized, "")
		expectAPI(t, "GET trending with the rotated key after the old one's grace ended", apiGet(t, base, rotated), http.StatusOK, "")

		// Revoke the new key through the confirmation page.
		b.open("open the keys list to revoke", "/console/keys", http.StatusOK)
		if strings.Contains(b.html(), rotated) {
			t.Errorf("keys list after rotation: the whole rotated key appears in the page HTML")
		}
		b.submit("keys list: open Revoke", b.keyRowAction("keys list", rotated, "revoke"))
		b.expectHeading("revoke confirmation page", "Revoke key")
		b.submit("revoke confirmation: confirm", `main form button.danger`)
		b.expectPath("after revoking", "/console/keys")
		b.expectFlash("after revoking", "Revoked")
		expectAPI(t, "GET trending with the revoked key", apiGet(t, base, rotated), http.StatusUnauthorized, "revoked_api_key")
	})

	t.Run("Operator", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)
		expectAPI(t, "GET trending with the consumer's live key, before", apiGet(t, base, seed.opsKey), http.StatusOK, "")

		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.operatorEmail, browserOperatorPassword)
		b.expectPath("operator after signing in", "/console/operator/consumers")
		b.expectHeading("consumers list", "Consumers")
		link := fmt.Sprintf(`main table a[href="/console/operator/consumers/%d"]`, seed.consumerID)
		if got := b.text("consumers list: the consumer's row", link); got != seed.consumerName {
			t.Errorf("consumers list: link to consumer %d reads %q, want %q", seed.consumerID, got, seed.consumerName)
		}
		b.screenshot("operator-consumers")

		b.submit("consumers list: open the consumer", link)
		consumerPath := fmt.Sprintf("/console/operator/consumers/%d", seed.consumerID)
		b.expectPath("consumer page", consumerPath)
		b.expectHeading("consumer page", seed.consumerName)
		b.screenshot("operator-consumer")

		// A plan with one bad field comes back as typed, with a message beside the field and the
		// focus on it; nothing is saved.
		rpm := b.value("plan form: rate per minute", `input[name="rpm"]`)
		b.fill("plan form: rate per minute", `input[name="rpm"]`, "90")
		b.typeInto("plan form: allowlist (empty)", `textarea[name="allow"]`, "192.0.2.0/24\n10.0.0.0/33")
		b.expectRefusal(b.base + consumerPath)
		if resp := b.submit("plan form: save", `form:has(textarea[name="allow"]) button[type="submit"]`); resp == nil || resp.Status != http.StatusBadRequest {
			t.Errorf("plan form with a bad CIDR: response %v, want 400", resp)
		}
		b.expectHeading("plan form refused", seed.consumerName)
		if msg := b.text("plan form refused: allowlist message", "#allow-problem"); !strings.Contains(msg, "10.0.0.0/33 is not a CIDR range: the prefix length after the / must be 0 to 32 for IPv4.") {
			t.Errorf("plan form refused: the allowlist says %q", msg)
		}
		if got := b.value("plan form refused: rate per minute", `input[name="rpm"]`); got != "90" {
			t.Errorf("plan form refused: rate per minute shows %q, want what was typed (90)", got)
		}
		if got := b.value("plan form refused: allowlist", `textarea[name="allow"]`); got != "192.0.2.0/24\n10.0.0.0/33" {
			t.Errorf("plan form refused: allowlist shows %q, want what was typed", got)
		}
		if focused := browserRun(b, "plan form refused: focus", chromedp.Evaluate[string](`document.activeElement.name || ''`)); focused != "allow" {
			t.Errorf("plan form refused: the focus is on %q, want the allowlist", focused)
		}
		if html := b.html(); strings.Contains(html, "netip") || strings.Contains(html, "parse cidrs") {
			t.Errorf("plan form refused: the page shows a Go error")
		}
		b.screenshot("operator-plan-refused")
		b.open("open the consumer page after the refused plan", consumerPath, http.StatusOK)
		if got := b.value("consumer page: rate per minute", `input[name="rpm"]`); got != rpm {
			t.Errorf("after a refused plan the rate per minute is %q, want it unchanged (%q)", got, rpm)
		}

		// Switch access off: the very next call is refused.
		const offReason = "Unpaid invoice INV-0042"
		b.fill("consumer page: reason", `form[action$="/access"] input[name="reason"]`, offReason)
		b.submit("consumer page: switch access off", `form[action$="/access"] button[type="submit"]`)
		b.expectFlash("after switching access off", "Access is off")
		if got := b.text("consumer page: access badge", "main .card .badge"); got != "off" {
			t.Errorf("consumer page after switching off: access badge %q, want off", got)
		}
		expectAPI(t, "GET trending right after access was switched off", apiGet(t, base, seed.opsKey), http.StatusUnauthorized, "access_disabled")

		// The audit log shows the change with its reason.
		b.open("open the audit log", "/console/operator/audit", http.StatusOK)
		b.expectHeading("audit log", "Audit log")
		entries := browserRun(b, "audit log: rows", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('main tbody tr')].map(tr => tr.innerText)`))
		found := false
		for _, e := range entries {
			if strings.Contains(e, offReason) && strings.Contains(e, "consumer.disable") && strings.Contains(e, "operator:"+seed.operatorEmail) {
				found = true
			}
		}
		if !found {
			t.Errorf("audit log: no consumer.disable row by operator:%s with reason %q; rows:\n%s", seed.operatorEmail, offReason, strings.Join(entries, "\n"))
		}
		b.screenshot("audit")

		// Switch it back on.
		b.open("open the consumer page again", fmt.Sprintf("/console/operator/consumers/%d", seed.consumerID), http.StatusOK)
		b.fill("consumer page: reason", `form[action$="/access"] input[name="reason"]`, "Invoice paid")
		b.submit("consumer page: switch access on", `form[action$="/access"] button[type="submit"]`)
		b.expectFlash("after switching access on", "Access is on")
		expectAPI(t, "GET trending right after access was switched on", apiGet(t, base, seed.opsKey), http.StatusOK, "")

		// Revoking a key asks first, as on the consumers' side.
		revoke := fmt.Sprintf(`main a[href="%s/keys/%d/revoke"]`, consumerPath, seed.opsKeyID)
		b.submit("consumer page: open Revoke", revoke)
		b.expectHeading("operator revoke confirmation page", "Revoke key")
		b.screenshot("operator-revoke")
		expectAPI(t, "GET trending while the revoke waits for confirmation", apiGet(t, base, seed.opsKey), http.StatusOK, "")
		b.submit("operator revoke: confirm", `main form button.danger`)
		b.expectPath("after the operator revoked", consumerPath)
		b.expectFlash("after the operator revoked", "Revoked")
		expectAPI(t, "GET trending with the key the operator revoked", apiGet(t, base, seed.opsKey), http.StatusUnauthorized, "revoked_api_key")
	})

	t.Run("SignOut", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)
		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.leadEmail, browserLeadPassword)
		b.expectPath("after signing in", "/console/keys")
		b.submit("sign out", `form[action="/console/logout"] button[type="submit"]`)
		b.expectPath("after signing out", "/console/login")
		b.expectNote("after signing out", "You have been signed out.")
		b.screenshot("signed-out")
		b.open("open the keys page signed out", "/console/keys", http.StatusOK)
		b.expectPath("keys page signed out", "/console/login")
		if next := b.query("keys page signed out").Get("next"); next != "/console/keys" {
			t.Errorf("keys page signed out: redirected with next=%q, want /console/keys", next)
		}
		b.expectNote("keys page signed out", "Sign in to continue.")
		b.waitVisible("login form after signing out", `input[name="password"]`)
	})

	t.Run("CrossOrigin", func(t *testing.T) {
		// Another site (another origin) with a form that posts to the console.
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Elsewhere</title><link rel="icon" href="data:,"></head>`+
				`<body><form method="post" action="%s/console/logout"><button type="submit">Win a prize</button></form></body></html>`, base)
		}))
		t.Cleanup(other.Close)
		b := newTab(t, browserCtx, base, shots)
		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.leadEmail, browserLeadPassword)
		b.expectPath("after signing in", "/console/keys")
		b.visit("open the other site", other.URL, http.StatusOK)
		b.expectRefusal(base + "/console/logout")
		resp := b.submit("other site: post the form", `form button[type="submit"]`)
		if resp == nil || resp.Status != http.StatusForbidden {
			t.Errorf("cross-origin post: response %v, want 403", resp)
		}
		b.expectHeading("cross-origin refusal", "Request refused")
		if msg := b.text("cross-origin refusal: message", "main p"); !strings.Contains(msg, "sent from another website") {
			t.Errorf("cross-origin refusal says %q", msg)
		}
		b.screenshot("cross-origin-refused")
		b.submit("cross-origin refusal: back to the console", `main a[href="/console/"]`)
		b.expectPath("back in the console, still signed in", "/console/keys")
	})
}

// startBrowserService runs the service in-process on SQLite for a browser test, polling for
// changes every 200 ms, with its log discarded and its configuration changed by configure; it
// stops when the test ends.
func startBrowserService(t *testing.T, configure ...func(*Config)) *Main {
	t.Helper()
	m := &Main{
		Config: Config{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + t.TempDir() + "/p.db", SyncInterval: 200 * time.Millisecond},
		Log:    slog.New(slog.DiscardHandler),
	}
	for _, f := range configure {
		f(&m.Config)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	})
	return m
}

// chromiumPath finds Debian's Chromium, or skips (fails under PARTNER_TEST_REQUIRE_ALL=1).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser: starts Chromium; skipped with -short")
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		msg := "browser tests need Chromium: no `chromium` on PATH (Debian: apt-get install chromium)"
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// screenshotDir is $PARTNER_TEST_OUTPUT or <repo>/testout/screenshots, created.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PARTNER_TEST_OUTPUT")
	if dir == "" {
		root, err := filepath.Abs(".")
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
				break
			}
			parent := filepath.Dir(root)
			if parent == root {
				t.Fatal("screenshots: no go.mod above the test's directory; set PARTNER_TEST_OUTPUT")
			}
			root = parent
		}
		dir = filepath.Join(root, "testout", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("screenshots: %v", err)
	}
	return dir
}

// consoleSeed is what the browser test seeds through the domain.
type consoleSeed struct {
	operatorEmail string
	consumerID    int
	consumerName  string
	consumerEmail string
	link          string // set-password token of consumerEmail
	leadEmail     string // a second user of the consumer, password already set
	opsKey        string // a live key of the consumer, for the operator flow
	opsKeyID      int
}

func seedConsole(t *testing.T, databaseURL string) consoleSeed {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("seed: open store: %v", err)
	}
	defer st.Close()
	ids := []string{}
	for _, op := range api.Operations() {
		ids = append(ids, op.ID)
	}
	svc := access.NewService(st.Client, access.WithOperations(ids))
	op := access.Operator("test")
	s := consoleSeed{operatorEmail: "ops@example.com", consumerName: "Acme Trading",
		consumerEmail: "dev@acme.example", leadEmail: "lead@acme.example"}

	if _, err := svc.CreateOperator(ctx, op, s.operatorEmail, browserOperatorPassword); err != nil {
		t.Fatalf("seed: create operator: %v", err)
	}
	scopes, on := append([]string(nil), access.Scopes...), true
	cons, err := svc.CreateConsumer(ctx, op, s.consumerName, access.ConsumerChange{Scopes: &scopes, AccessEnabled: &on})
	if err != nil {
		t.Fatalf("seed: create consumer: %v", err)
	}
	s.consumerID = cons.ID
	_, link, err := svc.CreateConsumerUser(ctx, op, cons.ID, s.consumerEmail, 0)
	if err != nil {
		t.Fatalf("seed: create consumer user: %v", err)
	}
	s.link = link.Token
	_, lead, err := svc.CreateConsumerUser(ctx, op, cons.ID, s.leadEmail, 0)
	if err != nil {
		t.Fatalf("seed: create second consumer user: %v", err)
	}
	if _, err := svc.SetPassword(ctx, lead.Token, browserLeadPassword); err != nil {
		t.Fatalf("seed: set second user's password: %v", err)
	}
	k, err := svc.CreateKey(ctx, op, cons.ID, "ops-check")
	if err != nil {
		t.Fatalf("seed: create key: %v", err)
	}
	s.opsKey, s.opsKeyID = k.Key, k.ID
	return s
}

// apiResult is one answer of the partner API.
type apiResult struct {
	status    int
	code      string
	requestID string
	body      string
}

// apiGet calls GET /v1/markets/trending with key, the way a partner's backend would.
func apiGet(t *testing.T, base, key string) apiResult {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/v1/markets/trending", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET /v1/markets/trending: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(raw, &body)
	return apiResult{status: resp.StatusCode, code: body.Code, requestID: resp.Header.Get("X-Request-Id"), body: string(raw)}
}

// expectAPI checks an API answer's status and, when code is not empty, its error code.
func expectAPI(t *testing.T, what string, r apiResult, status int, code string) {
	t.Helper()
	if r.status != status || (code != "" && r.code != code) {
		want := fmt.Sprint(status)
		if code != "" {
			want += " " + code
		}
		t.Fatalf("%s: got %d %s, want %s\nbody: %s", what, r.status, r.code, want, r.body)
	}
}

// tab is one browser tab in a browser context of its own, driven by one subtest.
type tab struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string

	mu      sync.Mutex
	console []string        // errors and exceptions the pages wrote to the console
	refused map[string]bool // URLs whose error status a step expects (Chromium logs it as an error)
}

func newTab(t *testing.T, browserCtx context.Context, base, shots string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	b := &tab{t: t, ctx: ctx, base: base, shots: shots}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		cancel()
		t.Fatalf("open a browser tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for msg, err := range messages {
			if err != nil {
				return
			}
			// The console links no icon, so Chromium asks for /favicon.ico, which the API answers 404.
			if strings.HasSuffix(msg.URL, "/favicon.ico") {
				continue
			}
			if msg.Type == chromedp.ConsoleError || msg.IsException() {
				b.mu.Lock()
				if !b.refused[msg.URL] || !strings.HasPrefix(msg.Text, "Failed to load resource: the server responded with a status of") {
					b.console = append(b.console, fmt.Sprintf("%s (%s)", msg, msg.URL))
				}
				b.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		b.mu.Lock()
		defer b.mu.Unlock()
		if len(b.console) > 0 {
			t.Errorf("the console pages wrote errors to the browser console (CSP violations, script errors, failed loads):\n%s", strings.Join(b.console, "\n"))
		}
	})
	return b
}

// fatalf fails the test at a step, saying where the browser is and what the page says.
func (b *tab) fatalf(step string, err error) {
	b.t.Helper()
	b.t.Fatalf("%s: %v\n%s", step, err, b.where())
}

// where describes the current page for a failure message.
func (b *tab) where() string {
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Second)
	defer cancel()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		return fmt.Sprintf("(browser location unknown: %v)", err)
	}
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('main') || document.body || {innerText: ''}).innerText`))
	if len(text) > 1500 {
		text = text[:1500] + "…"
	}
	return fmt.Sprintf("browser at %s, page text:\n%s", loc, text)
}

// browserRun runs one action of a step with the step timeout and returns its value.
func browserRun[T any](b *tab, step string, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.fatalf(step, err)
	}
	return v
}

// open navigates to a console path and checks the final document's status (after redirects).
func (b *tab) open(step, path string, status int) {
	b.t.Helper()
	resp := browserRun(b, step, chromedp.NavigateResponse(b.base+path))
	if resp == nil || int(resp.Status) != status {
		got := "no response"
		if resp != nil {
			got = fmt.Sprintf("%d", resp.Status)
		}
		b.fatalf(step, fmt.Errorf("GET %s: status %s, want %d", path, got, status))
	}
}

// submit clicks a button or link that loads a new page, and waits for that page.
func (b *tab) submit(step, sel string) *network.Response {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepTimeout)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		b.fatalf(step, fmt.Errorf("click %s and wait for the next page: %w", sel, err))
	}
	return resp
}

// expectRefusal tells the tab that a page at url is answered with an error status on purpose, so
// that Chromium's log entry about it is not taken for a broken page.
func (b *tab) expectRefusal(url string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refused == nil {
		b.refused = map[string]bool{}
	}
	b.refused[url] = true
}

// visit navigates to any URL (another site's, say) and checks the final document's status.
func (b *tab) visit(step, url string, status int) {
	b.t.Helper()
	resp := browserRun(b, step, chromedp.NavigateResponse(url))
	if resp == nil || int(resp.Status) != status {
		b.fatalf(step, fmt.Errorf("GET %s: response %v, want %d", url, resp, status))
	}
}

// reload reloads the current page, as a person pressing F5 does.
func (b *tab) reload(step string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepTimeout)
	defer cancel()
	if _, err := chromedp.RunResponse(ctx, chromedp.Reload()); err != nil {
		b.fatalf(step, err)
	}
}

// value is the current value of a form control.
func (b *tab) value(step, sel string) string {
	b.t.Helper()
	return browserRun(b, step, chromedp.Value(chromedp.CSS(sel), chromedp.NodeVisible))
}

func (b *tab) click(step, sel string) {
	b.t.Helper()
	browserRun(b, step, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// fill types a value into a field, emptying it first.
func (b *tab) fill(step, sel, value string) {
	b.t.Helper()
	browserRun(b, step, chromedp.Steps(
		chromedp.Clear(chromedp.CSS(sel), chromedp.NodeVisible),
		typeKeys(sel, value),
	))
}

// typeInto types a value into an empty field (Chromium's Clear needs text in a textarea).
func (b *tab) typeInto(step, sel, value string) {
	b.t.Helper()
	browserRun(b, step, typeKeys(sel, value))
}

// typeKeys focuses the field and types value into it, key by key, as SendKeys does for a text
// field, but without SendKeys' unlocked read of the node's attributes, which races with the DOM
// events that change them (chromedp 0.23; the race detector caught it in TestBrowserTeam).
func typeKeys(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Focus(chromedp.CSS(sel), chromedp.NodeVisible), chromedp.KeyEvent(value))
}

func (b *tab) waitVisible(step, sel string) {
	b.t.Helper()
	browserRun(b, step, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// text is the visible text of the first element matching sel, once it is visible.
func (b *tab) text(step, sel string) string {
	b.t.Helper()
	return strings.TrimSpace(browserRun(b, step, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible)))
}

func (b *tab) html() string {
	b.t.Helper()
	return browserRun(b, "read the page HTML", chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}

func (b *tab) location(step string) *url.URL {
	b.t.Helper()
	loc := browserRun(b, step+": location", chromedp.Location())
	u, err := url.Parse(loc)
	if err != nil {
		b.fatalf(step, err)
	}
	return u
}

func (b *tab) query(step string) url.Values { b.t.Helper(); return b.location(step).Query() }

func (b *tab) expectPath(step, want string) {
	b.t.Helper()
	if got := b.location(step).Path; got != want {
		b.fatalf(step, fmt.Errorf("at path %s, want %s", got, want))
	}
}

func (b *tab) expectHeading(step, want string) {
	b.t.Helper()
	if got := b.text(step+": heading", "main h1"); got != want {
		b.fatalf(step, fmt.Errorf("heading %q, want %q", got, want))
	}
}

func (b *tab) expectFlash(step, want string) {
	b.t.Helper()
	if got := b.text(step+": flash message", "main .flash.ok"); !strings.Contains(got, want) {
		b.fatalf(step, fmt.Errorf("flash message %q, want it to contain %q", got, want))
	}
}

// expectNote checks the page's notice or warning (not an error, not a success).
func (b *tab) expectNote(step, want string) {
	b.t.Helper()
	if got := b.text(step+": notice", "main .flash:not(.ok):not(.error)"); !strings.Contains(got, want) {
		b.fatalf(step, fmt.Errorf("notice %q, want it to contain %q", got, want))
	}
}

// keyRowCount is the number of key cards on the keys page.
func (b *tab) keyRowCount(step string) int {
	b.t.Helper()
	return browserRun(b, step+": key cards", chromedp.Evaluate[int](`document.querySelectorAll('main .key-card').length`))
}

// signIn fills and submits the login form on the current page.
func (b *tab) signIn(email, password string) {
	b.t.Helper()
	b.expectHeading("login page", "Sign in")
	b.fill("login: email", `input[name="email"]`, email)
	b.fill("login: password", `input[name="password"]`, password)
	b.submit("login: submit", `main form[action="/console/login"] button[type="submit"]`)
}

// expectSessionCookie checks that Chromium kept the console's session cookie with its attributes:
// Secure (accepted on http://127.0.0.1, a secure context), HttpOnly, SameSite=Lax.
func (b *tab) expectSessionCookie() {
	b.t.Helper()
	cookies := browserRun(b, "read cookies", func(ctx context.Context, t *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{b.base + "/console/keys"}})
	})
	for _, c := range cookies.Cookies {
		if c.Name != "partner_console" {
			continue
		}
		if !c.Secure || !c.HTTPOnly || c.SameSite != network.CookieSameSiteLax || c.Path != "/console" {
			b.t.Errorf("session cookie: secure=%v httpOnly=%v sameSite=%q path=%q, want Secure, HttpOnly, Lax, /console",
				c.Secure, c.HTTPOnly, c.SameSite, c.Path)
		}
		return
	}
	b.fatalf("session cookie", errors.New("Chromium holds no partner_console cookie for "+b.base+" after signing in"))
}

// keyRowPrefix is the displayed prefix (without the ellipsis) of the key card for key.
func (b *tab) keyRowPrefix(step, key string) string {
	b.t.Helper()
	prefixes := browserRun(b, step+": key prefixes", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('main .key-card .key-prefix')].map(c => c.textContent.trim())`))
	for _, p := range prefixes {
		p = strings.TrimSuffix(p, "…")
		if len(p) >= len(access.KeyPrefix)+4 && strings.HasPrefix(key, p) {
			return p
		}
	}
	b.fatalf(step, fmt.Errorf("no key card shows a prefix of the key (prefixes shown: %q)", prefixes))
	return ""
}

// keyRowAction is a CSS selector for the rotate, revoke or end-grace link of key's card.
func (b *tab) keyRowAction(step, key, action string) string {
	b.t.Helper()
	prefix := b.keyRowPrefix(step, key)
	href := browserRun(b, step+": "+action+" link", chromedp.Evaluate[string](fmt.Sprintf(
		`(() => { const card = [...document.querySelectorAll('main .key-card')].find(c => c.querySelector('.key-prefix')?.textContent.trim() === %q);
			const a = card && card.querySelector('a[href$="/%s"]'); return a ? a.getAttribute('href') : ''; })()`, prefix+"…", action)))
	if href == "" {
		b.fatalf(step, fmt.Errorf("the card of key %s… has no %s link", prefix, action))
	}
	return fmt.Sprintf(`main a[href=%q]`, href)
}

// tableAfterHeading is the text of the first table after the h2 with that text.
func (b *tab) tableAfterHeading(step, heading string) string {
	b.t.Helper()
	return browserRun(b, step+": table "+heading, chromedp.Evaluate[string](fmt.Sprintf(
		`(() => { const h = [...document.querySelectorAll('main h2')].find(h => h.textContent.trim() === %q);
			let el = h && h.nextElementSibling; return el ? el.innerText : ''; })()`, heading)))
}

// awaitInPage loads path until its HTML contains want: usage is written in the background about
// once a second, so a fresh call shows up on a later load.
func (b *tab) awaitInPage(step, path, want string, within time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		b.open(step, path, http.StatusOK)
		if strings.Contains(b.html(), want) {
			return
		}
		if time.Now().After(deadline) {
			b.fatalf(step, fmt.Errorf("%s does not show %q within %v", path, want, within))
		}
		<-tick.C
	}
}

// screenshot saves a full-page PNG of the current page as name.png, after checking that the
// console's stylesheet applied (an unstyled page is broken).
// screenSize is a window size screenshots are taken at; a mobile one emulates a phone.
type screenSize struct {
	width, height int64
	mobile        bool
}

// screenSizes are the sizes every page is photographed at: a laptop and a phone.
var screenSizes = []screenSize{{1280, 800, false}, {390, 844, true}}

// sidewaysScrolling lists what scrolls sideways: the page wider than the window, or an element
// (a table's scroll box) wider inside than it shows.
const sidewaysScrolling = `(() => {
	const out = [];
	const root = document.documentElement;
	if (root.scrollWidth > window.innerWidth) out.push("the page is " + root.scrollWidth + " px wide");
	for (const e of document.querySelectorAll("body *")) {
		const x = getComputedStyle(e).overflowX;
		if ((x === "auto" || x === "scroll") && e.scrollWidth > e.clientWidth + 1) {
			out.push(e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " holds " + e.scrollWidth + " px in " + e.clientWidth);
		}
	}
	return out;
})()`

// screenshot writes the page as name-1280.png and name-390.png (the whole page at a laptop's and a
// phone's width). It fails when the page has no styles, or when it scrolls sideways on the phone.
func (b *tab) screenshot(name string) {
	b.t.Helper()
	b.screenshotAt(name, screenSizes...)
}

// screenshotAt is screenshot at the given sizes only.
func (b *tab) screenshotAt(name string, sizes ...screenSize) {
	b.t.Helper()
	styled := browserRun(b, "screenshot "+name+": stylesheet", chromedp.Evaluate[bool](
		`[...document.styleSheets].some(s => { try { return s.cssRules.length > 0 } catch (e) { return false } })`))
	if !styled {
		b.t.Errorf("screenshot %s: the page has no stylesheet rules applied (unstyled)\n%s", name, b.where())
	}
	for _, s := range sizes {
		var opts []chromedp.EmulateViewportOption
		if s.mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		browserRun(b, fmt.Sprintf("screenshot %s: %dx%d", name, s.width, s.height), chromedp.EmulateViewport(s.width, s.height, opts...))
		if s.mobile {
			if wide := browserRun(b, "screenshot "+name+": sideways scrolling", chromedp.Evaluate[[]string](sidewaysScrolling)); len(wide) > 0 {
				b.t.Errorf("screenshot %s: scrolls sideways at %d px wide: %s\n%s", name, s.width, strings.Join(wide, "; "), b.where())
			}
		}
		// From the top: a page scrolled (Chromium scrolls a focused field into view when the
		// viewport shrinks) is captured blank below the viewport's old place.
		browserRun(b, "screenshot "+name+": scroll to the top", chromedp.Evaluate[bool](`(window.scrollTo(0, 0), true)`))
		// FullScreenshot encodes PNG only at quality 100 (any other quality is JPEG).
		png := browserRun(b, "screenshot "+name, chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(b.shots, fmt.Sprintf("%s-%d.png", name, s.width)), png, 0o644); err != nil {
			b.t.Fatalf("screenshot %s: %v", name, err)
		}
	}
	browserRun(b, "screenshot "+name+": back to the laptop size", chromedp.EmulateViewport(screenSizes[0].width, screenSizes[0].height))
}

// startChromium starts headless Chromium for one test, with the flags it needs as root and offline,
// and returns its browser context; it ends with the test.
func startChromium(t *testing.T, chromium string, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatalf("start Chromium (%s): %v", chromium, err)
	}
	return browserCtx
}
