package index

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/indexblock"
	"github.com/partner-platform/partnerd/ent/indexcursor"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/ent/markettoken"
	"github.com/partner-platform/partnerd/ent/poolevent"
	"github.com/partner-platform/partnerd/ent/tokenbalance"
	"github.com/partner-platform/partnerd/ent/tokentransfer"
)

// Rollback implements chain.Sink: in one transaction it takes back the balance changes of the
// Transfer events above keep and the NFT position changes, removes the events, pools, tokens and
// positions those blocks brought, restores each pool's reserves to those of its latest remaining
// event, moves the cursor to keep and counts the rollback in the index's Version.
func (s *Store) Rollback(ctx context.Context, chainName string, keep uint64, keepHash string) error {
	above := int64(keep)
	err := s.inTx(ctx, chainName, func(tx *ent.Tx) error {
		transfers, err := tx.TokenTransfer.Query().Where(tokentransfer.Chain(chainName), tokentransfer.BlockGT(above)).All(ctx)
		if err != nil {
			return err
		}
		deltas := balanceDeltas{}
		for _, t := range transfers {
			v := parseInt(t.Value)
			deltas.add(t.Token, t.From, v)
			deltas.add(t.Token, t.To, new(big.Int).Neg(v))
		}
		if err := s.applyDeltas(ctx, tx, chainName, deltas); err != nil {
			return err
		}
		if _, err := tx.TokenTransfer.Delete().Where(tokentransfer.Chain(chainName), tokentransfer.BlockGT(above)).Exec(ctx); err != nil {
			return err
		}
		if err := s.undoPositions(ctx, tx, chainName, above); err != nil {
			return err
		}
		if _, err := tx.IndexBlock.Delete().Where(indexblock.Chain(chainName), indexblock.NumberGT(above)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.PoolEvent.Delete().Where(poolevent.Chain(chainName), poolevent.BlockGT(above)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.MarketPool.Delete().Where(marketpool.Chain(chainName), marketpool.CreatedBlockGT(above)).Exec(ctx); err != nil {
			return err
		}
		gone, err := tx.MarketToken.Query().Where(markettoken.Chain(chainName), markettoken.DiscoveredBlockGT(above)).
			Select(markettoken.FieldAddress).Strings(ctx)
		if err != nil {
			return err
		}
		if len(gone) > 0 {
			if _, err := tx.TokenBalance.Delete().Where(tokenbalance.Chain(chainName), tokenbalance.TokenIn(gone...)).Exec(ctx); err != nil {
				return err
			}
			if _, err := tx.MarketToken.Delete().Where(markettoken.Chain(chainName), markettoken.AddressIn(gone...)).Exec(ctx); err != nil {
				return err
			}
		}
		if err := restoreReserves(ctx, tx, chainName, above); err != nil {
			return err
		}
		return tx.IndexCursor.Update().Where(indexcursor.Chain(chainName)).
			SetBlock(above).SetBlockHash(keepHash).SetUpdatedAt(time.Now().Unix()).AddRollbacks(1).Exec(ctx)
	})
	s.forget(chainName)
	if err != nil {
		return fmt.Errorf("roll back %s to block %d: %w", chainName, keep, err)
	}
	return nil
}

// restoreReserves sets the reserves (and a concentrated pool's state) of every pool last updated
// above block `above` to those of its latest remaining event (zero, and no state, when none is left).
func restoreReserves(ctx context.Context, tx *ent.Tx, chainName string, above int64) error {
	stale, err := tx.MarketPool.Query().Where(marketpool.Chain(chainName), marketpool.StateBlockGT(above)).All(ctx)
	if err != nil {
		return err
	}
	for _, p := range stale {
		u := tx.MarketPool.UpdateOne(p)
		last, err := tx.PoolEvent.Query().Where(poolevent.Chain(chainName), poolevent.Pool(p.Address)).
			Order(ent.Desc(poolevent.FieldBlock), ent.Desc(poolevent.FieldLogIndex)).First(ctx)
		switch {
		case err == nil:
			u.SetReserve0(last.Reserve0).SetReserve1(last.Reserve1).SetStateBlock(last.Block)
		case ent.IsNotFound(err):
			u.SetReserve0("0").SetReserve1("0").SetStateBlock(p.CreatedBlock)
		default:
			return err
		}
		// Each column set once: PostgreSQL refuses an UPDATE that assigns a column twice.
		if err == nil && last.Tick != nil {
			u.SetSqrtPriceX96(last.SqrtPriceX96).SetLiquidity(last.Liquidity).SetTick(*last.Tick)
		} else {
			u.ClearSqrtPriceX96().ClearLiquidity().ClearTick()
		}
		if err := u.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
