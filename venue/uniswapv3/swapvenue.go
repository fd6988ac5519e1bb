package uniswapv3

import (
	"errors"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's swaps (chain.EVMSwapVenue): one pool per fee tier and token pair, priced by Swap over
// the ticks read, executed by SwapRouter02, which also routes through the chain's Uniswap V2 pairs.

var _ chain.EVMSwapVenue = Venue{}

// FeeTiers are the fee tiers (pips) a pair's pools are looked for at, with their tick spacings, as
// the official factory enables them (0.01 % was enabled after deployment on most chains).
var FeeTiers = []struct{ Fee, TickSpacing int }{{100, 1}, {500, 10}, {3000, 60}, {10000, 200}}

// SwapPools are the pools of a and b at every fee tier on cfg's factory (derived with its
// initCodeHash, the official pool's by default); none when cfg does not serve swaps (Status).
func (Venue) SwapPools(cfg chain.VenueConfig, a, b string) ([]chain.EVMSwapPool, error) {
	if cfg.Router == "" || cfg.TickLens == "" {
		return nil, nil
	}
	hash := cfg.InitCodeHash
	if hash == "" {
		hash = chain.UniswapV3InitCodeHash
	}
	var out []chain.EVMSwapPool
	for _, t := range FeeTiers {
		pool, err := chain.UniswapV3PoolAddress(cfg.Factory, hash, a, b, t.Fee)
		if err != nil {
			return nil, err
		}
		out = append(out, chain.EVMSwapPool{Venue: Name, Address: pool, Model: chain.EVMConcentrated, FeePips: t.Fee, TickSpacing: t.TickSpacing})
	}
	return out, nil
}

// hop is a pool read as one of its states, selling one of its tokens.
type hop struct {
	state      PoolState
	ticks      TickData
	zeroForOne bool
}

// Hop prices a pool read as st.V3; it is not live when it is not a readable pool or has no
// liquidity in range.
func (Venue) Hop(_ chain.EVMSwapPool, st chain.EVMPoolState, tokenIn string) (chain.EVMHop, bool) {
	if st.V3 == nil || !st.V3.OK {
		return nil, false
	}
	state, ticks, err := FromChain(*st.V3)
	if err != nil || state.Liquidity.Sign() == 0 {
		return nil, false
	}
	return hop{state: state, ticks: ticks, zeroForOne: st.V3.Token0 == tokenIn}, true
}

// errPartial is a swap the pool's liquidity cannot fill whole.
var errPartial = errors.New("uniswapv3: the pool's liquidity cannot fill the whole input")

// AmountOut is the pool's output for an exact input (chain.EVMHop): ErrTicksExhausted when the
// swap leaves the ticks read, errPartial when it reaches the end of the pool's liquidity.
func (h hop) AmountOut(amountIn *big.Int) (*big.Int, error) {
	r, err := Swap(h.state, h.zeroForOne, amountIn, nil, h.ticks)
	if err != nil {
		return nil, err
	}
	if r.Partial || r.AmountOut.Sign() == 0 {
		return nil, errPartial
	}
	return r.AmountOut, nil
}

// q192 is 2^192: a price is sqrtPriceX96² / 2^192.
var q192 = new(big.Int).Lsh(big.NewInt(1), 192)

// MidPrice is the pool's price at sqrtPriceX96, in the direction sold (chain.EVMHop).
func (h hop) MidPrice() *big.Rat {
	sq := new(big.Int).Mul(h.state.SqrtPriceX96, h.state.SqrtPriceX96)
	if h.zeroForOne {
		return new(big.Rat).SetFrac(sq, q192)
	}
	return new(big.Rat).SetFrac(q192, sq)
}

// Executes reports whether SwapRouter02 executes a route through pools: each is this venue's or a
// Uniswap V2 pair at 0.3 % (SwapRouter02's V2 math; the router must have been deployed with the
// chain's uniswap-v2 factory), at least one is this venue's (a route of pairs only is the pairs'
// venue's), and no token keeps part of a transfer (a V3 pool reverts on such a token).
func (Venue) Executes(cfg chain.VenueConfig, pools []chain.EVMSwapPool, feeOnTransfer bool) bool {
	v3 := false
	for _, p := range pools {
		switch {
		case p.Venue == Name:
			v3 = true
		case p.Model != chain.EVMPair || p.FeePips != 3000:
			return false
		}
	}
	return v3 && !feeOnTransfer && cfg.Router != ""
}

// SwapCall is SwapRouter02's multicall executing r (swapRouter02Data); a native input is its value.
func (Venue) SwapCall(cfg chain.VenueConfig, r chain.EVMSwapRoute) chain.EVMCall {
	call := chain.EVMCall{To: cfg.Router, Data: swapRouter02Data(r)}
	if r.NativeIn {
		call.Value = r.AmountIn
	}
	return call
}
