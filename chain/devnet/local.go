package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// DefaultLocalAddr is where StartLocal serves JSON-RPC when LocalOptions.Addr is empty: anvil's
// and hardhat's usual port, on loopback only.
const DefaultLocalAddr = "127.0.0.1:8545"

// automineEvery is how often the automine loop asks the pool for pending transactions.
const automineEvery = 50 * time.Millisecond

// LocalOptions configures StartLocal.
type LocalOptions struct {
	// Addr is the host:port of the devnet's JSON-RPC over HTTP; "" means DefaultLocalAddr and
	// "127.0.0.1:0" picks a free port. An empty host (":8545") listens on every IPv4 interface.
	Addr string
	// TradeInterval is the pace of the background trader (one move, hence one block, per
	// interval); 0 means no trader. Block timestamps advance by at least a second per block, so
	// an interval under a second makes the devnet's clock run ahead of the wall clock.
	TradeInterval time.Duration
	// Logger receives the start-up banner and the loops' warnings; nil means slog.Default().
	Logger *slog.Logger
}

// LocalAccount is a funded devnet account. Its key is derived from a public string, so it is the
// same on every start and known to everyone: for trying things out on the devnet only.
type LocalAccount struct {
	Address       common.Address
	PrivateKeyHex string // 0x followed by 64 hex digits
	Role          string // RoleDeployer, RoleTrader or RoleUser
}

// Roles of the local accounts. The deployer owns the tokens and the seeded liquidity; the
// background trader signs with the trader accounts only; user accounts are never used by the
// devnet itself, so their nonces are free for people and scripts.
const (
	RoleDeployer = "deployer"
	RoleTrader   = "trader"
	RoleUser     = "user"
)

// Account layout: 0 deployer, 1..4 traders, 5..9 users.
const (
	numLocalAccounts = 10
	firstTrader      = 1
	firstUser        = 5
)

// Genesis balances: the deployer funds the wrapped native side of the pools.
var (
	deployerFunds = wholeUnits(1_000_000, 18)
	accountFunds  = wholeUnits(10_000, 18)
)

// Local is a running local devnet: a simulated chain served over JSON-RPC on HTTP, seeded with a
// small market, mining a block whenever transactions are pending, and optionally trading in the
// background. It satisfies Backend, with every Commit serialized by one mutex.
type Local struct {
	sim      *simulated.Backend
	url      string
	market   Market
	accounts []LocalAccount
	log      *slog.Logger

	seededBlock uint64 // head once seeding is done

	mu     sync.Mutex // serializes Commit and Close
	closed bool

	cancel    context.CancelFunc
	wg        sync.WaitGroup // automine and trader loops
	closeOnce sync.Once
	closeErr  error

	watch *pendingWatch // automine's view of the pool
}

var _ Backend = (*Local)(nil)

