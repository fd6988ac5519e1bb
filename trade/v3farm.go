package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// Farm builds on NFT positions (chain.V3StakerVenue: uniswap-v3's UniswapV3Staker 1.0.2): lp/farm
// stakes a position held in the wallet for one incentive of its pool, or unstakes it from every
// incentive, claims its rewards and withdraws it; lp/harvest on a deposited position claims its
// rewards and stakes it again. The staker's incentives are found from its IncentiveCreated logs
// (chain.V3StakerReader), as it does not list them.
//
// The staker credits a stake's rewards to the owner only when it is unstaked; claimReward pays
// what it credited. Rewards in metadata (per reward token): owed, what the staker already owes
// the user, and earned, what the stakes have earned (getRewardInfo), both exact at the read block;
// claim, their sum, is what the claim pays if mined at that block's time. Mined later, it pays
// what the stakes have earned by then: usually more, as rewards accrue by the second while the
// position is in range, but possibly less (the staker spreads an incentive's unclaimed rewards over
// its unclaimed seconds, which keep growing while the position is out of range).

// stakerVenue is a venue of NFT positions with a staker configured.
type stakerVenue struct {
	positionVenue
	chain.V3StakerVenue
}

// stakedSetup checks a farm or staked harvest build: the venue, its staker and one position id.
func (c *EVMChain) stakedSetup(r LPRequest) (stakerVenue, *big.Int, string, chain.V3StakerReader, error) {
	pv, id, user, err := c.positionSetup(r)
	if err != nil {
		return stakerVenue{}, nil, "", nil, err
	}
	sv, ok := pv.V3LiquidityVenue.(chain.V3StakerVenue)
	reader, readable := c.Source.(chain.V3StakerReader)
	if !ok || !readable || pv.cfg.Staker == "" {
		return stakerVenue{}, nil, "", nil, fmt.Errorf("%w: %s positions are not farmed on %s: no staker is configured (chains.%s.venues.%s.staker)",
			ErrNotSupported, r.Venue, c.Info.Name, c.Info.Name, r.Venue)
	}
	return stakerVenue{pv, sv}, id, user, reader, nil
}

// lpFarmPosition is BuildLPFarm on a venue of NFT positions. Without Unstake, it deposits
// and stakes the position PositionID, which the user holds in its wallet, in an incentive of its
// pool: the incentive IncentiveID, or the pool's only live one; one position manager
// safeTransferFrom to the staker carrying the incentive's key (step stake; no approval needed).
// With Unstake, one staker multicall (step unstakeAndWithdraw) unstakes the position, deposited by
// the user, from every incentive it is staked in, claims everything the staker owes the user in
// their reward tokens and withdraws the NFT to the user. metadata: positionId, staker, action,
// liquidity, and incentiveId, rewardToken, startTime and endTime (stake) or rewards (unstake:
// see the file's comment). Errors: ErrNotSupported (no staker), ErrInvalid (several live
// incentives and no IncentiveID), ErrPrerequisite (not the user's position, in the wallet or
// deposited as the action needs; no liquidity; the incentive not of the position's pool, not
// started or ended; nothing to choose from), *SimulationError, and the adapter's and the store's.
func (c *EVMChain) lpFarmPosition(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	sv, id, user, reader, err := c.stakedSetup(r)
	if err != nil {
		return Build{}, err
	}
	ss, err := reader.V3Staker(ctx, chain.V3StakerRead{Where: sv.where, ID: id, Incentives: true})
	if err != nil {
		return Build{}, fmt.Errorf("staker: %w", err)
	}
	if err := sv.checkHolder(ss, user, id, r.Unstake); err != nil {
		return Build{}, err
	}
	read := chain.EVMTradeRead{Owner: user}
	if r.Unstake {
		read.Stakes = []chain.EVMStakesRead{sv.stakesRead(ss, user)}
	}
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return Build{}, fmt.Errorf("lp farm: %w", err)
	}
	md := stakerMetadata(sv, ss)
	var call chain.EVMCall
	stepID := "stake"
	if r.Unstake {
		staked, err := sv.stakedIn(ss, st, id)
		if err != nil {
			return Build{}, err
		}
		md["action"] = "unstake"
		rewardsMetadata(md, st, staked)
		call, stepID = sv.WithdrawCall(sv.cfg, id, incentivesOf(staked), user), "unstakeAndWithdraw"
	} else {
		if ss.Position.Liquidity.Sign() == 0 {
			return Build{}, fmt.Errorf("%w: position %s has no liquidity: the staker stakes none", ErrPrerequisite, id)
		}
		in, err := chooseIncentive(ss, r.IncentiveID, st.Time)
		if err != nil {
			return Build{}, err
		}
		md["action"], md["incentiveId"], md["rewardToken"], md["startTime"], md["endTime"] = "stake", in.ID, in.RewardToken, in.StartTime, in.EndTime
		call = sv.StakeCall(sv.cfg, user, id, in)
	}
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep(stepID, call)})
}

