package trade

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// Builds on an existing NFT position: lp/increase, lp/remove and lp/harvest. Each reads the
// user's positions (chain.V3PositionReader: the position manager's positions(id) with its pool's
// state) and the build's own state at one block, and refuses a position the user does not hold in
// its wallet (422 prerequisite_failed).

// BuildLPIncrease builds the position manager's increaseLiquidity of AmountA and AmountB (human
// units of TokenA and TokenB, or of the pool's token0 and token1) into the position PositionID,
// which the user must hold: exact approvals of the position manager for what it takes at the
// position's pool price (the periphery's getLiquidityForAmounts, the pool's mint amounts rounded
// up), minimums slippageBps below. metadata: positionId, tickLower, tickUpper, liquidity (added),
// liquidityBefore, amount0, amount1, their minimums, amount0Desired and amount1Desired (asked).
// Errors: ErrNotSupported (no venue of NFT positions of that name), ErrInvalid, ErrInvalidAmount,
// ErrPrerequisite (not the user's position, or a balance short), *SimulationError, and the
// adapter's and the store's.
func (s *Service) BuildLPIncrease(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	ec, err := s.lpPositionChain(r.Chain, "lp/increase")
	if err != nil {
		return Build{}, err
	}
	pv, id, user, err := ec.positionSetup(r)
	if err != nil {
		return Build{}, err
	}
	pos, st, nativeUSD, err := ec.ownedPosition(ctx, pv, user, id, nil, func(p chain.V3Position) chain.EVMTradeRead {
		return chain.EVMTradeRead{Owner: user, Decimals: []string{p.Token0, p.Token1}, Balances: []string{p.Token0, p.Token1},
			Allowances: []chain.EVMAllowance{{Token: p.Token0, Spender: pv.cfg.PositionManager}, {Token: p.Token1, Spender: pv.cfg.PositionManager}}}
	})
	if err != nil {
		return Build{}, err
	}
	tokens, decimals := [2]string{pos.Token0, pos.Token1}, [2]int{st.Decimals[0], st.Decimals[1]}
	pd, steps, err := ec.requestedDeposit(r, pv, user, tokens, decimals, pos.TickLower, pos.TickUpper, pos.State.Tick, pos.State.SqrtPriceX96, st)
	if err != nil {
		return Build{}, err
	}
	deadline := s.now().Add(RouterDeadline).Unix()
	inc := pv.IncreaseCall(pv.cfg, id, pd.ask[0], pd.ask[1], pd.mins[0], pd.mins[1], deadline)
	steps = append(steps, callStep("increaseLiquidity", inc))
	md := positionMetadata(pv, pos)
	md["deadline"], md["liquidityBefore"] = deadline, pos.Liquidity.String()
	pd.metadata(md)
	return s.finish(ctx, assembly{c: ec, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// positionSetup checks a build on a position: its venue, slippage and one position id.
func (c *EVMChain) positionSetup(r LPRequest) (positionVenue, *big.Int, string, error) {
	pv, ok := c.positionVenue(r.Venue)
	if !ok {
		return positionVenue{}, nil, "", fmt.Errorf("%w: %s has no NFT-style positions built on %s; %s", ErrNotSupported, r.Venue, c.Info.Name, c.positionVenues())
	}
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return positionVenue{}, nil, "", fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	id, ok := new(big.Int).SetString(r.PositionID, 10)
	if !ok || id.Sign() < 0 || id.BitLen() > 256 {
		return positionVenue{}, nil, "", fmt.Errorf("%w: positionIds must hold one position id, a decimal integer", ErrInvalid)
	}
	return pv, id, strings.ToLower(r.User), nil
}

// positionVenues says which venues of the chain build on NFT positions.
func (c *EVMChain) positionVenues() string {
	if len(c.Positions) == 0 {
		return "no venue of NFT positions is configured there"
	}
	names := make([]string, len(c.Positions))
	for i, v := range c.Positions {
		names[i] = v.Spec().Name
	}
	return strings.Join(names, ", ") + " does"
}

// positionMetadata is the metadata of a build on an existing position.
func positionMetadata(pv positionVenue, p chain.V3Position) map[string]any {
	md := v3Metadata(pv, p.Pool, p.Token0, p.Token1)
	md["positionId"], md["fee"], md["tickLower"], md["tickUpper"], md["tick"] = p.ID.String(), p.Fee, p.TickLower, p.TickUpper, p.State.Tick
	md["inRange"] = p.TickLower <= p.State.Tick && p.State.Tick < p.TickUpper
	return md
}

// ownedPosition reads position id, which user must hold in its wallet, and the build's state
// (read, given the position) with the position and its pool's state at the same block, in two round
// trips: which position id is and who holds it (chain.V3StakerReader; held, when not nil, is that
// read already made), then the build's read with the position (chain.EVMTradeRead.Positions).
func (c *EVMChain) ownedPosition(ctx context.Context, pv positionVenue, user string, id *big.Int, held *chain.V3StakerState,
	read func(chain.V3Position) chain.EVMTradeRead) (chain.V3Position, chain.EVMTradeState, *big.Rat, error) {
	if held == nil {
		reader, ok := c.Source.(chain.V3StakerReader)
		if !ok {
			return chain.V3Position{}, chain.EVMTradeState{}, nil, fmt.Errorf("%w: positions are not read on %s", ErrNotSupported, c.Info.Name)
		}
		ss, err := reader.V3Staker(ctx, chain.V3StakerRead{Where: pv.where, ID: id, PositionOnly: true})
		if err != nil {
			return chain.V3Position{}, chain.EVMTradeState{}, nil, fmt.Errorf("position: %w", err)
		}
		held = &ss
	}
	if err := pv.inWallet(held.Holder, held.PositionOK, user, id); err != nil {
		return chain.V3Position{}, chain.EVMTradeState{}, nil, err
	}
	q := read(held.Position)
	q.Positions = append(q.Positions, chain.EVMPositionRead{Where: pv.where, Position: held.Position})
	st, nativeUSD, err := c.readPriced(ctx, q)
	if err != nil {
		return chain.V3Position{}, st, nil, fmt.Errorf("lp: %w", err)
	}
	ps := st.Positions[len(st.Positions)-1]
	if err := pv.inWallet(ps.Holder, ps.Position.Liquidity != nil, user, id); err != nil {
		return chain.V3Position{}, st, nil, err
	}
	if !ps.OK {
		return chain.V3Position{}, st, nil, fmt.Errorf("%w: position %s or its pool did not answer", chain.ErrUpstreamBadResponse, id)
	}
	return ps.Position, st, nativeUSD, nil
}

// inWallet checks that holder, position id's holder (exists: positions(id) answered), is user:
// ErrPrerequisite when the user does not hold it in its wallet.
func (pv positionVenue) inWallet(holder string, exists bool, user string, id *big.Int) error {
	switch {
	case holder == user && exists:
		return nil
	case holder != "" && holder == pv.where.Staker:
		return fmt.Errorf("%w: position %s is deposited in the staker %s: withdraw it first (lp/farm with action unstake, by its owner)",
			ErrPrerequisite, id, pv.where.Staker)
	}
	return fmt.Errorf("%w: %s does not hold position %s of %s (another address owns it, or it does not exist)",
		ErrPrerequisite, user, id, pv.cfg.PositionManager)
}

// lpRemovePosition is BuildLPRemove on a venue of NFT positions. See BuildLPRemove.
func (c *EVMChain) lpRemovePosition(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	pv, id, user, err := c.positionSetup(r)
	if err != nil {
		return Build{}, err
	}
	if r.Bps < 1 || r.Bps > bpsDenominator {
		return Build{}, fmt.Errorf("%w: bps must be 1 to 10000", ErrInvalid)
	}
	pos, st, nativeUSD, err := c.ownedPosition(ctx, pv, user, id, nil, func(chain.V3Position) chain.EVMTradeRead { return chain.EVMTradeRead{Owner: user} })
	if err != nil {
		return Build{}, err
	}
	fig, err := pv.PositionFigures(pos)
	if err != nil {
		return Build{}, fmt.Errorf("%w: position %s: %v", ErrInvalid, id, err)
	}
	liq := new(big.Int).Mul(pos.Liquidity, big.NewInt(int64(r.Bps)))
	liq.Quo(liq, bigBps)
	if liq.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: %d bps of position %s's liquidity %s is none: nothing to remove (lp/harvest collects what it is owed)",
			ErrPrerequisite, r.Bps, id, pos.Liquidity)
	}
	part := pos
	part.Liquidity = liq
	freed, err := pv.PositionFigures(part)
	if err != nil {
		return Build{}, fmt.Errorf("%w: position %s: %v", ErrInvalid, id, err)
	}
	mins := [2]*big.Int{chain.MinOut(freed.Amount0, r.SlippageBps), chain.MinOut(freed.Amount1, r.SlippageBps)}
	deadline := s.now().Add(RouterDeadline).Unix()
	rm := pv.RemoveCall(pv.cfg, id, liq, mins[0], mins[1], user, deadline)
	md := positionMetadata(pv, pos)
	md["deadline"], md["bps"], md["burned"], md["recipient"] = deadline, r.Bps, false, user
	md["liquidity"], md["liquidityBefore"], md["liquidityAfter"] = liq.String(), pos.Liquidity.String(), new(big.Int).Sub(pos.Liquidity, liq).String()
	md["amount0"], md["amount1"], md["minAmount0"], md["minAmount1"] = freed.Amount0.String(), freed.Amount1.String(), mins[0].String(), mins[1].String()
	md["fees0"], md["fees1"] = fig.Fees0.String(), fig.Fees1.String()
	md["collect0"], md["collect1"] = new(big.Int).Add(freed.Amount0, fig.Fees0).String(), new(big.Int).Add(freed.Amount1, fig.Fees1).String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep("decreaseLiquidityAndCollect", rm)})
}

