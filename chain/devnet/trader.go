package devnet

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// Sizes of the trader's moves, in parts per 100,000 of the pool's reserve on the paying side:
// small next to the liquidity, so prices move visibly but stay sane.
const (
	swapMinPPM, swapMaxPPM = 50, 800   // 0.05% to 0.8% per swap
	liqMinPPM, liqMaxPPM   = 200, 1000 // 0.2% to 1% per liquidity add
	ppmScale               = 100_000
)

// Sizes of the trader's moves on V3 pools, in parts per 100,000 of the in-range liquidity's virtual
// reserve on the paying side: about half the price move they make while the price stays within the
// in-range positions (0.05 % to 1.5 %), so that the narrow positions' ticks (about ±1 %) are
// crossed now and then. A swap stops at v3SwapLimitPPM of the square root price (a 3 % move):
// one that leaves a range for thinner liquidity beyond would otherwise move the price far.
const (
	v3SwapMinPPM, v3SwapMaxPPM = 25, 750
	v3SwapLimitPPM             = 1500
)

// ethGasReserve is native balance a trader keeps for gas when paying a swap in ETH.
var ethGasReserve = wholeUnits(1, 18)

// trader drives the background market: swaps through the router, ERC-20 transfers and liquidity
// adds and removes, signed by the trader accounts only. It lives in one goroutine.
type trader struct {
	l        *Local
	log      *slog.Logger
	rng      *rand.Rand
	accts    []*Account
	everyone []common.Address
	tokens   []common.Address // every ERC-20 of the market, core ones included
	pools    []traderPool
	v3Pools  []traderV3Pool
	router   common.Address
	router02 common.Address // SwapRouter02, for the V3 pools
	quoter   common.Address // QuoterV2
	weth     common.Address
}

// traderPool is a seeded pool seen as base/quote, with its price at seeding to revert towards.
type traderPool struct {
	SeededPool
	name        string
	base, quote common.Address // quote: the USD stablecoin when in the pool, else wrapped native
	p0          float64        // quote per base, raw units, after seeding
}

// traderV3Pool is a seeded V3 pool seen as base/quote (as traderPool), with its price at seeding.
type traderV3Pool struct {
	SeededV3Pool
	name        string
	base, quote common.Address
	p0          float64 // quote per base, raw units, at seeding
}

// price is the pool's quote per base (raw units) at sqrtPriceX96.
func (p traderV3Pool) price(sqrtPriceX96 *big.Int) float64 {
	s := ratio(sqrtPriceX96, q96)
	if p.base == p.Token0 {
		return s * s
	}
	return 1 / (s * s)
}

// baseQuote orders a pool's tokens as the trader sees them: the quote is the USD stablecoin when in
// the pool, else the wrapped native.
func (m Market) baseQuote(token0, token1 common.Address) (base, quote common.Address) {
	if token0 == m.Core.USD || (token0 == m.Core.WrappedNative && token1 != m.Core.USD) {
		return token1, token0
	}
	return token0, token1
}

func newTrader(ctx context.Context, l *Local, accts []*Account) (*trader, error) {
	m := l.market
	t := &trader{
		l:        l,
		log:      l.log,
		rng:      rand.New(rand.NewPCG(ChainID, 8545)),
		accts:    accts,
		tokens:   []common.Address{m.Core.USD, m.Core.WrappedNative},
		router:   m.Core.Router,
		router02: m.V3.SwapRouter02,
		quoter:   m.V3.QuoterV2,
		weth:     m.Core.WrappedNative,
	}
	for _, a := range l.accounts {
		t.everyone = append(t.everyone, a.Address)
	}
	for _, tok := range m.Tokens {
		t.tokens = append(t.tokens, tok.Address)
	}
	for _, p := range m.Pools {
		tp := traderPool{SeededPool: p, name: m.pairName(p)}
		tp.base, tp.quote = m.baseQuote(p.Token0, p.Token1)
		rBase, rQuote, err := t.sides(ctx, tp)
		if err != nil {
			return nil, fmt.Errorf("devnet: trader: %w", err)
		}
		tp.p0 = ratio(rQuote, rBase)
		t.pools = append(t.pools, tp)
	}
	for _, p := range m.V3Pools {
		tp := traderV3Pool{SeededV3Pool: p, name: m.v3PoolName(p)}
		tp.base, tp.quote = m.baseQuote(p.Token0, p.Token1)
		tp.p0 = tp.price(p.SqrtPriceX96)
		t.v3Pools = append(t.v3Pools, tp)
	}
	return t, nil
}

