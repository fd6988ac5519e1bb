package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// BuildLPCompound builds, as one ordered list simulated in order (each call in its own block, seeing
// the earlier ones' effects), the compounding of the pool's farm rewards into more staked LP:
//
//  1. getReward: claims everything earned (at least metadata.reward, the amount earned at the read
//     block, which the later calls use; what more accrues by execution stays in the wallet);
//  2. approveReward: an exact approve of the router for the reward the swaps (and, when the reward
//     token is one of the pool's, the add) spend; left out when the allowance suffices;
//  3. swapToken0, swapToken1: the reward swapped through the venue's router (best of the direct
//     pool and two-hop routes through the wrapped native token and the stablecoins), half into
//     each of the pool's tokens, or, when the reward token is one of them, one swap into the
//     other of the share that balances a single-sided deposit through the pool (the rest is
//     kept); minimums slippageBps below;
//  4. approveToken0, approveToken1 (for the pool's tokens that are not the reward), addLiquidity
//     of what the swaps give, at the pool's ratio after them (as lp/add: exact desired amounts and
//     approvals, minimums slippageBps below; metadata.leftover0/leftover1 stay in the wallet);
//  5. approveLP and stake of the LP minted (metadata.lpAmount).
//
// The swaps and the deposit are computed in order on the reserves read, each seeing the effects
// of the earlier ones (a swap route may cross the pool itself). Errors: ErrNotFound (not a pair, or
// no farm for it), ErrNoRoute (no pool path from the reward token), ErrPrerequisite (nothing earned,
// or too little to compound), *SimulationError, and the adapter's and the store's. On a venue of
// NFT positions it compounds a position's fees into it (lpCompoundPosition, v3compound.go).
func (s *Service) BuildLPCompound(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpCompound(ctx, s, consumerID, r)
}