// lpHarvestPosition is BuildLPHarvest on a venue of NFT positions. A position the user holds
// in its wallet has its fees collected (lpHarvestFees, taking the staker read that found it there
// as its first read). A position the user deposited in the
// staker has its rewards harvested in one staker multicall (step harvestRewards): unstakeToken
// from every incentive it is staked in (which credits the stakes' rewards), claimReward of
// everything the staker owes the user in their reward tokens, and stakeToken in each again; the
// NFT stays deposited. Its fees are not collected: the staker holds the NFT, and only its owner can
// collect (unstake it first). metadata: positionId, staker, liquidity, rewards (see the file's
// comment), feesCollected false. Errors: as lpHarvestFees', and ErrPrerequisite (staked in
// no incentive, or nothing earned).
func (c *EVMChain) lpHarvestPosition(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	sv, id, user, reader, err := c.stakedSetup(r)
	if errors.Is(err, ErrNotSupported) {
		return c.lpHarvestFees(ctx, s, consumerID, r, nil) // no staker: fees only
	} else if err != nil {
		return Build{}, err
	}
	ss, err := reader.V3Staker(ctx, chain.V3StakerRead{Where: sv.where, ID: id})
	if err != nil {
		return Build{}, fmt.Errorf("staker: %w", err)
	}
	if ss.Holder != strings.ToLower(sv.cfg.Staker) {
		return c.lpHarvestFees(ctx, s, consumerID, r, &ss)
	}
	if err := sv.checkHolder(ss, user, id, true); err != nil {
		return Build{}, err
	}
	st, nativeUSD, err := c.readPriced(ctx, chain.EVMTradeRead{Owner: user, Stakes: []chain.EVMStakesRead{sv.stakesRead(ss, user)}})
	if err != nil {
		return Build{}, fmt.Errorf("lp harvest: %w", err)
	}
	staked, err := sv.stakedIn(ss, st, id)
	if err != nil {
		return Build{}, err
	}
	md := stakerMetadata(sv, ss)
	claim := rewardsMetadata(md, st, staked)
	if claim.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: position %s has earned no rewards yet in the staker %s", ErrPrerequisite, id, sv.cfg.Staker)
	}
	md["feesCollected"] = false
	call := sv.HarvestCall(sv.cfg, id, incentivesOf(staked), user)
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep("harvestRewards", call)})
}

// lpPositionChain returns the named chain when it is an EVM chain serving swaps and liquidity.
func (s *Service) lpPositionChain(name, op string) (*EVMChain, error) {
	c, err := s.swapChainOf(name)
	if err != nil {
		return nil, err
	}
	ec, ok := c.(*EVMChain)
	if !ok {
		return nil, fmt.Errorf("%w: %s on NFT-style positions is served on EVM chains (uniswap-v3), not on %s", ErrNotSupported, op, name)
	}
	return ec, nil
}

// checkHolder checks who holds position id: the user's wallet (deposited false) or the staker, on
// the user's deposit (deposited true).
func (sv stakerVenue) checkHolder(ss chain.V3StakerState, user string, id *big.Int, deposited bool) error {
	staker := strings.ToLower(sv.cfg.Staker)
	switch {
	case !ss.PositionOK || ss.Holder == "":
		return fmt.Errorf("%w: position %s of %s does not exist", ErrPrerequisite, id, sv.cfg.PositionManager)
	case ss.Holder == staker && ss.Depositor != user:
		return fmt.Errorf("%w: position %s is deposited in the staker %s by another address, not %s", ErrPrerequisite, id, staker, user)
	case ss.Holder != staker && ss.Holder != user:
		return fmt.Errorf("%w: %s does not hold position %s of %s (another address owns it)", ErrPrerequisite, user, id, sv.cfg.PositionManager)
	case deposited && ss.Holder == user:
		return fmt.Errorf("%w: position %s is in %s's wallet, not deposited in the staker %s: lp/farm with action stake deposits it",
			ErrPrerequisite, id, user, staker)
	case !deposited && ss.Holder == staker:
		return fmt.Errorf("%w: position %s is already deposited in the staker %s: lp/farm with action unstake withdraws it", ErrPrerequisite, id, staker)
	}
	return nil
}

// stakesRead reads the stakes of the position ss found in every incentive of its pool, and what
// the staker owes user.
func (sv stakerVenue) stakesRead(ss chain.V3StakerState, user string) chain.EVMStakesRead {
	return chain.EVMStakesRead{Staker: strings.ToLower(sv.cfg.Staker), ID: ss.Position.ID, Owner: user, Incentives: ss.Incentives}
}

