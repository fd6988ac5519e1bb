// Package anvil runs Foundry's anvil as a second, independent EVM for tests: a different
// implementation (Rust, revm) from go-ethereum's simulated backend, served over real HTTP JSON-RPC.
// It is imported by tests only.
//
// The anvil binary comes from the npm package pinned in package.json beside this file
// (@foundry-rs/anvil-linux-amd64, which ships it as
// node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil). `make test` installs it first; a test run
// without make installs it on first use with `npm ci`. Where anvil cannot be obtained (no npm, no
// registry, not linux/amd64) Start skips the test, or fails it under PARTNER_TEST_REQUIRE_ALL=1.
//
// The node runs offline (no fork URL) with chain id 1337, so devnet.Account signs for it unchanged,
// Prague fork rules (as devnet.ChainConfig), automine (a block per transaction, as soon as it reaches
// the pool) and the deterministic default mnemonic. Backend adapts it to devnet.Backend.
package anvil

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain/internal/npmpkg"
)

// ChainID is the chain id anvil runs with: the devnet's, so devnet.Account works unchanged.
const ChainID = 1337

// Hardfork is the fork rules anvil runs with (anvil's default is its latest supported fork).
const Hardfork = "prague"

// Mnemonic derives the funded accounts (anvil's well-known default, passed explicitly so the keys
// do not depend on anvil's defaults). Their keys are public: never use them outside tests.
const Mnemonic = "test test test test test test test test test test test junk"

// startTimeout bounds how long anvil may take to listen and answer (it takes ~0.1 s when idle).
const startTimeout = 60 * time.Second

// Node is a running anvil.
type Node struct {
	// URL is the HTTP JSON-RPC endpoint, http://127.0.0.1:PORT.
	URL string
	// Keys are the funded accounts' private keys (from Mnemonic), each with the configured balance.
	Keys []*ecdsa.PrivateKey
	// Version is anvil's web3_clientVersion, e.g. "anvil/v1.7.1".
	Version string

	cmd *exec.Cmd
}

type config struct {
	accounts int
	balance  int64
}

// Option configures Start.
type Option func(*config)

// Accounts sets how many funded accounts anvil creates (default 10).
func Accounts(n int) Option { return func(c *config) { c.accounts = n } }

// Balance sets each funded account's balance in ether (default 10000).
func Balance(ether int64) Option { return func(c *config) { c.balance = ether } }

