package market

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/index"
)

// SearchLimit is the most tokens a search returns per chain.
const SearchLimit = 20

// Search finds indexed tokens by name, symbol or address; an address the index does not hold is
// looked up on the chain.
func (s *Service) Search(ctx context.Context, chainName, q string) ([]Token, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return nil, err
	}
	if c.Live != nil {
		return s.liveSearch(ctx, c, q)
	}
	found, err := s.index.SearchTokens(ctx, chainName, q, SearchLimit)
	if err != nil {
		return nil, err
	}
	out := make([]Token, len(found))
	for i, t := range found {
		out[i] = s.token(chainName, t)
	}
	if len(out) == 0 && chain.IsEVMAddress(q) {
		metas, err := c.Source.TokenMetadata(ctx, []string{canonical(chainName, q)})
		if err != nil {
			return nil, err
		}
		if m := metas[0]; m.OK {
			out = append(out, Token{Chain: chainName, Address: display(chainName, m.Address), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals})
		}
	}
	return out, nil
}

// Resolution is a token with its live total supply and the pools the index knows for it.
type Resolution struct {
	Token       Token
	TotalSupply string // token units
	Pools       []string
	// Solana only (empty on EVM chains): the token program (SPL Token or Token-2022), where the
	// symbol and name were read ("token-2022", "metaplex", or "" when the mint has no metadata) and
	// the mint's Token-2022 extensions by the program's names (empty on SPL Token).
	Program        string
	MetadataSource string
	Extensions     []string
}

// Resolve reads a token: its metadata and total supply from the chain, its pools from the index.
// ErrNotFound when the address is not an ERC-20.
func (s *Service) Resolve(ctx context.Context, chainName, addr string) (Resolution, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Resolution{}, err
	}
	if c.Live != nil {
		return s.liveResolve(ctx, c, addr)
	}
	addr = canonical(chainName, addr)
	metas, err := c.Source.TokenMetadata(ctx, []string{addr})
	if err != nil {
		return Resolution{}, err
	}
	m := metas[0]
	if !m.OK {
		return Resolution{}, fmt.Errorf("token %s: %w", addr, ErrNotFound)
	}
	pools, err := s.index.PoolsOf(ctx, chainName, addr)
	if err != nil {
		return Resolution{}, err
	}
	out := Resolution{Token: Token{Chain: chainName, Address: display(chainName, addr), Symbol: m.Symbol, Name: m.Name, Decimals: m.Decimals},
		TotalSupply: Units(m.TotalSupply, m.Decimals), Pools: []string{}}
	for _, p := range pools {
		out.Pools = append(out.Pools, display(chainName, p.Address))
	}
	return out, nil
}

// Price is a token's price from the snapshot.
type Price struct {
	Token       Token
	PriceUSD    string
	PriceNative string // in the chain's native coin
	Pool        string // the pool the price comes from; empty for a USD stablecoin
	UpdatedAt   int64  // when the snapshot was taken
}

