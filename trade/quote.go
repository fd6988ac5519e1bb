package trade

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// QuoteTTL is how long a quote is good for (its expiresAt): about two blocks on the busiest chains.
// A build always requotes; expiresAt tells a caller when showing the figures stops being honest.
const QuoteTTL = 30 * time.Second

// Estimated gas of a router swap, by hops, for quotes (a build simulates instead). Measured on the
// official Router02 and pairs: about 110k for one hop with a cold pair, 60k more per further hop.
const (
	swapGasFirstHop = 115_000
	swapGasPerHop   = 65_000
)

// SwapQuote is an exact-input swap quote. Amounts are integer base-unit strings.
type SwapQuote struct {
	Chain          string     `json:"chain"`
	InputMint      string     `json:"inputMint"`
	OutputMint     string     `json:"outputMint"`
	InAmount       string     `json:"inAmount"`
	OutAmount      string     `json:"outAmount"`
	MinOutAmount   string     `json:"minOutAmount"`
	SlippageBps    int        `json:"slippageBps"`
	PriceImpactPct string     `json:"priceImpactPct"`
	Route          []RouteHop `json:"route"`
	Gas            uint64     `json:"gas"`
	NetworkFee     Amount     `json:"networkFee"`
	Block          uint64     `json:"block"`
	ExpiresAt      int64      `json:"expiresAt"`
	// FeeOnTransfer flags a swap of a token that keeps part of each transfer: OutAmount is what
	// arrives after Taxes, and a build uses the router's fee-on-transfer variants.
	FeeOnTransfer bool  `json:"feeOnTransfer"`
	Taxes         []Tax `json:"taxes,omitempty"`
}

// RouteHop is one pool of a route, in order.
type RouteHop struct {
	Pool      string `json:"pool"`
	Venue     string `json:"venue"`
	FeeBps    int    `json:"feeBps"`
	TokenIn   string `json:"tokenIn"`
	TokenOut  string `json:"tokenOut"`
	AmountIn  string `json:"amountIn"`
	AmountOut string `json:"amountOut"`
}

// Amount is an amount of the chain's gas token, in token units, and its USD value ("" when the
// chain has no native/USD pool to price it).
type Amount struct {
	Native string `json:"native"`
	USD    string `json:"usd,omitempty"`
}

// nativePricePairs are the pairs that price the native token in USD: wrapped native/stablecoin on
// every venue of pairs, with their stablecoin.
func (c *EVMChain) nativePricePairs() (pairs, stables []string) {
	for _, s := range c.Stablecoins {
		for _, v := range c.Pairs {
			if pair, err := v.PairAddress(v.cfg, c.WrappedNative, s.Address); err == nil {
				pairs, stables = append(pairs, pair), append(stables, s.Address)
			}
		}
	}
	return pairs, stables
}

// oriented returns a pool's reserves as (reserve of tokenIn, reserve of the other token); ok is
// false for a pool that is not live (no pair there, or an empty one).
func oriented(p chain.PairState, tokenIn string) (rin, rout *big.Int, ok bool) {
	if !p.OK || p.Reserve0.Sign() == 0 || p.Reserve1.Sign() == 0 {
		return nil, nil, false
	}
	if p.Token0 == tokenIn {
		return p.Reserve0, p.Reserve1, true
	}
	return p.Reserve1, p.Reserve0, true
}

// readPriced is ReadTrade with the native token's USD price: it reads the wrapped native/stablecoin
// pools too (in the same round trip) and prices native by the deepest. The state's Pairs are the
// read's own; the price is nil when no such pool is live.
func (c *EVMChain) readPriced(ctx context.Context, read chain.EVMTradeRead) (chain.EVMTradeState, *big.Rat, error) {
	pairs, stables := c.nativePricePairs()
	n := len(read.Pairs)
	read.Pairs = append(slices.Clip(read.Pairs), pairs...)
	st, err := c.Source.ReadTrade(ctx, read)
	if err != nil {
		return st, nil, err
	}
	var nativeUSD *big.Rat
	var depth *big.Int
	for i, stable := range stables {
		rw, rs, live := oriented(st.Pairs[n+i], c.WrappedNative)
		if !live || (depth != nil && rs.Cmp(depth) <= 0) {
			continue
		}
		dec := c.stableDecimals(stable)
		nativeUSD = new(big.Rat).SetFrac(new(big.Int).Mul(rs, pow10(nativeDecimals)), new(big.Int).Mul(rw, pow10(dec)))
		depth = rs
	}
	st.Pairs = st.Pairs[:n]
	return st, nativeUSD, nil
}

