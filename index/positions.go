package index

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/lpposition"
	"github.com/partner-platform/partnerd/ent/lppositionchange"
)

// The NFT liquidity positions of position managers (Uniswap V3's NonfungiblePositionManager), as
// their logs leave them (chain.PositionChange): a row per position with its pool, tick range, owner
// and liquidity, kept exact through mints, increases, decreases and transfers. Until a block is
// final, each change is also kept with what it did (the liquidity it added or removed, the owner it
// replaced), so a rollback takes it back, newest first, as balances are taken back from Transfers.

// Position is an indexed NFT liquidity position.
type Position struct {
	Manager              string
	ID                   string // decimal
	Pool                 string // empty until a liquidity change tied it to an indexed pool
	Owner                string // the zero address once burned
	TickLower, TickUpper int
	Liquidity            *big.Int
}

type positionKey struct{ manager, id string }

// addPositions applies the batch's position changes to the positions and keeps them for rollback.
// A decrease below zero (the position's history started before the index did) stops at zero, and
// the change keeps what was taken, so that a rollback gives back exactly that.
func (s *Store) addPositions(ctx context.Context, tx *ent.Tx, chainName string, changes []chain.PositionChange) error {
	if len(changes) == 0 {
		return nil
	}
	keys := make([]positionKey, len(changes))
	for i, c := range changes {
		keys[i] = positionKey{c.Manager, c.ID.String()}
	}
	cur, err := loadPositions(ctx, tx, chainName, keys)
	if err != nil {
		return err
	}
	undo := make([][]any, 0, len(changes))
	for i, c := range changes {
		p := cur[keys[i]]
		if p == nil {
			p = &ent.LPPosition{Chain: chainName, Manager: c.Manager, PositionID: keys[i].id, Owner: zeroAddress, CreatedBlock: int64(c.Block)}
			p.Liquidity = padBalance(new(big.Int))
			cur[keys[i]] = p
		}
		liq, applied, from := parseInt(p.Liquidity), new(big.Int), ""
		if p.Pool == "" && c.Pool != "" { // a position's pool and range never change
			p.Pool, p.TickLower, p.TickUpper = c.Pool, c.TickLower, c.TickUpper
		}
		switch c.Kind {
		case chain.PositionIncrease:
			applied.Set(c.Liquidity)
			liq.Add(liq, applied)
		case chain.PositionDecrease:
			applied.Set(c.Liquidity)
			if applied.Cmp(liq) > 0 {
				applied.Set(liq)
			}
			liq.Sub(liq, applied)
		case chain.PositionTransfer:
			from, p.Owner = p.Owner, c.To
		default:
			return fmt.Errorf("position change of kind %q", c.Kind)
		}
		p.Liquidity = padBalance(liq)
		undo = append(undo, []any{chainName, c.Manager, keys[i].id, string(c.Kind), applied.String(), from, int64(c.Block), int(c.LogIndex)})
	}
	if err := s.insert(ctx, tx, lppositionchange.Table, []string{lppositionchange.FieldChain, lppositionchange.FieldManager,
		lppositionchange.FieldPositionID, lppositionchange.FieldKind, lppositionchange.FieldLiquidity, lppositionchange.FieldFrom,
		lppositionchange.FieldBlock, lppositionchange.FieldLogIndex}, undo); err != nil {
		return err
	}
	return s.savePositions(ctx, tx, cur)
}

