package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// LP builders on EVM venues of pairs (chain.PairLiquidityVenue: Uniswap V2): create a pair, add and
// remove liquidity through the venue's router, and stake, unstake, harvest and compound in the
// pool's farm (the farm of a pool is looked up in the venue's StakingRewardsFactory). Like the swap
// builds, every build approves exactly what the next call spends (no approve when the allowance
// already suffices), simulates its calls in order with eth_simulateV1, each in its own block after
// the latest (see finish), and gets a confirmation token. Amounts in metadata are integer
// base-unit strings; LP tokens have the venue's LPDecimals (18 on Uniswap V2). Metadata always
// names poolId (the pair) and, in token0/token1 order (the pair's own,
// sorted by address), the tokens and amounts concerned.

// DefaultLPSlippageBps is the slippage tolerance of LP builds that do not give one: 0.5 %.
const DefaultLPSlippageBps = 50

// LPRequest is an LP build on a venue of pairs, or on a venue of NFT positions (v3lp.go). Which
// fields an operation reads is said on its builder.
type LPRequest struct {
	Chain, Venue, User string
	Pool               string // the pair (every operation but create)
	TokenA, TokenB     string // create: the pair's tokens; add: optional, which tokens AmountA and AmountB are of
	AmountA, AmountB   string // add: human token units
	Bps                int    // remove: share of the LP balance, 1..10000
	Native             bool   // add, remove: the pool's wrapped native side is paid or received in the gas coin
	Amount             string // farm: human LP units; "" is all (all held to stake, all staked to unstake)
	Unstake            bool   // farm: withdraw instead of stake
	SlippageBps        int    // add, remove, compound
	FeeTier            int    // create on a Solana chain (raydium): the CPMM AmmConfig index; 0 (the default) is the 0.25 % tier
	// NFT positions (v3lp.go): PositionID is the position of increase, remove and harvest (decimal);
	// add takes its range as TickLower and TickUpper, or as PriceLower and PriceUpper (token units
	// of the pool's token1 per token0).
	PositionID             string
	TickLower, TickUpper   *int
	PriceLower, PriceUpper string
	// Price is create's initial price of a new pool of NFT positions (v3create.go): token units of
	// token1 per token0; "" when the pool exists.
	Price string
	// IncentiveID is the staker incentive lp/farm stakes an NFT position in (v3farm.go); "" is the
	// pool's only live one.
	IncentiveID string
}

// lpSetup resolves the chain, venue and addresses of a request.
func (c *EVMChain) lpSetup(r LPRequest) (pairVenue, string, string, error) {
	v, ok := c.pairVenue(r.Venue)
	if !ok {
		return pairVenue{}, "", "", fmt.Errorf("%w: %s LP builds are not served on %s; %s", ErrNotSupported, r.Venue, c.Info.Name, c.lpVenues())
	}
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return pairVenue{}, "", "", fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	return v, strings.ToLower(r.User), strings.ToLower(r.Pool), nil
}

// lpVenues says which venues serve LP builds on the chain.
func (c *EVMChain) lpVenues() string {
	if len(c.Pairs) == 0 {
		return "no venue is configured for them"
	}
	names := make([]string, len(c.Pairs))
	for i, v := range c.Pairs {
		names[i] = v.Spec().Name
	}
	return strings.Join(names, ", ") + " does"
}

// checkPool checks that a read pair is a live pair of the venue's factory: 404 when the address is
// not a pair, 400 when it is another factory's.
func (c *EVMChain) checkPool(v pairVenue, pool string, p chain.PairState) error {
	if !p.OK {
		return fmt.Errorf("%w: pool %s is not a %s pair on %s", ErrNotFound, pool, v.Spec().Name, c.Info.Name)
	}
	want, err := v.PairAddress(v.cfg, p.Token0, p.Token1)
	if err != nil || want != p.Address {
		return fmt.Errorf("%w: pool %s is not a pair of %s's factory %s", ErrInvalid, pool, v.Spec().Name, v.cfg.Factory)
	}
	return nil
}

