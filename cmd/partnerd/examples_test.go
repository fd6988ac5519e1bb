package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// TestDocumentedExamples sends every request example of the served OpenAPI document, as it is, to
// the real binary in local mode (as make run starts it) and requires the status the example
// documents (x-expected-status). Within an operation, the parameter examples of one name and the body
// example of that name make one request. Every keyed operation has at least one example, and the
// examples agree with GET /v1/chains: an operation listed for an enabled chain has an example on that
// chain that answers 200, and none listed answers 400 operation_not_supported there.
func TestDocumentedExamples(t *testing.T) {
	t.Parallel()
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:" + filepath.Join(t.TempDir(), "p.db"))
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: time.Minute}}
	cons := as[access.Consumer](t, e.cli("consumer", "create", "--name", "Examples",
		"--scopes", "market:read,portfolio:read,quote:read,tx:build", "--rpm", "100000", "--burst", "10000", "--enable"))
	key := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", strconv.Itoa(cons.ID), "--name", "examples")).Key

	// The devnet's trader has swapped: blocks have passed since the seeding, so the seeded stake
	// has earned (the harvest and compound examples need it), as a few seconds into make run.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		r := e.call(http.MethodGet, "/v1/pools/hot?chain=base", key, nil)
		if pools, _ := r.body["pools"].([]any); len(pools) > 0 {
			break
		}
		if time.Now().After(deadline) {
			e.fatalf("the devnet's trader made no trade within a minute: %s", r.raw)
		}
	}

	// The solana index has the seeded pools, and the trader has swapped through AUR/USDC (the
	// examples' pool) at least once.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		r := e.call(http.MethodGet, "/v1/tokens/3QkfvpabHMF9CzxkvjQvHKR8mMcWTDnB2mnSa8sVZz7J/trades?chain=solana", key, nil)
		if trades, _ := r.body["trades"].([]any); len(trades) > 0 {
			break
		}
		if time.Now().After(deadline) {
			e.fatalf("no solana trade of AUR indexed within a minute: %s", r.raw)
		}
	}
	checkREADMEDevnet(t, e.stderr.String())

	doc := e.call(http.MethodGet, "/v1/openapi.json", "", nil).body
	chains := e.call(http.MethodGet, "/v1/chains", "", nil).body["chains"].([]any)
	listed := map[string][]string{} // enabled chain -> operations
	for _, c := range chains {
		c := c.(map[string]any)
		if c["enabled"] == true {
			for _, op := range c["operations"].([]any) {
				listed[c["id"].(string)] = append(listed[c["id"].(string)], op.(string))
			}
		}
	}
	answered := map[string]map[string]bool{} // operation -> chain -> an example answered 200 there
	sent := 0
	for path, item := range doc["paths"].(map[string]any) {
		for method, v := range item.(map[string]any) {
			op := v.(map[string]any)
			id := op["operationId"].(string)
			requests := documentedRequests(t, path, op)
			if len(requests) == 0 && op["security"] != nil && len(op["security"].([]any)) > 0 {
				t.Errorf("%s has no request example", id)
			}
			for _, x := range requests {
				var body any
				if x.body != nil {
					body = x.body
				}
				r := e.call(strings.ToUpper(method), x.path, key, body, x.headers...)
				sent++
				if r.status != x.status {
					t.Errorf("%s example %q (%s): %d %s, documented %d", id, x.name, x.summary, r.status, r.raw, x.status)
				}
				for _, c := range x.chains {
					if answered[id] == nil {
						answered[id] = map[string]bool{}
					}
					answered[id][c] = answered[id][c] || r.status == http.StatusOK
					if r.code() == "operation_not_supported" && slices.Contains(listed[c], id) {
						t.Errorf("%s is listed for %s, but its example %q answered operation_not_supported: %s", id, c, x.name, r.raw)
					}
				}
			}
		}
	}
	// A Solana swap build takes a sealed quote, which no static example can hold: the documented
	// quote example's raw, fetched now, must build.
	if slices.Contains(listed["solana"], "buildSwap") {
		q := e.call(http.MethodGet, "/v1/quotes/swap?chain=solana&inputMint=95TkvMZoHP9tNNv4ZsEfrT47ZYEnpWVpMcciPyEa9Yfx&outputMint=DvxQQQ3XEuo1XMNbsnsxYt7mrBb9Totn6yPY3NLfX84N&amount=1000000", key, nil)
		b := e.call(http.MethodPost, "/v1/build/swap", key, map[string]any{"chain": "solana", "user": "58BAP9tWqD3nWfvzfa83a9vnNzjp8erG8suDCEX6qvJ3",
			"quoteResponse": q.body["raw"]}, "Idempotency-Key", "examples-solana-swap")
		if b.status != http.StatusOK {
			t.Errorf("buildSwap of a fresh solana quote (the documented one's raw): %d %s", b.status, b.raw)
		}
		answered["buildSwap"]["solana"] = b.status == http.StatusOK
	}
	for c, ops := range listed {
		for _, id := range ops {
			if answered[id] != nil && !answered[id][c] { // nil: its examples name no chain (confirm)
				t.Errorf("%s is listed for %s, but no documented example answers 200 there", id, c)
			}
		}
	}
	t.Logf("%d documented requests sent", sent)
}

