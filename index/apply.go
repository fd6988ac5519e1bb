package index

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/indexblock"
	"github.com/partner-platform/partnerd/ent/indexcursor"
	"github.com/partner-platform/partnerd/ent/lppositionchange"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/ent/markettoken"
	"github.com/partner-platform/partnerd/ent/poolevent"
	"github.com/partner-platform/partnerd/ent/tokenbalance"
	"github.com/partner-platform/partnerd/ent/tokentransfer"
)

// Apply implements chain.Sink: one transaction moves the cursor from From-1 to To (or returns
// chain.ErrCursorMoved), stores the new tokens and pools, the pool events priced in USD at the
// reserves they left (the base token's price in that pool, Market.PoolPriceUSD), the pools' latest
// reserves, the Transfer events (until final) and the holder balances they change, and the NFT
// position changes (until final) and the positions they change (positions.go).
func (s *Store) Apply(ctx context.Context, b chain.Batch) error {
	m, err := s.market(ctx, b.Chain)
	if err != nil {
		return fmt.Errorf("apply %s %d..%d: %w", b.Chain, b.From, b.To, err)
	}
	err = s.inTx(ctx, b.Chain, func(tx *ent.Tx) error {
		n, err := tx.IndexCursor.Update().
			Where(indexcursor.Chain(b.Chain), indexcursor.GenesisHash(b.Genesis), indexcursor.Block(int64(b.From)-1)).
			SetBlock(int64(b.To)).SetBlockHash(b.ToHash).SetUpdatedAt(time.Now().Unix()).Save(ctx)
		if err != nil {
			return err
		}
		if n != 1 {
			return chain.ErrCursorMoved
		}
		if err := s.addBlocks(ctx, tx, b); err != nil {
			return err
		}
		if err := s.addTokens(ctx, tx, m, b.Chain, b.Tokens); err != nil {
			return err
		}
		if err := s.addPools(ctx, tx, m, b.Chain, b.Pools); err != nil {
			return err
		}
		if err := s.addEvents(ctx, tx, m, b.Chain, b.Events); err != nil {
			return err
		}
		if err := s.addTransfers(ctx, tx, b.Chain, b.Transfers); err != nil {
			return err
		}
		if err := s.addPositions(ctx, tx, b.Chain, b.Positions); err != nil {
			return err
		}
		// Final blocks cannot be rolled back: their undo data goes (the final block's hash stays as
		// the floor of a reorg's walk back).
		if _, err = tx.TokenTransfer.Delete().Where(tokentransfer.Chain(b.Chain), tokentransfer.BlockLTE(int64(b.Final))).Exec(ctx); err != nil {
			return err
		}
		if _, err = tx.LPPositionChange.Delete().Where(lppositionchange.Chain(b.Chain), lppositionchange.BlockLTE(int64(b.Final))).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.IndexBlock.Delete().Where(indexblock.Chain(b.Chain), indexblock.NumberLT(int64(b.Final))).Exec(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("apply %s %d..%d: %w", b.Chain, b.From, b.To, err)
	}
	return nil
}

func (s *Store) addBlocks(ctx context.Context, tx *ent.Tx, b chain.Batch) error {
	rows := make([][]any, len(b.Blocks))
	for i, bh := range b.Blocks {
		rows[i] = []any{b.Chain, int64(bh.Number), bh.Hash}
	}
	return s.insert(ctx, tx, indexblock.Table, []string{indexblock.FieldChain, indexblock.FieldNumber, indexblock.FieldHash}, rows,
		sql.ConflictColumns(indexblock.FieldChain, indexblock.FieldNumber), sql.ResolveWithNewValues())
}

func (s *Store) addTokens(ctx context.Context, tx *ent.Tx, m *Market, chainName string, tokens []chain.IndexedToken) error {
	rows := make([][]any, len(tokens))
	for i, t := range tokens {
		rows[i] = []any{chainName, t.Address, t.Symbol, t.Name, t.Decimals, t.LP, int64(t.Block)}
		m.AddToken(t.Address, t.Decimals)
	}
	return s.insert(ctx, tx, markettoken.Table, []string{markettoken.FieldChain, markettoken.FieldAddress, markettoken.FieldSymbol,
		markettoken.FieldName, markettoken.FieldDecimals, markettoken.FieldLp, markettoken.FieldDiscoveredBlock}, rows,
		sql.ConflictColumns(markettoken.FieldChain, markettoken.FieldAddress), sql.DoNothing())
}

func (s *Store) addPools(ctx context.Context, tx *ent.Tx, m *Market, chainName string, pools []chain.IndexedPool) error {
	rows := make([][]any, 0, len(pools))
	for _, p := range pools {
		if _, known := m.Pool(p.Address); known {
			continue
		}
		baseIs0 := s.pricing[chainName].Orient(p.Token0, p.Token1)
		var lp any // NULL: the pool's own address is its LP token (MarketPool's lp_token)
		if p.LPToken != "" {
			lp = p.LPToken
		}
		rows = append(rows, []any{chainName, p.Address, p.Venue, p.Token0, p.Token1, baseIs0, p.FeeBps, int64(p.Block), p.Time, "0", "0", int64(p.Block), lp})
		m.AddPool(&PoolState{Address: p.Address, Token0: p.Token0, Token1: p.Token1, BaseIsToken0: baseIs0, Reserve0: new(big.Int), Reserve1: new(big.Int)})
	}
	return s.insert(ctx, tx, marketpool.Table, []string{marketpool.FieldChain, marketpool.FieldAddress, marketpool.FieldVenue,
		marketpool.FieldToken0, marketpool.FieldToken1, marketpool.FieldBaseIsToken0, marketpool.FieldFeeBps, marketpool.FieldCreatedBlock,
		marketpool.FieldCreatedAt, marketpool.FieldReserve0, marketpool.FieldReserve1, marketpool.FieldStateBlock, marketpool.FieldLpToken}, rows)
}

var eventColumns = []string{poolevent.FieldChain, poolevent.FieldPool, poolevent.FieldBlock, poolevent.FieldLogIndex,
	poolevent.FieldTxHash, poolevent.FieldKind, poolevent.FieldSide, poolevent.FieldTrader, poolevent.FieldBaseAmount,
	poolevent.FieldQuoteAmount, poolevent.FieldReserve0, poolevent.FieldReserve1, poolevent.FieldPriceUsd,
	poolevent.FieldPriceNative, poolevent.FieldVolumeUsd, poolevent.FieldTime, poolevent.FieldSqrtPriceX96, poolevent.FieldLiquidity,
	poolevent.FieldTick}

// addEvents stores pool events in chain order. A Sync is folded into the Swap, Mint or Burn that
// follows it in the same transaction (the pair emits it just before them), so each row carries the
// reserves it left; a Sync on its own is stored as a sync row.
func (s *Store) addEvents(ctx context.Context, tx *ent.Tx, m *Market, chainName string, events []chain.PoolEvent) error {
	rows := make([][]any, 0, len(events))
	pending := map[string]*chain.PoolEvent{} // pool -> Sync not yet folded into an event
	touched := map[string]uint64{}           // pool -> block of its latest reserves
	row := func(e *chain.PoolEvent, p *PoolState) {
		r := eventRow(m, p, e)
		rows = append(rows, append([]any{chainName}, r...))
	}
	for i := range events {
		e := &events[i]
		p, ok := m.Pool(e.Pool)
		if !ok {
			return fmt.Errorf("event of unknown pool %s at block %d", e.Pool, e.Block)
		}
		if e.Concentrated != nil {
			concentrate(p, e)
		}
		if e.Concentrated != nil && e.Kind != chain.EventSync {
			touched[e.Pool] = e.Block
		}
		if e.Kind == chain.EventSync {
			if prev := pending[e.Pool]; prev != nil {
				row(prev, p)
			}
			p.Reserve0, p.Reserve1 = e.Reserve0, e.Reserve1
			touched[e.Pool] = e.Block
			pending[e.Pool] = e
			continue
		}
		if prev := pending[e.Pool]; prev != nil && prev.TxHash != e.TxHash {
			row(prev, p) // a Sync of an earlier transaction stands alone
		}
		delete(pending, e.Pool)
		row(e, p)
	}
	for _, pool := range slices.Sorted(maps.Keys(pending)) {
		p, _ := m.Pool(pool)
		row(pending[pool], p)
	}
	if err := s.insert(ctx, tx, poolevent.Table, eventColumns, rows); err != nil {
		return err
	}
	for _, pool := range slices.Sorted(maps.Keys(touched)) {
		p, _ := m.Pool(pool)
		u := tx.MarketPool.Update().Where(marketpool.Chain(chainName), marketpool.Address(pool)).
			SetReserve0(p.Reserve0.String()).SetReserve1(p.Reserve1.String()).SetStateBlock(int64(touched[pool]))
		if c := p.Concentrated; c != nil {
			u.SetSqrtPriceX96(c.SqrtPriceX96.String()).SetLiquidity(c.Liquidity.String()).SetTick(c.Tick)
		}
		if err := u.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// concentrate applies an event of a concentrated-liquidity pool to the pool's state and sets the
// event's reserves to the virtual reserves it leaves (a Mint or Burn before the pool's first
// Initialize changes nothing).
func concentrate(p *PoolState, e *chain.PoolEvent) {
	change := *e.Concentrated
	if p.Concentrated == nil && change.State == nil {
		return
	}
	var now chain.ConcentratedState
	if p.Concentrated != nil {
		now = *p.Concentrated
	}
	now = now.Apply(change)
	p.Concentrated = &now
	p.Reserve0, p.Reserve1 = now.Reserves()
	e.Reserve0, e.Reserve1 = p.Reserve0, p.Reserve1
}

// eventRow is a pool_events row (without the chain) for an event of pool p, whose reserves already
// are those the event left.
func eventRow(m *Market, p *PoolState, e *chain.PoolEvent) []any {
	base0 := p.BaseIsToken0
	pick := func(a0, a1 *big.Int) (base, quote *big.Int) {
		a0, a1 = orZero(a0), orZero(a1)
		if base0 {
			return a0, a1
		}
		return a1, a0
	}
	side := "none"
	var base, quote *big.Int
	switch e.Kind {
	case chain.EventSwap:
		baseIn, quoteIn := pick(e.Amount0In, e.Amount1In)
		baseOut, quoteOut := pick(e.Amount0Out, e.Amount1Out)
		if baseOut.Cmp(baseIn) > 0 {
			side = "buy"
			base, quote = new(big.Int).Sub(baseOut, baseIn), new(big.Int).Sub(quoteIn, quoteOut)
		} else {
			side = "sell"
			base, quote = new(big.Int).Sub(baseIn, baseOut), new(big.Int).Sub(quoteOut, quoteIn)
		}
		quote.Abs(quote)
	case chain.EventMint:
		base, quote = pick(e.Amount0In, e.Amount1In)
	case chain.EventBurn, chain.EventCollect:
		base, quote = pick(e.Amount0Out, e.Amount1Out)
	default:
		base, quote = new(big.Int), new(big.Int)
	}
	priceUSD, _ := m.PoolPriceUSD(p) // the base token's price in this pool, 0 when its quote is unpriced
	var volume float64
	if e.Kind == chain.EventSwap {
		if quoteUSD, _, _, ok := m.PriceUSD(p.Quote()); ok {
			volume = m.Human(p.Quote(), quote) * quoteUSD
		} else if baseUSD, _, _, ok := m.PriceUSD(p.Base()); ok {
			volume = m.Human(p.Base(), base) * baseUSD
		}
	}
	var sqrtPrice, liquidity, tick any // NULL for a pair
	if c := p.Concentrated; c != nil {
		sqrtPrice, liquidity, tick = c.SqrtPriceX96.String(), c.Liquidity.String(), c.Tick
	}
	return []any{e.Pool, int64(e.Block), int(e.LogIndex), e.TxHash, string(e.Kind), side, e.Trader, base.String(), quote.String(),
		p.Reserve0.String(), p.Reserve1.String(), priceUSD, m.PoolPrice(p), volume, e.Time, sqrtPrice, liquidity, tick}
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// zeroAddress is where ERC-20 mints come from and burns go: it is not a holder.
const zeroAddress = "0x0000000000000000000000000000000000000000"

// addTransfers keeps the batch's Transfer events (for rollback) and applies them to the balances.
func (s *Store) addTransfers(ctx context.Context, tx *ent.Tx, chainName string, transfers []chain.Transfer) error {
	rows := make([][]any, len(transfers))
	deltas := balanceDeltas{}
	for i, t := range transfers {
		rows[i] = []any{chainName, t.Token, t.From, t.To, t.Value.String(), int64(t.Block), int(t.LogIndex)}
		deltas.add(t.Token, t.From, new(big.Int).Neg(t.Value))
		deltas.add(t.Token, t.To, t.Value)
	}
	if err := s.insert(ctx, tx, tokentransfer.Table, []string{tokentransfer.FieldChain, tokentransfer.FieldToken,
		tokentransfer.FieldFrom, tokentransfer.FieldTo, tokentransfer.FieldValue, tokentransfer.FieldBlock, tokentransfer.FieldLogIndex}, rows); err != nil {
		return err
	}
	return s.applyDeltas(ctx, tx, chainName, deltas)
}

// balanceDeltas is the change of each holder's balance of each token.
type balanceDeltas map[string]map[string]*big.Int // token -> holder -> delta

func (d balanceDeltas) add(token, holder string, v *big.Int) {
	if holder == zeroAddress {
		return
	}
	if d[token] == nil {
		d[token] = map[string]*big.Int{}
	}
	if cur := d[token][holder]; cur != nil {
		cur.Add(cur, v)
		return
	}
	d[token][holder] = new(big.Int).Set(v)
}

// applyDeltas adds the deltas to the stored balances, in a fixed order so concurrent writers lock
// rows alike. A balance that would go below zero (its history started before the index did) stops
// at zero; zero balances have no row.
func (s *Store) applyDeltas(ctx context.Context, tx *ent.Tx, chainName string, deltas balanceDeltas) error {
	for _, token := range slices.Sorted(maps.Keys(deltas)) {
		holders := slices.Sorted(maps.Keys(deltas[token]))
		current := map[string]*big.Int{}
		for i := 0; i < len(holders); i += 500 {
			rows, err := tx.TokenBalance.Query().Where(tokenbalance.Chain(chainName), tokenbalance.Token(token),
				tokenbalance.HolderIn(holders[i:min(i+500, len(holders))]...)).All(ctx)
			if err != nil {
				return err
			}
			for _, r := range rows {
				current[r.Holder] = parseInt(r.Balance)
			}
		}
		var upserts [][]any
		var zero []string
		for _, h := range holders {
			d := deltas[token][h]
			if d.Sign() == 0 {
				continue
			}
			v := orZero(current[h])
			v.Add(v, d)
			if v.Sign() <= 0 {
				if current[h] != nil {
					zero = append(zero, h)
				}
				continue
			}
			upserts = append(upserts, []any{chainName, token, h, padBalance(v)})
		}
		if err := s.insert(ctx, tx, tokenbalance.Table, []string{tokenbalance.FieldChain, tokenbalance.FieldToken,
			tokenbalance.FieldHolder, tokenbalance.FieldBalance}, upserts,
			sql.ConflictColumns(tokenbalance.FieldChain, tokenbalance.FieldToken, tokenbalance.FieldHolder),
			sql.ResolveWithNewValues()); err != nil {
			return err
		}
		for i := 0; i < len(zero); i += 500 {
			if _, err := tx.TokenBalance.Delete().Where(tokenbalance.Chain(chainName), tokenbalance.Token(token),
				tokenbalance.HolderIn(zero[i:min(i+500, len(zero))]...)).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// balanceWidth is the number of decimal digits of the largest uint256.
const balanceWidth = 78

func padBalance(v *big.Int) string {
	return fmt.Sprintf("%0*s", balanceWidth, v.String())
}