// Start runs anvil on a free loopback port for the test's lifetime (it is killed on cleanup) and
// returns it once it answers eth_chainId with ChainID.
//
// It installs the npm package on first use if it is missing (npm ci in this package's directory,
// found from this source file or by walking up to go.mod) and skips the test with a clear message
// when anvil cannot be obtained, unless PARTNER_TEST_REQUIRE_ALL=1, which makes that a failure.
// Failing to run an anvil that is there always fails the test.
func Start(t testing.TB, opts ...Option) *Node {
	t.Helper()
	cfg := config{accounts: 10, balance: 10_000}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.accounts < 1 || cfg.balance < 0 {
		t.Fatalf("anvil: %d accounts with %d ether each", cfg.accounts, cfg.balance)
	}
	bin, err := binary()
	if err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("anvil is required (PARTNER_TEST_REQUIRE_ALL=1) but unavailable: %v", err)
		}
		t.Skipf("skipping: anvil unavailable (set PARTNER_TEST_REQUIRE_ALL=1 to fail instead): %v", err)
	}

	began := time.Now()
	dir := t.TempDir() // cleaned up after the process is killed (cleanups run last-in first-out)
	configOut := filepath.Join(dir, "anvil.json")
	out := &output{listening: make(chan string, 1)}
	// --port 0: the kernel picks a free port and anvil prints it ("Listening on 127.0.0.1:PORT"),
	// so no other process can take the port between choosing and binding it. Its log goes to out,
	// which keeps the last lines for error messages and discards the rest.
	cmd := exec.Command(bin,
		"--host", "127.0.0.1", "--port", "0",
		"--chain-id", strconv.Itoa(ChainID), "--hardfork", Hardfork,
		"--mnemonic", Mnemonic, "--accounts", strconv.Itoa(cfg.accounts), "--balance", strconv.FormatInt(cfg.balance, 10),
		"--config-out", configOut, "--cache-path", filepath.Join(dir, "cache"), "--color", "never",
	)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr() // on Linux: killed with the test binary, even on a panic or timeout
	if err := cmd.Start(); err != nil {
		t.Fatalf("anvil: start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // state is in memory: nothing to flush
		<-exited
	})

	fail := func(format string, args ...any) {
		t.Helper()
		select {
		case <-exited:
			t.Fatalf("anvil: %s (exited: %v); its output:\n%s", fmt.Sprintf(format, args...), waitErr, out.tail())
		default:
			t.Fatalf("anvil: %s; its output:\n%s", fmt.Sprintf(format, args...), out.tail())
		}
	}
	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	var addr string
	select {
	case addr = <-out.listening:
	case <-exited:
		fail("exited before listening")
	case <-deadline.C:
		fail("not listening after %s", startTimeout)
	}
	n := &Node{URL: "http://" + addr, cmd: cmd}

	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	client, err := rpc.DialContext(ctx, n.URL)
	if err != nil {
		fail("dial %s: %v", n.URL, err)
	}
	defer client.Close()
	var id hexutil.Uint64
	for {
		err = client.CallContext(ctx, &id, "eth_chainId")
		if err == nil || ctx.Err() != nil {
			break
		}
		select {
		case <-exited:
			fail("exited before answering eth_chainId: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err != nil {
		fail("eth_chainId at %s: %v", n.URL, err)
	}
	if id != ChainID {
		fail("chain id %d at %s, want %d", uint64(id), n.URL, ChainID)
	}
	if err := client.CallContext(ctx, &n.Version, "web3_clientVersion"); err != nil {
		fail("web3_clientVersion: %v", err)
	}
	if n.Keys, err = readKeys(configOut); err != nil {
		fail("%v", err)
	}
	if len(n.Keys) != cfg.accounts {
		fail("%d keys in %s, want %d", len(n.Keys), configOut, cfg.accounts)
	}
	t.Logf("anvil: %s at %s, up in %s", n.Version, n.URL, time.Since(began).Round(time.Millisecond))
	return n
}

// readKeys reads the funded accounts' private keys from anvil's --config-out file, which anvil
// writes before it starts listening.
func readKeys(path string) ([]*ecdsa.PrivateKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read its config: %w", err)
	}
	var c struct {
		PrivateKeys []string `json:"private_keys"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("parse its config %s: %w", path, err)
	}
	keys := make([]*ecdsa.PrivateKey, len(c.PrivateKeys))
	for i, k := range c.PrivateKeys {
		if keys[i], err = crypto.HexToECDSA(strings.TrimPrefix(k, "0x")); err != nil {
			return nil, fmt.Errorf("private key %d in %s: %w", i, path, err)
		}
	}
	return keys, nil
}

// output receives anvil's log: it reports the address from the "Listening on HOST:PORT" line and
// keeps the last lines for error messages. anvil writes it from one pipe-copying goroutine per
// stream; the mutex covers stdout and stderr sharing it.
type output struct {
	mu        sync.Mutex
	partial   []byte
	lines     []string
	listening chan string // one address, then nothing
	found     bool
}

const keptLines = 60

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.partial = append(o.partial, p...)
	for {
		i := bytes.IndexByte(o.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(o.partial[:i]))
		o.partial = o.partial[i+1:]
		if line == "" {
			continue
		}
		if o.lines = append(o.lines, line); len(o.lines) > keptLines {
			o.lines = o.lines[len(o.lines)-keptLines:]
		}
		if _, addr, ok := strings.Cut(line, "Listening on "); ok && !o.found {
			if _, _, err := net.SplitHostPort(addr); err == nil {
				o.found = true
				o.listening <- addr
			}
		}
	}
	if len(o.partial) > 64<<10 { // a line that long is not one we look for
		o.partial = o.partial[:0]
	}
	return len(p), nil
}

func (o *output) tail() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(append(o.lines, string(o.partial)), "\n")
}

// binary returns the anvil binary's path, installing the npm package first if it is missing
// (once per test binary; concurrent test binaries install side by side and the first wins).
var binary = sync.OnceValues(func() (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("the pinned npm package @foundry-rs/anvil-linux-amd64 is for linux/amd64, this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	var here string
	if _, file, _, ok := runtime.Caller(0); ok {
		here = filepath.Dir(file)
	}
	dir, err := npmpkg.Dir(here, "chain/devnet/anvil")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil")
	if err := npmpkg.Install(dir, bin); err != nil {
		return "", err
	}
	return bin, nil
})