// documentedRequest is one documented example of an operation, ready to send.
type documentedRequest struct {
	name, summary, path string
	headers             []string
	body                any
	status              int
	chains              []string // the chains it names (solana when none: the default)
}

// documentedRequests assembles an operation's examples: for each example name, its parameters' and
// body's examples of that name.
func documentedRequests(t *testing.T, path string, op map[string]any) []documentedRequest {
	t.Helper()
	byName := map[string]*documentedRequest{}
	query := map[string]url.Values{}
	get := func(name string, x map[string]any) *documentedRequest {
		r := byName[name]
		if r == nil {
			r = &documentedRequest{name: name, path: path, status: -1}
			byName[name], query[name] = r, url.Values{}
		}
		status := int(x["x-expected-status"].(float64))
		if r.status != -1 && r.status != status {
			t.Errorf("%s example %s: the parameters' and body's statuses differ (%d, %d)", op["operationId"], name, r.status, status)
		}
		r.status, r.summary = status, fmt.Sprint(x["summary"])
		return r
	}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		p := p.(map[string]any)
		examples, _ := p["examples"].(map[string]any)
		for name, x := range examples {
			x := x.(map[string]any)
			r, value := get(name, x), fmt.Sprint(x["value"])
			switch p["in"] {
			case "path":
				r.path = strings.ReplaceAll(r.path, "{"+p["name"].(string)+"}", url.PathEscape(value))
			case "query":
				query[name].Set(p["name"].(string), value)
			case "header":
				r.headers = append(r.headers, p["name"].(string), value)
			}
		}
	}
	if body, ok := op["requestBody"].(map[string]any); ok {
		examples, _ := body["content"].(map[string]any)["application/json"].(map[string]any)["examples"].(map[string]any)
		for name, x := range examples {
			x := x.(map[string]any)
			get(name, x).body = x["value"]
		}
	}
	var out []documentedRequest
	for name, r := range byName {
		if strings.Contains(r.path, "{") {
			t.Errorf("%s example %s leaves a path parameter out: %s", op["operationId"], name, r.path)
		}
		r.chains = namedChains(query[name], r.body)
		if q := query[name].Encode(); q != "" {
			r.path += "?" + q
		}
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// namedChains are the chains a request names: chain (solana by default), fromChain, or the chains of
// its owner refs; none for a body that names no chain (confirm: its token knows the chain).
func namedChains(q url.Values, body any) []string {
	if owners := q.Get("owners"); owners != "" {
		var out []string
		for _, ref := range strings.Split(owners, ",") {
			c, _, qualified := strings.Cut(ref, ":")
			if !qualified {
				c = "solana"
			}
			out = append(out, c)
		}
		return out
	}
	c := q.Get("chain")
	if b, ok := body.(map[string]any); ok {
		c = "all" // none, unless the body names one
		if v, ok := b["chain"].(string); ok {
			c = v
		} else if v, ok := b["fromChain"].(string); ok {
			c = v
		}
	}
	switch c {
	case "":
		return []string{"solana"}
	case "all":
		return nil
	}
	return []string{c}
}

// checkREADMEDevnet holds the README's account of the devnet that local mode seeds to what the
// binary's log says it seeded: its tokens (besides the stablecoin and wrapped ETH), pools and farms.
func checkREADMEDevnet(t *testing.T, log string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	counts := map[string]int{}
	for line := range strings.Lines(log) {
		var l struct{ Msg string }
		if json.Unmarshal([]byte(line), &l) == nil {
			counts[l.Msg]++
		}
	}
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	for msg, phrase := range map[string]string{"devnet token": "%s tokens", "devnet pool": "%s Uniswap V2 pools", "devnet farm (StakingRewards)": "%s farms in all",
		"devnet stake": "and %s stake"} {
		n := counts[msg]
		if n >= len(words) || !strings.Contains(text, fmt.Sprintf(phrase, words[n])) {
			t.Errorf("the devnet logged %d %q lines; the README does not say %q", n, msg, fmt.Sprintf(phrase, words[min(n, len(words)-1)]))
		}
	}
}
