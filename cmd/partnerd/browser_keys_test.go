package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/store"
)

// The keys browser test (issue 14): a consumer without keys sees the first-key prompt and its curl
// works with the key it then creates; a restricted key is created in the console and the API
// answers 200 inside its scopes and 403 scope_required outside; an allowlisted key that excludes
// 127.0.0.1 gets 403 source_not_allowed; a rotated key's card names its successor and ends its
// grace; a refused form keeps its input; a reload never shows a secret again; an operator switches
// access off and the consumer sees the banner with the time on every page. Screenshots:
// keys-empty, keys-restrict-form, keys-refused, keys-restricted, key-grace, access-off.

// keysSeed is what the keys browser test starts from.
type keysSeed struct {
	svc        *access.Service
	st         *store.Store
	consumerID int
	userEmail  string // a user of the consumer with scopes, password set
	emptyEmail string // a user of a consumer without keys, password set
}

func seedKeys(t *testing.T, databaseURL string) keysSeed {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, databaseURL)
	if err != nil {
		t.Fatalf("seed: open store: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ids := []string{}
	for _, op := range api.Operations() {
		ids = append(ids, op.ID)
	}
	svc := access.NewService(st.Client, access.WithOperations(ids))
	op := access.Operator("test")
	s := keysSeed{svc: svc, st: st, userEmail: "dev@keys.example", emptyEmail: "new@fresh.example"}
	on := true
	user := func(consumer int, email string) {
		_, link, err := svc.CreateConsumerUser(ctx, op, consumer, email, 0)
		if err != nil {
			t.Fatalf("seed: create user %s: %v", email, err)
		}
		if _, err := svc.SetPassword(ctx, link.Token, browserConsumerPassword); err != nil {
			t.Fatalf("seed: set password of %s: %v", email, err)
		}
	}
	scopes := []string{"market:read", "portfolio:read"}
	cons, err := svc.CreateConsumer(ctx, op, "Keys Co", access.ConsumerChange{Scopes: &scopes, AccessEnabled: &on})
	if err != nil {
		t.Fatalf("seed: create consumer: %v", err)
	}
	s.consumerID = cons.ID
	user(cons.ID, s.userEmail)
	fresh, err := svc.CreateConsumer(ctx, op, "Fresh Co", access.ConsumerChange{Scopes: &scopes, AccessEnabled: &on})
	if err != nil {
		t.Fatalf("seed: create consumer: %v", err)
	}
	user(fresh.ID, s.emptyEmail)
	return s
}

// apiCall calls the partner API with key, the way a partner's backend would.
func apiCall(t *testing.T, url, key string) (apiResult, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body struct {
		Code  string `json:"code"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	return apiResult{status: resp.StatusCode, code: body.Code, requestID: resp.Header.Get("X-Request-Id"), body: string(raw)}, body.Error
}

// createKeyInConsole fills the create-key form (opening its restriction when asked) and returns
// the secret shown once.
func createKeyInConsole(b *tab, name string, scopes []string, sources string) string {
	b.t.Helper()
	b.open("open the keys page to create "+name, "/console/keys", http.StatusOK)
	b.fill("create key: name", `form.create-key input[name="name"]`, name)
	if len(scopes) > 0 || sources != "" {
		b.click("create key: open the restriction", `form.create-key details.restrict summary`)
		b.waitVisible("create key: restriction open", `form.create-key input[name="sources"]`)
		for _, sc := range scopes {
			b.click("create key: tick "+sc, `form.create-key input[name="scope"][value="`+sc+`"]`)
		}
		if sources != "" {
			b.fill("create key: sources", `form.create-key input[name="sources"]`, sources)
		}
	}
	b.submit("create key: submit", `form.create-key button[type="submit"]`)
	b.expectPath("key created page", "/console/keys/issued")
	key := strings.TrimSpace(b.text("key created page: #new-key", "#new-key"))
	if !strings.HasPrefix(key, access.KeyPrefix) {
		b.t.Fatalf("key created page: #new-key = %q", key)
	}
	return key
}

func TestBrowserKeys(t *testing.T) {
	chromium := chromiumPath(t)
	shots := screenshotDir(t)
	m := startBrowserService(t)
	base := "http://" + m.Addr()
	seed := seedKeys(t, m.Config.DatabaseURL)
	browserCtx := startChromium(t, chromium)
	trending := base + "/v1/markets/trending"
	holdings := base + "/v1/portfolio/holdings?owners=base:0x52908400098527886e0f7030069857d2e4169ee7"

	t.Run("FirstKey", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)
		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.emptyEmail, browserConsumerPassword)
		b.expectPath("after signing in", "/console/keys")
		if h := b.text("first-key prompt: heading", "#first-key-title"); h != "Create your first key" {
			t.Fatalf("first-key prompt heading %q", h)
		}
		curl := b.text("first-key prompt: curl", "#first-curl")
		fields := strings.Fields(curl)
		if len(fields) == 0 || fields[0] != "curl" || !strings.HasPrefix(fields[len(fields)-1], base+"/") {
			t.Fatalf("first-key curl %q: want a curl of a URL on %s", curl, base)
		}
		b.screenshot("keys-empty")
		key := createKeyInConsole(b, "first", nil, "")
		url := fields[len(fields)-1]
		r, _ := apiCall(t, url, key)
		expectAPI(t, "the first-key prompt's curl with the new key", r, http.StatusOK, "")

		// A reload of the page that showed the key does not show it again.
		b.reload("reload the key created page")
		b.expectPath("reloaded", "/console/keys")
		if strings.Contains(b.html(), key) {
			t.Error("reloading after creation shows the secret again")
		}
		if n := b.keyRowCount("after the first key"); n != 1 {
			t.Errorf("%d key cards after creating the first key, want 1", n)
		}
		if strings.Contains(b.html(), "Create your first key") {
			t.Error("the first-key prompt stays after a key exists")
		}
	})

	t.Run("Restricted", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)
		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.userEmail, browserConsumerPassword)
		b.expectPath("after signing in", "/console/keys")

		// Only the consumer's scopes are offered.
		offered := browserRun(b, "scope checkboxes", chromedp.Evaluate[[]string](
			`[...document.querySelectorAll('form.create-key input[name="scope"]')].map(i => i.value)`))
		if strings.Join(offered, ",") != "market:read,portfolio:read" {
			t.Errorf("scope checkboxes %q, want the consumer's market:read, portfolio:read", offered)
		}

		// The restriction, opened and filled in, at both sizes.
		b.click("open the restriction", `form.create-key details.restrict summary`)
		b.waitVisible("restriction open", `form.create-key input[name="sources"]`)
		b.click("tick market:read", `form.create-key input[name="scope"][value="market:read"]`)
		b.fill("sources", `form.create-key input[name="sources"]`, "203.0.113.0/24, 2001:db8::/32")
		b.screenshot("keys-restrict-form")

		// A refused form comes back as it was sent, the problem beside its field, which has the focus.
		b.fill("name", `form.create-key input[name="name"]`, "typo")
		b.typeInto("sources: a bad entry", `form.create-key input[name="sources"]`, ", 10.0.0.300/8")
		b.expectRefusal(base + "/console/keys")
		if resp := b.submit("submit a bad allowlist", `form.create-key button[type="submit"]`); resp == nil || resp.Status != http.StatusBadRequest {
			t.Fatalf("a bad allowlist: response %v, want 400", resp)
		}
		// Chromium moves the focus to an autofocus field at its next rendering step, after the load.
		browserRun(b, "the refused form: focus on the allowlist", chromedp.Poll[bool](
			`document.activeElement && document.activeElement.name === "sources"`, chromedp.WithPollingTimeout(2*time.Second)))
		kept := browserRun(b, "the refused form", chromedp.Evaluate[map[string]any](`({
			name: document.querySelector('form.create-key input[name="name"]').value,
			sources: document.querySelector('form.create-key input[name="sources"]').value,
			market: document.querySelector('form.create-key input[name="scope"][value="market:read"]').checked,
			open: document.querySelector('form.create-key details.restrict').open,
			focused: document.activeElement && document.activeElement.name,
			problem: (document.getElementById('sources-problem') || {}).textContent,
		})`))
		if kept["name"] != "typo" || kept["sources"] != "203.0.113.0/24, 2001:db8::/32, 10.0.0.300/8" || kept["market"] != true || kept["open"] != true ||
			kept["focused"] != "sources" || !strings.Contains(fmt.Sprint(kept["problem"]), `"10.0.0.300/8"`) {
			t.Errorf("the refused form %v: want the name, allowlist and ticked scope kept, the restriction open, the focus and a problem on the allowlist", kept)
		}
		b.screenshot("keys-refused")

		market := createKeyInConsole(b, "market only", []string{"market:read"}, "")
		r, _ := apiCall(t, trending, market)
		expectAPI(t, "restricted key inside its scopes", r, http.StatusOK, "")
		r, msg := apiCall(t, holdings, market)
		expectAPI(t, "restricted key outside its scopes", r, http.StatusForbidden, "scope_required")
		if !strings.Contains(msg, "restricted") {
			t.Errorf("scope_required message %q does not say the key is restricted", msg)
		}

		elsewhere := createKeyInConsole(b, "office only", nil, "10.0.0.0/8")
		r, msg = apiCall(t, trending, elsewhere)
		expectAPI(t, "allowlisted key called from 127.0.0.1", r, http.StatusForbidden, "source_not_allowed")
		if !strings.Contains(msg, "restricted") {
			t.Errorf("source_not_allowed message %q does not say the key is restricted", msg)
		}

		b.reload("reload after creating the allowlisted key")
		b.expectPath("reloaded", "/console/keys")
		if html := b.html(); strings.Contains(html, market) || strings.Contains(html, elsewhere) {
			t.Error("the keys page shows a secret after a reload")
		}
		card := b.text("the market-only key's card", `main .key-card:has(h3#key-`+keyIDOf(t, seed, market)+`-name)`)
		if !strings.Contains(card, "market:read") || !strings.Contains(card, "restricted") {
			t.Errorf("restricted key's card %q: want its scope and restricted", card)
		}
		if !strings.Contains(b.html(), "10.0.0.0/8") {
			t.Error("the allowlisted key's card does not show its allowlist")
		}
		b.screenshot("keys-restricted")

		// Rotate the restricted key: its card names the successor and ends the grace.
		b.submit("open Rotate", b.keyRowAction("keys page", market, "rotate"))
		b.click("rotate: 1 hour", `input[name="grace"][value="1h"]`)
		b.submit("rotate: submit", `main form button[type="submit"]`)
		b.expectPath("key rotated page", "/console/keys/issued")
		next := strings.TrimSpace(b.text("key rotated page: #new-key", "#new-key"))
		b.open("keys after rotating", "/console/keys", http.StatusOK)
		nextPrefix := b.keyRowPrefix("keys after rotating", next)
		oldCard := b.text("old key's card", `main .key-card:has(h3#key-`+keyIDOf(t, seed, market)+`-name)`)
		if !strings.Contains(oldCard, "Replaced by") || !strings.Contains(oldCard, nextPrefix) || !strings.Contains(oldCard, "End grace now") {
			t.Errorf("rotated key's card %q: want Replaced by %s… and End grace now", oldCard, nextPrefix)
		}
		b.screenshot("key-grace")
		r, _ = apiCall(t, holdings, next)
		expectAPI(t, "the successor keeps the restriction", r, http.StatusForbidden, "scope_required")
		b.submit("open End grace now", b.keyRowAction("keys page", market, "end-grace"))
		b.expectHeading("end grace confirmation", "End the grace")
		b.submit("end grace: confirm", `main form button.danger`)
		b.expectFlash("after ending the grace", "Ended the grace")
		r, _ = apiCall(t, trending, market)
		expectAPI(t, "old key after its grace ended", r, http.StatusUnauthorized, "")
		r, _ = apiCall(t, trending, next)
		expectAPI(t, "successor after the old key's grace ended", r, http.StatusOK, "")
		b.screenshot("keys")
	})

	t.Run("AccessOff", func(t *testing.T) {
		b := newTab(t, browserCtx, base, shots)
		b.open("open the login page", "/console/login", http.StatusOK)
		b.signIn(seed.userEmail, browserConsumerPassword)
		if strings.Contains(b.html(), "access-off") {
			t.Fatal("the access banner shows while access is on")
		}
		c, err := seed.svc.SetAccess(context.Background(), access.Operator("operator:ops@example.com"), seed.consumerID, false, "invoice overdue")
		if err != nil {
			t.Fatal(err)
		}
		want := "since " + c.AccessChangedAt.UTC().Format("2006-01-02 15:04 UTC")
		for _, p := range []string{"/console/keys", "/console/usage", "/console/plan"} {
			b.open("open "+p+" with access off", p, http.StatusOK)
			if got := b.text(p+": access banner", "main .flash.access-off"); !strings.Contains(got, want) || !strings.Contains(got, "switched off") {
				t.Errorf("%s: banner %q, want it to say access is switched off %s", p, got, want)
			}
		}
		b.open("keys with access off", "/console/keys", http.StatusOK)
		b.screenshot("access-off")
	})
}

// keyIDOf is the id of the key whose secret is raw, as a string.
func keyIDOf(t *testing.T, seed keysSeed, raw string) string {
	t.Helper()
	k, err := access.ParseKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := seed.svc.LookupKey(context.Background(), k.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(rec.KeyID)
}
