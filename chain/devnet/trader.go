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
)

// Sizes of the trader's moves, in parts per 100,000 of the pool's reserve on the paying side:
// small next to the liquidity, so prices move visibly but stay sane.
const (
	swapMinPPM, swapMaxPPM = 50, 800   // 0.05% to 0.8% per swap
	liqMinPPM, liqMaxPPM   = 200, 1000 // 0.2% to 1% per liquidity add
	ppmScale               = 100_000
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
	router   common.Address
	weth     common.Address
}

// traderPool is a seeded pool seen as base/quote, with its price at seeding to revert towards.
type traderPool struct {
	SeededPool
	name        string
	base, quote common.Address // quote: the USD stablecoin when in the pool, else wrapped native
	p0          float64        // quote per base, raw units, after seeding
}

func newTrader(ctx context.Context, l *Local, accts []*Account) (*trader, error) {
	m := l.market
	t := &trader{
		l:      l,
		log:    l.log,
		rng:    rand.New(rand.NewPCG(ChainID, 8545)),
		accts:  accts,
		tokens: []common.Address{m.Core.USD, m.Core.WrappedNative},
		router: m.Core.Router,
		weth:   m.Core.WrappedNative,
	}
	for _, a := range l.accounts {
		t.everyone = append(t.everyone, a.Address)
	}
	for _, tok := range m.Tokens {
		t.tokens = append(t.tokens, tok.Address)
	}
	for _, p := range m.Pools {
		tp := traderPool{SeededPool: p, name: m.pairName(p), base: p.Token0, quote: p.Token1}
		if p.Token0 == m.Core.USD || (p.Token0 == m.Core.WrappedNative && p.Token1 != m.Core.USD) {
			tp.base, tp.quote = p.Token1, p.Token0
		}
		rBase, rQuote, err := t.sides(ctx, tp)
		if err != nil {
			return nil, fmt.Errorf("devnet: trader: %w", err)
		}
		tp.p0 = ratio(rQuote, rBase)
		t.pools = append(t.pools, tp)
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

// swap trades a random small amount on a random pool, in a direction biased back towards the
// pool's seeded price: the further the price drifted up, the likelier a sale.
func (t *trader) swap(ctx context.Context) error {
	p := t.pools[t.rng.IntN(len(t.pools))]
	rBase, rQuote, err := t.sides(ctx, p)
	if err != nil {
		return err
	}
	drift := math.Log(ratio(rQuote, rBase) / p.p0)
	buy := t.rng.Float64() < min(max(0.5-2*drift, 0.15), 0.85)
	ppm := int64(swapMinPPM + t.rng.IntN(swapMaxPPM-swapMinPPM))
	var a *Account
	var in, out common.Address
	var amount *big.Int
	for range 2 { // the chosen direction, then the other if no trader can pay
		in, out = p.base, p.quote
		rIn := rBase
		if buy {
			in, out, rIn = p.quote, p.base, rQuote
		}
		amount = fraction(rIn, ppm)
		if a, err = t.payer(ctx, in, amount); err != nil || a != nil {
			break
		}
		buy = !buy
	}
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
