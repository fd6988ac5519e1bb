package trade

import (
	"context"
	"errors"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
)

// lpCompoundPosition builds, as one ordered list computed from the state read at one block
// and simulated in order, the compounding of the fees of the position PositionID (which the user
// must hold in its wallet) into it:
//
//  1. collect: the position manager's collect of everything the position is owed to the user (its
//     fees: metadata.fees0 and fees1, exact at the read block);
//  2. approveRouter (exact) and swap: SwapRouter02's exactInputSingle through the position's own
//     pool of the input after which the fees buy the most liquidity in the position's range at
//     the pool's price after the swap (as lp/rebalance computes it); left out when nothing needs
//     swapping;
//  3. approveToken0, approveToken1 (exact) and increaseLiquidity of the position (minimums
//     slippageBps below what it takes).
//
// metadata: the position as lp/increase states it (liquidity added, liquidityBefore, amount0,
// amount1, minimums, desired amounts), fees0 and fees1, swap (see ratioDeposit.metadata),
// leftover0 and leftover1 (what stays in the wallet). Errors: ErrNotSupported, ErrInvalid,
// ErrPrerequisite (not the user's position, no fees, or fees too little to add liquidity),
// *SimulationError, and the adapter's and the store's.
func (c *EVMChain) lpCompoundPosition(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	pv, id, user, err := c.positionSetup(r)
	if err != nil {
		return Build{}, err
	}
	pos, p, st, nativeUSD, err := c.ratioPosition(ctx, pv, user, id)
	if err != nil {
		return Build{}, err
	}
	fig, err := pv.PositionFigures(pos)
	if err != nil {
		return Build{}, fmt.Errorf("%w: position %s: %v", ErrInvalid, id, err)
	}
	if fig.Fees0.Sign() == 0 && fig.Fees1.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: position %s has no fees to compound yet", ErrPrerequisite, id)
	}
	tokens, decimals := [2]string{pos.Token0, pos.Token1}, [2]int{st.Decimals[0], st.Decimals[1]}
	rd, err := newRatioDeposit(pv, chain.V3Ratio{Pool: p, TickLower: pos.TickLower, TickUpper: pos.TickUpper, Amount0: fig.Fees0, Amount1: fig.Fees1},
		r.SlippageBps)
	if errors.Is(err, ErrInvalidAmount) {
		return Build{}, fmt.Errorf("%w: position %s's fees are too little to compound: %v", ErrPrerequisite, id, err)
	} else if err != nil {
		return Build{}, err
	}
	deadline := s.now().Add(RouterDeadline).Unix()
	collect := pv.CollectCall(pv.cfg, id, user)
	steps := []step{callStep("collect", collect)}
	steps = append(steps, rd.steps(pv, user, tokens, pos.Fee, st.Allowances, deadline)...)
	inc := pv.IncreaseCall(pv.cfg, id, rd.ask[0], rd.ask[1], rd.mins[0], rd.mins[1], deadline)
	steps = append(steps, callStep("increaseLiquidity", inc))

	md := positionMetadata(pv, pos)
	md["deadline"], md["recipient"], md["liquidityBefore"] = deadline, user, pos.Liquidity.String()
	md["fees0"], md["fees1"] = fig.Fees0.String(), fig.Fees1.String()
	rd.metadata(md, tokens)
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD,
		venueFees: rd.venueFee(pv, pos.Pool, tokens, pos.Fee, decimals), metadata: md}, steps)
}
