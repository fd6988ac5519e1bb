package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
)

const (
	evmAddr  = "0x52908400098527886e0f7030069857d2e4169ee7"
	evmAddr2 = "0x8617e340b3d01fa5f11f306f4090fd50e238070d"
	solAddr  = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
)

// scenario is one call through the real pipeline and what must come back.
type scenario struct {
	name    string
	req     request
	status  int
	code    Code              // expected error code; empty for success
	headers map[string]string // expected headers; "*" means present, "" means absent
}

func run(t *testing.T, e *env, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			r := e.do(sc.req)
			if r.status != sc.status {
				t.Fatalf("status = %d, want %d: %s", r.status, sc.status, r.rawBody)
			}
			checkEnvelope(t, r)
			if r.code() != string(sc.code) {
				t.Errorf("code = %q, want %q: %s", r.code(), sc.code, r.rawBody)
			}
			for name, want := range sc.headers {
				got := r.header.Get(name)
				switch {
				case want == "*" && got == "":
					t.Errorf("header %s missing", name)
				case want == "" && got != "":
					t.Errorf("header %s = %q, want absent", name, got)
				case want != "*" && want != "" && got != want:
					t.Errorf("header %s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	op := access.Operator("test")

	_, revoked := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes})
	keys, _ := e.svc.ListKeys(ctx, op, e.consumer+1)
	if _, err := e.svc.RevokeKey(ctx, op, keys[0].ID); err != nil {
		t.Fatal(err)
	}

	expiredConsumer, expired := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes})
	keys, _ = e.svc.ListKeys(ctx, op, expiredConsumer)
	rotated, _, err := e.svc.RotateKey(ctx, op, keys[0].ID, 0)
	if err != nil {
		t.Fatal(err)
	}

	_, disabled := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, AccessEnabled: ptr(false)})

	unknown, err := access.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	mistyped := []byte(e.key)
	mistyped[20] ^= 1 // one character off: the checksum catches it without the store

	path := "/v1/markets/trending"
	run(t, e, []scenario{
		{name: "valid key", req: request{path: path, key: e.key}, status: 200,
			headers: map[string]string{"Cache-Control": "private, no-store", "X-RateLimit-Limit": "*", "X-RateLimit-Remaining": "*"}},
		{name: "no key", req: request{path: path}, status: 401, code: CodeInvalidAPIKey, headers: map[string]string{"X-RateLimit-Limit": ""}},
		{name: "malformed key", req: request{path: path, key: "hello"}, status: 401, code: CodeInvalidAPIKey},
		{name: "mistyped key", req: request{path: path, key: string(mistyped)}, status: 401, code: CodeInvalidAPIKey},
		{name: "unknown key", req: request{path: path, key: unknown.String()}, status: 401, code: CodeInvalidAPIKey},
		{name: "revoked key", req: request{path: path, key: revoked}, status: 401, code: CodeRevokedAPIKey},
		{name: "expired key after rotation with no grace", req: request{path: path, key: expired}, status: 401, code: CodeInvalidAPIKey},
		{name: "rotated successor works", req: request{path: path, key: rotated.Key}, status: 200},
		{name: "access off", req: request{path: path, key: disabled}, status: 401, code: CodeAccessDisabled},
		{name: "public chains need no key", req: request{path: "/v1/chains"}, status: 200, headers: map[string]string{"Cache-Control": ""}},
		{name: "public openapi needs no key", req: request{path: "/v1/openapi.json"}, status: 200},
	})
}

