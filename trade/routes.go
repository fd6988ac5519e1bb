package trade

import (
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// EVM swap routes over every venue of the chain that serves swaps (chain.EVMSwapVenue): the
// candidate routes between two tokens, the reads that price them in the quote's one round trip,
// their exact amounts, and the venue whose router executes the best.

// quoteTickWords is how many tick bitmap words a quote reads on each side of a concentrated pool's
// current word (chain.V3PoolRead.Words): three words of 256 tick spacings, at least 2,560 ticks
// (a factor of 1.29 in price) on either side of the current word at the 0.05 % tier and 15,360
// (a factor of 4.6) at the 0.3 % tier. A swap that would leave them cannot be priced on that pool
// (uniswapv3.ErrTicksExhausted) and the quote takes another route.
const quoteTickWords = 1

// swapVenue is a venue of the chain that serves swaps, with its configuration.
type swapVenue struct {
	chain.EVMSwapVenue
	cfg chain.VenueConfig
}

// leg is one pool of a candidate route.
type leg struct {
	pool              chain.EVMSwapPool
	tokenIn, tokenOut string
}

// candidateRoutes lists every swap venue's pools between in and out, and every two-hop route
// through the wrapped native token or a USD stablecoin, each hop on any venue's pool (a route
// mixing venues is kept when a router executes it: executor).
func (c *EVMChain) candidateRoutes(in, out string) ([][]leg, error) {
	direct, err := c.legs(in, out)
	if err != nil {
		return nil, err
	}
	var routes [][]leg
	for _, l := range direct {
		routes = append(routes, []leg{l})
	}
	for _, mid := range c.mids() {
		if mid == in || mid == out {
			continue
		}
		first, err := c.legs(in, mid)
		if err != nil {
			return nil, err
		}
		second, err := c.legs(mid, out)
		if err != nil {
			return nil, err
		}
		for _, a := range first {
			for _, b := range second {
				routes = append(routes, []leg{a, b})
			}
		}
	}
	return slices.DeleteFunc(routes, func(r []leg) bool {
		_, ok := c.executor(r, false)
		return !ok
	}), nil
}

// legs are every swap venue's pools from a to b.
func (c *EVMChain) legs(a, b string) ([]leg, error) {
	var out []leg
	for _, v := range c.Swaps {
		pools, err := v.SwapPools(v.cfg, a, b)
		if err != nil {
			return nil, err
		}
		for _, p := range pools {
			out = append(out, leg{pool: p, tokenIn: a, tokenOut: b})
		}
	}
	return out, nil
}

// mids are the tokens two-hop routes go through: the wrapped native token and the USD stablecoins.
func (c *EVMChain) mids() []string {
	mids := []string{c.WrappedNative}
	for _, s := range c.Stablecoins {
		mids = append(mids, s.Address)
	}
	return mids
}

// executor is the venue whose router executes a route: the first that can, in the order of the
// route's pools' venues, then of the chain's.
func (c *EVMChain) executor(r []leg, feeOnTransfer bool) (swapVenue, bool) {
	pools := make([]chain.EVMSwapPool, len(r))
	for i, l := range r {
		pools[i] = l.pool
	}
	order := make([]swapVenue, 0, len(r)+len(c.Swaps))
	for _, l := range r {
		if i := slices.IndexFunc(c.Swaps, func(v swapVenue) bool { return v.Spec().Name == l.pool.Venue }); i >= 0 {
			order = append(order, c.Swaps[i])
		}
	}
	for _, v := range append(order, c.Swaps...) {
		if v.Executes(v.cfg, pools, feeOnTransfer) {
			return v, true
		}
	}
	return swapVenue{}, false
}

// addPoolReads adds the routes' pools to read, each once: pairs to Pairs, concentrated pools to
// V3Pools (through the chain's TickLens; the adapter guesses each pool's word from its last read).
func (c *EVMChain) addPoolReads(read *chain.EVMTradeRead, routes [][]leg) {
	seen := map[string]bool{}
	for _, r := range routes {
		for _, l := range r {
			if seen[l.pool.Address] {
				continue
			}
			seen[l.pool.Address] = true
			if l.pool.Model == chain.EVMPair {
				read.Pairs = append(read.Pairs, l.pool.Address)
				continue
			}
			read.V3Pools = append(read.V3Pools, chain.V3PoolRead{Pool: l.pool.Address, Words: quoteTickWords, TickSpacing: l.pool.TickSpacing})
			read.TickLens = c.TickLens
		}
	}
}

// poolStates are the states read of the pools of read, by address.
func (c *EVMChain) poolStates(read chain.EVMTradeRead, st chain.EVMTradeState) map[string]chain.EVMPoolState {
	out := make(map[string]chain.EVMPoolState, len(read.Pairs)+len(read.V3Pools))
	for i, addr := range read.Pairs {
		p := st.Pairs[i]
		out[addr] = chain.EVMPoolState{Pair: &chain.PairState{Address: p.Address, Token0: p.Token0, Token1: p.Token1,
			Reserve0: p.Reserve0, Reserve1: p.Reserve1, TotalSupply: p.TotalSupply, LPToken: p.Address, OK: p.OK, Block: st.Block}}
	}
	for i, rd := range read.V3Pools {
		out[rd.Pool] = chain.EVMPoolState{V3: &st.V3Pools[i]}
	}
	return out
}

// priced is a route with its amounts: amounts[0] is what the first pool receives (the input less
// its sell tax), delivered what the user receives (the last pool's output less its buy tax).
type priced struct {
	legs      []leg
	hops      []chain.EVMHop
	amounts   []*big.Int
	delivered *big.Int
}

// hopper prices the pools of a read, each pool and direction once.
type hopper struct {
	c      *EVMChain
	states map[string]chain.EVMPoolState
	memo   map[[2]string]chain.EVMHop
}

func (c *EVMChain) hopper(states map[string]chain.EVMPoolState) *hopper {
	return &hopper{c: c, states: states, memo: map[[2]string]chain.EVMHop{}}
}

// hop is the leg's pool priced for selling its tokenIn; nil when the pool is not live.
func (h *hopper) hop(l leg) chain.EVMHop {
	key := [2]string{l.pool.Address, l.tokenIn}
	if hp, ok := h.memo[key]; ok {
		return hp
	}
	var hp chain.EVMHop
	if i := slices.IndexFunc(h.c.Swaps, func(v swapVenue) bool { return v.Spec().Name == l.pool.Venue }); i >= 0 {
		if got, live := h.c.Swaps[i].Hop(l.pool, h.states[l.pool.Address], l.tokenIn); live {
			hp = got
		}
	}
	h.memo[key] = hp
	return hp
}

// bestRoute prices every route whose pools are live and whose router takes a fee-on-transfer
// token when there is a tax, and returns the one delivering the most; nil when none delivers
// anything.
func (h *hopper) bestRoute(routes [][]leg, amount *big.Int, inTax, outTax Tax) *priced {
	taxed := inTax.BuyTaxBps > 0 || inTax.SellTaxBps > 0 || outTax.BuyTaxBps > 0 || outTax.SellTaxBps > 0
	var best *priced
	for _, r := range routes {
		pr := priced{legs: r}
		for _, l := range r {
			hp := h.hop(l)
			if hp == nil {
				pr.hops = nil
				break
			}
			pr.hops = append(pr.hops, hp)
		}
		if pr.hops == nil {
			continue
		}
		if taxed {
			if _, ok := h.c.executor(r, true); !ok {
				continue
			}
		}
		var err error
		if pr.amounts, err = routeAmounts(afterTax(amount, inTax.SellTaxBps), pr.hops); err != nil {
			continue // too small to buy a unit, or not enough liquidity on this route
		}
		if pr.delivered = afterTax(last(pr.amounts), outTax.BuyTaxBps); pr.delivered.Sign() == 0 {
			continue
		}
		if best == nil || pr.delivered.Cmp(best.delivered) > 0 {
			best = &pr
		}
	}
	return best
}

// routeAmounts is the amounts through hops for an exact input: amounts[0] is amountIn, amounts[i+1]
// the output of hops[i].
func routeAmounts(amountIn *big.Int, hops []chain.EVMHop) ([]*big.Int, error) {
	amounts := []*big.Int{new(big.Int).Set(amountIn)}
	for _, h := range hops {
		out, err := h.AmountOut(last(amounts))
		if err != nil {
			return nil, err
		}
		amounts = append(amounts, out)
	}
	return amounts, nil
}

// priceImpact is the loss of trading amountIn for amountOut against the route's mid price (the
// product of its hops' mid prices, before fees), as a fraction: (mid*in - out) / (mid*in). It
// includes the pools' fees.
func priceImpact(amountIn, amountOut *big.Int, hops []chain.EVMHop) *big.Rat {
	quoted := new(big.Rat).SetInt(amountIn)
	for _, h := range hops {
		quoted.Mul(quoted, h.MidPrice())
	}
	if quoted.Sign() == 0 {
		return new(big.Rat)
	}
	diff := new(big.Rat).Sub(quoted, new(big.Rat).SetInt(amountOut))
	return diff.Quo(diff, quoted)
}