// Price returns a token's USD price from the warm snapshot, reading through once when the index
// holds the token but the snapshot does not yet. ErrNotFound when no indexed pool prices it.
func (s *Service) Price(ctx context.Context, chainName, addr string) (Price, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Price{}, err
	}
	if addr == chain.Native { // the gas coin: its wrapped token's price, described as the coin
		p, err := s.Price(ctx, chainName, c.Pricing.WrappedNative)
		if err != nil {
			return Price{}, fmt.Errorf("the native coin's price is its wrapped token's (%s): %w", display(chainName, c.Pricing.WrappedNative), err)
		}
		info, _ := chain.Lookup(chainName)
		p.Token = Token{Chain: chainName, Address: chain.Native, Symbol: info.NativeToken, Name: info.NativeToken, Decimals: info.NativeDecimals}
		return p, nil
	}
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return Price{}, err
	}
	if p, ok := snap.cachedPrice(addr); ok { // only a checked address is ever cached
		return *p, nil
	}
	if err := chain.CheckAddress(chainName, "token", addr); err != nil {
		return Price{}, err
	}
	addr = canonical(chainName, addr)
	if _, known := snap.tokens[addr]; !known {
		// Read through only for a token the index holds (indexed since the last rebuild): an
		// unknown address must not cost a snapshot rebuild on the request path.
		if _, err := s.index.Token(ctx, chainName, addr); errors.Is(err, index.ErrNotFound) {
			return Price{}, fmt.Errorf("token %s is not indexed: %w", addr, ErrNotFound)
		} else if err != nil {
			return Price{}, err
		}
		if snap, err = s.refresh(ctx, chainName); err != nil {
			return Price{}, err
		}
	}
	t, known := snap.tokens[addr]
	usd, via, _, ok := snap.market.PriceUSD(addr)
	if !known || !ok {
		return Price{}, fmt.Errorf("no indexed pool prices %s in USD: %w", addr, ErrNotFound)
	}
	out := Price{Token: s.token(chainName, t), PriceUSD: Decimal(usd), UpdatedAt: snap.at.Unix()}
	if via != nil {
		out.Pool = display(chainName, via.Address)
	}
	if native, _, _, ok := snap.market.PriceUSD(c.Pricing.WrappedNative); ok && native > 0 {
		out.PriceNative = Decimal(usd / native)
	}
	snap.keepPrice(addr, &out)
	return out, nil
}

// PricePoint is a token's USD price at a time.
type PricePoint struct {
	Time     int64
	PriceUSD string
}

// History returns a token's USD price over the last window seconds, from the events of one pool (the
// given one, else the pool its price comes from): the price at the window's start, then one point per
// event. ErrInvalid when the pool does not trade the token.
func (s *Service) History(ctx context.Context, chainName, addr, poolAddr string, window int) (Token, []PricePoint, error) {
	addr = canonical(chainName, addr)
	t, pools, err := s.tokenPools(ctx, chainName, addr)
	if err != nil {
		return Token{}, nil, err
	}
	var p *index.Pool
	if poolAddr != "" {
		i := slices.IndexFunc(pools, func(p index.Pool) bool { return p.Address == canonical(chainName, poolAddr) })
		if i < 0 {
			return Token{}, nil, fmt.Errorf("pool %s does not trade %s: %w", poolAddr, addr, ErrInvalid)
		}
		p = &pools[i]
	} else if p, err = s.pricingPool(ctx, chainName, addr, pools); err != nil {
		return Token{}, nil, err
	}
	points := []PricePoint{}
	if p == nil { // a stablecoin with no pool of its own: 1 USD throughout
		return t, append(points, PricePoint{Time: s.now().Unix(), PriceUSD: "1"}), nil
	}
	since := s.now().Unix() - int64(window)
	before, ok, err := s.index.LastEventBefore(ctx, chainName, p.Address, since)
	if err != nil {
		return Token{}, nil, err
	}
	if ok {
		points = append(points, PricePoint{Time: since, PriceUSD: Decimal(tokenPrice(*p, addr, before))})
	}
	events, err := s.index.Events(ctx, chainName, p.Address, since, math.MaxInt64)
	if err != nil {
		return Token{}, nil, err
	}
	for _, e := range events {
		points = append(points, PricePoint{Time: e.Time, PriceUSD: Decimal(tokenPrice(*p, addr, e))})
	}
	return t, points, nil
}

// tokenPrice is the USD price of one of the pool's tokens in the pool after an event: the event's
// price of the base, or for the quote that price over the base's price in the quote.
func tokenPrice(p index.Pool, token string, e index.Event) float64 {
	if token == p.Base() {
		return e.PriceUSD
	}
	if e.PriceNative == 0 {
		return 0
	}
	return e.PriceUSD / e.PriceNative
}

// tokenPools returns an indexed token and its pools: ErrNotFound when the index does not hold it.
func (s *Service) tokenPools(ctx context.Context, chainName, addr string) (Token, []index.Pool, error) {
	if _, err := s.chain(chainName); err != nil {
		return Token{}, nil, err
	}
	if err := chain.CheckAddress(chainName, "token", addr); err != nil {
		return Token{}, nil, err
	}
	t, err := s.index.Token(ctx, chainName, addr)
	if errors.Is(err, index.ErrNotFound) {
		return Token{}, nil, fmt.Errorf("token %s is not indexed: %w", addr, ErrNotFound)
	}
	if err != nil {
		return Token{}, nil, err
	}
	pools, err := s.index.PoolsOf(ctx, chainName, addr)
	if err != nil {
		return Token{}, nil, err
	}
	return s.token(chainName, t), pools, nil
}

