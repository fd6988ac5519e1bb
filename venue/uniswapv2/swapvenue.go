package uniswapv2

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's swaps (chain.EVMSwapVenue): one pair per token pair, priced by AmountOut, executed
// by the configured Router02.

var _ chain.EVMSwapVenue = Venue{}

// SwapPools is the pair of a and b on cfg's factory (derived with its initCodeHash), at cfg's fee;
// none when cfg does not serve swaps (Status).
func (Venue) SwapPools(cfg chain.VenueConfig, a, b string) ([]chain.EVMSwapPool, error) {
	if cfg.Router == "" || cfg.InitCodeHash == "" {
		return nil, nil
	}
	pair, err := chain.UniswapV2PairAddress(cfg.Factory, cfg.InitCodeHash, a, b)
	if err != nil {
		return nil, err
	}
	return []chain.EVMSwapPool{{Venue: Name, Address: pair, Model: chain.EVMPair, FeePips: cfg.FeeBps * 100}}, nil
}

// Hop prices a pair read as st.Pair; it is not live without code or with an empty reserve.
func (Venue) Hop(pool chain.EVMSwapPool, st chain.EVMPoolState, tokenIn string) (chain.EVMHop, bool) {
	p := st.Pair
	if p == nil || !p.OK || p.Reserve0.Sign() == 0 || p.Reserve1.Sign() == 0 {
		return nil, false
	}
	h := Hop{ReserveIn: p.Reserve0, ReserveOut: p.Reserve1, FeeBps: pool.FeeBps()}
	if p.Token1 == tokenIn {
		h.ReserveIn, h.ReserveOut = p.Reserve1, p.Reserve0
	}
	return h, true
}

// AmountOut is the pair's output for amountIn (chain.EVMHop).
func (h Hop) AmountOut(amountIn *big.Int) (*big.Int, error) {
	return AmountOut(amountIn, h.ReserveIn, h.ReserveOut, h.FeeBps)
}

// MidPrice is ReserveOut/ReserveIn (chain.EVMHop).
func (h Hop) MidPrice() *big.Rat { return MidPrice([]Hop{h}) }

// Executes reports whether every pool is this venue's: Router02 swaps through its factory's pairs
// only, with or without a fee-on-transfer token.
func (Venue) Executes(_ chain.VenueConfig, pools []chain.EVMSwapPool, _ bool) bool {
	for _, p := range pools {
		if p.Venue != Name {
			return false
		}
	}
	return true
}

// SwapCall is Router02's exact-input swap along r.Path: swapExactETHForTokens for a native input,
// swapExactTokensForETH for a native output, else swapExactTokensForTokens, each
// ...SupportingFeeOnTransferTokens for a taxed token.
func (Venue) SwapCall(cfg chain.VenueConfig, r chain.EVMSwapRoute) chain.EVMCall {
	kind, value := TokensForTokens, (*big.Int)(nil)
	switch {
	case r.NativeIn:
		kind, value = NativeForTokens, r.AmountIn
	case r.NativeOut:
		kind = TokensForNative
	}
	return chain.EVMCall{To: cfg.Router, Value: value,
		Data: SwapData(kind, r.AmountIn, r.MinOut, r.Path, r.Recipient, r.Deadline, r.FeeOnTransfer)}
}