// lpCompound is BuildLPCompound on an EVM chain.
func (c *EVMChain) lpCompound(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if _, ok := c.positionVenue(r.Venue); ok {
		return c.lpCompoundPosition(ctx, s, consumerID, r)
	}
	v, user, pool, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	p, farm, err := c.pairOf(ctx, v, pool, true)
	if err != nil {
		return Build{}, err
	}
	// The reward token, to know the routes to read.
	first, err := c.Source.ReadTrade(ctx, chain.EVMTradeRead{Owner: user, Farms: []string{farm}})
	if err != nil {
		return Build{}, fmt.Errorf("farm: %w", err)
	}
	if f := first.Farms[0]; !f.OK || f.StakingToken != pool {
		return Build{}, fmt.Errorf("%w: the staking rewards factory names %s as the farm of %s, but it does not stake that pool", ErrInvalid, farm, pool)
	} else if f.Earned.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: nothing earned yet in the farm %s of pool %s", ErrPrerequisite, farm, pool)
	}
	reward := first.Farms[0].RewardToken
	tokens := [2]string{p.Token0, p.Token1}
	kept := slices.Index(tokens[:], reward) // the pool's token that is the reward, or -1
	var routes [][]leg
	for i, t := range tokens {
		if i == kept {
			continue
		}
		rs, err := c.candidateRoutes(reward, t)
		if err != nil {
			return Build{}, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		routes = append(routes, onVenue(rs, v.Spec().Name)...)
	}
	read := chain.EVMTradeRead{Pairs: []string{pool}, Owner: user, Farms: []string{farm}, Decimals: []string{reward},
		Allowances: []chain.EVMAllowance{{Token: reward, Spender: v.cfg.Router}, {Token: p.Token0, Spender: v.cfg.Router}, {Token: p.Token1, Spender: v.cfg.Router},
			{Token: pool, Spender: farm}}}
	for _, route := range routes {
		for _, l := range route {
			if !slices.Contains(read.Pairs, l.pool.Address) {
				read.Pairs = append(read.Pairs, l.pool.Address)
			}
		}
	}
	f, st, nativeUSD, err := c.readFarm(ctx, pool, farm, read)
	if err != nil {
		return Build{}, err
	}
	if p = st.Pairs[0]; !p.OK || p.TotalSupply.Sign() == 0 || p.Reserve0.Sign() == 0 || p.Reserve1.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: pool %s has no liquidity to compound into", ErrPrerequisite, pool)
	}
	earned := f.Earned
	if earned.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: nothing earned yet in the farm %s of pool %s", ErrPrerequisite, farm, pool)
	}
	m := newReserveModel(st.Pairs)

	// What to swap into each pool token: half each, or the single-sided share into the other one.
	var swapIn [2]*big.Int
	got := [2]*big.Int{new(big.Int), new(big.Int)}
	if kept >= 0 {
		other := 1 - kept
		rk := []*big.Int{p.Reserve0, p.Reserve1}[kept]
		swapIn[other] = v.ZapSwapAmount(earned, rk, v.cfg.FeeBps)
		got[kept] = new(big.Int).Sub(earned, swapIn[other])
	} else {
		swapIn[0] = new(big.Int).Rsh(earned, 1)
		swapIn[1] = new(big.Int).Sub(earned, swapIn[0])
	}
	deadline := s.now().Add(RouterDeadline).Unix()
	var swaps []step
	var venueFees []Fee
	var swapMeta []map[string]any
	spentReward := new(big.Int)
	for i, t := range tokens {
		if swapIn[i] == nil {
			continue
		}
		best, err := m.best(c, v, reward, t, swapIn[i])
		if err != nil {
			return Build{}, err
		}
		m.apply(best)
		out := last(best.amounts)
		got[i].Set(out)
		minOut := chain.MinOut(out, r.SlippageBps)
		path := []string{reward}
		for _, l := range best.legs {
			path = append(path, l.tokenOut)
		}
		pools := make([]chain.EVMSwapPool, len(best.legs))
		for j, l := range best.legs {
			pools[j] = l.pool
		}
		swaps = append(swaps, callStep(fmt.Sprintf("swapToken%d", i), v.SwapCall(v.cfg, chain.EVMSwapRoute{Pools: pools, Path: path,
			AmountIn: swapIn[i], MinOut: minOut, Recipient: user, Deadline: deadline})))
		spentReward.Add(spentReward, swapIn[i])
		for j, l := range best.legs {
			decimals := st.Decimals[0] // the reward's; a later leg's input is the wrapped native token or a stablecoin
			if l.tokenIn != reward {
				decimals = c.hopDecimals(l.tokenIn)
			}
			fee := newFee("venue", l.tokenIn, new(big.Int).Div(new(big.Int).Mul(best.amounts[j], big.NewInt(int64(l.pool.FeeBps()))), bigBps), decimals)
			fee.Venue, fee.Pool, fee.FeeBps = l.pool.Venue, l.pool.Address, l.pool.FeeBps()
			venueFees = append(venueFees, fee)
		}
		swapMeta = append(swapMeta, map[string]any{"id": fmt.Sprintf("swapToken%d", i), "tokenIn": reward, "tokenOut": t, "amountIn": swapIn[i].String(),
			"amountOut": out.String(), "minOutAmount": minOut.String(), "path": path})
	}
	after := m.pool(pool)
	d, err := v.Deposit(after, got, 0)
	used, lp := d.Amounts, d.LP
	if errors.Is(err, ErrInvalidAmount) {
		return Build{}, fmt.Errorf("%w: the %s earned is too little to compound: %v", ErrPrerequisite, earned, err)
	} else if err != nil {
		return Build{}, err
	}
	mins := [2]*big.Int{chain.MinOut(used[0], r.SlippageBps), chain.MinOut(used[1], r.SlippageBps)}
	if kept >= 0 {
		spentReward.Add(spentReward, used[kept])
	}

	steps := []step{callStep("getReward", v.ClaimCall(farm))}
	if spentReward.Sign() > 0 {
		if a := approval(reward, user, v.cfg.Router, st.Allowances[0], spentReward); a != nil {
			a.id = "approveReward"
			steps = append(steps, *a)
		}
	}
	steps = append(steps, swaps...)
	for i, t := range tokens {
		if i == kept {
			continue
		}
		if a := approval(t, user, v.cfg.Router, st.Allowances[1+i], used[i]); a != nil {
			a.id = fmt.Sprintf("approveToken%d", i)
			steps = append(steps, *a)
		}
	}
	steps = append(steps, callStep("addLiquidity", v.AddLiquidityCall(v.cfg, chain.PairLiquidity{Token0: p.Token0, Token1: p.Token1,
		Amounts: used, Mins: mins, Native: -1, Recipient: user, Deadline: deadline})))
	if a := approval(pool, user, farm, st.Allowances[3], lp); a != nil {
		a.id = "approveLP"
		steps = append(steps, *a)
	}
	steps = append(steps, callStep("stake", v.StakeCall(farm, lp)))

	md := lpMetadata(v, pool, p)
	md["router"], md["deadline"], md["farm"], md["rewardToken"], md["reward"] = v.cfg.Router, deadline, farm, reward, earned.String()
	md["swaps"] = swapMeta
	md["amount0"], md["amount1"], md["minAmount0"], md["minAmount1"] = used[0].String(), used[1].String(), mins[0].String(), mins[1].String()
	md["leftover0"], md["leftover1"] = new(big.Int).Sub(got[0], used[0]).String(), new(big.Int).Sub(got[1], used[1]).String()
	md["lpAmount"], md["staked"] = lp.String(), f.Staked.String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, venueFees: venueFees, metadata: md}, steps)
}