// pairOf reads a pool (and, with farms, its farm in the venue's StakingRewardsFactory) without the
// owner's state: what a build must know before it knows what else to read.
func (c *EVMChain) pairOf(ctx context.Context, v pairVenue, pool string, farms bool) (chain.PairState, string, error) {
	read := chain.EVMTradeRead{Pairs: []string{pool}}
	if farms {
		if v.cfg.StakingRewardsFactory == "" {
			return chain.PairState{}, "", fmt.Errorf("%w: no farm for this pool: %s on %s has no staking rewards factory", ErrNotFound, v.Spec().Name, c.Info.Name)
		}
		read.FarmsOf = chain.EVMFarmLookup{Factory: v.cfg.StakingRewardsFactory, Pairs: []string{pool}}
	}
	st, err := c.Source.ReadTrade(ctx, read)
	if err != nil {
		return chain.PairState{}, "", fmt.Errorf("pool: %w", err)
	}
	if err := c.checkPool(v, pool, st.Pairs[0]); err != nil {
		return chain.PairState{}, "", err
	}
	farm := ""
	if farms {
		if farm = st.FarmsOf[0]; farm == "" {
			return chain.PairState{}, "", fmt.Errorf("%w: no farm for this pool (%s)", ErrNotFound, pool)
		}
	}
	return st.Pairs[0], farm, nil
}

// lpMetadata is the metadata every LP build carries.
func lpMetadata(v pairVenue, pool string, p chain.PairState) map[string]any {
	return map[string]any{"venue": v.Spec().Name, "poolId": pool, "token0": p.Token0, "token1": p.Token1}
}

// BuildLPCreate builds the venue factory's createPair(tokenA, tokenB) alone: no funding
// transaction. metadata.poolId is the pair's CREATE2 address and seeded false: wait for the
// receipt, then build lp/add, which seeds it. TokenA or TokenB may be Native (the wrapped native
// token). Errors: ErrInvalid (the same token twice, not an ERC-20, or the pool already exists),
// *SimulationError, and the adapter's and the store's.
// On a Solana chain it builds on the chain's liquidity venue (SolanaChain.lpCreate, trade/solana.go);
// on a venue of NFT positions, a pool with its first position (lpCreatePosition, v3create.go).
func (s *Service) BuildLPCreate(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpCreate(ctx, s, consumerID, r)
}

// lpCreate is BuildLPCreate on an EVM chain.
func (c *EVMChain) lpCreate(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if _, ok := c.positionVenue(r.Venue); ok {
		return c.lpCreatePosition(ctx, s, consumerID, r)
	}
	v, user, _, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	a, _ := c.token(r.TokenA)
	b, _ := c.token(r.TokenB)
	if a == b {
		return Build{}, fmt.Errorf("%w: tokenA and tokenB must be two different tokens", ErrInvalid)
	}
	pool, err := v.PairAddress(v.cfg, a, b)
	if err != nil {
		return Build{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	st, nativeUSD, err := c.readPriced(ctx, chain.EVMTradeRead{Pairs: []string{pool}, Owner: user, Decimals: []string{a, b}})
	if err != nil {
		return Build{}, fmt.Errorf("lp create: %w", err)
	}
	if st.Pairs[0].OK {
		return Build{}, fmt.Errorf("%w: pool already exists: %s, build lp/add", ErrInvalid, pool)
	}
	for i, t := range []string{r.TokenA, r.TokenB} {
		if st.Decimals[i] < 0 {
			return Build{}, fmt.Errorf("%w: %s is not an ERC-20 token on %s (decimals() does not answer)", ErrInvalid, t, c.Info.Name)
		}
	}
	t0, t1 := a, b
	if t0 > t1 {
		t0, t1 = t1, t0
	}
	md := lpMetadata(v, pool, chain.PairState{Token0: t0, Token1: t1})
	md["seeded"], md["factory"] = false, v.cfg.Factory
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md},
		[]step{callStep("createPair", v.CreatePairCall(v.cfg, a, b))})
}