// quoted is a quote together with what it was computed from, for builds.
type quoted struct {
	quote     SwapQuote
	best      priced
	state     chain.EVMTradeState
	nativeUSD *big.Rat // nil when unpriced
	nativeIn  bool
	nativeOut bool
	in, out   string // token addresses (the wrapped native for native)
}

// QuoteSwap quotes selling amount (base units) of inputMint for outputMint on the named chain, from
// live reserves read at one block in one round trip. Mints are 0x addresses or Native. Errors:
// ErrInvalid (the same token on both sides), ErrNoRoute, and the adapter's.
func (s *Service) QuoteSwap(ctx context.Context, consumerID int, chainName, inputMint, outputMint, amount string, slippageBps int) (Quote, error) {
	c, err := s.swapChainOf(chainName)
	if err != nil {
		return Quote{}, err
	}
	return c.quoteSwap(ctx, s, consumerID, inputMint, outputMint, bigOf(amount), slippageBps)
}

// quoteSwap quotes on an EVM chain: the best route over the pools of its swap venues.
func (c *EVMChain) quoteSwap(ctx context.Context, s *Service, _ int, inputMint, outputMint string, amount *big.Int, slippageBps int) (Quote, error) {
	q, err := s.quote(ctx, c, inputMint, outputMint, amount, slippageBps, chain.EVMTradeRead{})
	if err != nil {
		return Quote{}, err
	}
	return Quote{EVM: &q.quote}, nil
}

// Quote is a swap quote of either chain family: one of EVM and Solana is set.
type Quote struct {
	EVM    *SwapQuote
	Solana *SolanaQuote
}

