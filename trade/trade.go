// Package trade serves the quote, builder, confirm and transaction status operations: swap quotes
// from live pool state, unsigned transactions that were simulated before they are returned,
// confirmation tokens, and the status of submitted transactions. A chain is a Chain of its family
// (EVMChain: swaps through its EVM swap venues, liquidity on Uniswap V2 and V3; SolanaChain: its
// Solana venues), resolved once per request. It sits above the chain adapters and never signs or
// sends a transaction.
package trade

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
)

// Errors of the service (the chain package's, which venues wrap too), besides the chain adapter's
// (matching chain.ErrUpstreamUnavailable and its siblings: 503, 504, 502, 499) and the store's
// (503). The API maps each to its status and code.
var (
	// ErrInvalid wraps a request the chain's data shows is wrong (400 invalid_request).
	ErrInvalid = chain.ErrInvalidRequest
	// ErrInvalidAmount wraps an amount that does not convert exactly (400 invalid_amount): the
	// chain package's own, so that a parser's error needs no second wrapping.
	ErrInvalidAmount = chain.ErrInvalidAmount
	// ErrNoRoute: no pool path connects the two tokens (404 no_route).
	ErrNoRoute = chain.ErrNoRoute
	// ErrNotFound: the pool, farm or confirmation token does not exist (404 not_found).
	ErrNotFound = chain.ErrNotFound
	// ErrNotSupported wraps an operation the venue does not offer (400 operation_not_supported).
	ErrNotSupported = chain.ErrNotSupported
	// ErrPrerequisite wraps a failed prerequisite such as an insufficient balance (422 prerequisite_failed).
	ErrPrerequisite = chain.ErrPrerequisite
)

// SimulationError is a build that would revert (422 simulation_failed): one reason per failing call.
type SimulationError struct {
	Reasons []string
}

func (e *SimulationError) Error() string {
	return "simulation failed: " + strings.Join(e.Reasons, "; ")
}

// ReviewError is a swap whose fresh execution price loses more value than the review threshold
// against the route's mid price (409 review_required). The caller must review it and repeat the
// request with maxValueLossPpm at or above ValueLossPpm; nothing may set that automatically.
type ReviewError struct {
	ValueLossPpm int
}

func (e *ReviewError) Error() string {
	return fmt.Sprintf("the swap loses %d ppm of its value at the current price: review it, then build again with maxValueLossPpm >= %d",
		e.ValueLossPpm, e.ValueLossPpm)
}

// Native is the inputMint/outputMint/token value that names a chain's gas token.
const Native = chain.Native

// EVM is what the service needs of an EVM chain adapter (chain/evm's Source).
type EVM interface {
	ReadTrade(ctx context.Context, q chain.EVMTradeRead) (chain.EVMTradeState, error)
	// Simulate runs calls from one sender in order, each in its own block from next on.
	Simulate(ctx context.Context, next chain.EVMNextBlock, from string, calls []chain.EVMCall) ([]chain.EVMSimResult, error)
	Transactions(ctx context.Context, hashes []string) ([]chain.EVMTx, error)
	Audit(ctx context.Context, pair, token string) (chain.AuditFacts, error)
}

// pairVenue is a configured venue of pairs with a fungible LP token (lp.go). Addresses are canonical.
type pairVenue struct {
	chain.PairLiquidityVenue
	cfg chain.VenueConfig
}

// EVMChain is an EVM chain the service trades on: swaps through every venue that serves them
// (chain.EVMSwapVenue: routes.go), liquidity on pairs (chain.PairLiquidityVenue: lp.go) and on NFT
// positions (chain.V3LiquidityVenue: v3lp.go).
type EVMChain struct {
	Info          chain.Info
	ChainID       int64 // the id the RPC answers with (a devnet's differs from the mainnet's)
	Source        EVM
	WrappedNative string // canonical
	Stablecoins   []chain.Stablecoin
	Pairs         []pairVenue     // the venues of pairs that serve swaps: liquidity, farms, tax probes; sorted by name
	Swaps         []swapVenue     // the venues that serve swaps, sorted by name
	Positions     []positionVenue // the venues whose liquidity is NFT positions (v3lp.go), sorted by name
	TickLens      string          // the TickLens concentrated pools are read through
	Confirmations int             // finality depth
}