// run makes one move every interval until ctx ends. Errors are logged, never fatal.
func (t *trader) run(ctx context.Context, every time.Duration) {
	defer t.l.wg.Done()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := t.step(ctx); err != nil && ctx.Err() == nil {
			t.log.Warn("devnet: trader", "err", err)
		}
	}
}

// step: 1 in 8 a transfer, 1 in 12 a liquidity add or remove, otherwise a swap.
func (t *trader) step(ctx context.Context) error {
	switch r := t.rng.IntN(24); {
	case r < 3:
		return t.transfer(ctx)
	case r < 5:
		return t.liquidity(ctx, r == 3)
	default:
		return t.swap(ctx)
	}
}

// swap trades a random small amount on a random pool (V2 or V3), in a direction biased back
// towards the pool's seeded price: the further the price drifted up, the likelier a sale.
func (t *trader) swap(ctx context.Context) error {
	i := t.rng.IntN(len(t.pools) + len(t.v3Pools))
	if i >= len(t.pools) {
		return t.swapV3(ctx, t.v3Pools[i-len(t.pools)])
	}
	p := t.pools[i]
	rBase, rQuote, err := t.sides(ctx, p)
	if err != nil {
		return err
	}
	ppm := int64(swapMinPPM + t.rng.IntN(swapMaxPPM-swapMinPPM))
	a, in, out, amount, err := t.side(ctx, ratio(rQuote, rBase)/p.p0, v2Pull, p.base, p.quote, func(in common.Address) *big.Int {
		if in == p.quote {
			return fraction(rQuote, ppm)
		}
		return fraction(rBase, ppm)
	})
	if err != nil {
		return err
	}
	if a == nil {
		t.log.Debug("devnet: trader: no trader can pay a swap", "pool", p.name)
		return nil
	}
	path := []common.Address{in, out}
	client := t.l.Client()
	amounts, err := callContract(ctx, client, t.router, bRouter.PackGetAmountsOut(amount, path), bRouter.UnpackGetAmountsOut)
	if err != nil {
		return fmt.Errorf("devnet: trader: quote on %s: %w", p.name, err)
	}
	minOut := fraction(amounts[len(amounts)-1], ppmScale*99/100)
	var value *big.Int
	var data []byte
	switch {
	case in == t.weth:
		value, data = amount, bRouter.PackSwapExactETHForTokens(minOut, path, a.Address, farDeadline)
	case out == t.weth:
		data = bRouter.PackSwapExactTokensForETH(amount, minOut, path, a.Address, farDeadline)
	default:
		data = bRouter.PackSwapExactTokensForTokens(amount, minOut, path, a.Address, farDeadline)
	}
	return t.send(ctx, a, t.router, value, data, "swap on "+p.name)
}

// How strongly a swap's direction pulls the price back to its seeded value: the chance of a buy is
// 0.5 - pull·ln(price now / price at seeding), kept within [0.15, 0.85]. V3 moves pull harder:
// beyond its positions' ranges a pool's liquidity thins out, and its price would wander off.
const v2Pull, v3Pull = 2, 20

