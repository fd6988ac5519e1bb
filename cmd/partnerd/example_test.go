package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/devnet"
)

// TestExampleEVMSwap runs examples/evm-swap, the program partners copy, against the built binary in
// local mode the way its README says: a consumer and key from the CLI, account 5's key from the
// devnet's start-up banner, the devnet's RPC URL. A swap the API asks to review must stop the
// example before anything is signed; a 0.1 ETH swap for AUR (the example's default output) must
// exit 0 after confirm reported confirmed, with the user's AUR balance grown by at least the
// minimum the build printed and every hash finalized. The key is never printed.
//
// The background trader is off (it would move prices between build and send) and the test adds
// the devnet's 12 confirmation blocks itself: account 6, a user account the devnet never signs
// for, sends itself nothing every 100 ms while the example runs (the devnet mines whenever a
// transaction is pending).
func TestExampleEVMSwap(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	bin := partnerdBinary(t)
	example := buildExample(t)
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	env := baseEnv("PARTNER_DATABASE_URL="+dbURL, "PARTNER_DEVNET_TRADE_INTERVAL=0")
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: 10 * time.Second}}
	t.Cleanup(e.client.CloseIdleConnections)
	cons := as[access.Consumer](t, e.cli("consumer", "create", "--name", "Acme", "--scopes", "market:read,portfolio:read,quote:read,tx:build",
		"--rpm", "600", "--burst", "300", "--enable"))
	apiKey := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", strconv.Itoa(cons.ID), "--name", "backend")).Key
	dn := e.banner()
	if dn.aur != "0xfA172D7e20A062de8B89f8B03821e77072B141B3" {
		t.Errorf("the devnet's AUR is %s; the example's default output-mint and README say 0xfA17…41B3", dn.aur)
	}
	ctx := t.Context()
	eth, err := ethclient.DialContext(ctx, dn.rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	aur := common.HexToAddress(dn.aur)
	balance := func() *big.Int {
		out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &aur, Data: tokenABI.PackBalanceOf(dn.users[5])}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return new(big.Int).SetBytes(out)
	}
	run := func(args ...string) (code int, stdout, stderr string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, 45*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, example, append([]string{"-base-url", e.base, "-rpc-url", dn.rpcURL}, args...)...)
		cmd.Env = append(exampleEnv(), "PARTNER_API_KEY="+apiKey, "DEVNET_KEY="+dn.keys[5])
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("run the example: %v", err)
		}
		t.Logf("evm-swap %s: exit %d\n%s%s", strings.Join(args, " "), cmd.ProcessState.ExitCode(), out.String(), errOut.String())
		if strings.Contains(out.String()+errOut.String(), strings.TrimPrefix(dn.keys[5], "0x")) {
			t.Errorf("the example printed the private key")
		}
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}

	// 20 ETH into AUR's 200 ETH pool loses about 9 %: review_required, nothing signed.
	nonce, err := eth.NonceAt(ctx, dn.users[5], nil)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("-amount", "20000000000000000000")
	if n, _ := eth.NonceAt(ctx, dn.users[5], nil); code == 0 || n != nonce || !strings.Contains(out, "-max-value-loss-ppm") ||
		!regexp.MustCompile(`HTTP 409 review_required: .*\(requestId req_\w+\)`).MatchString(errOut) {
		t.Errorf("a swap to review: exit %d, nonce %d -> %d; want a non-zero exit before signing, valueLossPpm and the error with its code and requestId", code, nonce, n)
	}

	// 0.1 ETH for AUR, signed, sent, confirmed.
	before := balance()
	stop := pumpBlocks(t, dn.rpcURL, dn.keys[6])
	start := time.Now()
	code, out, _ = run("-amount", "100000000000000000")
	stop()
	t.Logf("the swap took %v (%d confirm polls)", time.Since(start).Round(time.Millisecond), strings.Count(out, "confirm: "))
	if code != 0 {
		t.Fatalf("the example exited %d", code)
	}
	m := regexp.MustCompile(`(?m)^build: 1 transaction\(s\), min out ([0-9]+), .*\(Idempotency-Key evm-swap-[0-9a-f]+\)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the example printed no build line with the minimum out")
	}
	minOut, _ := new(big.Int).SetString(m[1], 10)
	if got := new(big.Int).Sub(balance(), before); minOut.Sign() <= 0 || got.Cmp(minOut) < 0 {
		t.Errorf("the user's AUR grew by %s, want at least the printed minimum %s", got, minOut)
	}
	if !strings.Contains(out, "\nconfirm: confirmed\n") {
		t.Errorf("the example did not print that confirm reported confirmed")
	}
	sent := regexp.MustCompile(`(?m)^sent swap (0x[0-9a-f]{64}): .* status 1$`).FindStringSubmatch(out)
	if sent == nil || !regexp.MustCompile(`(?m)^status `+sent[1]+`: finalized, `).MatchString(out) {
		t.Errorf("the example printed no sent swap with its final status finalized")
	}
	// Selling AUR takes two transactions: the exact approve (whose payload.expect the example waits
	// for) and the swap, sent in order and confirmed together.
	stop = pumpBlocks(t, dn.rpcURL, dn.keys[6])
	code, out, _ = run("-input-mint", dn.aur, "-output-mint", "native", "-amount", "1000000000000000000")
	stop()
	if code != 0 || !regexp.MustCompile(`(?s)\nsent approve 0x.*\nsent swap 0x.*\nconfirm: confirmed\n`).MatchString(out) {
		t.Errorf("selling AUR: exit %d; want the approve, then the swap, sent and confirmed", code)
	}
	t.Logf("TestExampleEVMSwap took %v", time.Since(begin).Round(time.Millisecond))
}

// buildExample builds examples/evm-swap into the test's temporary directory.
func buildExample(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "evm-swap")
	cmd := exec.Command("go", "build", "-o", bin, "./examples/evm-swap")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/evm-swap: %v\n%s", err, out)
	}
	return bin
}

// exampleEnv is the test's environment without the variables the example reads.
func exampleEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARTNER_") && !strings.HasPrefix(kv, "DEVNET_KEY=") && !strings.HasPrefix(kv, "RPC_URL=") {
			env = append(env, kv)
		}
	}
	return env
}

// devnetBanner is what the devnet printed at start: its RPC URL, the user accounts' addresses and
// keys by index, and AUR's address.
type devnetBanner struct {
	rpcURL string
	users  map[int]common.Address
	keys   map[int]string
	aur    string
}

// banner reads the devnet's start-up banner from the server's JSON log.
func (e *e2e) banner() devnetBanner {
	e.t.Helper()
	b := devnetBanner{users: map[int]common.Address{}, keys: map[int]string{}}
	for _, line := range strings.Split(e.stderr.String(), "\n") {
		var l struct {
			Msg, RPCURL, Role, Address, PrivateKey, Symbol string
			Index                                          int
		}
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch {
		case strings.HasPrefix(l.Msg, "LOCAL DEVNET"):
			b.rpcURL = l.RPCURL
		case l.Msg == "devnet account (public test key)" && l.Role == devnet.RoleUser:
			b.users[l.Index], b.keys[l.Index] = common.HexToAddress(l.Address), l.PrivateKey
		case l.Msg == "devnet token" && l.Symbol == "AUR":
			b.aur = l.Address
		}
	}
	if b.rpcURL == "" || b.keys[5] == "" || b.keys[6] == "" || b.aur == "" {
		e.fatalf("the devnet's banner lacks its rpcUrl, user accounts 5 and 6 or AUR")
	}
	return b
}

// pumpBlocks has the account of keyHex send itself 0 ETH every 100 ms, each transaction a block of
// the automining devnet, until the returned stop is called.
func pumpBlocks(t *testing.T, rpcURL, keyHex string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	w, err := devnet.NewWallet(ctx, rpcURL, keyHex)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		defer w.Close()
		for ctx.Err() == nil {
			head, err := w.Client.HeaderByNumber(ctx, nil)
			var nonce uint64
			if err == nil {
				nonce, err = w.Client.PendingNonceAt(ctx, w.Address)
			}
			if err == nil {
				fee := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1))
				_, _, err = w.Send(ctx, devnet.BuiltTx{ID: "pump", ChainID: devnet.ChainID, From: w.Address.Hex(), To: w.Address.Hex(),
					Data: "0x", Value: "0", Gas: 21_000, MaxFeePerGas: fee.String(), MaxPriorityFeePerGas: "1", Nonce: nonce})
			}
			if err != nil && ctx.Err() == nil {
				done <- err
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
		done <- nil
	}()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("adding blocks: %v", err)
		}
	}
}