// StartLocal starts a local devnet: the simulated chain (chain id ChainID, fork rules pinned as in
// NewBackend) with its JSON-RPC over HTTP on opts.Addr (modules eth, net, web3; any virtual host;
// any CORS origin), funded deterministic accounts (see Accounts), a seeded market (see Market),
// the automine loop and, when opts.TradeInterval > 0, the background trader.
//
// ctx bounds the start-up and the life of the background loops: cancelling it stops automine
// and the trader, but only Close stops the node and releases the port.
func StartLocal(ctx context.Context, opts LocalOptions) (*Local, error) {
	began := time.Now()
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	host, port, err := reserveAddr(opts.Addr)
	if err != nil {
		return nil, err
	}
	authPort, err := freeLoopbackPort()
	if err != nil {
		return nil, fmt.Errorf("devnet: start: auth port: %w", err)
	}
	keys, err := localKeys()
	if err != nil {
		return nil, err
	}
	alloc := types.GenesisAlloc{}
	accounts := make([]LocalAccount, len(keys))
	for i, k := range keys {
		addr := crypto.PubkeyToAddress(k.PublicKey)
		funds := accountFunds
		if i == 0 {
			funds = deployerFunds
		}
		alloc[addr] = types.Account{Balance: new(big.Int).Set(funds)}
		accounts[i] = LocalAccount{Address: addr, PrivateKeyHex: hexutil.Encode(crypto.FromECDSA(k)), Role: localRole(i)}
	}
	sim, err := newLocalBackend(alloc, host, port, authPort)
	if err != nil {
		return nil, err
	}
	l := &Local{sim: sim, url: "http://" + net.JoinHostPort(dialHost(host), strconv.Itoa(port)), accounts: accounts, log: logger}
	fail := func(err error) (*Local, error) {
		if l.watch != nil {
			l.watch.rpc.Close()
		}
		_ = sim.Close()
		return nil, err
	}

	accts := make([]*Account, len(keys))
	for i, k := range keys {
		if accts[i], err = NewAccount(ctx, sim.Client(), k); err != nil {
			return fail(fmt.Errorf("devnet: start: %w", err))
		}
	}
	traders := accts[firstTrader:firstUser]
	if l.market, err = Seed(ctx, l, accts); err != nil {
		return fail(err)
	}
	if l.seededBlock, err = sim.Client().BlockNumber(ctx); err != nil {
		return fail(fmt.Errorf("devnet: seed: head: %w", err))
	}
	if l.watch, err = newPendingWatch(ctx, l.url); err != nil {
		return fail(err)
	}
	var tr *trader
	if opts.TradeInterval > 0 {
		if tr, err = newTrader(ctx, l, traders); err != nil {
			return fail(err)
		}
	}

	l.logBanner(time.Since(began), opts.TradeInterval)
	loopCtx, cancel := context.WithCancel(ctx)
	l.cancel = cancel
	l.wg.Add(1)
	go l.automine(loopCtx)
	if tr != nil {
		l.wg.Add(1)
		go tr.run(loopCtx, opts.TradeInterval)
	}
	return l, nil
}

// RPCURL is the devnet's JSON-RPC endpoint, http://host:port.
func (l *Local) RPCURL() string { return l.url }

// Market is what was seeded (a copy).
func (l *Local) Market() Market {
	m := l.market
	m.Tokens = slices.Clone(m.Tokens)
	m.Pools = slices.Clone(m.Pools)
	m.Farms = slices.Clone(m.Farms)
	m.V3Pools = slices.Clone(m.V3Pools)
	for i := range m.V3Pools {
		m.V3Pools[i].Positions = slices.Clone(m.V3Pools[i].Positions)
	}
	return m
}

// Accounts are the funded accounts, with their keys: the same on every start.
func (l *Local) Accounts() []LocalAccount { return append([]LocalAccount(nil), l.accounts...) }

// Backend is the simulated chain itself, for tests that Fork or inspect it. Seal blocks through
// Local.Commit, not Backend().Commit, so that commits stay serialized.
func (l *Local) Backend() *simulated.Backend { return l.sim }

// Client is the in-process client of the chain (Backend interface). It must not be used after Close.
func (l *Local) Client() simulated.Client { return l.sim.Client() }

// Commit seals a block with whatever the pool holds and returns its hash (Backend interface).
// Commits are serialized; after Close it does nothing and returns the zero hash.
func (l *Local) Commit() common.Hash {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return common.Hash{}
	}
	return l.sim.Commit()
}

// Reorg replaces the chain above ancestor (a block hash) with blocks empty blocks sealed on it, so
// that with enough of them the new chain is the longer one: the blocks after ancestor are orphaned
// and their transactions dropped, not mined again. It lets people and tests watch a reorg.
func (l *Local) Reorg(ancestor common.Hash, blocks int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("devnet: reorg: closed")
	}
	if err := l.sim.Fork(ancestor); err != nil {
		return fmt.Errorf("devnet: reorg: %w", err)
	}
	l.sim.Rollback() // Fork put the orphaned transactions back in the pool
	for range blocks {
		l.sim.Commit()
	}
	return nil
}

// Close stops the trader and automine loops, then the node, releasing the port. It is safe to
// call more than once; later calls return the first call's result.
func (l *Local) Close() error {
	l.closeOnce.Do(func() {
		l.cancel()
		l.wg.Wait()
		l.mu.Lock()
		defer l.mu.Unlock()
		l.closed = true
		l.watch.rpc.Close()
		if err := l.sim.Close(); err != nil {
			l.closeErr = fmt.Errorf("devnet: close: %w", err)
		}
	})
	return l.closeErr
}