// side picks a swap's direction, biased back towards the seeded price by how far the price has
// moved (moved: price now over price at seeding), and a trader able to pay amount(in): the chosen
// direction, else the other; a nil account when no trader can pay either.
func (t *trader) side(ctx context.Context, moved, pull float64, base, quote common.Address, amount func(in common.Address) *big.Int) (*Account, common.Address, common.Address, *big.Int, error) {
	buy := t.rng.Float64() < min(max(0.5-pull*math.Log(moved), 0.15), 0.85)
	for range 2 {
		in, out := base, quote
		if buy {
			in, out = quote, base
		}
		amt := amount(in)
		a, err := t.payer(ctx, in, amt)
		if err != nil || a != nil {
			return a, in, out, amt, err
		}
		buy = !buy
	}
	return nil, common.Address{}, common.Address{}, nil, nil
}

// swapV3 trades on a V3 pool through SwapRouter02's exactInputSingle, sized on the in-range
// liquidity and stopped at a price limit (see v3SwapMinPPM); the wrapped native side is paid in
// ETH, which the router wraps, refunding what the swap did not take.
func (t *trader) swapV3(ctx context.Context, p traderV3Pool) error {
	client := t.l.Client()
	slot0, err := callContract(ctx, client, p.Address, bV3Pool.PackSlot0(), bV3Pool.UnpackSlot0)
	if err != nil {
		return fmt.Errorf("devnet: trader: slot0 of %s: %w", p.name, err)
	}
	liquidity, err := callContract(ctx, client, p.Address, bV3Pool.PackLiquidity(), bV3Pool.UnpackLiquidity)
	if err != nil {
		return fmt.Errorf("devnet: trader: liquidity of %s: %w", p.name, err)
	}
	if liquidity.Sign() == 0 {
		t.log.Debug("devnet: trader: no liquidity in range", "pool", p.name)
		return nil
	}
	ppm := int64(v3SwapMinPPM + t.rng.IntN(v3SwapMaxPPM-v3SwapMinPPM))
	a, in, out, amount, err := t.side(ctx, p.price(slot0.SqrtPriceX96)/p.p0, v3Pull, p.base, p.quote, func(in common.Address) *big.Int {
		return fraction(v3Reserve(liquidity, slot0.SqrtPriceX96, in == p.Token1), ppm)
	})
	if err != nil {
		return err
	}
	if a == nil {
		t.log.Debug("devnet: trader: no trader can pay a swap", "pool", p.name)
		return nil
	}
	fee := big.NewInt(int64(p.Fee))
	limit := fraction(slot0.SqrtPriceX96, ppmScale-v3SwapLimitPPM)
	if in == p.Token1 {
		limit = fraction(slot0.SqrtPriceX96, ppmScale+v3SwapLimitPPM)
	}
	quote, err := callContract(ctx, client, t.quoter, bQuoter.PackQuoteExactInputSingle(bindings.IQuoterV2QuoteExactInputSingleParams{
		TokenIn: in, TokenOut: out, AmountIn: amount, Fee: fee, SqrtPriceLimitX96: limit,
	}), bQuoter.UnpackQuoteExactInputSingle)
	if err != nil {
		return fmt.Errorf("devnet: trader: quote on %s: %w", p.name, err)
	}
	data := bRouter02.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
		TokenIn: in, TokenOut: out, Fee: fee, Recipient: a.Address, AmountIn: amount,
		AmountOutMinimum: fraction(quote.AmountOut, ppmScale*99/100), SqrtPriceLimitX96: limit,
	})
	var value *big.Int
	if in == t.weth { // the router wraps what the swap takes; refundETH returns the rest
		value, data = amount, bRouter02.PackMulticall1([][]byte{data, bRouter02.PackRefundETH()})
	}
	return t.send(ctx, a, t.router02, value, data, "swap on "+p.name)
}

// v3Reserve is the virtual reserve of in-range liquidity at sqrtPriceX96 on one side: token1
// (L·√P) or token0 (L/√P), raw units.
func v3Reserve(liquidity, sqrtPriceX96 *big.Int, token1 bool) *big.Int {
	if token1 {
		v := new(big.Int).Mul(liquidity, sqrtPriceX96)
		return v.Rsh(v, 96)
	}
	v := new(big.Int).Lsh(liquidity, 96)
	return v.Quo(v, sqrtPriceX96)
}