// NewEVMChain is a configured EVM chain read through src. It swaps on every venue that serves
// swaps there (venues' Status), and provides liquidity on every venue of pairs that serves swaps
// (chain.PairLiquidityVenue: a router, and pair addresses derived offline) and on every venue of
// NFT positions that serves liquidity (chain.V3LiquidityVenue).
func NewEVMChain(info chain.Info, cc chain.ChainConfig, src EVM, venues chain.VenueSet) *EVMChain {
	c := &EVMChain{Info: info, ChainID: cc.ChainID, Source: src, WrappedNative: cc.WrappedNative,
		Stablecoins: slices.Clone(cc.USDStablecoins), Confirmations: cc.Confirmations}
	swaps, configs := venues.EVMSwap(cc)
	for i, v := range swaps {
		if v.Status(info.Name, configs[i]).Has(chain.CapSwaps) {
			c.Swaps = append(c.Swaps, swapVenue{EVMSwapVenue: v, cfg: canonicalConfig(configs[i])})
			if configs[i].TickLens != "" {
				c.TickLens = strings.ToLower(configs[i].TickLens)
			}
		}
	}
	lvs, lcfgs := venues.V3Liquidity(cc)
	for i, v := range lvs {
		cfg := canonicalConfig(lcfgs[i])
		if where, ok := v.PositionsRead(cfg); ok && v.Status(info.Name, lcfgs[i]).Has(chain.CapLiquidity) {
			c.Positions = append(c.Positions, positionVenue{V3LiquidityVenue: v, cfg: cfg, where: where})
		}
	}
	pvs, pcfgs := venues.PairLiquidity(cc)
	for i, v := range pvs {
		if v.Status(info.Name, pcfgs[i]).Has(chain.CapSwaps) {
			c.Pairs = append(c.Pairs, pairVenue{PairLiquidityVenue: v, cfg: canonicalConfig(pcfgs[i])})
		}
	}
	c.WrappedNative = strings.ToLower(c.WrappedNative)
	for i := range c.Stablecoins {
		c.Stablecoins[i].Address = strings.ToLower(c.Stablecoins[i].Address)
	}
	return c
}

// canonicalConfig is cfg with its addresses in lower case.
func canonicalConfig(cfg chain.VenueConfig) chain.VenueConfig {
	for _, a := range []*string{&cfg.Factory, &cfg.Router, &cfg.Quoter, &cfg.TickLens, &cfg.StakingRewardsFactory, &cfg.PositionManager, &cfg.Staker, &cfg.Migrator} {
		*a = strings.ToLower(*a)
	}
	return cfg
}

// Service serves quotes, builds, confirms and statuses. It is safe for concurrent use.
type Service struct {
	chains map[string]Chain
	tokens *tokenStore
	taxes  taxCache
	sealer sealer // seals Solana quotes (WithQuoteKey)
	now    func() time.Time
	log    *slog.Logger
}

// Option configures a Service at New.
type Option func(*Service)

// New returns the service for the given chains (NewEVMChain, NewSolanaChain), keeping
// confirmation tokens in db.
func New(db *ent.Client, chains []Chain, log *slog.Logger, opts ...Option) *Service {
	own := make([]byte, 32)
	rand.Read(own)
	s := &Service{chains: map[string]Chain{}, tokens: &tokenStore{db: db}, now: time.Now, log: log, sealer: newSealer(own)}
	for _, o := range opts {
		o(s)
	}
	for _, c := range chains {
		s.chains[c.name()] = c
	}
	return s
}

func (c *EVMChain) name() string { return c.Info.Name }

func (c *EVMChain) servesSwaps() bool { return true }

// pairVenue returns the chain's venue of pairs of that name.
func (c *EVMChain) pairVenue(name string) (pairVenue, bool) {
	for _, v := range c.Pairs {
		if v.Spec().Name == name {
			return v, true
		}
	}
	return pairVenue{}, false
}

// token resolves a mint parameter: "native" is the wrapped native token for routing.
func (c *EVMChain) token(mint string) (addr string, native bool) {
	if mint == Native {
		return c.WrappedNative, true
	}
	return strings.ToLower(mint), false
}

// nativeDecimals is the decimals of every EVM gas token (arc's native USDC too).
const nativeDecimals = 18

// bigOf parses a decimal string the API already checked.
func bigOf(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

// bpsDenominator is the denominator of figures in basis points (fees, slippage, taxes, shares).
const bpsDenominator = 10000

var bigBps = big.NewInt(bpsDenominator)