// onVenue keeps the routes wholly on the named venue (a router routes through its own factory's pairs).
func onVenue(routes [][]leg, venue string) [][]leg {
	var out [][]leg
	for _, r := range routes {
		if !slices.ContainsFunc(r, func(l leg) bool { return l.pool.Venue != venue }) {
			out = append(out, r)
		}
	}
	return out
}

// reserveModel is the reserves of the pairs a build read, updated by the swaps it builds, so each
// later call is computed on the state the earlier ones leave.
type reserveModel map[string]*chain.PairState

func newReserveModel(pairs []chain.PairState) reserveModel {
	m := reserveModel{}
	for _, p := range pairs {
		if p.OK {
			q := p
			q.Reserve0, q.Reserve1 = new(big.Int).Set(p.Reserve0), new(big.Int).Set(p.Reserve1)
			m[p.Address] = &q
		}
	}
	return m
}

// pool is a pair's state in the model (the zero state for a pair not read).
func (m reserveModel) pool(addr string) chain.PairState {
	if p := m[addr]; p != nil {
		return *p
	}
	return chain.PairState{Address: addr, Reserve0: new(big.Int), Reserve1: new(big.Int), TotalSupply: new(big.Int)}
}

// best prices amount of in for out on every candidate route of the venue, on the model's reserves,
// and returns the route that gives the most.
func (m reserveModel) best(c *EVMChain, v pairVenue, in, out string, amount *big.Int) (priced, error) {
	routes, err := c.candidateRoutes(in, out)
	if err != nil {
		return priced{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	var best *priced
	live := false
	for _, r := range onVenue(routes, v.Spec().Name) {
		pr := priced{legs: r}
		ok := true
		for _, l := range r {
			p := m[l.pool.Address]
			if p == nil {
				ok = false
				break
			}
			hop, isLive := v.Hop(l.pool, chain.EVMPoolState{Pair: p}, l.tokenIn)
			if !isLive {
				ok = false
				break
			}
			pr.hops = append(pr.hops, hop)
		}
		if !ok {
			continue
		}
		live = true
		if pr.amounts, err = routeAmounts(amount, pr.hops); err != nil {
			continue
		}
		if best == nil || last(pr.amounts).Cmp(last(best.amounts)) > 0 {
			best = &pr
		}
	}
	switch {
	case !live:
		return priced{}, fmt.Errorf("%w: no pool path from the reward token %s to %s on %s", ErrNoRoute, in, out, c.Info.Name)
	case best == nil:
		return priced{}, fmt.Errorf("%w: the reward to compound (%s base units of %s into %s) is too little to buy anything", ErrPrerequisite, amount, in, out)
	}
	return *best, nil
}

// apply moves a priced route's amounts through the model's reserves.
func (m reserveModel) apply(pr priced) {
	for i, l := range pr.legs {
		p := m[l.pool.Address]
		in, out := p.Reserve0, p.Reserve1
		if p.Token0 != l.tokenIn {
			in, out = out, in
		}
		in.Add(in, pr.amounts[i])
		out.Sub(out, pr.amounts[i+1])
	}
}
