package uniswapv3

import (
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// FromChain is the PoolState and TickData of a pool read by chain's V3PoolState (the EVM
// adapter's V3Pools): the ticks cover the tick bitmap words WordLow..WordHigh, so a swap that
// leaves them fails with ErrTicksExhausted. It refuses a state that is not OK.
func FromChain(s chain.V3PoolState) (PoolState, TickData, error) {
	if !s.OK || s.SqrtPriceX96 == nil || s.Liquidity == nil || s.TickSpacing <= 0 || s.Fee < 0 || s.Fee >= FeeDenominator {
		return PoolState{}, TickData{}, fmt.Errorf("uniswapv3: %s is not a readable V3 pool state", s.Address)
	}
	ticks := make([]Tick, len(s.Ticks))
	for i, t := range s.Ticks {
		ticks[i] = Tick{Index: t.Index, LiquidityNet: new(big.Int).Set(t.LiquidityNet)}
	}
	state := PoolState{SqrtPriceX96: new(big.Int).Set(s.SqrtPriceX96), Tick: s.Tick, Liquidity: new(big.Int).Set(s.Liquidity),
		Fee: uint32(s.Fee), TickSpacing: s.TickSpacing}
	return state, WordsTicks(ticks, s.TickSpacing, int(s.WordLow), int(s.WordHigh)), nil
}