// side is one token of a pool in a liquidity build.
type side struct {
	token    string
	native   bool // paid or received in the gas coin
	decimals int
	balance  *big.Int // nil for a native side (the native balance counts)
	allow    *big.Int
}

// BuildLPAdd builds the venue router's deposit into Pool (Uniswap V2: Router02's addLiquidity,
// addLiquidityETH with a native side).
// AmountA and AmountB are human token units of TokenA and TokenB, which default to the pool's
// token0 and token1; when given, they are the pool's two tokens in either order, and either may be
// Native for the pool's wrapped native side paid in the gas coin (Native true does the same without
// naming them). The router takes the largest amounts at the pool's current ratio within those
// (its _addLiquidity), and the build asks for exactly those: desired amounts, exact approvals of
// the router, and minimums slippageBps below them; what the ratio leaves of the request stays in
// the wallet (metadata.unused0/unused1). Into an empty pool the amounts set the price
// (metadata.seeded true). metadata.lpAmount is the LP the pair mints at the read state:
// min(amount0*supply/reserve0, amount1*supply/reserve1), or sqrt(amount0*amount1)-1000 into a pool
// without LP supply (no protocol fee counted: the venue's feeTo is not read). Errors: ErrNotFound
// (not a pair), ErrInvalid, ErrInvalidAmount (more decimals than the token has, or too small to mint
// LP), ErrPrerequisite (balance), *SimulationError, and the adapter's and the store's.
// On a Solana chain it builds on the chain's liquidity venue (SolanaChain.lpAdd, trade/solana.go).
// On a venue of NFT positions (v3lp.go) it mints a new position for the user in a range of Pool
// (TickLower and TickUpper, or PriceLower and PriceUpper converted to ticks rounded down; snapped
// outwards to the pool's tick spacing) with what the position manager takes of AmountA and AmountB
// at the pool's price: exact approvals of the position manager, minimums slippageBps below.
// metadata: tickLower, tickUpper, liquidity, amount0, amount1, their minimums, amount0Desired and
// amount1Desired (asked).
func (s *Service) BuildLPAdd(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpAdd(ctx, s, consumerID, r)
}

