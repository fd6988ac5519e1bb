package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/ent/markettoken"
	"github.com/partner-platform/partnerd/ent/poolevent"
	"github.com/partner-platform/partnerd/ent/predicate"
	"github.com/partner-platform/partnerd/ent/tokenbalance"
)

// ErrNotFound is returned for a token or pool the index does not hold.
var ErrNotFound = errors.New("not in the index")

// Token is an indexed token.
type Token struct {
	Address  string
	Symbol   string
	Name     string
	Decimals int
	LP       bool
}

// Pool is an indexed pool.
type Pool struct {
	Address      string
	Venue        string
	Token0       string
	Token1       string
	BaseIsToken0 bool
	FeeBps       int
	CreatedAt    int64
	Reserve0     string
	Reserve1     string
	StateBlock   int64
	// Concentrated is a concentrated-liquidity pool's state (its reserves are virtual: see
	// chain.ConcentratedState.Reserves); nil for a pair.
	Concentrated *chain.ConcentratedState
	// LPToken is the pool's LP token: a token of its own (a Solana venue's LP mint), or, when the
	// indexer recorded none, the pool's own address (a Uniswap V2 pair is its LP token; a pool
	// without fungible LP tokens, such as a Uniswap V3 pool, has no holder of that address).
	LPToken string
}

// Base returns the pool's base token.
func (p Pool) Base() string {
	if p.BaseIsToken0 {
		return p.Token0
	}
	return p.Token1
}

// Quote returns the pool's quote token.
func (p Pool) Quote() string {
	if p.BaseIsToken0 {
		return p.Token1
	}
	return p.Token0
}

// Event is a stored pool event. Amounts are base units of the pool's base and quote tokens.
type Event struct {
	Pool        string
	Block       int64
	LogIndex    int
	TxHash      string
	Kind        string
	Side        string
	Trader      string
	BaseAmount  string
	QuoteAmount string
	Reserve0    string
	Reserve1    string
	PriceUSD    float64
	PriceNative float64
	VolumeUSD   float64
	Time        int64
}

// Balance is a holder's indexed balance of a token, in base units.
type Balance struct {
	Token   string
	Holder  string
	Balance string
}

func token(t *ent.MarketToken) Token {
	return Token{Address: t.Address, Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals, LP: t.Lp}
}

// State is the pool as the market prices it.
func (p Pool) State() *PoolState {
	return &PoolState{Address: p.Address, Token0: p.Token0, Token1: p.Token1, BaseIsToken0: p.BaseIsToken0,
		Reserve0: parseInt(p.Reserve0), Reserve1: parseInt(p.Reserve1), Concentrated: p.Concentrated}
}

func pool(p *ent.MarketPool) Pool {
	return Pool{Address: p.Address, Venue: p.Venue, Token0: p.Token0, Token1: p.Token1, BaseIsToken0: p.BaseIsToken0,
		FeeBps: p.FeeBps, CreatedAt: p.CreatedAt, Reserve0: p.Reserve0, Reserve1: p.Reserve1, StateBlock: p.StateBlock,
		Concentrated: concentratedState(p.SqrtPriceX96, p.Liquidity, p.Tick), LPToken: cmp.Or(p.LpToken, p.Address)}
}

// concentratedState is a concentrated-liquidity pool's state as stored; nil for a pair (no tick).
func concentratedState(sqrtPrice, liquidity string, tick *int) *chain.ConcentratedState {
	if tick == nil {
		return nil
	}
	return &chain.ConcentratedState{SqrtPriceX96: parseInt(sqrtPrice), Liquidity: parseInt(liquidity), Tick: *tick}
}

func event(e *ent.PoolEvent) Event {
	return Event{Pool: e.Pool, Block: e.Block, LogIndex: e.LogIndex, TxHash: e.TxHash, Kind: string(e.Kind), Side: string(e.Side),
		Trader: e.Trader, BaseAmount: e.BaseAmount, QuoteAmount: e.QuoteAmount, Reserve0: e.Reserve0, Reserve1: e.Reserve1,
		PriceUSD: e.PriceUsd, PriceNative: e.PriceNative, VolumeUSD: e.VolumeUsd, Time: e.Time}
}

