package console

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// keyCardOf is the markup of key id's card on the keys page.
func keyCardOf(t testing.TB, body string, id int) string {
	t.Helper()
	start := strings.Index(body, `<li class="key-card" id="key-`+strconv.Itoa(id)+`"`)
	if start < 0 {
		t.Fatalf("no card for key %d\n%s", id, snippet(body))
	}
	rest := body[start:]
	if end := strings.Index(rest, "</li>"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// fact is the text of a card's <dd> after the <dt> named label.
func fact(t testing.TB, card, label string) string {
	t.Helper()
	m := regexp.MustCompile(`<dt>` + regexp.QuoteMeta(label) + `</dt><dd[^>]*>(.*?)</dd>`).FindStringSubmatch(card)
	if m == nil {
		t.Fatalf("card has no %q\n%s", label, card)
	}
	return strings.Join(strings.Fields(text(m[1])), " ")
}

// withScopes grants a consumer scopes.
func withScopes(t testing.TB, h *harness, consumerID int, scopes ...string) {
	t.Helper()
	if _, err := h.acc.UpdateConsumer(context.Background(), operatorActor, consumerID, access.ConsumerChange{Scopes: &scopes}, ""); err != nil {
		t.Fatal(err)
	}
}

func TestKeysFirstKeyPrompt(t *testing.T) {
	h := newHarness(t)
	c := h.consumer("Fresh")
	h.consumerUser(c.ID, "new@fresh.example", password)
	b := h.signedIn("new@fresh.example", password)
	body := b.get("/console/keys").body
	wantContains(t, body, "Create your first key", `curl -H "X-API-Key: $PARTNER_API_KEY" `+h.ts.URL+`/v1/chains`)
	wantNotContains(t, body, "Your keys</h2>")

	// Once there is a key, the prompt gives way to the key's card.
	k := h.key(c.ID, "first")
	body = b.get("/console/keys").body
	wantNotContains(t, body, "Create your first key")
	keyCardOf(t, body, k.ID)
}

func TestKeysCreateRestricted(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	withScopes(t, h, tn.a.ID, "market:read", "quote:read")
	alice := h.signedIn(tn.userA, password)

	// The form offers the consumer's scopes and no others.
	form := alice.get("/console/keys").body
	var offered []string
	for _, m := range regexp.MustCompile(`name="scope" value="([^"]+)"`).FindAllStringSubmatch(form, -1) {
		offered = append(offered, m[1])
	}
	if !slices.Equal(offered, []string{"market:read", "quote:read"}) {
		t.Fatalf("scope checkboxes %q, want the consumer's market:read, quote:read", offered)
	}
	wantContains(t, form, `name="sources"`, `type="date" name="expires"`)

	day := h.clock.Now().UTC().AddDate(0, 0, 10).Format(time.DateOnly)
	r, secret := alice.issued(alice.post("/console/keys", url.Values{"name": {"dashboard"}, "scope": {"market:read"},
		"sources": {"10.1.2.3/8,  192.0.2.1\n2001:db8::/32"}, "expires": {day}}))
	wantContains(t, r.body, "restricted to scopes <strong>market:read</strong>", h.ts.URL+"/v1/chains")
	k, _ := access.ParseKey(secret)
	rec, err := h.acc.LookupKey(context.Background(), k.Hash())
	if err != nil {
		t.Fatal(err)
	}
	info := h.keyInfo(tn.a.ID, rec.KeyID)
	wantEnd, _ := time.Parse(time.DateOnly, day)
	wantEnd = wantEnd.AddDate(0, 0, 1)
	if !slices.Equal(info.Scopes, []string{"market:read"}) || !slices.Equal(info.SourceCIDRs, []string{"10.0.0.0/8", "192.0.2.1/32", "2001:db8::/32"}) ||
		info.ExpiresAt == nil || !info.ExpiresAt.Equal(wantEnd) {
		t.Fatalf("created key %+v, want market:read, three CIDRs, expiry %v", info, wantEnd)
	}

	card := keyCardOf(t, alice.get("/console/keys").body, info.ID)
	if got := fact(t, card, "Scopes"); got != "market:read restricted" {
		t.Errorf("card scopes %q", got)
	}
	if got := fact(t, card, "Source allowlist"); got != "10.0.0.0/8, 192.0.2.1/32, 2001:db8::/32" {
		t.Errorf("card allowlist %q", got)
	}
	if got := fact(t, card, "Expires"); got != when(wantEnd) {
		t.Errorf("card expiry %q, want %q", got, when(wantEnd))
	}
	// An unrestricted key says so.
	if got := fact(t, keyCardOf(t, alice.get("/console/keys").body, tn.keyA.ID), "Scopes"); got != "all of your scopes" {
		t.Errorf("unrestricted key's scopes %q", got)
	}

	// Every bad restriction is refused, 400, with the form shown again as it was sent and each
	// problem beside its field; nothing is created.
	yesterday := h.clock.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	for _, tc := range []struct {
		name string
		form url.Values
		want map[string]string // form field -> part of its problem
	}{
		{"scope the consumer lacks", url.Values{"scope": {"tx:build"}}, map[string]string{"scope": `the consumer lacks "tx:build"`}},
		{"malformed CIDR", url.Values{"sources": {"10.0.0.300/24"}}, map[string]string{"sources": `"10.0.0.300/24" is not one`}},
		{"expiry in the past", url.Values{"expires": {yesterday}}, map[string]string{"expires": "The expiry date has passed"}},
		{"expiry not a date", url.Values{"expires": {"next week"}}, map[string]string{"expires": "The expiry must be a date"}},
		{"no name", url.Values{"scope": {"market:read"}, "sources": {"10.0.0.0/8"}}, map[string]string{"name": "A key needs a name of 1 to 200 characters."}},
		{"two bad fields", url.Values{"sources": {"nowhere"}, "expires": {yesterday}},
			map[string]string{"sources": `"nowhere" is not one`, "expires": "The expiry date has passed"}},
	} {
		before := tn.snapshot(t)
		if _, ok := tc.want["name"]; !ok {
			tc.form.Set("name", "bad "+tc.name)
		}
		r := alice.post("/console/keys", tc.form)
		wantStatus(t, r, http.StatusBadRequest)
		if msg := flashError(r.body); !strings.Contains(msg, "The key was not created") {
			t.Errorf("%s: flash %q", tc.name, msg)
		}
		got := fieldProblems(r.body)
		if len(got) != len(tc.want) {
			t.Errorf("%s: problems %v, want %v", tc.name, got, tc.want)
		}
		for field, want := range tc.want {
			if !strings.Contains(got[field], want) {
				t.Errorf("%s: %s problem %q, want it to contain %q", tc.name, field, got[field], want)
			}
		}
		// What was sent is still in the form, the restriction part open.
		wantContains(t, r.body, `<details class="restrict" open>`)
		if n := tc.form.Get("name"); n != "" {
			wantContains(t, r.body, `name="name" value="`+n+`"`)
		}
		for _, sc := range tc.form["scope"] {
			if sc == "market:read" {
				wantContains(t, r.body, `value="market:read" checked`)
			}
		}
		if src := tc.form.Get("sources"); src != "" {
			wantContains(t, r.body, `name="sources" value="`+src+`"`)
		}
		if exp := tc.form.Get("expires"); exp != "" {
			wantContains(t, r.body, `name="expires" value="`+exp+`"`)
		}
		tn.wantUnchanged(t, before, "creating a key with a "+tc.name)
	}
}

func TestKeysGraceOnCard(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	next, _, err := h.acc.RotateKey(context.Background(), operatorActor, tn.keyA.ID, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	body := alice.get("/console/keys").body
	old := keyCardOf(t, body, tn.keyA.ID)
	if got := fact(t, old, "Replaced by"); got != "acme prod "+next.Prefix+"…" {
		t.Errorf("old key's card: replaced by %q", got)
	}
	wantContains(t, old, `href="`+keyPath(tn.keyA.ID, "end-grace")+`"`, "End grace now", "expiring "+when(*h.keyInfo(tn.a.ID, tn.keyA.ID).ExpiresAt))
	wantNotContains(t, old, `href="`+keyPath(tn.keyA.ID, "rotate")+`"`)
	if got := fact(t, keyCardOf(t, body, next.ID), "Replaces"); got != "acme prod "+tn.keyA.Prefix+"…" {
		t.Errorf("successor's card: replaces %q", got)
	}
	// The card's action works: the confirmation, then the grace ends.
	wantStatus(t, alice.get(keyPath(tn.keyA.ID, "end-grace")), http.StatusOK)
	wantRedirect(t, alice.post(keyPath(tn.keyA.ID, "end-grace"), nil), "/console/keys")
	if k := h.keyInfo(tn.a.ID, tn.keyA.ID); k.Status != access.KeyExpired {
		t.Fatalf("after end grace the old key is %s", k.Status)
	}
	wantNotContains(t, keyCardOf(t, alice.get("/console/keys").body, tn.keyA.ID), "End grace now")

	// Another consumer's user cannot end it: 404, nothing changes.
	n2, _, err := h.acc.RotateKey(context.Background(), operatorActor, next.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	bob := h.signedIn(tn.userB, password)
	wantStatus(t, bob.get(keyPath(next.ID, "end-grace")), http.StatusNotFound)
	wantStatus(t, bob.post(keyPath(next.ID, "end-grace"), nil), http.StatusNotFound)
	if k := h.keyInfo(tn.a.ID, next.ID); k.Status != access.KeyExpiring {
		t.Fatalf("bob's end grace changed alice's key: %s", k.Status)
	}
	_ = n2

	// A key with an expiry of its own is in no grace: no End grace, and the URL explains.
	until := h.clock.Now().Add(72 * time.Hour)
	own, err := h.acc.CreateKeyWith(context.Background(), operatorActor, tn.a.ID, "temp", access.KeyOptions{ExpiresAt: &until})
	if err != nil {
		t.Fatal(err)
	}
	card := keyCardOf(t, alice.get("/console/keys").body, own.ID)
	wantNotContains(t, card, "End grace now")
	wantContains(t, card, `href="`+keyPath(own.ID, "rotate")+`"`)
	wantRedirect(t, alice.get(keyPath(own.ID, "end-grace")), "/console/keys")
	wantContains(t, flashError(alice.get("/console/keys").body), "was never rotated")
}

func TestKeysCallsAndErrorsPerKey(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	now := h.clock.Now()
	second := h.key(tn.a.ID, "second")
	call := func(key, status int, at time.Time) metering.Call {
		return metering.Call{ConsumerID: tn.a.ID, KeyID: key, Operation: "getTrending", Status: status, Cost: 1, At: at,
			RequestID: "req_" + strconv.Itoa(key) + "_" + strconv.Itoa(status) + "_" + strconv.FormatInt(at.UnixNano(), 10)}
	}
	h.writeCalls(
		call(tn.keyA.ID, 200, now.Add(-time.Hour)),
		call(tn.keyA.ID, 200, now.Add(-48*time.Hour)),
		call(tn.keyA.ID, 500, now.Add(-2*time.Hour)),
		call(tn.keyA.ID, 429, now.Add(-3*time.Hour)),
		call(tn.keyA.ID, 200, now.AddDate(0, 0, -40)), // outside the 30 days
		call(second.ID, 200, now.Add(-time.Minute)),
	)
	// Bob's consumer's calls never show on alice's page.
	h.writeCalls(metering.Call{ConsumerID: tn.b.ID, KeyID: tn.keyB.ID, Operation: "getTrending", Status: 500, Cost: 1, At: now, RequestID: "req_b"})
	alice := h.signedIn(tn.userA, password)
	body := alice.get("/console/keys").body
	a := keyCardOf(t, body, tn.keyA.ID)
	if calls, errs := fact(t, a, "Calls (30 days)"), fact(t, a, "Errors (30 days)"); calls != "4" || errs != "2 (50.0% of calls)" {
		t.Errorf("key A: calls %q errors %q, want 4 and 2 (50.0%% of calls)", calls, errs)
	}
	s := keyCardOf(t, body, second.ID)
	if calls, errs := fact(t, s, "Calls (30 days)"), fact(t, s, "Errors (30 days)"); calls != "1" || errs != "0 (0.0% of calls)" {
		t.Errorf("second key: calls %q errors %q", calls, errs)
	}
	wantNotContains(t, body, tn.keyB.Prefix)
}

func TestAccessOffBanner(t *testing.T) {
	tn := newTenants(t)
	h := tn.h
	alice := h.signedIn(tn.userA, password)
	pages := []string{"/console/keys", "/console/usage", "/console/plan"}
	for _, p := range pages {
		wantNotContains(t, alice.get(p).body, "Your API access")
	}
	h.clock.Advance(5 * time.Minute)
	off := h.clock.Now()
	if _, err := h.acc.SetAccess(context.Background(), operatorActor, tn.a.ID, false, "invoice overdue"); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(5 * time.Minute)
	for _, p := range pages {
		body := alice.get(p).body
		wantContains(t, body, `class="flash warn access-off" role="status"`, "Your API access has been switched off since "+when(off)+".",
			"401 access_disabled")
	}
	// Another consumer's pages show no banner, and neither do the operator's.
	bob := h.signedIn(tn.userB, password)
	wantNotContains(t, bob.get("/console/keys").body, "Your API access")
	ops := h.signedIn(tn.operator, password)
	wantNotContains(t, ops.get("/console/operator/consumers").body, "Your API access")

	if _, err := h.acc.SetAccess(context.Background(), operatorActor, tn.a.ID, true, "paid"); err != nil {
		t.Fatal(err)
	}
	wantNotContains(t, alice.get("/console/keys").body, "Your API access")
}