// transfer moves 1–10% of a trader's balance of one of its tokens to another account.
func (t *trader) transfer(ctx context.Context) error {
	a := t.accts[t.rng.IntN(len(t.accts))]
	for _, i := range t.rng.Perm(len(t.tokens)) {
		token := t.tokens[i]
		bal, err := t.balance(ctx, token, a.Address)
		if err != nil {
			return err
		}
		if bal.Sign() == 0 {
			continue
		}
		to := t.everyone[t.rng.IntN(len(t.everyone))]
		if to == a.Address {
			to = t.everyone[0]
		}
		amount := fraction(bal, int64(1+t.rng.IntN(10))*ppmScale/100)
		if amount.Sign() == 0 {
			continue
		}
		return t.send(ctx, a, token, nil, bToken.PackTransfer(to, amount), "transfer of "+t.l.market.symbol(token))
	}
	return nil
}

// liquidity adds a little liquidity to a random pool or removes part of a trader's position;
// with no position anywhere, a remove becomes an add.
func (t *trader) liquidity(ctx context.Context, add bool) error {
	if !add {
		done, err := t.removeLiquidity(ctx)
		if err != nil || done {
			return err
		}
	}
	p := t.pools[t.rng.IntN(len(t.pools))]
	r0, r1, err := t.reserves(ctx, p.SeededPool)
	if err != nil {
		return err
	}
	ppm := int64(liqMinPPM + t.rng.IntN(liqMaxPPM-liqMinPPM))
	amt0, amt1 := fraction(r0, ppm), fraction(r1, ppm)
	var a *Account
	for _, i := range t.rng.Perm(len(t.accts)) {
		ok0, err := t.canPay(ctx, t.accts[i].Address, p.Token0, amt0)
		if err != nil {
			return err
		}
		ok1, err := t.canPay(ctx, t.accts[i].Address, p.Token1, amt1)
		if err != nil {
			return err
		}
		if ok0 && ok1 {
			a = t.accts[i]
			break
		}
	}
	if a == nil {
		t.log.Debug("devnet: trader: no trader holds both sides", "pool", p.name)
		return nil
	}
	lo := func(x *big.Int) *big.Int { return fraction(x, ppmScale*99/100) }
	switch {
	case p.Token0 == t.weth:
		return t.send(ctx, a, t.router, amt0, bRouter.PackAddLiquidityETH(p.Token1, amt1, lo(amt1), lo(amt0), a.Address, farDeadline), "add liquidity to "+p.name)
	case p.Token1 == t.weth:
		return t.send(ctx, a, t.router, amt1, bRouter.PackAddLiquidityETH(p.Token0, amt0, lo(amt0), lo(amt1), a.Address, farDeadline), "add liquidity to "+p.name)
	}
	return t.send(ctx, a, t.router, nil, bRouter.PackAddLiquidity(p.Token0, p.Token1, amt0, amt1, lo(amt0), lo(amt1), a.Address, farDeadline), "add liquidity to "+p.name)
}

// removeLiquidity burns 20–100% of a random trader position (wrapped native comes back as WETH);
// false when no trader has one.
func (t *trader) removeLiquidity(ctx context.Context) (bool, error) {
	for _, i := range t.rng.Perm(len(t.pools)) {
		p := t.pools[i]
		for _, j := range t.rng.Perm(len(t.accts)) {
			a := t.accts[j]
			lp, err := t.balance(ctx, p.Address, a.Address)
			if err != nil {
				return false, err
			}
			if lp.Sign() == 0 {
				continue
			}
			liquidity := fraction(lp, int64(20+t.rng.IntN(81))*ppmScale/100)
			allowance, err := callContract(ctx, t.l.Client(), p.Address, bPair.PackAllowance(a.Address, t.router), bPair.UnpackAllowance)
			if err != nil {
				return false, fmt.Errorf("devnet: trader: LP allowance on %s: %w", p.name, err)
			}
			if allowance.Cmp(liquidity) < 0 {
				if err := t.send(ctx, a, p.Address, nil, bPair.PackApprove(t.router, maxUint256), "approve LP of "+p.name); err != nil {
					return false, err
				}
			}
			return true, t.send(ctx, a, t.router, nil,
				bRouter.PackRemoveLiquidity(p.Token0, p.Token1, liquidity, big.NewInt(0), big.NewInt(0), a.Address, farDeadline),
				"remove liquidity from "+p.name)
		}
	}
	return false, nil
}