// Token returns an indexed token: ErrNotFound when the index does not hold it.
func (s *Store) Token(ctx context.Context, chainName, address string) (Token, error) {
	t, err := s.db.MarketToken.Query().Where(markettoken.Chain(chainName), markettoken.Address(address)).Only(ctx)
	if ent.IsNotFound(err) {
		return Token{}, ErrNotFound
	}
	if err != nil {
		return Token{}, fmt.Errorf("token %s on %s: %w", address, chainName, err)
	}
	return token(t), nil
}

// Tokens returns the indexed tokens among addresses, by address.
func (s *Store) Tokens(ctx context.Context, chainName string, addresses []string) (map[string]Token, error) {
	out := map[string]Token{}
	for i := 0; i < len(addresses); i += 500 {
		rows, err := s.db.MarketToken.Query().Where(markettoken.Chain(chainName), markettoken.AddressIn(addresses[i:min(i+500, len(addresses))]...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("tokens on %s: %w", chainName, err)
		}
		for _, t := range rows {
			out[t.Address] = token(t)
		}
	}
	return out, nil
}

// SearchTokens finds tokens (not LP tokens) whose address equals q (an EVM address in any case, a
// Solana address exactly: base58 is case-sensitive), or whose symbol or name contains it,
// case-insensitively; exact symbol matches first.
func (s *Store) SearchTokens(ctx context.Context, chainName, q string, limit int) ([]Token, error) {
	addr := q
	if chain.IsEVMAddress(q) {
		addr = strings.ToLower(q)
	}
	q = strings.ToLower(q)
	like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(q) + "%"
	matches := func(column string) predicate.MarketToken {
		return func(s *sql.Selector) {
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString("LOWER(").Ident(s.C(column)).WriteString(") LIKE ").Arg(like).WriteString(` ESCAPE '\'`)
			}))
		}
	}
	rows, err := s.db.MarketToken.Query().Where(markettoken.Chain(chainName), markettoken.Lp(false),
		markettoken.Or(markettoken.Address(addr), matches(markettoken.FieldSymbol), matches(markettoken.FieldName))).
		Order(ent.Asc(markettoken.FieldSymbol), ent.Asc(markettoken.FieldAddress)).Limit(limit * 4).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("search tokens on %s: %w", chainName, err)
	}
	out := make([]Token, 0, len(rows))
	for _, exact := range []bool{true, false} {
		for _, t := range rows {
			if (strings.ToLower(t.Symbol) == q || t.Address == addr) == exact {
				out = append(out, token(t))
			}
		}
	}
	return out[:min(limit, len(out))], nil
}

// Pool returns an indexed pool: ErrNotFound when the index does not hold it.
func (s *Store) Pool(ctx context.Context, chainName, address string) (Pool, error) {
	p, err := s.db.MarketPool.Query().Where(marketpool.Chain(chainName), marketpool.Address(address)).Only(ctx)
	if ent.IsNotFound(err) {
		return Pool{}, ErrNotFound
	}
	if err != nil {
		return Pool{}, fmt.Errorf("pool %s on %s: %w", address, chainName, err)
	}
	return pool(p), nil
}

// PoolsOfLPTokens returns, by LP token, the indexed pools whose LP tokens are among tokens
// (canonical addresses): a pool whose lp_token is one of them, or, for a pool with none recorded,
// whose own address is (see Pool.LPToken). A token that is no indexed pool's LP token is left out.
func (s *Store) PoolsOfLPTokens(ctx context.Context, chainName string, tokens []string) (map[string]Pool, error) {
	out := map[string]Pool{}
	for i := 0; i < len(tokens); i += 500 {
		part := tokens[i:min(i+500, len(tokens))]
		rows, err := s.db.MarketPool.Query().Where(marketpool.Chain(chainName), marketpool.Or(
			marketpool.LpTokenIn(part...),
			marketpool.And(marketpool.LpTokenIsNil(), marketpool.AddressIn(part...)),
		)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("pools of LP tokens on %s: %w", chainName, err)
		}
		for _, r := range rows {
			p := pool(r)
			out[p.LPToken] = p
		}
	}
	return out, nil
}

