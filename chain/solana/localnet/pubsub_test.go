package localnet

import (
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestPubSub runs the validator's PubSub tests (chain/solana/validator/test/pubsub.test.mjs, with
// node's test runner, over a real WebSocket client): every subscription kind and its unsubscribe,
// the notifications in Agave's exact shapes at processed, confirmed and finalized, one-shot
// signature subscriptions, received notifications, shared subscriptions and the errors. They start
// a validator of their own (100 ms blocks, finalized after 4).
func TestPubSub(t *testing.T) {
	t.Parallel()
	n := sharedNode(t) // skips, or fails under PARTNER_TEST_REQUIRE_ALL=1, when the validator cannot run
	dir, err := install()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	cmd := exec.CommandContext(ctx, "node", "--test", "--test-reporter=spec", filepath.Join("test", "pubsub.test.mjs"))
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test test/pubsub.test.mjs: %v\n%s", err, out)
	}
	t.Logf("the PubSub tests passed in %s", time.Since(began).Round(time.Millisecond))

	// The node Start ran reports the PubSub URL, on the RPC port + 1 (where clients look for it).
	rpcURL, err1 := url.Parse(n.URL)
	wsURL, err2 := url.Parse(n.WSURL)
	if err1 != nil || err2 != nil {
		t.Fatalf("URLs %q %q: %v %v", n.URL, n.WSURL, err1, err2)
	}
	port, _ := strconv.Atoi(rpcURL.Port())
	if wsURL.Scheme != "ws" || wsURL.Hostname() != rpcURL.Hostname() || wsURL.Port() != strconv.Itoa(port+1) {
		t.Errorf("WSURL %s for URL %s; want ws:// on the same host, port + 1", n.WSURL, n.URL)
	}
}
