package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// Farms of venues of pairs: stake and unstake a pool's LP tokens in its farm (lp/farm) and claim
// what it earned (lp/harvest); see lp.go for what every LP build shares.

// readFarm makes a build's read, whose first farm is the pool's, and checks that the farm stakes
// the pool's LP token.
func (c *EVMChain) readFarm(ctx context.Context, pool, farm string, read chain.EVMTradeRead) (chain.EVMFarmState, chain.EVMTradeState, *big.Rat, error) {
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return chain.EVMFarmState{}, st, nil, fmt.Errorf("farm: %w", err)
	}
	f := st.Farms[0]
	if !f.OK || f.StakingToken != pool {
		return f, st, nil, fmt.Errorf("%w: the staking rewards factory names %s as the farm of %s, but it does not stake that pool", ErrInvalid, farm, pool)
	}
	return f, st, nativeUSD, nil
}

// BuildLPFarm builds a stake of the pool's LP tokens in its farm: an exact approve of the farm,
// then the venue's stake (Uniswap V2's StakingRewards: stake(amount)). Amount is human LP units,
// or "" for the whole LP balance. With Unstake it builds withdraw(amount) instead, of Amount or of
// the whole stake; the rewards stay in the farm (lp/harvest claims them). metadata: farm, action
// (stake or unstake), lpAmount, staked (before the build), earned and rewardToken. Errors:
// ErrNotFound (not a pair, or no farm for it), ErrInvalidAmount, ErrPrerequisite (nothing to stake
// or unstake, or less than Amount), *SimulationError, and the adapter's and the store's. On a
// venue of NFT positions it stakes or unstakes a position in the staker (lpFarmPosition, v3farm.go).
func (s *Service) BuildLPFarm(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpFarm(ctx, s, consumerID, r)
}

// lpFarm is BuildLPFarm on an EVM chain.
func (c *EVMChain) lpFarm(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if _, ok := c.positionVenue(r.Venue); ok {
		return c.lpFarmPosition(ctx, s, consumerID, r)
	}
	v, user, pool, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	p, farm, err := c.pairOf(ctx, v, pool, true)
	if err != nil {
		return Build{}, err
	}
	read := chain.EVMTradeRead{Owner: user, Farms: []string{farm}}
	if !r.Unstake {
		read.Balances, read.Allowances = []string{pool}, []chain.EVMAllowance{{Token: pool, Spender: farm}}
	}
	f, st, nativeUSD, err := c.readFarm(ctx, pool, farm, read)
	if err != nil {
		return Build{}, err
	}
	have, action := f.Staked, "unstake"
	if !r.Unstake {
		have, action = st.Balances[0], "stake"
	}
	if have == nil {
		have = new(big.Int)
	}
	amount := have
	if r.Amount != "" {
		if amount, err = chain.HumanToBaseUnits(r.Amount, v.LPDecimals()); errors.Is(err, chain.ErrInvalidAmount) {
			return Build{}, fmt.Errorf("amount of LP: %w", err)
		} else if err != nil {
			return Build{}, err
		}
	}
	switch {
	case have.Sign() == 0 && r.Unstake:
		return Build{}, fmt.Errorf("%w: %s has nothing staked in the farm %s of pool %s", ErrPrerequisite, user, farm, pool)
	case have.Sign() == 0:
		return Build{}, fmt.Errorf("%w: %s holds no LP tokens of pool %s to stake", ErrPrerequisite, user, pool)
	case have.Cmp(amount) < 0 && r.Unstake:
		return Build{}, fmt.Errorf("%w: %s LP staked, %s asked to unstake", ErrPrerequisite, market.Units(have, v.LPDecimals()), r.Amount)
	case have.Cmp(amount) < 0:
		return Build{}, insufficient("LP of "+pool, have, amount, v.LPDecimals())
	}
	var steps []step
	if r.Unstake {
		steps = []step{callStep("withdraw", v.UnstakeCall(farm, amount))}
	} else {
		if a := approval(pool, user, farm, st.Allowances[0], amount); a != nil {
			a.id = "approveLP"
			steps = append(steps, *a)
		}
		steps = append(steps, callStep("stake", v.StakeCall(farm, amount)))
	}
	md := lpMetadata(v, pool, p)
	md["farm"], md["action"], md["lpAmount"], md["staked"] = farm, action, amount.String(), f.Staked.String()
	md["rewardToken"], md["earned"] = f.RewardToken, f.Earned.String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// BuildLPHarvest builds getReward() on the pool's farm: it pays everything earned when it runs, at
// least metadata.earned (the rewards earned at the read block, base units of rewardToken).
// Errors: ErrNotFound (not a pair, or no farm for it), ErrPrerequisite (nothing earned),
// *SimulationError, and the adapter's and the store's. On a venue of NFT positions
// (v3position.go) it collects everything the position PositionID is owed to the user, which must
// hold it: metadata.fees0 and fees1, its fees at the read block, exactly what the collect pays when
// nothing trades in between (ErrPrerequisite when both are zero); a position the user deposited in
// the staker has its staker rewards harvested (lpHarvestPosition, v3farm.go).
func (s *Service) BuildLPHarvest(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpHarvest(ctx, s, consumerID, r)
}

// lpHarvest is BuildLPHarvest on an EVM chain.
func (c *EVMChain) lpHarvest(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if _, ok := c.positionVenue(r.Venue); ok {
		return c.lpHarvestPosition(ctx, s, consumerID, r)
	}
	v, user, pool, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	p, farm, err := c.pairOf(ctx, v, pool, true)
	if err != nil {
		return Build{}, err
	}
	f, st, nativeUSD, err := c.readFarm(ctx, pool, farm, chain.EVMTradeRead{Owner: user, Farms: []string{farm}})
	if err != nil {
		return Build{}, err
	}
	if f.Earned.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: nothing earned yet in the farm %s of pool %s", ErrPrerequisite, f.Address, pool)
	}
	md := lpMetadata(v, pool, p)
	md["farm"], md["rewardToken"], md["earned"], md["staked"] = f.Address, f.RewardToken, f.Earned.String(), f.Staked.String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep("getReward", v.ClaimCall(f.Address))})
}
