// Package localnet runs the local Solana validator: a node process of ours
// (chain/solana/validator/server.mjs) that serves standard Solana JSON-RPC 2.0 over HTTP, and
// Solana's PubSub over WebSocket on the next port (as solana-test-validator does, where
// @solana/web3.js's send-and-confirm looks for it), over one LiteSVM instance, a real SVM with
// the System, SPL Token, Token-2022, Associated Token Account, Memo, Address Lookup Table and
// Compute Budget programs. Any Solana client works against it unchanged; nothing in the wire
// format says it is a devnet (getGenesisHash differs from mainnet's, as any cluster's does).
//
// The validator seeds a small market at genesis, deterministically from Options.Seed: USDC (6
// decimals), wrapped SOL, AUR (9), NIM (5), QRTZ (2) on SPL Token, and EMB (6) on Token-2022 with
// a 1% transfer fee (at most 10 EMB) and in-mint metadata; holders with distinct balances; funded
// keypairs; and five constant-product pools of our Raydium-CPMM-compatible program (SOL/USDC,
// AUR/USDC, NIM/SOL, QRTZ/USDC, EMB/USDC) under CPMM's mainnet fee tier configs, created by the
// program's initialize, with LP held by their creator and by a depositor. Node reports all of it
// (addresses, amounts, base58 secret keys, pools, configs). The keypairs are test keypairs: their
// secret keys are public.
//
// Model: a block every SlotTime; every 25th block skips a slot, so block height < slot. A
// transaction executes at once in the head block (processed), is confirmed one block later and
// finalized FinalizeDepth blocks later; reads at a commitment see the state as of that
// commitment's block. A blockhash is valid for 150 blocks. Transaction history is kept in memory.
// chain/solana/validator/README.md documents the methods and options served.
//
// The validator needs node (20 or later) and the npm packages pinned in
// chain/solana/validator/package-lock.json (litesvm 1.5.0, whose prebuilt native module is for
// linux/amd64 with glibc). `make test` installs them first; Start installs them on first use with
// `npm ci` when node_modules is missing.
package localnet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain/internal/npmpkg"
)

// DefaultSeed is the seed Start uses when Options.Seed is empty.
const DefaultSeed = "partnerd-localnet"

// startTimeout bounds how long the validator may take to seed and listen (it takes ~0.5 s).
const startTimeout = 60 * time.Second

// Options configure Start. The zero value is a validator on a free loopback port with the
// default seed, 400 ms blocks, finalization after 32 blocks and no background activity.
type Options struct {
	// Host is the address to listen on (default 127.0.0.1).
	Host string
	// Port is the TCP port of the HTTP JSON-RPC; PubSub listens on Port+1. 0 lets the kernel choose
	// a free pair (the process reports what it bound).
	Port int
	// Seed derives every keypair and address (default DefaultSeed).
	Seed string
	// SlotTime is the time per block (default 400 ms, mainnet's target).
	SlotTime time.Duration
	// FinalizeDepth is how many blocks on top of a block finalize it (default 32).
	FinalizeDepth int
	// Activity is the period of the background activity of the traders (trader-0..2): each period a
	// transfer among them and a swap through the next pool; 0: off.
	Activity time.Duration
	// ActivityCount is how many periods of activity run before it stops; 0: it never stops.
	ActivityCount int
	// Log receives the validator's log (stderr); nil keeps only its last lines for error messages.
	Log io.Writer
}