// ChainConfig is the devnet as a chain entry of the deployment's configuration (Market.ChainConfig
// at its RPC URL).
func (l *Local) ChainConfig() chain.ChainConfig { return l.market.ChainConfig(l.url) }

// automine seals a block whenever the pool holds executable transactions, like anvil. A block
// that comes out empty although transactions were pending (their fee cap is below the base fee,
// say) makes it wait a second before trying again, so it does not spin out empty blocks.
func (l *Local) automine(ctx context.Context) {
	defer l.wg.Done()
	tick := time.NewTicker(automineEvery)
	defer tick.Stop()
	var idleUntil time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		hash, err := l.commitPending(ctx, time.Now().Before(idleUntil))
		if err != nil {
			if ctx.Err() == nil {
				l.log.Warn("devnet: automine", "err", err)
			}
			continue
		}
		if hash == (common.Hash{}) {
			continue
		}
		if head, err := l.sim.Client().HeaderByHash(ctx, hash); err == nil && head.GasUsed == 0 {
			idleUntil = time.Now().Add(time.Second)
		}
	}
}

// commitPending collects the transactions that entered the pool and, unless idle, seals a block
// if any of them is still pending; it returns the block's hash, zero when it sealed nothing.
// Holding the commit lock throughout, it never races another commit into an empty block.
func (l *Local) commitPending(ctx context.Context, idle bool) (common.Hash, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return common.Hash{}, nil
	}
	pending, err := l.watch.pending(ctx, l.sim.Client())
	if err != nil || !pending || idle {
		return common.Hash{}, err
	}
	return l.sim.Commit(), nil
}

// lockedBackend is the Backend for code that already holds l.mu: its Commit does not lock.
type lockedBackend struct{ l *Local }

func (b lockedBackend) Client() simulated.Client { return b.l.sim.Client() }
func (b lockedBackend) Commit() common.Hash      { return b.l.sim.Commit() }

// withCommitLock runs f holding the commit lock, so that the transactions f sends are sealed by
// f's own commits (automine waits); it reports false without running f after Close.
func (l *Local) withCommitLock(f func(b Backend)) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	f(lockedBackend{l})
	return true
}

// pendingWatch tracks the transactions entering the pool through a pending-transaction filter on
// the devnet's own JSON-RPC endpoint: the in-process client offers no view of the pool. As a
// safety net for transactions the filter missed (it is re-created after an error), it also
// counts the pending block's transactions every sweepEvery; the node caches that block for up
// to two seconds, too stale to rely on alone.
type pendingWatch struct {
	rpc       *rpc.Client
	filter    string // filter id; empty after an error, until re-created
	seen      map[common.Hash]struct{}
	lastSweep time.Time
}

const sweepEvery = time.Second

func newPendingWatch(ctx context.Context, url string) (*pendingWatch, error) {
	c, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("devnet: start: dial %s: %w", url, err)
	}
	w := &pendingWatch{rpc: c, seen: map[common.Hash]struct{}{}, lastSweep: time.Now()}
	if err := w.newFilter(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("devnet: start: %w", err)
	}
	return w, nil
}

func (w *pendingWatch) newFilter(ctx context.Context) error {
	if err := w.rpc.CallContext(ctx, &w.filter, "eth_newPendingTransactionFilter"); err != nil {
		return fmt.Errorf("pending transaction filter: %w", err)
	}
	return nil
}