func TestAuthorization(t *testing.T) {
	e := newEnv(t)
	_, marketOnly := e.newConsumer(access.ConsumerChange{Scopes: &[]string{"market:read"}})
	_, noTrending := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, DisabledOperations: &[]string{"getTrending"}})
	_, elsewhere := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, Allow: ptr(mustPrefixes(t, "10.0.0.0/8,2001:db8::/32"))})
	_, loopback := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, Allow: ptr(mustPrefixes(t, "127.0.0.1"))})

	run(t, e, []scenario{
		{name: "scope missing", req: request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr, key: marketOnly}, status: 403, code: CodeScopeRequired},
		{name: "scope held", req: request{path: "/v1/markets/trending", key: marketOnly}, status: 200},
		{name: "endpoint switched off", req: request{path: "/v1/markets/trending", key: noTrending}, status: 403, code: CodeEndpointUnavailable},
		{name: "other endpoints stay on", req: request{path: "/v1/pools/hot", key: noTrending}, status: 200},
		{name: "source not allowed", req: request{path: "/v1/markets/trending", key: elsewhere}, status: 403, code: CodeSourceNotAllowed},
		{name: "source allowed", req: request{path: "/v1/markets/trending", key: loopback}, status: 200},
	})
}

func TestTrustedProxy(t *testing.T) {
	e := newEnv(t, withDeps(func(d *Deps) { d.TrustedProxies = mustPrefixes(t, "127.0.0.0/8") }))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, Allow: ptr(mustPrefixes(t, "203.0.113.0/24"))})
	run(t, e, []scenario{
		{name: "client behind trusted proxy", req: request{path: "/v1/pools/new", key: key, headers: map[string]string{"X-Forwarded-For": "203.0.113.9"}}, status: 200},
		{name: "forged hop before the real client", req: request{path: "/v1/pools/new", key: key, headers: map[string]string{"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}}, status: 403, code: CodeSourceNotAllowed},
		{name: "no header: the proxy itself", req: request{path: "/v1/pools/new", key: key}, status: 403, code: CodeSourceNotAllowed},
	})
	// Without trusted proxies the header is ignored.
	plain := newEnv(t)
	_, key = plain.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, Allow: ptr(mustPrefixes(t, "203.0.113.0/24"))})
	run(t, plain, []scenario{
		{name: "header not trusted by default", req: request{path: "/v1/pools/new", key: key, headers: map[string]string{"X-Forwarded-For": "203.0.113.9"}}, status: 403, code: CodeSourceNotAllowed},
	})
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t)
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1), Burst: ptr(3)})
	// A second key of the same consumer shares the bucket.
	ctx := context.Background()
	consumers, _ := e.svc.ListConsumers(ctx, access.Operator("test"), "")
	second, err := e.svc.CreateKey(ctx, access.Operator("test"), consumers[len(consumers)-1].ID, "second")
	if err != nil {
		t.Fatal(err)
	}
	path := "/v1/pools/hot"
	run(t, e, []scenario{
		{name: "first", req: request{path: path, key: key}, status: 200, headers: map[string]string{"X-RateLimit-Limit": "3", "X-RateLimit-Remaining": "2"}},
		{name: "second key, same bucket", req: request{path: path, key: second.Key}, status: 200, headers: map[string]string{"X-RateLimit-Remaining": "1"}},
		{name: "third", req: request{path: path, key: key}, status: 200, headers: map[string]string{"X-RateLimit-Remaining": "0"}},
		{name: "refused", req: request{path: path, key: second.Key}, status: 429, code: CodeRateLimited,
			headers: map[string]string{"Retry-After": "*", "X-RateLimit-Remaining": "0"}},
		// Waiting will not help (the reason and message say so), but the 429 carries every rate-limit
		// header the contract promises: Retry-After is the whole burst's refill time (3 units at 1 a minute).
		{name: "batch costing more than the burst can never pass", req: request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr, key: key}, status: 429, code: CodeRateLimited,
			headers: map[string]string{"Retry-After": "180", "X-RateLimit-Limit": "3", "X-RateLimit-Remaining": "0", "RateLimit-Policy": `"burst";q=3, "rate";q=1;w=60`}},
		{name: "other consumers unaffected", req: request{path: path, key: e.key}, status: 200},
	})
	r := e.do(request{path: path, key: key})
	if r.body["retryAfterSec"] == nil || r.header.Get("Retry-After") == "" {
		t.Fatalf("429 without retryAfterSec and Retry-After: %v %s", r.header, r.rawBody)
	}
	if got, want := fmt.Sprint(r.body["retryAfterSec"]), r.header.Get("Retry-After"); got != want {
		t.Errorf("retryAfterSec %s != Retry-After %s", got, want)
	}
	never := e.do(request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr, key: key})
	if msg, _ := never.body["error"].(string); never.body["reason"] != "cost_exceeds_burst" || !strings.Contains(msg, "waiting will not help") ||
		never.body["retryAfterSec"] != float64(180) {
		t.Errorf("never admitted: %s, want reason cost_exceeds_burst, retryAfterSec 180 and a message saying waiting will not help", never.rawBody)
	}
}