// pricingPool is the pool a token's price comes from, or its first pool; nil for a stablecoin.
func (s *Service) pricingPool(ctx context.Context, chainName, addr string, pools []index.Pool) (*index.Pool, error) {
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return nil, err
	}
	if _, via, _, ok := snap.market.PriceUSD(addr); ok && via != nil {
		for i := range pools {
			if pools[i].Address == via.Address {
				return &pools[i], nil
			}
		}
	}
	if len(pools) == 0 {
		return nil, nil
	}
	return &pools[0], nil
}

// Stats are a token's market figures over its pools.
type Stats struct {
	Token        Token
	PriceUSD     string
	LiquidityUSD string
	Figures      Figures // buys and sells of this token; price change of its price
	Buyers24h    int
	Sellers24h   int
	Holders      int
	FdvUSD       string // empty when the supply or the price is unknown
	// HoldersPartial reports that Holders is a lower bound (Solana: the RPC refused to scan every
	// token account of the mint, so only the owners of its largest accounts were counted).
	HoldersPartial bool
	// Supply is the total supply in token units; read on Solana chains, empty on EVM chains.
	Supply string
}

// Stats returns a token's 24-hour figures across its indexed pools.
func (s *Service) Stats(ctx context.Context, chainName, addr string) (Stats, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Stats{}, err
	}
	if c.Live != nil {
		return s.liveStats(ctx, c, addr)
	}
	addr = canonical(chainName, addr)
	t, pools, err := s.tokenPools(ctx, chainName, addr)
	if err != nil {
		return Stats{}, err
	}
	out, err := s.poolStats(ctx, chainName, addr, t, pools)
	if err != nil {
		return Stats{}, err
	}
	if out.Holders, err = s.index.HolderCount(ctx, chainName, addr); err != nil {
		return Stats{}, err
	}
	return out, nil
}

// poolStats are a token's figures from its indexed pools: price, liquidity, 24-hour activity and
// the fully diluted value (the supply read live).
func (s *Service) poolStats(ctx context.Context, chainName, addr string, t Token, pools []index.Pool) (Stats, error) {
	snap, err := s.current(ctx, chainName)
	if err != nil {
		return Stats{}, err
	}
	out := Stats{Token: t}
	now := s.now().Unix()
	buyers, sellers := map[string]bool{}, map[string]bool{}
	var liquidity float64
	for _, p := range pools {
		if st, ok := snap.market.Pool(p.Address); ok {
			liquidity += snap.market.LiquidityUSD(st)
		}
		swaps, err := s.index.Swaps(ctx, chainName, []string{p.Address}, now-windows[3])
		if err != nil {
			return Stats{}, err
		}
		quoteSide := p.Quote() == addr
		f := activity(swaps, 0, now, quoteSide)
		for w := range windows {
			out.Figures.VolumeUSD[w] += f.VolumeUSD[w]
			out.Figures.Buys[w] += f.Buys[w]
			out.Figures.Sells[w] += f.Sells[w]
		}
		for _, e := range swaps {
			if (e.Side == "buy") != quoteSide {
				buyers[e.Trader] = true
			} else {
				sellers[e.Trader] = true
			}
		}
	}
	out.Buyers24h, out.Sellers24h = len(buyers), len(sellers)
	out.LiquidityUSD = Decimal(liquidity)
	usd, via, _, priced := snap.market.PriceUSD(addr)
	if priced {
		out.PriceUSD = Decimal(usd)
	}
	if via != nil {
		if f := snap.figures[via.Address]; f != nil {
			p := index.Pool{Token0: via.Token0, Token1: via.Token1, BaseIsToken0: via.BaseIsToken0}
			if p.Base() == addr {
				out.Figures.PriceChange = f.PriceChange
			} else { // the token is the quote: its price moves inversely in this pool
				for w, pct := range f.PriceChange {
					if pct > -100 {
						out.Figures.PriceChange[w] = (100/(100+pct) - 1) * 100
					}
				}
			}
		}
	}
	if priced {
		c, _ := s.chain(chainName)
		metas, err := c.Source.TokenMetadata(ctx, []string{addr})
		if err != nil {
			return Stats{}, err
		}
		if m := metas[0]; m.OK && m.TotalSupply != nil {
			out.FdvUSD = Decimal(UnitsFloat(m.TotalSupply, m.Decimals) * usd)
		}
	}
	return out, nil
}