// Node is a running validator.
type Node struct {
	// URL is the HTTP JSON-RPC endpoint, http://HOST:PORT.
	URL string `json:"url"`
	// WSURL is the PubSub (WebSocket) endpoint, ws://HOST:PORT+1: accountSubscribe,
	// programSubscribe, logsSubscribe, signatureSubscribe, slotSubscribe, rootSubscribe and their
	// unsubscribes, notified at each commitment as the blocks go.
	WSURL string `json:"wsUrl"`
	// GenesisHash is getGenesisHash's answer: new at every start, so that an index kept from an
	// earlier run sees another chain.
	GenesisHash string `json:"genesisHash"`
	// SolanaCore is the version getVersion reports (the Agave version LiteSVM embeds).
	SolanaCore string `json:"solanaCore"`
	// Seed is the seed the addresses derive from.
	Seed string `json:"seed"`
	// FinalizeDepth is how many blocks on top of a block finalize it.
	FinalizeDepth int `json:"finalizeDepth"`
	// Identity is getIdentity's answer.
	Identity string `json:"identity"`
	// Mints are the seeded mints, wrapped SOL included.
	Mints []Mint `json:"mints"`
	// Holdings are every token account the seed created, with its amount at genesis: the wallets'
	// (LP tokens included), the pools' vaults and the pool creation fee receiver.
	Holdings []Holding `json:"holdings"`
	// Keypairs are the funded wallets: faucet (requestAirdrop's source), authority (mint, freeze,
	// metadata and transfer-fee authority of every mint), holder-0..7, trader-0..2, pool-creator
	// (created the pools, keeps their LP) and lp-provider (deposited into SOL/USDC and EMB/USDC).
	Keypairs []Keypair `json:"keypairs"`
	// AmmConfigs are the CPMM fee tier configs (at CPMM's mainnet indexes and addresses).
	AmmConfigs []AmmConfig `json:"ammConfigs"`
	// Pools are the seeded CPMM pools, with their reserves at genesis.
	Pools []Pool `json:"pools"`
	// CreatePoolFeeReceiver is the wrapped SOL account CPMM's initialize pays the pool creation fee into.
	CreatePoolFeeReceiver string `json:"createPoolFeeReceiver"`
	// SlotTime is the time per block.
	SlotTime time.Duration `json:"-"`
	// Startup is how long the process took from start to listening (seeding included).
	Startup time.Duration `json:"-"`

	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
	out     *tail
	close   sync.Once
}

// Mint is a seeded mint.
type Mint struct {
	Symbol   string `json:"symbol"`
	Name     string `json:"name"`
	Address  string `json:"address"`
	Decimals uint8  `json:"decimals"`
	// Program is the token program: SPL Token or Token-2022.
	Program string `json:"program"`
	// MintAuthority and FreezeAuthority are empty when none (wrapped SOL has neither).
	MintAuthority   string `json:"mintAuthority"`
	FreezeAuthority string `json:"freezeAuthority"`
	// Metadata is where the name and symbol live: "metaplex" (a Token Metadata account at
	// MetadataAddress, state only: the Metaplex program does not run here), "token-2022" (the
	// mint's MetadataPointer and TokenMetadata extensions) or "" (wrapped SOL).
	Metadata        string `json:"metadata"`
	MetadataAddress string `json:"metadataAddress"`
	// TransferFee is the Token-2022 transfer fee, nil without one.
	TransferFee *TransferFee `json:"transferFee"`
	// Supply is the supply at genesis in base units (for wrapped SOL: what the holdings wrap).
	Supply uint64 `json:"supply,string"`
}

// TransferFee is a Token-2022 transfer fee: ceil(amount*BasisPoints/10000), at most MaximumFee.
type TransferFee struct {
	BasisPoints uint16 `json:"basisPoints"`
	MaximumFee  uint64 `json:"maximumFee,string"`
}

// Holding is a seeded token account.
type Holding struct {
	// Owner names the account's owner: a keypair (holder-0 ...), "cpmm-authority" (the CPMM
	// authority that owns the pools' vaults) or "raydium-admin" (the owner of the pool creation fee
	// receiver); Address is its public key.
	Owner   string `json:"owner"`
	Address string `json:"address"`
	// Symbol is the mint's symbol, or "<pool name> LP" (such as "SOL/USDC LP") for a pool's LP token.
	Symbol string `json:"symbol"`
	Mint   string `json:"mint"`
	// Account is the token account; Associated says whether it is the owner's associated one.
	Account    string `json:"account"`
	Associated bool   `json:"associated"`
	Amount     uint64 `json:"amount,string"`
	// Pool is the pool whose LP token this is, or whose vault this account is; empty otherwise.
	Pool string `json:"pool,omitempty"`
}