// payer is a random trader able to pay amount of token (native ETH for the wrapped native, keeping
// a reserve for gas), or nil.
func (t *trader) payer(ctx context.Context, token common.Address, amount *big.Int) (*Account, error) {
	for _, i := range t.rng.Perm(len(t.accts)) {
		ok, err := t.canPay(ctx, t.accts[i].Address, token, amount)
		switch {
		case err != nil:
			return nil, err
		case ok:
			return t.accts[i], nil
		}
	}
	return nil, nil
}

func (t *trader) canPay(ctx context.Context, who, token common.Address, amount *big.Int) (bool, error) {
	if token == t.weth {
		bal, err := t.l.Client().BalanceAt(ctx, who, nil)
		if err != nil {
			return false, fmt.Errorf("devnet: trader: balance of %s: %w", who, err)
		}
		return bal.Cmp(new(big.Int).Add(amount, ethGasReserve)) >= 0, nil
	}
	bal, err := t.balance(ctx, token, who)
	if err != nil {
		return false, err
	}
	return bal.Cmp(amount) >= 0, nil
}

// send signs and seals one transaction, holding the commit lock so that automine does not seal
// it first. On failure the account re-reads its pending nonce, in case someone else used the
// (public) key meanwhile.
func (t *trader) send(ctx context.Context, a *Account, to common.Address, value *big.Int, data []byte, what string) error {
	var err error
	t.l.withCommitLock(func(b Backend) {
		if _, err = a.Transact(ctx, b, to, value, data); err != nil {
			if n, nerr := b.Client().PendingNonceAt(ctx, a.Address); nerr == nil {
				a.nonce = n
			}
		}
	})
	if err != nil {
		return fmt.Errorf("devnet: trader: %s from %s: %w", what, a.Address, err)
	}
	t.log.Debug("devnet: trader", "did", what, "from", a.Address)
	return nil
}

func (t *trader) balance(ctx context.Context, token, who common.Address) (*big.Int, error) {
	bal, err := callContract(ctx, t.l.Client(), token, bToken.PackBalanceOf(who), bToken.UnpackBalanceOf)
	if err != nil {
		return nil, fmt.Errorf("devnet: trader: balance: %w", err)
	}
	return bal, nil
}

func (t *trader) reserves(ctx context.Context, p SeededPool) (*big.Int, *big.Int, error) {
	r, err := callContract(ctx, t.l.Client(), p.Address, bPair.PackGetReserves(), bPair.UnpackGetReserves)
	if err != nil {
		return nil, nil, fmt.Errorf("devnet: trader: reserves: %w", err)
	}
	return r.Reserve0, r.Reserve1, nil
}

// sides is the pool's reserves as (base, quote).
func (t *trader) sides(ctx context.Context, p traderPool) (*big.Int, *big.Int, error) {
	r0, r1, err := t.reserves(ctx, p.SeededPool)
	if err != nil {
		return nil, nil, err
	}
	if p.base == p.Token0 {
		return r0, r1, nil
	}
	return r1, r0, nil
}

// fraction is x * ppm / ppmScale.
func fraction(x *big.Int, ppm int64) *big.Int {
	v := new(big.Int).Mul(x, big.NewInt(ppm))
	return v.Quo(v, big.NewInt(ppmScale))
}

// ratio is a / b as a float (raw units); 0 when b is 0.
func ratio(a, b *big.Int) float64 {
	if b.Sign() == 0 {
		return 0
	}
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(a), new(big.Float).SetInt(b)).Float64()
	return f
}