// Holder is a holder's live balance and share of the total supply.
type Holder struct {
	Address  string
	Amount   string // token units
	SharePct string
}

// HoldersLimit is how many holders Holders returns.
const HoldersLimit = 20

// Holders returns a token's largest holders: candidates from the index, balances read live.
func (s *Service) Holders(ctx context.Context, chainName, addr string) (Token, []Holder, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Token{}, nil, err
	}
	if c.Live != nil {
		return s.liveHolders(ctx, c, addr)
	}
	addr = canonical(chainName, addr)
	t, _, err := s.tokenPools(ctx, chainName, addr)
	if err != nil {
		return Token{}, nil, err
	}
	candidates, err := s.index.TopHolders(ctx, chainName, addr, 2*HoldersLimit)
	if err != nil {
		return Token{}, nil, err
	}
	owners := make([]string, len(candidates))
	for i, b := range candidates {
		owners[i] = b.Holder
	}
	metas, err := c.Source.TokenMetadata(ctx, []string{addr})
	if err != nil {
		return Token{}, nil, err
	}
	supply := metas[0].TotalSupply
	each := make([][]string, len(owners))
	for i := range each {
		each[i] = []string{addr}
	}
	_, balances, _, err := c.Source.Balances(ctx, owners, each)
	if err != nil {
		return Token{}, nil, err
	}
	type row struct {
		owner  string
		amount *big.Int
	}
	rows := make([]row, 0, len(owners))
	for i, o := range owners {
		if b := balances[i][0]; b != nil && b.Sign() > 0 {
			rows = append(rows, row{o, b})
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return b.amount.Cmp(a.amount) })
	out := []Holder{}
	for _, r := range rows[:min(len(rows), HoldersLimit)] {
		h := Holder{Address: display(chainName, r.owner), Amount: Units(r.amount, t.Decimals), SharePct: "0"}
		if supply != nil && supply.Sign() > 0 {
			h.SharePct = Decimal(Ratio(r.amount, supply) * 100)
		}
		out = append(out, h)
	}
	return t, out, nil
}

// Trade is a swap from the point of view of one token: Side buy means the trader bought it.
type Trade struct {
	TxHash      string
	Pool        string
	Side        string
	Trader      string
	TokenAmount string // the token, in token units
	OtherAmount string // the pool's other token, in token units
	PriceUSD    string // the token's USD price in the trade's pool after the trade
	VolumeUSD   string
	Block       int64
	Time        int64
	cursor      string
}

// Cursor is the paging cursor that continues after this trade.
func (t Trade) Cursor() string { return t.cursor }

// TradesLimit is the default page size of Trades.
const TradesLimit = 50