// pending reports whether a transaction that entered the pool is still there waiting for a
// block, forgetting those that were sealed or dropped.
func (w *pendingWatch) pending(ctx context.Context, client simulated.Client) (bool, error) {
	if w.filter == "" {
		if err := w.newFilter(ctx); err != nil {
			return false, err
		}
	}
	var hashes []common.Hash
	if err := w.rpc.CallContext(ctx, &hashes, "eth_getFilterChanges", w.filter); err != nil {
		w.filter = "" // expired (the loop stalled for minutes): make a new one next time
		return false, fmt.Errorf("pending transactions: %w", err)
	}
	for _, h := range hashes {
		w.seen[h] = struct{}{}
	}
	waiting := false
	for h := range w.seen {
		_, isPending, err := client.TransactionByHash(ctx, h)
		switch {
		case errors.Is(err, ethereum.NotFound):
			delete(w.seen, h)
		case err != nil:
			return false, fmt.Errorf("transaction %s: %w", h, err)
		case isPending:
			waiting = true
		default:
			delete(w.seen, h)
		}
	}
	if !waiting && time.Since(w.lastSweep) >= sweepEvery {
		w.lastSweep = time.Now()
		n, err := client.PendingTransactionCount(ctx)
		if err != nil {
			return false, fmt.Errorf("pending block: %w", err)
		}
		waiting = n > 0
	}
	return waiting, nil
}

// logBanner says loudly what this is, with every key: they are public, for trying things out.
func (l *Local) logBanner(took, tradeEvery time.Duration) {
	lg := l.log
	lg.Warn("LOCAL DEVNET: an in-process test chain, NOT a real network. Its account keys below are public: never send real funds to them",
		"rpcUrl", l.url, "chainId", ChainID, "startup", took.Round(time.Millisecond), "tradeInterval", tradeEvery)
	for i, a := range l.accounts {
		lg.Warn("devnet account (public test key)", "index", i, "role", a.Role, "address", a.Address.Hex(), "privateKey", a.PrivateKeyHex)
	}
	c := l.market.Core
	lg.Warn("devnet contracts", "usd", c.USD.Hex(), "wrappedNative", c.WrappedNative.Hex(),
		"uniswapV2Factory", c.Factory.Hex(), "uniswapV2Router", c.Router.Hex(), "multicall3", c.Multicall3.Hex(),
		"stakingRewardsFactory", c.StakingRewardsFactory.Hex(), "pairInitCodeHash", l.market.InitCodeHash.Hex())
	for _, t := range l.market.Tokens {
		lg.Warn("devnet token", "symbol", t.Symbol, "name", t.Name, "decimals", t.Decimals, "address", t.Address.Hex())
	}
	for _, p := range l.market.Pools {
		lg.Warn("devnet pool", "pair", l.market.pairName(p), "address", p.Address.Hex())
	}
	for _, f := range l.market.Farms {
		lg.Warn("devnet farm (StakingRewards)", "stakes", l.market.pairName(l.market.pool(f.StakingToken))+" LP",
			"address", f.Address.Hex(), "reward", l.market.symbol(f.RewardToken),
			"rewardPerSecond", new(big.Rat).SetFrac(f.RewardRate, wholeUnits(1, 18)).FloatString(2))
	}
	m := l.market
	v3 := m.V3
	lg.Warn("devnet Uniswap V3 contracts", "factory", v3.Factory.Hex(), "swapRouter02", v3.SwapRouter02.Hex(), "quoterV2", v3.QuoterV2.Hex(),
		"tickLens", v3.TickLens.Hex(), "positionManager", v3.PositionManager.Hex(), "staker", v3.Staker.Hex(), "migrator", v3.V3Migrator.Hex())
	for _, p := range m.V3Pools {
		ids := make([]string, len(p.Positions))
		for i, pos := range p.Positions {
			ids[i] = pos.TokenID.String()
		}
		lg.Warn("devnet V3 pool", "pair", m.v3PoolName(p), "address", p.Address.Hex(), "tick", p.Tick, "positionIds", strings.Join(ids, ","))
	}
	if inc := m.V3Incentive; inc.Reward != nil {
		lg.Warn("devnet V3 incentive (UniswapV3Staker)", "id", inc.ID.Hex(), "pool", inc.Pool.Hex(), "reward", m.symbol(inc.RewardToken),
			"amount", new(big.Rat).SetFrac(inc.Reward, wholeUnits(1, 18)).FloatString(0), "start", inc.StartTime, "end", inc.EndTime,
			"stakedPositionId", inc.StakedTokenID)
	}
	lg.Warn("devnet stake", "account", m.Staker.Hex(), "pool", m.pairName(m.Pools[stakerPool]), "lpInWallet", new(big.Rat).SetFrac(m.StakerLP, wholeUnits(1, 18)).FloatString(0),
		"lpStaked", new(big.Rat).SetFrac(m.StakerStaked, wholeUnits(1, 18)).FloatString(0), "farm", m.Farms[stakerPool].Address.Hex())
}