// lpAdd is BuildLPAdd on an EVM chain.
func (c *EVMChain) lpAdd(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if pv, ok := c.positionVenue(r.Venue); ok {
		return c.lpAddPosition(ctx, s, consumerID, r, pv)
	}
	v, user, pool, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	p, _, err := c.pairOf(ctx, v, pool, false)
	if err != nil {
		return Build{}, err
	}
	human := [2]string{r.AmountA, r.AmountB}
	native := r.Native
	if r.TokenA != "" || r.TokenB != "" {
		if r.TokenA == "" || r.TokenB == "" {
			return Build{}, fmt.Errorf("%w: give both tokenA and tokenB, or neither (then amountA is of token0 %s and amountB of token1 %s)", ErrInvalid, p.Token0, p.Token1)
		}
		ta, na := c.token(r.TokenA)
		tb, nb := c.token(r.TokenB)
		native = native || na || nb
		switch {
		case ta == p.Token0 && tb == p.Token1:
		case ta == p.Token1 && tb == p.Token0:
			human = [2]string{r.AmountB, r.AmountA}
		default:
			return Build{}, fmt.Errorf("%w: tokenA and tokenB must be the pool's tokens %s and %s", ErrInvalid, p.Token0, p.Token1)
		}
	}
	sides := [2]side{{token: p.Token0}, {token: p.Token1}}
	if native {
		if err := c.markNative(&sides, pool); err != nil {
			return Build{}, err
		}
	}
	read := chain.EVMTradeRead{Pairs: []string{pool}, Owner: user, Decimals: []string{p.Token0, p.Token1}}
	for _, sd := range sides {
		if !sd.native {
			read.Balances = append(read.Balances, sd.token)
			read.Allowances = append(read.Allowances, chain.EVMAllowance{Token: sd.token, Spender: v.cfg.Router})
		}
	}
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return Build{}, fmt.Errorf("lp add: %w", err)
	}
	if p = st.Pairs[0]; !p.OK {
		return Build{}, fmt.Errorf("%w: pool %s is not a %s pair on %s", ErrNotFound, pool, v.Spec().Name, c.Info.Name)
	}
	desired := [2]*big.Int{}
	k := 0
	for i := range sides {
		sd := &sides[i]
		if sd.decimals = st.Decimals[i]; sd.decimals < 0 {
			return Build{}, fmt.Errorf("%w: %s does not answer decimals(): is it an ERC-20?", ErrInvalid, sd.token)
		}
		if sd.native {
			sd.decimals = nativeDecimals
		} else {
			sd.balance, sd.allow = st.Balances[k], st.Allowances[k]
			k++
		}
		if desired[i], err = chain.HumanToBaseUnits(human[i], sd.decimals); errors.Is(err, chain.ErrInvalidAmount) {
			return Build{}, fmt.Errorf("amount of %s: %w", sd.token, err)
		} else if err != nil {
			return Build{}, err
		}
	}
	seeded := p.Reserve0.Sign() == 0 && p.Reserve1.Sign() == 0
	first := 0 // the router call's first token: token0, or for addLiquidityETH the token
	if w := nativeIndex(sides); w >= 0 {
		first = 1 - w
	}
	d, err := v.Deposit(p, desired, first)
	if err != nil {
		return Build{}, err
	}
	used, lp := d.Amounts, d.LP
	for i, sd := range sides {
		have := sd.balance
		if sd.native {
			have = st.Native
		}
		if have == nil || have.Cmp(used[i]) < 0 {
			what := sd.token
			if sd.native {
				what = c.Info.NativeToken
			}
			return Build{}, insufficient(what, have, used[i], sd.decimals)
		}
	}
	slip := r.SlippageBps
	mins := [2]*big.Int{chain.MinOut(used[0], slip), chain.MinOut(used[1], slip)}
	deadline := s.now().Add(RouterDeadline).Unix()
	var steps []step
	for i, sd := range sides {
		if sd.native {
			continue
		}
		if a := approval(sd.token, user, v.cfg.Router, sd.allow, used[i]); a != nil {
			a.id = fmt.Sprintf("approveToken%d", i)
			steps = append(steps, *a)
		}
	}
	add := callStep("addLiquidity", v.AddLiquidityCall(v.cfg, chain.PairLiquidity{Token0: p.Token0, Token1: p.Token1, Amounts: used,
		Mins: mins, Native: nativeIndex(sides), Recipient: user, Deadline: deadline}))
	steps = append(steps, add)
	md := lpMetadata(v, pool, p)
	md["router"], md["deadline"], md["seeded"], md["native"] = v.cfg.Router, deadline, seeded, nativeIndex(sides) >= 0
	md["amount0"], md["amount1"], md["minAmount0"], md["minAmount1"] = used[0].String(), used[1].String(), mins[0].String(), mins[1].String()
	md["unused0"], md["unused1"] = new(big.Int).Sub(desired[0], used[0]).String(), new(big.Int).Sub(desired[1], used[1]).String()
	md["lpAmount"] = lp.String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}

// markNative marks the pool's wrapped native side as paid or received in the gas coin.
func (c *EVMChain) markNative(sides *[2]side, pool string) error {
	for i := range sides {
		if sides[i].token == c.WrappedNative {
			sides[i].native = true
			return nil
		}
	}
	return fmt.Errorf("%w: native: pool %s has no wrapped native side (%s)", ErrInvalid, pool, c.WrappedNative)
}

func nativeIndex(sides [2]side) int {
	for i, sd := range sides {
		if sd.native {
			return i
		}
	}
	return -1
}