// AmmConfig is a CPMM fee tier config (an AmmConfig account of the program). Rates are in
// millionths: TradeFeeRate of the amount swapped, ProtocolFeeRate and FundFeeRate of the trade fee;
// CreatorFeeRate is charged only by pools that enable the creator fee (none here).
type AmmConfig struct {
	Address         string `json:"address"`
	Index           uint16 `json:"index"`
	TradeFeeRate    uint64 `json:"tradeFeeRate"`
	ProtocolFeeRate uint64 `json:"protocolFeeRate"`
	FundFeeRate     uint64 `json:"fundFeeRate"`
	CreatorFeeRate  uint64 `json:"creatorFeeRate"`
	// CreatePoolFee is what initialize charges the creator, in lamports.
	CreatePoolFee uint64 `json:"createPoolFee,string"`
	ProtocolOwner string `json:"protocolOwner"`
	FundOwner     string `json:"fundOwner"`
}

// Pool is a seeded CPMM pool: its PoolState account and the accounts CPMM derives for it.
type Pool struct {
	// Name is "<base>/<quote>" (SOL/USDC, AUR/USDC, NIM/SOL, QRTZ/USDC, EMB/USDC).
	Name    string `json:"name"`
	Address string `json:"address"`
	// Program is the program that owns it (Raydium CPMM's id, where ours is deployed).
	Program string `json:"program"`
	// AmmConfig is its config (fee tier), with the config's index and rates (millionths).
	AmmConfig       string `json:"ammConfig"`
	AmmConfigIndex  uint16 `json:"ammConfigIndex"`
	TradeFeeRate    uint64 `json:"tradeFeeRate"`
	ProtocolFeeRate uint64 `json:"protocolFeeRate"`
	FundFeeRate     uint64 `json:"fundFeeRate"`
	CreatorFeeRate  uint64 `json:"creatorFeeRate"`
	// Token0 and Token1 are its two sides in CPMM's order (token 0's mint is the lower key).
	Token0 PoolToken `json:"token0"`
	Token1 PoolToken `json:"token1"`
	// LPMint is its LP token (LPDecimals); LPSupply is the pool's LP supply at genesis, LockedLP of
	// which were never minted (CPMM locks them at creation).
	LPMint     string `json:"lpMint"`
	LPDecimals uint8  `json:"lpDecimals"`
	LPSupply   uint64 `json:"lpSupply,string"`
	LockedLP   uint64 `json:"lockedLp,string"`
	// Observation is its price observation account; Authority owns its vaults and mints its LP.
	Observation string `json:"observation"`
	Authority   string `json:"authority"`
	// Creator is the keypair that created it (CreatorName: pool-creator).
	Creator     string `json:"creator"`
	CreatorName string `json:"creatorName"`
	// OpenTime is when swaps open (unix seconds): a second after creation, as CPMM sets it. It
	// follows the clock, so it differs between two starts with the same seed.
	OpenTime int64 `json:"openTime"`
	// Signature is the initialize transaction's.
	Signature string `json:"signature"`
}

// PoolToken is one side of a pool.
type PoolToken struct {
	Symbol   string `json:"symbol"`
	Mint     string `json:"mint"`
	Program  string `json:"program"`
	Decimals uint8  `json:"decimals"`
	Vault    string `json:"vault"`
	// Reserve is the vault's amount at genesis.
	Reserve uint64 `json:"reserve,string"`
}

// Keypair is a funded test wallet. SecretKey is Solana's 64-byte form (seed || public key) in
// base58, as solana-keygen and wallets import it. Lamports is its balance once seeded.
type Keypair struct {
	Name      string `json:"name"`
	Address   string `json:"address"`
	SecretKey string `json:"secretKey"`
	Lamports  uint64 `json:"lamports"`
}