func TestParameterRules(t *testing.T) {
	e := newEnv(t)
	k := e.key
	var owners25 []string
	for i := range 25 {
		owners25 = append(owners25, fmt.Sprintf("base:0x%040x", i+1))
	}
	dup := strings.Repeat("base:"+evmAddr+",", 30) + solAddr
	run(t, e, []scenario{
		{name: "q too short", req: request{path: "/v1/tokens/search?q=a&chain=all", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "q missing", req: request{path: "/v1/tokens/search?chain=all", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "q of two on all chains", req: request{path: "/v1/tokens/search?q=ab&chain=all", key: k}, status: 200},
		{name: "search defaults to solana, not enabled", req: request{path: "/v1/tokens/search?q=ab", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "unknown chain", req: request{path: "/v1/tokens/search?q=ab&chain=polygon", key: k}, status: 400, code: CodeInvalidChain},
		{name: "all not allowed on single reads", req: request{path: "/v1/tokens/" + evmAddr + "/price?chain=all", key: k}, status: 400, code: CodeInvalidChain},
		{name: "price on a disabled chain", req: request{path: "/v1/tokens/" + evmAddr + "/price?chain=base", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "price defaults to solana", req: request{path: "/v1/tokens/" + solAddr + "/price", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "evm address on solana", req: request{path: "/v1/tokens/" + evmAddr + "/price", key: k}, status: 400, code: CodeInvalidAddress},
		{name: "garbage mint", req: request{path: "/v1/tokens/nope/stats?chain=base", key: k}, status: 400, code: CodeInvalidAddress},
		{name: "window 0", req: request{path: "/v1/tokens/" + evmAddr + "/history?chain=base&window=0", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "window 301", req: request{path: "/v1/tokens/" + evmAddr + "/history?chain=base&window=301", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "window 300", req: request{path: "/v1/tokens/" + evmAddr + "/history?chain=base&window=300", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "window not a number", req: request{path: "/v1/tokens/" + evmAddr + "/history?chain=base&window=x", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "bad amm", req: request{path: "/v1/markets/trending?amm=sushiswap", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "good amm", req: request{path: "/v1/markets/trending?amm=uniswap-v2", key: k}, status: 200},
		{name: "trending defaults to all enabled", req: request{path: "/v1/markets/trending", key: k}, status: 200},
		{name: "reserves need amm, base, quote", req: request{path: "/v1/pools/" + evmAddr + "/reserves?chain=base", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "reserves with a solana venue on base", req: request{path: "/v1/pools/" + evmAddr + "/reserves?chain=base&amm=orca&base=" + evmAddr + "&quote=" + evmAddr2, key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "bins on a venue without bins", req: request{path: "/v1/pools/" + solAddr + "/bins?amm=raydium", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "chart resolution not offered", req: request{path: "/v1/pools/" + evmAddr + "/chart?chain=base&resolution=7", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "25 distinct owners", req: request{path: "/v1/portfolio/holdings?owners=" + strings.Join(owners25, ","), key: k}, status: 400, code: CodeTooManyOwners},
		{name: "24 distinct owners", req: request{path: "/v1/portfolio/holdings?owners=" + strings.Join(owners25[:24], ","), key: k}, status: 429, code: CodeRateLimited},
		{name: "repeats count once", req: request{path: "/v1/portfolio/positions?owners=" + dup, key: k}, status: 200},
		{name: "bad owner ref", req: request{path: "/v1/portfolio/holdings?owners=base:0x12", key: k}, status: 400, code: CodeInvalidAddress},
		{name: "owners missing", req: request{path: "/v1/portfolio/holdings", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "swap quote amount not an integer", req: request{path: "/v1/quotes/swap?chain=base&inputMint=" + evmAddr + "&outputMint=" + evmAddr2 + "&amount=1.5", key: k}, status: 400, code: CodeInvalidAmount},
		{name: "swap quote on a disabled chain", req: request{path: "/v1/quotes/swap?chain=base&inputMint=" + evmAddr + "&outputMint=" + evmAddr2 + "&amount=15", key: k}, status: 400, code: CodeChainNotEnabled},
		{name: "tx status with a bad hash", req: request{path: "/v1/transactions/0x12/status?chain=base", key: k}, status: 400, code: CodeInvalidRequest},
		{name: "unknown route", req: request{path: "/v1/nope", key: k}, status: 404, code: CodeNotFound},
		{name: "wrong method", req: request{method: http.MethodDelete, path: "/v1/chains"}, status: 404, code: CodeNotFound, headers: map[string]string{"Allow": "GET"}},
		{name: "GET on a builder", req: request{path: "/v1/build/swap"}, status: 404, code: CodeNotFound, headers: map[string]string{"Allow": "POST"}},
	})
}

func TestBatchReportsEachOwner(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/portfolio/holdings?owners=base:" + evmAddr + "," + solAddr + ",base:0x" + strings.ToUpper(evmAddr[2:]), key: e.key})
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.rawBody)
	}
	results := r.body["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("want one entry per distinct owner (2), got %d: %s", len(results), r.rawBody)
	}
	for _, entry := range results {
		m := entry.(map[string]any)
		if m["code"] != string(CodeChainNotEnabled) || m["result"] != nil {
			t.Errorf("entry %v: want chain_not_enabled and no result", m)
		}
	}
}

func TestNDJSONStillGetsJSON(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/v1/chains", "/v1/markets/trending"} {
		r := e.do(request{path: path, key: e.key, headers: map[string]string{"Accept": "application/x-ndjson"}})
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || r.body["ok"] != true {
			t.Errorf("%s with Accept NDJSON: %d %q %s", path, r.status, r.header.Get("Content-Type"), r.rawBody)
		}
	}
	r := e.do(request{path: "/v1/markets/trending", key: "bad", headers: map[string]string{"Accept": "application/x-ndjson"}})
	if r.status != 401 || r.code() != string(CodeInvalidAPIKey) {
		t.Errorf("error with Accept NDJSON: %d %s", r.status, r.rawBody)
	}
}

func TestRequestIDsAreUnique(t *testing.T) {
	e := newEnv(t)
	seen := map[string]bool{}
	for i := range 60 {
		var r response
		switch i % 3 {
		case 0:
			r = e.do(request{path: "/v1/chains"})
		case 1:
			r = e.do(request{path: "/v1/markets/trending", key: "bad"})
		default:
			r = e.do(request{path: "/v1/nowhere"})
		}
		id := r.header.Get("X-Request-Id")
		if id == "" || seen[id] {
			t.Fatalf("request id %q missing or repeated", id)
		}
		seen[id] = true
	}
	if r := e.do(request{path: "/healthz"}); r.header.Get("X-Request-Id") == "" {
		t.Error("healthz without request id")
	}
}

func TestChainsList(t *testing.T) {
	e := newEnv(t)
	r := e.do(request{path: "/v1/chains"})
	chains := r.body["chains"].([]any)
	want := []string{"solana", "ethereum", "base", "bsc", "robinhood", "arc"}
	if len(chains) != len(want) {
		t.Fatalf("got %d chains, want 6: %s", len(chains), r.rawBody)
	}
	for i, c := range chains {
		m := c.(map[string]any)
		if m["id"] != want[i] || m["enabled"] != false {
			t.Errorf("chain %d = %v, want %s, not enabled", i, m, want[i])
		}
		wantKind := "evm"
		if want[i] == "solana" {
			wantKind = "solana"
		}
		if m["kind"] != wantKind || m["nativeToken"] == "" {
			t.Errorf("chain %v: kind or native token wrong", m)
		}
	}
	if r.header.Get("X-RateLimit-Limit") != "" {
		t.Error("public operation carries rate-limit headers")
	}
	_ = time.Second
}