// stakedIn is the incentives position id is staked in (read as st.Stakes[0]), checked against the
// staker's count of them in ss.
func (sv stakerVenue) stakedIn(ss chain.V3StakerState, st chain.EVMTradeState, id *big.Int) ([]chain.V3IncentiveStake, error) {
	if !st.Stakes[0].OK {
		return nil, fmt.Errorf("%w: the stakes of position %s in the staker %s did not answer", chain.ErrUpstreamBadResponse, id, sv.cfg.Staker)
	}
	var staked []chain.V3IncentiveStake
	for _, in := range st.Stakes[0].Incentives {
		if in.Liquidity.Sign() > 0 {
			staked = append(staked, in)
		}
	}
	if len(staked) != ss.Stakes {
		return nil, fmt.Errorf("%w: position %s is staked in %d incentives, of which %d were found in the staker's IncentiveCreated logs",
			chain.ErrUpstreamBadResponse, id, ss.Stakes, len(staked))
	}
	return staked, nil
}

// chooseIncentive is the incentive to stake in: the pool's incentive id (any when ""), which must
// be live at time now (started, not ended).
func chooseIncentive(ss chain.V3StakerState, id string, now uint64) (chain.V3Incentive, error) {
	pool := ss.Position.Pool
	live := func(in chain.V3Incentive) error {
		switch {
		case now < in.StartTime:
			return fmt.Errorf("%w: incentive %s of pool %s starts at %d, after the chain's time %d", ErrPrerequisite, in.ID, pool, in.StartTime, now)
		case now >= in.EndTime:
			return fmt.Errorf("%w: incentive %s of pool %s ended at %d", ErrPrerequisite, in.ID, pool, in.EndTime)
		}
		return nil
	}
	var ids, lives []string
	var found []chain.V3Incentive
	for _, in := range ss.Incentives {
		ids = append(ids, in.ID)
		if id != "" && strings.EqualFold(in.ID, id) {
			return in, live(in)
		}
		if live(in) == nil {
			lives, found = append(lives, in.ID), append(found, in)
		}
	}
	switch {
	case id != "":
		return chain.V3Incentive{}, fmt.Errorf("%w: %s is not an incentive of the position's pool %s (its incentives: %s)", ErrPrerequisite, id, pool,
			listOrNone(ids))
	case len(found) == 0:
		return chain.V3Incentive{}, fmt.Errorf("%w: the position's pool %s has no live incentive in the staker", ErrPrerequisite, pool)
	case len(found) > 1:
		return chain.V3Incentive{}, fmt.Errorf("%w: the position's pool %s has %d live incentives: give incentiveId, one of %s", ErrInvalid, pool,
			len(found), strings.Join(lives, ", "))
	}
	return found[0], nil
}

// stakerMetadata is the metadata of a build on a position in the staker.
func stakerMetadata(sv stakerVenue, ss chain.V3StakerState) map[string]any {
	p := ss.Position
	md := v3Metadata(sv.positionVenue, p.Pool, p.Token0, p.Token1)
	md["positionId"], md["fee"], md["tickLower"], md["tickUpper"] = p.ID.String(), p.Fee, p.TickLower, p.TickUpper
	md["liquidity"], md["staker"] = p.Liquidity.String(), strings.ToLower(sv.cfg.Staker)
	return md
}

// rewardsMetadata states in md the incentives the position is staked in and, per reward token,
// what the claim pays at st (see the file's comment), and returns the total of the claims.
func rewardsMetadata(md map[string]any, st chain.EVMTradeState, staked []chain.V3IncentiveStake) *big.Int {
	incentives := make([]map[string]any, len(staked))
	earned := map[string]*big.Int{}
	var tokens []string
	for i, in := range staked {
		incentives[i] = map[string]any{"incentiveId": in.ID, "rewardToken": in.RewardToken, "startTime": in.StartTime, "endTime": in.EndTime,
			"liquidity": in.Liquidity.String(), "earned": in.Reward.String()}
		if earned[in.RewardToken] == nil {
			earned[in.RewardToken] = new(big.Int)
			tokens = append(tokens, in.RewardToken)
		}
		earned[in.RewardToken].Add(earned[in.RewardToken], in.Reward)
	}
	slices.Sort(tokens)
	total := new(big.Int)
	rewards := make([]map[string]any, len(tokens))
	for i, t := range tokens {
		owed := st.Stakes[0].Owed[t]
		if owed == nil {
			owed = new(big.Int)
		}
		claim := new(big.Int).Add(owed, earned[t])
		total.Add(total, claim)
		rewards[i] = map[string]any{"token": t, "owed": owed.String(), "earned": earned[t].String(), "claim": claim.String()}
	}
	md["incentives"], md["rewards"], md["rewardsAtTime"] = incentives, rewards, st.Time
	return total
}

// incentivesOf is the keys of stakes.
func incentivesOf(stakes []chain.V3IncentiveStake) []chain.V3Incentive {
	out := make([]chain.V3Incentive, len(stakes))
	for i, s := range stakes {
		out[i] = s.V3Incentive
	}
	return out
}

// listOrNone is ids joined, or "none".
func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