// Mint returns the seeded mint with a symbol (USDC, SOL, AUR, NIM, QRTZ, EMB), or false.
func (n *Node) Mint(symbol string) (Mint, bool) {
	for _, m := range n.Mints {
		if m.Symbol == symbol {
			return m, true
		}
	}
	return Mint{}, false
}

// Keypair returns the funded keypair with a name (faucet, authority, holder-N, trader-N), or false.
func (n *Node) Keypair(name string) (Keypair, bool) {
	for _, k := range n.Keypairs {
		if k.Name == name {
			return k, true
		}
	}
	return Keypair{}, false
}

// Pool returns the seeded pool with a name (SOL/USDC, AUR/USDC, NIM/SOL, QRTZ/USDC, EMB/USDC), or false.
func (n *Node) Pool(name string) (Pool, bool) {
	for _, p := range n.Pools {
		if p.Name == name {
			return p, true
		}
	}
	return Pool{}, false
}

// HoldingsOf returns an owner's seeded token accounts of a mint symbol (an owner may have more
// than one: holder-0 has a second, non-associated USDC account).
func (n *Node) HoldingsOf(owner, symbol string) []Holding {
	var out []Holding
	for _, h := range n.Holdings {
		if h.Owner == owner && h.Symbol == symbol {
			out = append(out, h)
		}
	}
	return out
}

// Start runs the validator and returns once it listens and has printed its start line. ctx bounds
// the start only; the process runs until Close (on Linux it is also killed when this process
// dies). It installs the npm packages first when they are missing.
//
// Errors: ErrUnavailable (wrapped) when node or the npm packages cannot be had on this machine;
// any other error means a validator that is there failed to start.
func Start(ctx context.Context, o Options) (*Node, error) {
	dir, err := install()
	if err != nil {
		return nil, err
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	if o.Seed == "" {
		o.Seed = DefaultSeed
	}
	if o.SlotTime == 0 {
		o.SlotTime = 400 * time.Millisecond
	}
	if o.FinalizeDepth == 0 {
		o.FinalizeDepth = 32
	}
	if o.SlotTime < time.Millisecond || o.FinalizeDepth < 1 || o.Port < 0 || o.Port > 65534 || o.Activity < 0 || o.ActivityCount < 0 {
		return nil, fmt.Errorf("start solana validator: invalid options %+v", o)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("start solana validator: %w: node is not on PATH: %v", ErrUnavailable, err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "server.mjs"),
		"--host", o.Host, "--port", strconv.Itoa(o.Port), "--seed", o.Seed,
		"--slot-ms", strconv.FormatInt(o.SlotTime.Milliseconds(), 10),
		"--finalize-depth", strconv.Itoa(o.FinalizeDepth),
		"--activity-ms", strconv.FormatInt(o.Activity.Milliseconds(), 10),
		"--activity-count", strconv.Itoa(o.ActivityCount),
	)
	cmd.Dir = dir
	n := &Node{cmd: cmd, exited: make(chan struct{}), out: &tail{}}
	cmd.Stderr = n.out
	if o.Log != nil {
		cmd.Stderr = io.MultiWriter(n.out, o.Log)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start solana validator: %w", err)
	}
	cmd.SysProcAttr = sysProcAttr() // on Linux: killed with this process, even on a panic
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start solana validator: %w", err)
	}
	lines := make(chan []byte, 1)
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<16)
		line, err := r.ReadBytes('\n')
		if err == nil {
			lines <- line
		}
		_, _ = io.Copy(io.Discard, r) // nothing else is printed there; keep the pipe drained
	}()
	go func() { n.waitErr = cmd.Wait(); close(n.exited) }()

	fail := func(format string, args ...any) (*Node, error) {
		n.Close()
		return nil, fmt.Errorf("start solana validator: %s (exit: %v); its log:\n%s", fmt.Sprintf(format, args...), n.waitErr, n.out.String())
	}
	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	select {
	case line := <-lines:
		if err := json.Unmarshal(line, n); err != nil {
			return fail("read its start line: %v", err)
		}
	case <-n.exited:
		return fail("exited before listening")
	case <-deadline.C:
		return fail("not listening after %s", startTimeout)
	case <-ctx.Done():
		return fail("%v", ctx.Err())
	}
	n.SlotTime = o.SlotTime
	n.Startup = time.Since(began)
	if n.URL == "" || n.WSURL == "" || n.GenesisHash == "" || len(n.Mints) == 0 || len(n.Keypairs) == 0 || len(n.Pools) == 0 || len(n.AmmConfigs) == 0 {
		return fail("incomplete start line")
	}
	return n, nil
}