// PoolsOf returns the pools trading a token, oldest first.
func (s *Store) PoolsOf(ctx context.Context, chainName, token string) ([]Pool, error) {
	return s.pools(ctx, chainName, marketpool.Or(marketpool.Token0(token), marketpool.Token1(token)))
}

// Pools returns every indexed pool of a chain, oldest first.
func (s *Store) Pools(ctx context.Context, chainName string) ([]Pool, error) {
	return s.pools(ctx, chainName)
}

// PoolsChangedAfter returns the pools created, or whose reserves changed, after block, oldest first.
// A pool's state block is never below its creation block: it is set at creation, moved by every
// change of reserves, and a rollback sets it back no further than the creation.
func (s *Store) PoolsChangedAfter(ctx context.Context, chainName string, block int64) ([]Pool, error) {
	return s.pools(ctx, chainName, marketpool.StateBlockGT(block))
}

// pools returns the chain's pools that match every predicate, oldest first.
func (s *Store) pools(ctx context.Context, chainName string, where ...predicate.MarketPool) ([]Pool, error) {
	rows, err := s.db.MarketPool.Query().Where(append(where, marketpool.Chain(chainName))...).
		Order(ent.Asc(marketpool.FieldCreatedBlock), ent.Asc(marketpool.FieldAddress)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pools on %s: %w", chainName, err)
	}
	out := make([]Pool, len(rows))
	for i, p := range rows {
		out[i] = pool(p)
	}
	return out, nil
}

// Page selects trades newest first: at most Limit, and only those before (Block, LogIndex) when
// Block is set.
type Page struct {
	Limit    int
	Block    int64
	LogIndex int
}

// Trades returns the swaps of the pools, newest first.
func (s *Store) Trades(ctx context.Context, chainName string, pools []string, page Page) ([]Event, error) {
	q := s.db.PoolEvent.Query().Where(poolevent.Chain(chainName), poolevent.PoolIn(pools...), poolevent.KindEQ(poolevent.KindSwap))
	if page.Block > 0 {
		q.Where(poolevent.Or(poolevent.BlockLT(page.Block), poolevent.And(poolevent.Block(page.Block), poolevent.LogIndexLT(page.LogIndex))))
	}
	rows, err := q.Order(ent.Desc(poolevent.FieldBlock), ent.Desc(poolevent.FieldLogIndex)).Limit(page.Limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("trades on %s: %w", chainName, err)
	}
	return events(rows), nil
}

// Events returns every event of a pool with since <= time < until, oldest first.
func (s *Store) Events(ctx context.Context, chainName, pool string, since, until int64) ([]Event, error) {
	rows, err := s.db.PoolEvent.Query().Where(poolevent.Chain(chainName), poolevent.Pool(pool), poolevent.TimeGTE(since), poolevent.TimeLT(until)).
		Order(ent.Asc(poolevent.FieldBlock), ent.Asc(poolevent.FieldLogIndex)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("events of %s on %s: %w", pool, chainName, err)
	}
	return events(rows), nil
}

// Swaps returns the swaps of the pools with since <= time, oldest first.
func (s *Store) Swaps(ctx context.Context, chainName string, pools []string, since int64) ([]Event, error) {
	rows, err := s.db.PoolEvent.Query().Where(poolevent.Chain(chainName), poolevent.PoolIn(pools...),
		poolevent.KindEQ(poolevent.KindSwap), poolevent.TimeGTE(since)).
		Order(ent.Asc(poolevent.FieldBlock), ent.Asc(poolevent.FieldLogIndex)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("swaps on %s: %w", chainName, err)
	}
	return events(rows), nil
}

