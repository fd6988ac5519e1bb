package market

import (
	"context"
	"maps"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/index"
)

// Windows of the market figures, in seconds: 5 minutes, 1, 6 and 24 hours.
var windows = [4]int64{5 * 60, 3600, 6 * 3600, 24 * 3600}

// Figures are a pool's (or a token's) activity per window (m5, h1, h6, h24).
type Figures struct {
	VolumeUSD   [4]float64
	Buys, Sells [4]int
	PriceChange [4]float64 // percent
}

// snapshot is a chain's pools with prices and 24-hour figures, rebuilt by Run.
type snapshot struct {
	at      time.Time
	version index.Version // of the index it was read from
	market  *index.Market
	pools   []index.Pool
	tokens  map[string]index.Token
	figures map[string]*Figures // by pool; none for a pool without events in the day

	// prices memoizes Price's answers by canonical token address: a snapshot never changes once
	// published, so neither do its prices. Only tokens the snapshot holds are kept (bounded by them).
	pricesMu sync.RWMutex
	prices   map[string]*Price
}

// cachedPrice returns the memoized price of a token given in any letter case, without allocating.
func (snap *snapshot) cachedPrice(addr string) (*Price, bool) {
	var buf [64]byte
	if len(addr) > len(buf) {
		return nil, false
	}
	key := buf[:len(addr)]
	for i := range len(addr) {
		c := addr[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		key[i] = c
	}
	snap.pricesMu.RLock()
	p, ok := snap.prices[string(key)]
	snap.pricesMu.RUnlock()
	return p, ok
}

// keepPrice memoizes a token's price (addr canonical).
func (snap *snapshot) keepPrice(addr string, p *Price) {
	snap.pricesMu.Lock()
	if snap.prices == nil {
		snap.prices = map[string]*Price{}
	}
	snap.prices[addr] = p
	snap.pricesMu.Unlock()
}

// current returns the chain's snapshot, building it when there is none yet.
func (s *Service) current(ctx context.Context, chainName string) (*snapshot, error) {
	s.mu.RLock()
	snap := s.snapshots[chainName]
	s.mu.RUnlock()
	if snap != nil {
		return snap, nil
	}
	return s.refresh(ctx, chainName)
}

// refresh rebuilds a chain's snapshot. It reads from the index only what changed since the last
// one: nothing when the index has not moved (time passing only changes the figures), the new
// blocks' events when it moved forward, and the whole day again after a rollback.
func (s *Service) refresh(ctx context.Context, chainName string) (*snapshot, error) {
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	now := s.now()
	v, _, err := s.index.Version(ctx, chainName)
	if err != nil {
		return nil, err
	}
	s.mu.RLock()
	prev, w := s.snapshots[chainName], s.windows[chainName]
	s.mu.RUnlock()
	s.setWindow(chainName, nil) // until it is consistent again

	snap := &snapshot{at: now, version: v}

	// latest is the latest state block of the pools read.
	var latest int64
	switch { // w is nil after a refresh a rollback may have spoiled; otherwise it and prev hold the same version
	case w != nil && w.version == v: // the index has not moved: only time passed
		snap.market, snap.pools, snap.tokens = prev.market, prev.pools, prev.tokens
	case w != nil && w.version.Rollbacks == v.Rollbacks && w.version.Block <= v.Block: // it moved forward
		if err = s.grow(ctx, chainName, w, v); err == nil {
			latest, err = s.readChanges(ctx, chainName, prev, snap)
		}
	default: // the first refresh, or the index rolled back: read everything, as changes to nothing
		if w, err = s.loadWindow(ctx, chainName, v, now.Unix()); err == nil {
			latest, err = s.readChanges(ctx, chainName, s.emptySnapshot(chainName), snap)
		}
	}
	if err == nil && latest > v.Block {
		// The indexer committed blocks between reading the version and the pools, so some pools'
		// reserves are from after it: read those blocks' events too (the indexer commits a batch's
		// pools and events together, in block order), so that the figures agree with the reserves,
		// and let the snapshot stand for the later block.
		v = index.Version{Block: latest, Rollbacks: v.Rollbacks}
		snap.version = v
		err = s.grow(ctx, chainName, w, v)
	}
	if err != nil {
		return nil, err
	}
	w.trim(now.Unix())
	snap.figures = w.figures(now.Unix())

	// A rollback while reading may have taken back what was read: serve it for now, reload it next.
	if after, _, err := s.index.Version(ctx, chainName); err == nil && after.Rollbacks == v.Rollbacks {
		s.setWindow(chainName, w)
	}
	s.mu.Lock()
	s.snapshots[chainName] = snap
	s.mu.Unlock()
	return snap, nil
}

// emptySnapshot is a snapshot of no pools from before the chain's first block: every pool changed
// after it.
func (s *Service) emptySnapshot(chainName string) *snapshot {
	var pricing index.Pricing // a chain the service does not serve prices nothing
	if c := s.chains[chainName]; c != nil {
		pricing = c.Pricing
	}
	return &snapshot{version: index.Version{Block: -1}, market: index.NewMarket(pricing), tokens: map[string]index.Token{}}
}

// readChanges makes snap the previous snapshot with the pools created, or whose reserves changed,
// after it, and the tokens of the new ones. It returns the latest state block among the pools it
// read (-1 when none changed: block 0 is a block like any other, where a Solana validator's genesis
// creates pools).
func (s *Service) readChanges(ctx context.Context, chainName string, prev, snap *snapshot) (int64, error) {
	changed, err := s.index.PoolsChangedAfter(ctx, chainName, prev.version.Block)
	if err != nil {
		return 0, err
	}

	snap.market, snap.pools, snap.tokens = prev.market, prev.pools, prev.tokens
	if len(changed) == 0 {
		return -1, nil
	}
	updated := map[string]index.Pool{}
	states := make([]*index.PoolState, len(changed))
	var added []index.Pool
	var addedTokens []string
	latest := int64(-1)
	for i, p := range changed {
		latest = max(latest, p.StateBlock)
		states[i] = p.State()
		if _, known := prev.market.Pool(p.Address); known {
			updated[p.Address] = p
		} else {
			added = append(added, p)
			addedTokens = append(addedTokens, p.Token0, p.Token1)
		}
	}
	pools := make([]index.Pool, len(prev.pools), len(prev.pools)+len(added))
	for i, p := range prev.pools {
		if u, ok := updated[p.Address]; ok {
			p = u
		}
		pools[i] = p
	}
	tokens, decimals := prev.tokens, map[string]int{}
	if len(addedTokens) > 0 {
		found, err := s.tokens(ctx, chainName, addedTokens...)
		if err != nil {
			return 0, err
		}
		tokens = maps.Clone(prev.tokens)
		for a, t := range found {
			tokens[a], decimals[a] = t, t.Decimals
		}
	}
	snap.market, snap.pools, snap.tokens = prev.market.With(decimals, states), append(pools, added...), tokens
	return latest, nil
}

func (s *Service) setWindow(chainName string, w *dayWindow) {
	s.mu.Lock()
	s.windows[chainName] = w
	s.mu.Unlock()
}

// activity sums a pool's events (oldest first, of every kind) into figures as of now. startPrice
// is the price before the first event (0 when unknown). An event before a window sets its opening
// price; within it, only swaps count, as trades and volume, and the last one's price closes it.
// quoteSide flips buys and sells for a token that is the pools' quote.
func activity(events []index.Event, startPrice float64, now int64, quoteSide bool) *Figures {
	f := &Figures{}
	for w, span := range windows {
		since := now - span
		open, last := startPrice, 0.0
		for _, e := range events {
			if e.Time < since {
				open = e.PriceUSD
				continue
			}
			if e.Kind != "swap" {
				continue
			}
			if open == 0 {
				open = e.PriceUSD
			}
			last = e.PriceUSD
			f.VolumeUSD[w] += e.VolumeUSD
			if (e.Side == "buy") != quoteSide {
				f.Buys[w]++
			} else {
				f.Sells[w]++
			}
		}
		if open > 0 && last > 0 {
			f.PriceChange[w] = (last - open) / open * 100
		}
	}
	return f
}

// PoolSummary is a pool with its prices and figures.
type PoolSummary struct {
	Chain        string
	Address      string
	Venue        string
	Base, Quote  Token
	CreatedAt    int64
	FeeBps       int
	BaseReserve  string // token units
	QuoteReserve string
	PriceUSD     string // the base token's USD price in this pool (index.Market.PoolPriceUSD); empty when the quote has none
	PriceNative  string // the base token's price in the quote token, from this pool's reserves
	LiquidityUSD string // both reserves in USD, each at its price in this pool (index.Market.LiquidityUSD)
	Figures      Figures
}

func (s *Service) summary(chainName string, snap *snapshot, p index.Pool) PoolSummary {
	st, _ := snap.market.Pool(p.Address)
	base, quote := snap.tokens[p.Base()], snap.tokens[p.Quote()]
	out := PoolSummary{Chain: chainName, Address: display(chainName, p.Address), Venue: p.Venue, Base: s.token(chainName, base), Quote: s.token(chainName, quote),
		CreatedAt: p.CreatedAt, FeeBps: p.FeeBps}
	if st != nil {
		out.BaseReserve = Units(reserve(st, p.Base()), base.Decimals)
		out.QuoteReserve = Units(reserve(st, p.Quote()), quote.Decimals)
		if usd, ok := snap.market.PoolPriceUSD(st); ok {
			out.PriceUSD = Decimal(usd)
		}
		out.PriceNative = Decimal(snap.market.PoolPrice(st))
		out.LiquidityUSD = Decimal(snap.market.LiquidityUSD(st))
	}
	if f := snap.figures[p.Address]; f != nil {
		out.Figures = *f
	}
	return out
}

func reserve(p *index.PoolState, token string) *big.Int {
	if token == p.Token0 {
		return p.Reserve0
	}
	return p.Reserve1
}

// List names a pool list.
type List string

// Pool lists: trending ranks by the last hour's USD volume (then the day's), hot by the day's number
// of trades (then its volume), new by creation, newest first.
const (
	ListTrending List = "trending"
	ListHot      List = "hot"
	ListNew      List = "new"
)

// MaxListed is the most pools a list returns per chain.
const MaxListed = 50

// Pools lists a chain's pools; venue, when set, keeps only that venue's.
func (s *Service) Pools(ctx context.Context, chainName string, list List, venue string) ([]PoolSummary, error) {
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return nil, err
	}
	var out []PoolSummary
	for _, p := range snap.pools { // oldest first: the index orders pools by creation block
		if venue == "" || p.Venue == venue {
			out = append(out, s.summary(chainName, snap, p))
		}
	}
	if list == ListNew { // newest first; the block order also breaks ties of creation time
		slices.Reverse(out)
		return out[:min(len(out), MaxListed)], nil
	}
	trades := func(p PoolSummary, w int) int { return p.Figures.Buys[w] + p.Figures.Sells[w] }
	out = slices.DeleteFunc(out, func(p PoolSummary) bool { return trades(p, 3) == 0 })
	slices.SortStableFunc(out, func(a, b PoolSummary) int {
		if list == ListTrending {
			return cmpDesc(a.Figures.VolumeUSD[1], b.Figures.VolumeUSD[1], a.Figures.VolumeUSD[3], b.Figures.VolumeUSD[3])
		}
		return cmpDesc(float64(trades(a, 3)), float64(trades(b, 3)), a.Figures.VolumeUSD[3], b.Figures.VolumeUSD[3])
	})
	return out[:min(len(out), MaxListed)], nil
}

// cmpDesc orders by a then b, larger first.
func cmpDesc(a1, b1, a2, b2 float64) int {
	switch {
	case a1 != b1:
		if a1 > b1 {
			return -1
		}
		return 1
	case a2 > b2:
		return -1
	case a2 < b2:
		return 1
	}
	return 0
}
