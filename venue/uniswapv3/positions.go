package uniswapv3

import (
	"github.com/partner-platform/partnerd/chain"
)

// The venue's positions (chain.V3PositionsVenue): NFTs of the chain's NonfungiblePositionManager,
// in owners' wallets or deposited in its UniswapV3Staker, whose figures are the contracts' own.

var _ chain.V3PositionsVenue = Venue{}

// PositionsRead locates the positions of a chain whose venue is configured as cfg: its
// positionManager and staker, and its factory and initCodeHash (the official pool's by default) to
// derive their pools; none without a positionManager.
func (Venue) PositionsRead(cfg chain.VenueConfig) (chain.V3PositionsRead, bool) {
	hash := cfg.InitCodeHash
	if hash == "" {
		hash = chain.UniswapV3InitCodeHash
	}
	return chain.V3PositionsRead{PositionManager: cfg.PositionManager, Staker: cfg.Staker, StakerStartBlock: cfg.StakerStartBlock,
			Factory: cfg.Factory, InitCodeHash: hash},
		cfg.PositionManager != ""
}

// PositionFigures is what p holds at p.State: its range's sqrt prices, whether the pool's tick is
// in it, the amounts burning all its liquidity pays (PositionAmounts) and the fees collect pays
// (TokensOwed over FeeGrowthInside), exactly as the contracts compute them.
func (Venue) PositionFigures(p chain.V3Position) (chain.V3PositionFigures, error) {
	var out chain.V3PositionFigures
	st := p.State
	var err error
	if out.SqrtPriceLowerX96, err = SqrtRatioAtTick(p.TickLower); err != nil {
		return out, err
	}
	if out.SqrtPriceUpperX96, err = SqrtRatioAtTick(p.TickUpper); err != nil {
		return out, err
	}
	out.InRange = p.TickLower <= st.Tick && st.Tick < p.TickUpper
	if out.Amount0, out.Amount1, err = PositionAmounts(p.TickLower, p.TickUpper, st.Tick, st.SqrtPriceX96, p.Liquidity); err != nil {
		return out, err
	}
	inside0 := FeeGrowthInside(p.TickLower, p.TickUpper, st.Tick, st.FeeGrowthGlobal0X128, st.LowerOutside0X128, st.UpperOutside0X128)
	inside1 := FeeGrowthInside(p.TickLower, p.TickUpper, st.Tick, st.FeeGrowthGlobal1X128, st.LowerOutside1X128, st.UpperOutside1X128)
	if out.Fees0, err = TokensOwed(p.TokensOwed0, p.Liquidity, inside0, p.FeeGrowthInside0LastX128); err != nil {
		return out, err
	}
	out.Fees1, err = TokensOwed(p.TokensOwed1, p.Liquidity, inside1, p.FeeGrowthInside1LastX128)
	return out, err
}