// symbol names a seeded token (core ones included), or abbreviates its address.
func (m Market) symbol(addr common.Address) string {
	switch addr {
	case m.Core.USD:
		return usdSymbol
	case m.Core.WrappedNative:
		return wethSymbol
	}
	for _, t := range m.Tokens {
		if t.Address == addr {
			return t.Symbol
		}
	}
	return addr.Hex()[:10]
}

func (m Market) pairName(p SeededPool) string { return m.symbol(p.Token0) + "/" + m.symbol(p.Token1) }

// pool is the seeded pool at addr (zero when there is none).
func (m Market) pool(addr common.Address) SeededPool {
	for _, p := range m.Pools {
		if p.Address == addr {
			return p
		}
	}
	return SeededPool{}
}

// localKeys derives the accounts' keys: keccak256("partnerd devnet account <i>").
func localKeys() ([]*ecdsa.PrivateKey, error) {
	keys := make([]*ecdsa.PrivateKey, numLocalAccounts)
	for i := range keys {
		k, err := crypto.ToECDSA(crypto.Keccak256([]byte("partnerd devnet account " + strconv.Itoa(i))))
		if err != nil {
			return nil, fmt.Errorf("devnet: account %d key: %w", i, err)
		}
		keys[i] = k
	}
	return keys, nil
}

func localRole(i int) string {
	switch {
	case i == 0:
		return RoleDeployer
	case i < firstUser:
		return RoleTrader
	}
	return RoleUser
}

// reserveAddr resolves addr (default DefaultLocalAddr) to the host and port the node will listen
// on, checking by listening once that the port is free (and picking one for port 0).
func reserveAddr(addr string) (string, int, error) {
	if addr == "" {
		addr = DefaultLocalAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("devnet: start: JSON-RPC address %q: %w", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", 0, fmt.Errorf("devnet: start: JSON-RPC address %s is not available (another devnet or node running?): %w", addr, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		return "", 0, fmt.Errorf("devnet: start: probe %s: %w", addr, err)
	}
	if host == "" {
		host = "0.0.0.0" // the node serves HTTP only when it has a host
	}
	return host, port, nil
}

// dialHost is the host clients reach a listener on: loopback for the unspecified address.
func dialHost(host string) string {
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if ip.To4() != nil {
			return "127.0.0.1"
		}
		return "::1"
	}
	return host
}

func freeLoopbackPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// newLocalBackend starts the chain with its HTTP server. simulated.NewBackend panics when the node
// cannot start (the port was taken between reserveAddr and now): that becomes an error.
func newLocalBackend(alloc types.GenesisAlloc, host string, port, authPort int) (sim *simulated.Backend, err error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	defer func() {
		if r := recover(); r != nil {
			sim, err = nil, fmt.Errorf("devnet: start: node with JSON-RPC on %s: %v", addr, r)
		}
	}()
	sim = NewBackend(alloc, func(nc *node.Config, ec *ethconfig.Config) {
		nc.HTTPHost = host
		nc.HTTPPort = port
		nc.HTTPModules = []string{"eth", "net", "web3"}
		nc.HTTPVirtualHosts = []string{"*"}
		nc.HTTPCors = []string{"*"}
		nc.AuthAddr = "127.0.0.1"
		nc.AuthPort = authPort
		// Mine whatever the pool accepts (its floor is a 1 wei tip), as anvil does: with the
		// default miner floor of 0.001 gwei, a transaction tipping less would stay pending forever.
		// The gas price oracle starts from this floor too.
		ec.Miner.GasPrice = big.NewInt(1)
	})
	if sim == nil {
		return nil, errors.New("devnet: start: no backend")
	}
	return sim, nil
}