// Close stops the validator (its state is in memory: nothing to flush) and waits for it to exit.
// It is safe to call more than once.
func (n *Node) Close() {
	n.close.Do(func() {
		_ = n.cmd.Process.Kill()
		<-n.exited
	})
}

// Done is closed when the validator process has exited (after Close, or if it died); Err then
// says how it ended.
func (n *Node) Done() <-chan struct{} { return n.exited }

// Err is the process's exit error once Done is closed (nil before).
func (n *Node) Err() error {
	select {
	case <-n.exited:
		return n.waitErr
	default:
		return nil
	}
}

// Log returns the validator's last log lines (for test failure messages).
func (n *Node) Log() string { return n.out.String() }

// ErrUnavailable says the validator cannot run on this machine (no node, no npm or registry to
// install its packages, or a platform the pinned native module does not support).
var ErrUnavailable = errors.New("solana validator unavailable")

// StartTest runs a validator for a test's lifetime (closed on cleanup) with test settings: a free
// port, the default seed, 100 ms blocks, finalization after 8 blocks, no background activity. It
// skips the test with a clear message when the validator is unavailable, unless
// PARTNER_TEST_REQUIRE_ALL=1, which makes that a failure; failing to run one that is there always
// fails the test.
func StartTest(t testing.TB) *Node {
	t.Helper()
	return StartTestWith(t, Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 8})
}

// StartTestWith is StartTest with explicit options.
func StartTestWith(t testing.TB, o Options) *Node {
	t.Helper()
	n, err := Start(t.Context(), o)
	if errors.Is(err, ErrUnavailable) {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("the local Solana validator is required (PARTNER_TEST_REQUIRE_ALL=1) but unavailable: %v", err)
		}
		t.Skipf("skipping: the local Solana validator is unavailable (set PARTNER_TEST_REQUIRE_ALL=1 to fail instead): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	t.Logf("solana validator at %s (PubSub %s), up in %s", n.URL, n.WSURL, n.Startup.Round(time.Millisecond))
	return n
}

// tail keeps the last lines written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 16 << 10

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*tailBytes {
		cut := len(w.buf) - tailBytes
		if i := bytes.IndexByte(w.buf[cut:], '\n'); i >= 0 {
			cut += i + 1
		}
		w.buf = append(w.buf[:0], w.buf[cut:]...)
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimRight(string(w.buf), "\n")
}

// install returns the validator's directory once its npm packages are there, installing them
// first when missing (once per process; concurrent test binaries install side by side and the
// first wins).
var install = sync.OnceValues(func() (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: the pinned litesvm native module (litesvm-linux-x64-gnu) is for linux/amd64, this is %s/%s", ErrUnavailable, runtime.GOOS, runtime.GOARCH)
	}
	var here string
	if _, file, _, ok := runtime.Caller(0); ok {
		here = filepath.Join(filepath.Dir(file), "..", "validator")
	}
	dir, err := npmpkg.Dir(here, "chain/solana/validator")
	if err != nil {
		return "", err
	}
	if err := npmpkg.Install(dir, filepath.Join(dir, "node_modules", "litesvm-linux-x64-gnu", "package.json")); err != nil {
		if errors.Is(err, npmpkg.ErrUnavailable) {
			return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return "", err
	}
	return dir, nil
})