// quote reads the candidate pools (plus extra, the build's reads, in the same round trip) and
// prices every route.
func (s *Service) quote(ctx context.Context, c *EVMChain, inputMint, outputMint string, amount *big.Int, slippageBps int, extra chain.EVMTradeRead) (quoted, error) {
	in, nativeIn := c.token(inputMint)
	out, nativeOut := c.token(outputMint)
	if in == out {
		if nativeIn || nativeOut {
			return quoted{}, fmt.Errorf("%w: inputMint and outputMint are the native token and its wrapped token: that is a wrap, not a swap", ErrInvalid)
		}
		return quoted{}, fmt.Errorf("%w: inputMint and outputMint must differ", ErrInvalid)
	}
	routes, err := c.candidateRoutes(in, out)
	if err != nil {
		return quoted{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	read := extra
	read.Pairs, read.V3Pools, read.Decimals = nil, nil, []string{in, out}
	c.addPoolReads(&read, routes)
	var probed []string
	read.TaxProbes, probed = s.taxProbes(c, in, out)
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return quoted{}, fmt.Errorf("quote: %w", err)
	}
	for i, token := range probed {
		if _, done := s.cachedTax(c, token); !done && st.TaxSims[i].Ran {
			s.storeTax(c, Tax{Token: token, BuyTaxBps: st.TaxSims[i].BuyTaxBps, SellTaxBps: st.TaxSims[i].SellTaxBps})
		}
	}
	for i, mint := range []string{inputMint, outputMint} {
		if st.Decimals[i] < 0 {
			return quoted{}, fmt.Errorf("%w: %s is not an ERC-20 token on %s (decimals() does not answer)", ErrInvalid, mint, c.Info.Name)
		}
	}
	h := c.hopper(c.poolStates(read, st))
	var inTax, outTax Tax
	best := h.bestRoute(routes, amount, inTax, outTax)
	if best == nil {
		return quoted{}, fmt.Errorf("%w from %s to %s on %s: no pool path gives any output for this amount", ErrNoRoute, inputMint, outputMint, c.Info.Name)
	}
	if inTax, err = s.taxOf(ctx, c, in, pairWith(routes, in)); err == nil {
		outTax, err = s.taxOf(ctx, c, out, pairWith(routes, out))
	}
	if err != nil {
		return quoted{}, fmt.Errorf("quote: %w", err)
	}
	var taxes []Tax
	for _, t := range []Tax{inTax, outTax} {
		if t.BuyTaxBps > 0 || t.SellTaxBps > 0 {
			taxes = append(taxes, t)
		}
	}
	if len(taxes) > 0 {
		if best = h.bestRoute(routes, amount, inTax, outTax); best == nil {
			return quoted{}, fmt.Errorf("%w from %s to %s on %s: after the tokens' transfer taxes no pool path gives any output", ErrNoRoute, inputMint, outputMint, c.Info.Name)
		}
	}
	outAmount := best.delivered
	q := SwapQuote{
		Chain: c.Info.Name, InputMint: inputMint, OutputMint: outputMint,
		InAmount: amount.String(), OutAmount: outAmount.String(), MinOutAmount: chain.MinOut(outAmount, slippageBps).String(),
		SlippageBps: slippageBps, PriceImpactPct: chain.FormatPercent(priceImpact(amount, outAmount, best.hops), 4),
		FeeOnTransfer: len(taxes) > 0, Taxes: taxes,
		Gas:   uint64(swapGasFirstHop + swapGasPerHop*(len(best.legs)-1)),
		Block: st.Block, ExpiresAt: s.now().Add(QuoteTTL).Unix(),
	}
	q.NetworkFee, _ = networkFee(q.Gas, st, nativeUSD)
	for i, l := range best.legs {
		q.Route = append(q.Route, RouteHop{Pool: l.pool.Address, Venue: l.pool.Venue, FeeBps: l.pool.FeeBps(), TokenIn: l.tokenIn, TokenOut: l.tokenOut,
			AmountIn: best.amounts[i].String(), AmountOut: best.amounts[i+1].String()})
	}
	return quoted{quote: q, best: *best, state: st, nativeUSD: nativeUSD, nativeIn: nativeIn, nativeOut: nativeOut, in: in, out: out}, nil
}

// decimalsOf is the decimals of a token of the quote's route: its input or output token (read with
// the reserves), or a token it passes through (hopDecimals).
func (q quoted) decimalsOf(c *EVMChain, token string) int {
	switch token {
	case q.in:
		return q.state.Decimals[0]
	case q.out:
		return q.state.Decimals[1]
	}
	return c.hopDecimals(token)
}

// hopDecimals is the decimals of a token a route passes through between its ends: the wrapped native
// token (the gas coin's 18) or a configured USD stablecoin, the only tokens routes pass through.
func (c *EVMChain) hopDecimals(token string) int {
	if token == c.WrappedNative {
		return nativeDecimals
	}
	return c.stableDecimals(token)
}

// stableDecimals is the configured decimals of a USD stablecoin.
func (c *EVMChain) stableDecimals(addr string) int {
	i := slices.IndexFunc(c.Stablecoins, func(s chain.Stablecoin) bool { return s.Address == addr })
	return c.Stablecoins[i].Decimals
}

// expectedFeePerGas is what a transaction is expected to pay per gas: the base fee plus the tip.
func expectedFeePerGas(st chain.EVMTradeState) *big.Int { return new(big.Int).Add(st.BaseFee, st.Tip) }

// networkFee is gas at the expected fee per gas, in native units and USD, and in wei.
func networkFee(gas uint64, st chain.EVMTradeState, nativeUSD *big.Rat) (Amount, *big.Int) {
	wei := new(big.Int).Mul(new(big.Int).SetUint64(gas), expectedFeePerGas(st))
	a := Amount{Native: market.Units(wei, nativeDecimals)}
	if nativeUSD != nil {
		usd := new(big.Rat).Mul(new(big.Rat).SetFrac(wei, pow10(nativeDecimals)), nativeUSD)
		a.USD = usd.FloatString(6)
	}
	return a, wei
}

func last(s []*big.Int) *big.Int { return s[len(s)-1] }

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