// lpHarvestFees is BuildLPHarvest of the fees of a position in the user's wallet (see
// BuildLPHarvest), held the position's first read when made (nil: not yet).
func (c *EVMChain) lpHarvestFees(ctx context.Context, s *Service, consumerID int, r LPRequest, held *chain.V3StakerState) (Build, error) {
	pv, id, user, err := c.positionSetup(r)
	if err != nil {
		return Build{}, err
	}
	pos, st, nativeUSD, err := c.ownedPosition(ctx, pv, user, id, held, func(chain.V3Position) chain.EVMTradeRead { return chain.EVMTradeRead{Owner: user} })
	if err != nil {
		return Build{}, err
	}
	fig, err := pv.PositionFigures(pos)
	if err != nil {
		return Build{}, fmt.Errorf("%w: position %s: %v", ErrInvalid, id, err)
	}
	if fig.Fees0.Sign() == 0 && fig.Fees1.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: position %s has no fees to collect yet", ErrPrerequisite, id)
	}
	collect := pv.CollectCall(pv.cfg, id, user)
	md := positionMetadata(pv, pos)
	md["fees0"], md["fees1"], md["liquidity"], md["recipient"] = fig.Fees0.String(), fig.Fees1.String(), pos.Liquidity.String(), user
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep("collect", collect)})
}
