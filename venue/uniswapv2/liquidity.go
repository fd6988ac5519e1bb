package uniswapv2

import (
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// The venue's liquidity (chain.PairLiquidityVenue): Router02's addLiquidity and removeLiquidity
// (their ETH variants for a side in the gas coin), the factory's createPair, and the exact amounts
// the router and the pair compute for them.

var _ chain.PairLiquidityVenue = Venue{}

// lpDecimals is the decimals of every Uniswap V2 LP token.
const lpDecimals = 18

// minimumLiquidity is the LP a pair's first mint locks forever (UniswapV2Pair.MINIMUM_LIQUIDITY).
var minimumLiquidity = big.NewInt(1000)

// LPDecimals is 18.
func (Venue) LPDecimals() int { return lpDecimals }

// PairAddress is the pair of a and b on cfg's factory, derived with its initCodeHash.
func (Venue) PairAddress(cfg chain.VenueConfig, a, b string) (string, error) {
	return chain.UniswapV2PairAddress(cfg.Factory, cfg.InitCodeHash, a, b)
}

// CreatePairCall is the factory's createPair(a, b).
func (Venue) CreatePairCall(cfg chain.VenueConfig, a, b string) chain.EVMCall {
	return chain.EVMCall{To: cfg.Factory, Data: chain.EVMCalldata("createPair(address,address)", a, b)}
}

// Deposit is what Router02 takes of desired amounts at the pair's reserves (routerAmounts) and the
// LP the pair mints for them (Mint).
func (Venue) Deposit(p chain.PairState, desired [2]*big.Int, first int) (chain.PairDeposit, error) {
	amounts := routerAmounts(desired, p, first)
	lp, err := Mint(amounts, p)
	return chain.PairDeposit{Amounts: amounts, LP: lp}, err
}

// routerAmounts is what Router02 takes of desired amounts at the pair's reserves, as amounts it
// takes whole when they are the desired ones: the second pass of its _addLiquidity is the fixed
// point of the first, so a build that asks for exactly these spends them all at the read state.
// first is the index of the call's first token, in whose order the router computes.
func routerAmounts(desired [2]*big.Int, p chain.PairState, first int) [2]*big.Int {
	a, b, ra, rb := desired[0], desired[1], p.Reserve0, p.Reserve1
	if first == 1 {
		a, b, ra, rb = b, a, rb, ra
	}
	a, b = routerAdd(a, b, ra, rb)
	a, b = routerAdd(a, b, ra, rb)
	if first == 1 {
		a, b = b, a
	}
	return [2]*big.Int{a, b}
}

// routerQuote is UniswapV2Library.quote: amountA * reserveB / reserveA, rounded down.
func routerQuote(amountA, reserveA, reserveB *big.Int) *big.Int {
	q := new(big.Int).Mul(amountA, reserveB)
	return q.Quo(q, reserveA)
}

// routerAdd is what Router02's _addLiquidity takes of desired amounts (in the order of the call's
// tokens) at the pool's reserves (in the same order): both into an empty pool, else the desired
// amount of A with B at the pool's ratio when that fits in B's desired amount, or the other way.
func routerAdd(a, b, ra, rb *big.Int) (*big.Int, *big.Int) {
	if ra.Sign() == 0 && rb.Sign() == 0 {
		return a, b
	}
	if bOpt := routerQuote(a, ra, rb); bOpt.Cmp(b) <= 0 {
		return a, bOpt
	}
	return routerQuote(b, rb, ra), b
}

// Mint is the LP the pair mints for amounts at its state, as UniswapV2Pair.mint computes it without
// a protocol fee (the venue's feeTo is not read): sqrt(amount0*amount1) - 1000 into a pool without
// supply, else min(amount0*supply/reserve0, amount1*supply/reserve1). Nothing minted is
// chain.ErrInvalidAmount (the pair reverts INSUFFICIENT_LIQUIDITY_MINTED).
func Mint(amounts [2]*big.Int, p chain.PairState) (*big.Int, error) {
	var lp *big.Int
	switch {
	case p.TotalSupply.Sign() == 0:
		lp = new(big.Int).Sqrt(new(big.Int).Mul(amounts[0], amounts[1]))
		lp.Sub(lp, minimumLiquidity)
	case p.Reserve0.Sign() == 0 || p.Reserve1.Sign() == 0:
		return nil, fmt.Errorf("%w: pool %s has LP supply but an empty reserve: it cannot take liquidity", chain.ErrInvalidRequest, p.Address)
	default:
		l0 := new(big.Int).Mul(amounts[0], p.TotalSupply)
		l0.Quo(l0, p.Reserve0)
		l1 := new(big.Int).Mul(amounts[1], p.TotalSupply)
		l1.Quo(l1, p.Reserve1)
		lp = l0
		if l1.Cmp(l0) < 0 {
			lp = l1
		}
	}
	if lp.Sign() <= 0 {
		if p.TotalSupply.Sign() == 0 {
			return nil, fmt.Errorf("%w: too little to seed the pool: the first deposit must mint more than the %s LP base units the pair locks (sqrt(amount0*amount1) > 1000)", chain.ErrInvalidAmount, minimumLiquidity)
		}
		return nil, fmt.Errorf("%w: too little to mint any LP at the pool's current ratio", chain.ErrInvalidAmount)
	}
	return lp, nil
}

// Withdrawal is the pair's burn of lp: lp*reserve/supply of each token, rounded down.
func (Venue) Withdrawal(p chain.PairState, lp *big.Int) [2]*big.Int {
	var out [2]*big.Int
	for i, reserve := range []*big.Int{p.Reserve0, p.Reserve1} {
		out[i] = new(big.Int).Mul(lp, reserve)
		out[i].Quo(out[i], p.TotalSupply)
	}
	return out
}

// ZapSwapAmount is the share s of amount (of a pool token with reserve r) to swap through the pool
// for the other token so that what is left and what the swap gives are at the pool's ratio after
// it: the positive root of g*s^2 + (1+g)*r*s - r*amount = 0 with g = 1 - fee, i.e. with fee F in
// basis points and a = 10000 - F,
//
//	s = (sqrt(((20000-F)*r)^2 + 4*a*10000*r*amount) - (20000-F)*r) / (2*a)
//
// rounded down (for the 0.3 % fee: (sqrt(r*(r*3988009 + amount*3988000)) - r*1997) / 1994). Half
// the amount when that is not in (0, amount).
func (Venue) ZapSwapAmount(amount, r *big.Int, feeBps int) *big.Int {
	a := big.NewInt(int64(FeeDenominator - feeBps))
	b := new(big.Int).Mul(big.NewInt(int64(2*FeeDenominator-feeBps)), r)
	disc := new(big.Int).Mul(b, b)
	t := new(big.Int).Mul(a, big.NewInt(4*FeeDenominator))
	t.Mul(t, r).Mul(t, amount)
	disc.Add(disc, t)
	s := new(big.Int).Sqrt(disc)
	s.Sub(s, b).Quo(s, new(big.Int).Mul(a, big.NewInt(2)))
	if s.Sign() <= 0 || s.Cmp(amount) >= 0 {
		return new(big.Int).Rsh(amount, 1)
	}
	return s
}

// AddLiquidityCall is Router02's addLiquidity(token0, token1, ...), or addLiquidityETH(token, ...)
// with the native side's amount as the call's value.
func (Venue) AddLiquidityCall(cfg chain.VenueConfig, d chain.PairLiquidity) chain.EVMCall {
	dl := big.NewInt(d.Deadline)
	if w := d.Native; w >= 0 {
		t := 1 - w
		return chain.EVMCall{To: cfg.Router, Value: d.Amounts[w], Data: chain.EVMCalldata(
			"addLiquidityETH(address,uint256,uint256,uint256,address,uint256)",
			[]string{d.Token0, d.Token1}[t], d.Amounts[t], d.Mins[t], d.Mins[w], d.Recipient, dl)}
	}
	return chain.EVMCall{To: cfg.Router, Data: chain.EVMCalldata(
		"addLiquidity(address,address,uint256,uint256,uint256,uint256,address,uint256)",
		d.Token0, d.Token1, d.Amounts[0], d.Amounts[1], d.Mins[0], d.Mins[1], d.Recipient, dl)}
}

// RemoveLiquidityCall is Router02's removeLiquidity(token0, token1, ...), or
// removeLiquidityETH(token, ...) paying the native side in the gas coin.
func (Venue) RemoveLiquidityCall(cfg chain.VenueConfig, d chain.PairLiquidity) chain.EVMCall {
	dl := big.NewInt(d.Deadline)
	if w := d.Native; w >= 0 {
		t := 1 - w
		return chain.EVMCall{To: cfg.Router, Data: chain.EVMCalldata(
			"removeLiquidityETH(address,uint256,uint256,uint256,address,uint256)",
			[]string{d.Token0, d.Token1}[t], d.LP, d.Mins[t], d.Mins[w], d.Recipient, dl)}
	}
	return chain.EVMCall{To: cfg.Router, Data: chain.EVMCalldata(
		"removeLiquidity(address,address,uint256,uint256,uint256,address,uint256)",
		d.Token0, d.Token1, d.LP, d.Mins[0], d.Mins[1], d.Recipient, dl)}
}
