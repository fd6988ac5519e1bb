package market

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
)

// indexedPool returns an indexed pool: ErrNotFound when the index does not hold it.
func (s *Service) indexedPool(ctx context.Context, chainName, addr string) (index.Pool, error) {
	if _, err := s.chain(chainName); err != nil {
		return index.Pool{}, err
	}
	if err := chain.CheckAddress(chainName, "pool", addr); err != nil {
		return index.Pool{}, err
	}
	p, err := s.index.Pool(ctx, chainName, canonical(chainName, addr))
	if errors.Is(err, index.ErrNotFound) {
		return index.Pool{}, fmt.Errorf("pool %s is not indexed: %w", addr, ErrNotFound)
	}
	return p, err
}

// Summary returns an indexed pool's summary from the snapshot (no live read).
func (s *Service) Summary(ctx context.Context, chainName, addr string) (PoolSummary, error) {
	p, err := s.indexedPool(ctx, chainName, addr)
	if err != nil {
		return PoolSummary{}, err
	}
	return s.summaryOf(ctx, chainName, p)
}

// summaryOf summarises an indexed pool from the snapshot, reading through once when the snapshot
// does not know the pool yet.
func (s *Service) summaryOf(ctx context.Context, chainName string, p index.Pool) (PoolSummary, error) {
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return PoolSummary{}, err
	}
	if _, ok := snap.market.Pool(p.Address); !ok {
		if snap, err = s.refresh(ctx, chainName); err != nil {
			return PoolSummary{}, err
		}
	}
	return s.summary(chainName, snap, p), nil
}

// Pool returns a pool's summary with its reserves read live.
func (s *Service) Pool(ctx context.Context, chainName, addr string) (PoolSummary, error) {
	p, err := s.indexedPool(ctx, chainName, addr)
	if err != nil {
		return PoolSummary{}, err
	}
	out, err := s.summaryOf(ctx, chainName, p)
	if err != nil {
		return PoolSummary{}, err
	}
	c, _ := s.chain(chainName)
	states, err := c.Source.PairStates(ctx, []string{p.Address})
	if err != nil {
		return PoolSummary{}, err
	}
	if st := states[0]; st.OK {
		live := &index.PoolState{Address: p.Address, Token0: p.Token0, Token1: p.Token1, BaseIsToken0: p.BaseIsToken0, Reserve0: st.Reserve0, Reserve1: st.Reserve1}
		out.BaseReserve = Units(reserve(live, p.Base()), out.Base.Decimals)
		out.QuoteReserve = Units(reserve(live, p.Quote()), out.Quote.Decimals)
	}
	return out, nil
}

// Reserves are a pool's live reserves in a base/quote orientation, as of the end of Block.
type Reserves struct {
	Pool        string
	Base, Quote Token
	BaseAmount  string
	QuoteAmount string
	Block       int64 // the block the reserves were read at
}

// Reserves reads a Uniswap V2 pair's reserves live, oriented as base/quote. ErrInvalid when base
// and quote are not the pair's two tokens, ErrNotFound when the address is not a pair.
func (s *Service) Reserves(ctx context.Context, chainName, pool, base, quote string) (Reserves, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Reserves{}, err
	}
	for _, a := range [][2]string{{"pool", pool}, {"base", base}, {"quote", quote}} {
		if err := chain.CheckAddress(chainName, a[0], a[1]); err != nil {
			return Reserves{}, err
		}
	}
	pool, base, quote = canonical(chainName, pool), canonical(chainName, base), canonical(chainName, quote)
	states, err := c.Source.PairStates(ctx, []string{pool})
	if err != nil {
		return Reserves{}, err
	}
	st := states[0]
	if !st.OK {
		return Reserves{}, fmt.Errorf("%s is not a constant-product pool of the chain's venues: %w", pool, ErrNotFound)
	}
	var baseAmount, quoteAmount *big.Int
	switch {
	case base == st.Token0 && quote == st.Token1:
		baseAmount, quoteAmount = st.Reserve0, st.Reserve1
	case base == st.Token1 && quote == st.Token0:
		baseAmount, quoteAmount = st.Reserve1, st.Reserve0
	default:
		return Reserves{}, fmt.Errorf("base and quote must be the pool's two tokens: %w", ErrInvalid)
	}
	metas, err := c.Source.TokenMetadata(ctx, []string{base, quote})
	if err != nil {
		return Reserves{}, err
	}
	tok := func(m int) Token {
		return Token{Chain: chainName, Address: display(chainName, metas[m].Address), Symbol: metas[m].Symbol, Name: metas[m].Name, Decimals: metas[m].Decimals}
	}
	b, q := tok(0), tok(1)
	return Reserves{Pool: display(chainName, pool), Base: b, Quote: q, BaseAmount: Units(baseAmount, b.Decimals), QuoteAmount: Units(quoteAmount, q.Decimals),
		Block: int64(st.Block)}, nil
}

// Candle is one OHLCV interval of a token's USD price.
type Candle struct {
	Time                   int64
	Open, High, Low, Close float64
	VolumeUSD              float64
}

// Chart returns a pool's candles of `resolution` minutes, newest last, ending before `before`
// (unix seconds; 0 means now), at most limit of them, for the pool's base token or `token` (the
// quote) when given. Intervals without swaps are left out. ErrInvalid when token is not the pool's.
func (s *Service) Chart(ctx context.Context, chainName, pool string, resolution int, before int64, limit int, token string) ([]Candle, error) {
	p, err := s.indexedPool(ctx, chainName, pool)
	if err != nil {
		return nil, err
	}
	subject := p.Base()
	if token != "" {
		subject = canonical(chainName, token)
		if subject != p.Token0 && subject != p.Token1 {
			return nil, fmt.Errorf("token %s is not one of the pool's: %w", token, ErrInvalid)
		}
	}
	step := int64(resolution) * 60
	if before <= 0 {
		before = math.MaxInt64 - step
	}
	end := before
	since := int64(0)
	if before < math.MaxInt64-step {
		since = max(0, (before/step-int64(limit))*step)
	}
	events, err := s.index.Events(ctx, chainName, p.Address, since, end)
	if err != nil {
		return nil, err
	}
	var out []Candle
	for _, e := range events {
		if e.Kind != "swap" {
			continue
		}
		price := tokenPrice(p, subject, e)
		bucket := e.Time / step * step
		if n := len(out); n > 0 && out[n-1].Time == bucket {
			c := &out[n-1]
			c.High, c.Low, c.Close = math.Max(c.High, price), math.Min(c.Low, price), price
			c.VolumeUSD += e.VolumeUSD
			continue
		}
		open := price
		if n := len(out); n > 0 { // an interval opens where the previous one closed
			open = out[n-1].Close
		}
		out = append(out, Candle{Time: bucket, Open: open, High: math.Max(open, price), Low: math.Min(open, price), Close: price, VolumeUSD: e.VolumeUSD})
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}