// undoPositions takes back the position changes above block `above`, newest first, and removes the
// positions those blocks created.
func (s *Store) undoPositions(ctx context.Context, tx *ent.Tx, chainName string, above int64) error {
	changes, err := tx.LPPositionChange.Query().Where(lppositionchange.Chain(chainName), lppositionchange.BlockGT(above)).
		Order(ent.Desc(lppositionchange.FieldBlock), ent.Desc(lppositionchange.FieldLogIndex)).All(ctx)
	if err != nil || len(changes) == 0 {
		return err
	}
	keys := make([]positionKey, len(changes))
	for i, c := range changes {
		keys[i] = positionKey{c.Manager, c.PositionID}
	}
	cur, err := loadPositions(ctx, tx, chainName, keys)
	if err != nil {
		return err
	}
	for i, c := range changes {
		p := cur[keys[i]]
		if p == nil {
			return fmt.Errorf("position %s of %s changed at block %d is not indexed", c.PositionID, c.Manager, c.Block)
		}
		liq := parseInt(p.Liquidity)
		switch c.Kind {
		case lppositionchange.KindIncrease:
			liq.Sub(liq, parseInt(c.Liquidity))
		case lppositionchange.KindDecrease:
			liq.Add(liq, parseInt(c.Liquidity))
		case lppositionchange.KindTransfer:
			p.Owner = c.From
		}
		p.Liquidity = padBalance(liq)
	}
	if err := s.savePositions(ctx, tx, cur); err != nil {
		return err
	}
	if _, err := tx.LPPosition.Delete().Where(lpposition.Chain(chainName), lpposition.CreatedBlockGT(above)).Exec(ctx); err != nil {
		return err
	}
	_, err = tx.LPPositionChange.Delete().Where(lppositionchange.Chain(chainName), lppositionchange.BlockGT(above)).Exec(ctx)
	return err
}

// loadPositions reads the stored positions of keys.
func loadPositions(ctx context.Context, tx *ent.Tx, chainName string, keys []positionKey) (map[positionKey]*ent.LPPosition, error) {
	byManager := map[string][]string{}
	for _, k := range keys {
		if !slices.Contains(byManager[k.manager], k.id) {
			byManager[k.manager] = append(byManager[k.manager], k.id)
		}
	}
	out := map[positionKey]*ent.LPPosition{}
	for manager, ids := range byManager {
		for i := 0; i < len(ids); i += 500 {
			rows, err := tx.LPPosition.Query().Where(lpposition.Chain(chainName), lpposition.Manager(manager),
				lpposition.PositionIDIn(ids[i:min(i+500, len(ids))]...)).All(ctx)
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				out[positionKey{r.Manager, r.PositionID}] = r
			}
		}
	}
	return out, nil
}

// savePositions upserts positions, in a fixed order so concurrent writers lock rows alike.
func (s *Store) savePositions(ctx context.Context, tx *ent.Tx, positions map[positionKey]*ent.LPPosition) error {
	keys := make([]positionKey, 0, len(positions))
	for k := range positions {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b positionKey) int {
		if a.manager != b.manager {
			return strings.Compare(a.manager, b.manager)
		}
		return strings.Compare(a.id, b.id)
	})
	rows := make([][]any, len(keys))
	for i, k := range keys {
		p := positions[k]
		rows[i] = []any{p.Chain, p.Manager, p.PositionID, p.Pool, p.Owner, p.TickLower, p.TickUpper, p.Liquidity, p.CreatedBlock}
	}
	return s.insert(ctx, tx, lpposition.Table, []string{lpposition.FieldChain, lpposition.FieldManager, lpposition.FieldPositionID,
		lpposition.FieldPool, lpposition.FieldOwner, lpposition.FieldTickLower, lpposition.FieldTickUpper, lpposition.FieldLiquidity,
		lpposition.FieldCreatedBlock}, rows,
		sql.ConflictColumns(lpposition.FieldChain, lpposition.FieldManager, lpposition.FieldPositionID), sql.ResolveWithNewValues())
}

// PoolPositions returns the indexed NFT positions of a pool that hold liquidity, largest first.
func (s *Store) PoolPositions(ctx context.Context, chainName, pool string) ([]Position, error) {
	rows, err := s.db.LPPosition.Query().Where(lpposition.Chain(chainName), lpposition.Pool(pool),
		lpposition.LiquidityNEQ(padBalance(new(big.Int)))).
		Order(ent.Desc(lpposition.FieldLiquidity), ent.Asc(lpposition.FieldManager), ent.Asc(lpposition.FieldPositionID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("positions of %s on %s: %w", pool, chainName, err)
	}
	out := make([]Position, len(rows))
	for i, r := range rows {
		out[i] = position(r)
	}
	return out, nil
}

func position(r *ent.LPPosition) Position {
	return Position{Manager: r.Manager, ID: r.PositionID, Pool: r.Pool, Owner: r.Owner, TickLower: r.TickLower, TickUpper: r.TickUpper,
		Liquidity: parseInt(r.Liquidity)}
}