// Trades returns a token's swaps newest first, on one pool when given, after the cursor (from a
// previous page's last trade) when given. ErrInvalid for a malformed cursor or a pool that does not
// trade the token.
func (s *Service) Trades(ctx context.Context, chainName, addr, poolAddr, cursor string, limit int) (Token, []Trade, error) {
	addr = canonical(chainName, addr)
	t, pools, err := s.tokenPools(ctx, chainName, addr)
	if err != nil {
		return Token{}, nil, err
	}
	byAddr := map[string]index.Pool{}
	var addrs []string
	for _, p := range pools {
		if poolAddr == "" || p.Address == canonical(chainName, poolAddr) {
			byAddr[p.Address] = p
			addrs = append(addrs, p.Address)
		}
	}
	if poolAddr != "" && len(addrs) == 0 {
		return Token{}, nil, fmt.Errorf("pool %s does not trade %s: %w", poolAddr, addr, ErrInvalid)
	}
	page := index.Page{Limit: limit}
	if cursor != "" {
		b, l, ok := strings.Cut(cursor, ":")
		block, err1 := strconv.ParseInt(b, 10, 64)
		logIndex, err2 := strconv.Atoi(l)
		if !ok || err1 != nil || err2 != nil || block <= 0 || logIndex < 0 {
			return Token{}, nil, fmt.Errorf("malformed cursor: %w", ErrInvalid)
		}
		page.Block, page.LogIndex = block, logIndex
	}
	out := []Trade{}
	if len(addrs) == 0 {
		return t, out, nil
	}
	events, err := s.index.Trades(ctx, chainName, addrs, page)
	if err != nil {
		return Token{}, nil, err
	}
	others, err := s.otherDecimals(ctx, chainName, addr, pools)
	if err != nil {
		return Token{}, nil, err
	}
	for _, e := range events {
		p := byAddr[e.Pool]
		mine, other, side := e.BaseAmount, e.QuoteAmount, e.Side
		if p.Quote() == addr {
			mine, other = other, mine
			side = map[string]string{"buy": "sell", "sell": "buy"}[side]
		}
		out = append(out, Trade{TxHash: e.TxHash, Pool: display(chainName, e.Pool), Side: side, Trader: display(chainName, e.Trader),
			TokenAmount: UnitsString(mine, t.Decimals), OtherAmount: UnitsString(other, others[e.Pool]),
			PriceUSD: Decimal(tokenPrice(p, addr, e)), VolumeUSD: Decimal(e.VolumeUSD), Block: e.Block, Time: e.Time,
			cursor: strconv.FormatInt(e.Block, 10) + ":" + strconv.Itoa(e.LogIndex)})
	}
	return t, out, nil
}

// otherDecimals returns, per pool, the decimals of the pool's token other than addr.
func (s *Service) otherDecimals(ctx context.Context, chainName, addr string, pools []index.Pool) (map[string]int, error) {
	var others []string
	for _, p := range pools {
		if p.Token0 == addr {
			others = append(others, p.Token1)
		} else {
			others = append(others, p.Token0)
		}
	}
	tokens, err := s.index.Tokens(ctx, chainName, others)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for i, p := range pools {
		out[p.Address] = tokens[others[i]].Decimals
	}
	return out, nil
}

// Trader is one trader's 24-hour activity in a token.
type Trader struct {
	Address   string
	VolumeUSD string
	Buys      int
	Sells     int
}

// TopTradersLimit is how many traders TopTraders returns.
const TopTradersLimit = 20

// TopTraders returns the token's traders of the last 24 hours by USD volume.
func (s *Service) TopTraders(ctx context.Context, chainName, addr string) (Token, []Trader, error) {
	addr = canonical(chainName, addr)
	t, pools, err := s.tokenPools(ctx, chainName, addr)
	if err != nil {
		return Token{}, nil, err
	}
	type acc struct {
		volume      float64
		buys, sells int
	}
	by := map[string]*acc{}
	for _, p := range pools {
		swaps, err := s.index.Swaps(ctx, chainName, []string{p.Address}, s.now().Unix()-windows[3])
		if err != nil {
			return Token{}, nil, err
		}
		for _, e := range swaps {
			a := by[e.Trader]
			if a == nil {
				a = &acc{}
				by[e.Trader] = a
			}
			a.volume += e.VolumeUSD
			if (e.Side == "buy") != (p.Quote() == addr) {
				a.buys++
			} else {
				a.sells++
			}
		}
	}
	traders := slices.Collect(maps.Keys(by))
	slices.SortFunc(traders, func(a, b string) int {
		if c := cmpDesc(by[a].volume, by[b].volume, 0, 0); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	out := []Trader{}
	for _, tr := range traders[:min(len(traders), TopTradersLimit)] {
		a := by[tr]
		out = append(out, Trader{Address: display(chainName, tr), VolumeUSD: Decimal(a.volume), Buys: a.buys, Sells: a.sells})
	}
	return t, out, nil
}