// BuildLPRemove builds the venue router's withdrawal (Uniswap V2: Router02's removeLiquidity,
// removeLiquidityETH with Native: the pool's wrapped native side comes out in the gas coin) of Bps basis points of the user's LP balance
// (rounded down): an exact approve of the router for that LP, then the removal with minimums
// slippageBps below the pro-rata amounts (liquidity*reserve/supply). metadata: lpAmount (burned),
// amount0/amount1 (expected), minAmount0/minAmount1. Errors: ErrNotFound (not a pair), ErrInvalid,
// ErrInvalidAmount (the share rounds to nothing), ErrPrerequisite (no LP held), *SimulationError,
// and the adapter's and the store's.
// On a Solana chain it builds on the chain's liquidity venue (SolanaChain.lpRemove, trade/solana.go).
// On a venue of NFT positions (v3position.go) it removes Bps of the liquidity of the position
// PositionID (rounded down), which the user must hold, and collects everything that frees and every
// fee owed to the user, in one position manager multicall; the NFT is never burned, even at 10000
// (it keeps the position's history). metadata: liquidity (removed), liquidityBefore,
// liquidityAfter, amount0, amount1 (what the pool's burn pays, rounded down), their minimums,
// fees0, fees1 (owed before), collect0 and collect1 (amounts plus fees: what the collect pays),
// burned false.
func (s *Service) BuildLPRemove(ctx context.Context, consumerID int, r LPRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.lpRemove(ctx, s, consumerID, r)
}

// lpRemove is BuildLPRemove on an EVM chain.
func (c *EVMChain) lpRemove(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	if _, ok := c.positionVenue(r.Venue); ok {
		return c.lpRemovePosition(ctx, s, consumerID, r)
	}
	v, user, pool, err := c.lpSetup(r)
	if err != nil {
		return Build{}, err
	}
	if r.Bps < 1 || r.Bps > bpsDenominator {
		return Build{}, fmt.Errorf("%w: bps must be 1 to 10000", ErrInvalid)
	}
	st, nativeUSD, err := c.readPriced(ctx, chain.EVMTradeRead{Pairs: []string{pool}, Owner: user, Balances: []string{pool},
		Allowances: []chain.EVMAllowance{{Token: pool, Spender: v.cfg.Router}}})
	if err != nil {
		return Build{}, fmt.Errorf("lp remove: %w", err)
	}
	p := st.Pairs[0]
	if err := c.checkPool(v, pool, p); err != nil {
		return Build{}, err
	}
	sides := [2]side{{token: p.Token0}, {token: p.Token1}}
	if r.Native {
		if err := c.markNative(&sides, pool); err != nil {
			return Build{}, err
		}
	}
	held := st.Balances[0]
	if held == nil || held.Sign() == 0 {
		return Build{}, fmt.Errorf("%w: %s holds no LP tokens of pool %s", ErrPrerequisite, user, pool)
	}
	liq := new(big.Int).Mul(held, big.NewInt(int64(r.Bps)))
	liq.Quo(liq, bigBps)
	out := v.Withdrawal(p, liq)
	if liq.Sign() == 0 || out[0].Sign() == 0 || out[1].Sign() == 0 {
		return Build{}, fmt.Errorf("%w: %d bps of the %s LP base units held is too little to withdraw anything", ErrInvalidAmount, r.Bps, held)
	}
	mins := [2]*big.Int{chain.MinOut(out[0], r.SlippageBps), chain.MinOut(out[1], r.SlippageBps)}
	deadline := s.now().Add(RouterDeadline).Unix()
	var steps []step
	if a := approval(pool, user, v.cfg.Router, st.Allowances[0], liq); a != nil {
		a.id = "approveLP"
		steps = append(steps, *a)
	}
	rm := callStep("removeLiquidity", v.RemoveLiquidityCall(v.cfg, chain.PairLiquidity{Token0: p.Token0, Token1: p.Token1, LP: liq,
		Mins: mins, Native: nativeIndex(sides), Recipient: user, Deadline: deadline}))
	steps = append(steps, rm)
	md := lpMetadata(v, pool, p)
	md["router"], md["deadline"], md["native"], md["bps"] = v.cfg.Router, deadline, nativeIndex(sides) >= 0, r.Bps
	md["lpAmount"], md["amount0"], md["amount1"] = liq.String(), out[0].String(), out[1].String()
	md["minAmount0"], md["minAmount1"] = mins[0].String(), mins[1].String()
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD, metadata: md}, steps)
}
