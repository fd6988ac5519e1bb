package api

import (
	"context"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/access"
)

// restrictedKey creates a key of consumer restricted by o and makes it known to the API.
func (e *env) restrictedKey(consumer int, o access.KeyOptions) string {
	e.t.Helper()
	k, err := e.svc.CreateKeyWith(context.Background(), access.Operator("test"), consumer, "restricted", o)
	if err != nil {
		e.t.Fatal(err)
	}
	e.refresh()
	return k.Key
}

func TestRestrictedKeys(t *testing.T) {
	e := newEnv(t)
	holdings := "/v1/portfolio/holdings?owners=base:" + evmAddr
	marketOnly := e.restrictedKey(e.consumer, access.KeyOptions{Scopes: []string{"market:read"}})
	elsewhere := e.restrictedKey(e.consumer, access.KeyOptions{Sources: []string{"10.0.0.0/8"}})
	loopback := e.restrictedKey(e.consumer, access.KeyOptions{Scopes: []string{"market:read", "portfolio:read"}, Sources: []string{"127.0.0.0/8"}})
	// A consumer with market:read only: a key restricted to it and portfolio:read still gets only market:read.
	narrow, _ := e.newConsumer(access.ConsumerChange{Scopes: &[]string{"market:read", "portfolio:read"}})
	narrowKey := e.restrictedKey(narrow, access.KeyOptions{Scopes: []string{"portfolio:read"}})

	run(t, e, []scenario{
		{name: "unrestricted key: every scope", req: request{path: holdings, key: e.key}, status: 200},
		{name: "restricted key inside its scopes", req: request{path: "/v1/markets/trending", key: marketOnly}, status: 200},
		{name: "restricted key outside its scopes", req: request{path: holdings, key: marketOnly}, status: 403, code: CodeScopeRequired},
		{name: "builder outside the key's scopes", req: request{method: "POST", path: "/v1/build/transfer", key: marketOnly, body: `{}`,
			headers: map[string]string{"Idempotency-Key": "restricted-1"}}, status: 403, code: CodeScopeRequired},
		{name: "public operation needs no scope", req: request{path: "/v1/chains", key: marketOnly}, status: 200},
		{name: "key allowlist excludes the caller", req: request{path: "/v1/markets/trending", key: elsewhere}, status: 403, code: CodeSourceNotAllowed},
		{name: "key allowlist includes the caller", req: request{path: holdings, key: loopback}, status: 200},
		{name: "key scope held by the consumer", req: request{path: holdings, key: narrowKey}, status: 200},
		{name: "consumer scope the key lacks", req: request{path: "/v1/markets/trending", key: narrowKey}, status: 403, code: CodeScopeRequired},
	})

	// The messages say the key is restricted; a consumer's own denial does not.
	r := e.do(request{path: holdings, key: marketOnly})
	if msg, _ := r.body["error"].(string); !strings.Contains(msg, "restricted") || !strings.Contains(msg, "portfolio:read") {
		t.Errorf("restricted key's scope_required message %q does not say the key is restricted and what it needs", msg)
	}
	r = e.do(request{path: "/v1/markets/trending", key: elsewhere})
	if msg, _ := r.body["error"].(string); !strings.Contains(msg, "restricted") || !strings.Contains(msg, "127.0.0.1") {
		t.Errorf("restricted key's source_not_allowed message %q", msg)
	}
	_, consumerOnly := e.newConsumer(access.ConsumerChange{Scopes: &[]string{"market:read"}})
	r = e.do(request{path: holdings, key: consumerOnly})
	if msg, _ := r.body["error"].(string); r.code() != string(CodeScopeRequired) || strings.Contains(msg, "restricted") {
		t.Errorf("consumer's own scope_required: %s", r.rawBody)
	}

	// The consumer loses portfolio:read: the key restricted to it loses it too, at once.
	if _, err := e.svc.UpdateConsumer(context.Background(), access.Operator("test"), narrow,
		access.ConsumerChange{Scopes: &[]string{"market:read"}}, ""); err != nil {
		t.Fatal(err)
	}
	e.refresh()
	run(t, e, []scenario{
		{name: "after the consumer lost the key's scope", req: request{path: holdings, key: narrowKey}, status: 403, code: CodeScopeRequired},
	})
}
