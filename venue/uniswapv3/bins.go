package uniswapv3

import (
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// BinWords is how many tick bitmap words bins read on each side of the current word: five words of
// 256 tick spacings (at least 12,800 ticks, a factor of 3.6 in price, at the 0.05 % tier).
const BinWords = 2

var _ chain.BinsVenue = Venue{}

// BinsRead reads pool through cfg's TickLens, BinWords words on each side of its price, with the
// tick spacing of its fee tier when feeBps names one; the venue serves it when cfg has a tickLens.
func (Venue) BinsRead(cfg chain.VenueConfig, pool string, feeBps int) (string, chain.V3PoolRead, bool) {
	read := chain.V3PoolRead{Pool: pool, Words: BinWords}
	for _, t := range FeeTiers {
		if t.Fee == feeBps*100 {
			read.TickSpacing = t.TickSpacing
		}
	}
	return cfg.TickLens, read, cfg.TickLens != ""
}

// Bins groups a pool read as st into the ranges between neighbouring initialized ticks of the
// words read, bounded by the words' first and last tick (MinTick and MaxTick at most). The
// liquidity of each range is the pool's in-range liquidity plus the liquidityNet of the ticks
// crossed upwards to reach it (minus, downwards), as the pool's swap computes it; the amounts are
// SqrtPriceMath's, rounded down.
func (Venue) Bins(st chain.V3PoolState) ([]chain.LiquidityBin, error) {
	state, ticks, err := FromChain(st)
	if err != nil {
		return nil, err
	}
	lo, hi := max(ticks.Lower, MinTick), min(ticks.Upper, MaxTick)
	bounds := []int{lo}
	cur := -1 // index in bounds of the range holding the price
	for _, t := range ticks.Ticks {
		if t.Index > lo && t.Index < hi {
			bounds = append(bounds, t.Index)
		}
	}
	bounds = append(bounds, hi)
	for i := 0; i+1 < len(bounds); i++ {
		if bounds[i] <= state.Tick && state.Tick < bounds[i+1] {
			cur = i
		}
	}
	if cur < 0 {
		return nil, fmt.Errorf("uniswapv3: the pool's tick %d is outside the ticks read [%d, %d]", state.Tick, lo, hi)
	}
	net := map[int]*big.Int{}
	for _, t := range ticks.Ticks {
		net[t.Index] = t.LiquidityNet
	}
	liquidity := make([]*big.Int, len(bounds)-1)
	liquidity[cur] = new(big.Int).Set(state.Liquidity)
	for i := cur + 1; i < len(liquidity); i++ { // crossing bounds[i] upwards adds its liquidityNet
		liquidity[i] = new(big.Int).Set(liquidity[i-1])
		if n := net[bounds[i]]; n != nil {
			liquidity[i].Add(liquidity[i], n)
		}
	}
	for i := cur - 1; i >= 0; i-- { // crossing bounds[i+1] downwards takes it away
		liquidity[i] = new(big.Int).Set(liquidity[i+1])
		if n := net[bounds[i+1]]; n != nil {
			liquidity[i].Sub(liquidity[i], n)
		}
	}
	var out []chain.LiquidityBin
	for i, l := range liquidity {
		if l.Sign() < 0 {
			return nil, fmt.Errorf("uniswapv3: negative liquidity %s in [%d, %d): the ticks read are inconsistent", l, bounds[i], bounds[i+1])
		}
		if l.Sign() == 0 {
			continue
		}
		b, err := bin(bounds[i], bounds[i+1], l, state.SqrtPriceX96)
		if err != nil {
			return nil, err
		}
		b.Current = i == cur
		out = append(out, b)
	}
	return out, nil
}

// bin is the range [lower, upper) holding liquidity at the price sqrtP.
func bin(lower, upper int, liquidity, sqrtP *big.Int) (chain.LiquidityBin, error) {
	sa, err := SqrtRatioAtTick(lower)
	if err != nil {
		return chain.LiquidityBin{}, err
	}
	sb, err := SqrtRatioAtTick(upper)
	if err != nil {
		return chain.LiquidityBin{}, err
	}
	b := chain.LiquidityBin{TickLower: lower, TickUpper: upper, SqrtPriceLowerX96: sa, SqrtPriceUpperX96: sb, Liquidity: liquidity,
		Amount0: new(big.Int), Amount1: new(big.Int)}
	// The price clamped into the range: token0 is held above it, token1 below it.
	p := sqrtP
	if p.Cmp(sa) < 0 {
		p = sa
	} else if p.Cmp(sb) > 0 {
		p = sb
	}
	if b.Amount0, err = Amount0Delta(p, sb, liquidity, false); err != nil {
		return chain.LiquidityBin{}, err
	}
	if b.Amount1, err = Amount1Delta(sa, p, liquidity, false); err != nil {
		return chain.LiquidityBin{}, err
	}
	return b, nil
}