// ChainEvents returns the chain's pool events of every kind in the blocks after `after` up to upTo
// that happened from time since on, in chain order.
func (s *Store) ChainEvents(ctx context.Context, chainName string, after, upTo, since int64) ([]Event, error) {
	rows, err := s.db.PoolEvent.Query().
		Where(poolevent.Chain(chainName), poolevent.BlockGT(after), poolevent.BlockLTE(upTo), poolevent.TimeGTE(since)).
		Order(ent.Asc(poolevent.FieldBlock), ent.Asc(poolevent.FieldLogIndex)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("events on %s: %w", chainName, err)
	}
	return events(rows), nil
}

// LastEventBefore returns a pool's latest event before time t; ok is false when there is none.
func (s *Store) LastEventBefore(ctx context.Context, chainName, pool string, t int64) (Event, bool, error) {
	e, err := s.db.PoolEvent.Query().Where(poolevent.Chain(chainName), poolevent.Pool(pool), poolevent.TimeLT(t)).
		Order(ent.Desc(poolevent.FieldBlock), ent.Desc(poolevent.FieldLogIndex)).First(ctx)
	if ent.IsNotFound(err) {
		return Event{}, false, nil
	}
	if err != nil {
		return Event{}, false, fmt.Errorf("last event of %s on %s: %w", pool, chainName, err)
	}
	return event(e), true, nil
}

func events(rows []*ent.PoolEvent) []Event {
	out := make([]Event, len(rows))
	for i, e := range rows {
		out[i] = event(e)
	}
	return out
}

// TopHolders returns a token's largest indexed balances, largest first.
func (s *Store) TopHolders(ctx context.Context, chainName, token string, limit int) ([]Balance, error) {
	rows, err := s.db.TokenBalance.Query().Where(tokenbalance.Chain(chainName), tokenbalance.Token(token)).
		Order(ent.Desc(tokenbalance.FieldBalance), ent.Asc(tokenbalance.FieldHolder)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("holders of %s on %s: %w", token, chainName, err)
	}
	out := make([]Balance, len(rows))
	for i, b := range rows {
		out[i] = Balance{Token: b.Token, Holder: b.Holder, Balance: parseInt(b.Balance).String()}
	}
	return out, nil
}

// HolderCount returns the number of holders with a non-zero indexed balance of a token.
func (s *Store) HolderCount(ctx context.Context, chainName, token string) (int, error) {
	n, err := s.db.TokenBalance.Query().Where(tokenbalance.Chain(chainName), tokenbalance.Token(token)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("holder count of %s on %s: %w", token, chainName, err)
	}
	return n, nil
}

// HeldBy returns, per holder, the indexed tokens (LP tokens included) it has a balance of.
func (s *Store) HeldBy(ctx context.Context, chainName string, holders []string) (map[string][]string, error) {
	rows, err := s.db.TokenBalance.Query().Where(tokenbalance.Chain(chainName), tokenbalance.HolderIn(holders...)).
		Order(ent.Asc(tokenbalance.FieldHolder), ent.Asc(tokenbalance.FieldToken)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("tokens held on %s: %w", chainName, err)
	}
	out := map[string][]string{}
	for _, b := range rows {
		out[b.Holder] = append(out[b.Holder], b.Token)
	}
	return out, nil
}

// ConcentratedTicks is the current tick of every indexed concentrated-liquidity pool of the chain
// (address → tick): the EVM adapter's first guess of the tick words a pool's read needs.
func (s *Store) ConcentratedTicks(ctx context.Context, chainName string) (map[string]int, error) {
	rows, err := s.db.MarketPool.Query().Where(marketpool.Chain(chainName), marketpool.TickNotNil()).
		Select(marketpool.FieldAddress, marketpool.FieldTick).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("concentrated pools of %s: %w", chainName, err)
	}
	out := make(map[string]int, len(rows))
	for _, p := range rows {
		out[p.Address] = *p.Tick
	}
	return out, nil
}
