package api

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unsafe"

	"github.com/partner-platform/partnerd/chain"
)

// TestChecksumMismatch sends a mixed-case EVM address with one mistyped digit in every place the
// API takes an EVM address (path, query, body, owner refs): each is refused with 400
// invalid_address saying "checksum mismatch" and naming the field, before anything is read or
// built. The same calls with the address in lower or upper case get past the address check.
func TestChecksumMismatch(t *testing.T) {
	e := newEnv(t)
	const (
		good = "0x647DA401969aD18a3D499d7e3f39bdfd885A7077"
		typo = "0x647DA401969aD18a3D499d7e3f39bdfd885A7078" // last digit mistyped: checksum no longer matches
	)
	post := func(path, body string) request {
		return request{method: http.MethodPost, path: path, key: e.key, body: body, headers: map[string]string{"Idempotency-Key": fmt.Sprintf("%x", sha256.Sum256([]byte(body)))}}
	}
	calls := []struct {
		field string
		req   func(a string) request
	}{
		{"mint", func(a string) request { return request{path: "/v1/tokens/" + a + "/price?chain=base", key: e.key} }},
		{"pool", func(a string) request { return request{path: "/v1/pools/" + a + "?chain=base", key: e.key} }},
		{"pool", func(a string) request {
			return request{path: "/v1/tokens/" + evmAddr + "/history?chain=base&pool=" + a, key: e.key}
		}},
		{"quote", func(a string) request {
			return request{path: "/v1/pools/" + evmAddr + "/reserves?chain=base&amm=uniswap-v2&base=" + evmAddr2 + "&quote=" + a, key: e.key}
		}},
		{"outputMint", func(a string) request {
			return request{path: "/v1/quotes/swap?chain=base&inputMint=native&outputMint=" + a + "&amount=1&slippageBps=50", key: e.key}
		}},
		{"owner", func(a string) request {
			return request{path: "/v1/portfolio/" + a + "/holdings?chain=base", key: e.key}
		}},
		{"base:" + typo, func(a string) request {
			return request{path: "/v1/portfolio/positions?owners=base:" + evmAddr + ",base:" + a, key: e.key}
		}},
		{"to", func(a string) request {
			return post("/v1/build/transfer", fmt.Sprintf(`{"chain":"base","user":%q,"to":%q,"token":"native","amount":"1"}`, evmAddr, a))
		}},
		{"user", func(a string) request {
			return post("/v1/build/swap", fmt.Sprintf(`{"chain":"base","user":%q,"inputMint":"native","outputMint":%q,"amount":"1","slippageBps":50}`, a, evmAddr2))
		}},
		{"tokenB", func(a string) request {
			return post("/v1/build/lp/create", fmt.Sprintf(`{"chain":"base","venue":"uniswap-v2","version":"2","user":%q,"tokenA":%q,"tokenB":%q}`, evmAddr, evmAddr2, a))
		}},
		{"pool", func(a string) request {
			return post("/v1/build/lp/remove", fmt.Sprintf(`{"chain":"base","venue":"uniswap-v2","version":"2","user":%q,"pool":%q,"bps":100}`, evmAddr, a))
		}},
	}
	for _, c := range calls {
		r := e.do(c.req(typo))
		t.Run(c.field+" "+r.code(), func(t *testing.T) {
			msg, _ := r.body["error"].(string)
			if r.status != 400 || r.code() != string(CodeInvalidAddress) || !strings.Contains(msg, "checksum mismatch") || !strings.Contains(msg, c.field) {
				t.Errorf("%s: %d %s, want 400 invalid_address saying checksum mismatch for %s", c.req(typo).path, r.status, r.rawBody, c.field)
			}
			for _, ok := range []string{strings.ToLower(good), "0x" + strings.ToUpper(good[2:]), good} {
				if r := e.do(c.req(ok)); r.code() == string(CodeInvalidAddress) {
					t.Errorf("%s refused: %s", ok, r.rawBody)
				}
			}
		})
	}
}

// TestCallerMessages: each refusal says what the caller did wrong, in words, once.
func TestCallerMessages(t *testing.T) {
	e := newEnv(t)
	post := func(path, body string) request {
		return request{method: http.MethodPost, path: path, key: e.key, body: body,
			headers: map[string]string{"Idempotency-Key": fmt.Sprintf("%x", sha256.Sum256([]byte(body)))}}
	}
	for _, tc := range []struct {
		name string
		req  request
		code Code
		want string
	}{
		{"an 80-digit amount is a decimal beyond every token's range",
			post("/v1/build/transfer", `{"chain":"base","user":"`+evmAddr+`","to":"`+evmAddr2+`","token":"native","amount":"`+strings.Repeat("9", 80)+`"}`),
			CodeInvalidAmount, "exceeds the token's range"},
		{"an EVM mint where chain defaulted to solana", request{path: "/v1/tokens/" + evmAddr + "/price", key: e.key},
			CodeInvalidAddress, "is an EVM address, but chain is solana (the chain when none is given)"},
		{"a human amount on a swap build",
			post("/v1/build/swap", `{"chain":"base","user":"`+evmAddr+`","inputMint":"native","outputMint":"`+evmAddr2+`","amount":"1.5","slippageBps":50}`),
			CodeInvalidAmount, "want integer base units"},
		{"a swap amount too long for any token",
			post("/v1/build/swap", `{"chain":"base","user":"`+evmAddr+`","inputMint":"native","outputMint":"`+evmAddr2+`","amount":"`+strings.Repeat("9", 80)+`","slippageBps":50}`),
			CodeInvalidAmount, "exceeds the token's range"},
		{"a human amount on a quote", request{path: "/v1/quotes/swap?chain=base&inputMint=native&outputMint=" + evmAddr2 + "&amount=1.5", key: e.key},
			CodeInvalidAmount, "want integer base units"},
	} {
		r := e.do(tc.req)
		msg, _ := r.body["error"].(string)
		if r.code() != string(tc.code) || !strings.Contains(msg, tc.want) || strings.Count(msg, "invalid amount") > 1 || strings.Contains(msg, "^[") {
			t.Errorf("%s: %d %s, want %s saying %q", tc.name, r.status, r.rawBody, tc.code, tc.want)
		}
	}
}

// TestRecordedNamesAreConstants: a recorded call's method and chain (as lookupChain notes it) are
// the one string net/http and the chain registry spell them with, not the request's own copy, so
// the usage log finds them by their address; a method or chain it does not know is kept as given.
func TestRecordedNamesAreConstants(t *testing.T) {
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	for _, m := range methods {
		if got := methodName(strings.Clone(m)); got != m || !same(got, m) {
			t.Errorf("methodName(%s) is not net/http's constant", m)
		}
	}
	if got := methodName("BREW"); got != "BREW" {
		t.Errorf("methodName(BREW) = %q", got)
	}
	for _, c := range chain.Supported {
		ctx := context.WithValue(t.Context(), callKey{}, &call{})
		lookupChain(ctx, strings.Clone(c.Name))
		if got := callOf(ctx).chain; got != c.Name || !same(got, c.Name) {
			t.Errorf("noted chain %s is not the registry's string", c.Name)
		}
	}
	ctx := context.WithValue(t.Context(), callKey{}, &call{})
	if lookupChain(ctx, "atlantis"); callOf(ctx).chain != "atlantis" {
		t.Errorf("unknown chain noted as %q", callOf(ctx).chain)
	}
}
