// Package index stores what the chain indexers read (tokens, pools, pool events, holder balances and
// a cursor per chain) and answers the market and portfolio reads from it. It implements chain.Sink.
//
// Writes are atomic per batch and only land on top of the cursor they were read from, so a batch
// applied twice, or by two indexers at once, is stored once. Until a block is final, the index keeps
// what it needs to take it back (Transfer events for balances, reserves on every pool event).
package index

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/indexblock"
	"github.com/partner-platform/partnerd/ent/indexcursor"
	"github.com/partner-platform/partnerd/ent/lpposition"
	"github.com/partner-platform/partnerd/ent/lppositionchange"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/ent/markettoken"
	"github.com/partner-platform/partnerd/ent/poolevent"
	"github.com/partner-platform/partnerd/ent/tokenbalance"
	"github.com/partner-platform/partnerd/ent/tokentransfer"
)

// Store is the index over the service's database. It is safe for concurrent use.
type Store struct {
	db      *ent.Client
	dialect string
	pricing map[string]Pricing // by chain

	fence Fence // nil: writes are not fenced

	mu      sync.Mutex
	markets map[string]*Market // the writer's view of each chain's pools, loaded on first use
}

// Fence checks, inside a write's transaction, that this replica may still write the chain's index;
// an error rolls the write back. Leases.Fence is the one in use.
type Fence func(ctx context.Context, tx *ent.Tx, chainName string) error

// SetFence makes every write (Apply, Rollback, Reset) check f first, in its own transaction. Call
// it before the store is used.
func (s *Store) SetFence(f Fence) { s.fence = f }

// New returns the index on the client; dialect is the store's (entgo.io/ent/dialect); pricing
// anchors each indexed chain's USD prices.
func New(db *ent.Client, dialect string, pricing map[string]Pricing) *Store {
	return &Store{db: db, dialect: dialect, pricing: pricing, markets: map[string]*Market{}}
}

var _ chain.Sink = (*Store)(nil)

// Cursor implements chain.Sink.
func (s *Store) Cursor(ctx context.Context, chainName string) (chain.Cursor, bool, error) {
	c, err := s.db.IndexCursor.Query().Where(indexcursor.Chain(chainName)).Only(ctx)
	if ent.IsNotFound(err) {
		return chain.Cursor{}, false, nil
	}
	if err != nil {
		return chain.Cursor{}, false, fmt.Errorf("index cursor of %s: %w", chainName, err)
	}
	if c.GenesisHash == "" { // reset: nothing indexed
		return chain.Cursor{}, false, nil
	}
	return chain.Cursor{Genesis: c.GenesisHash, Block: c.Block, Hash: c.BlockHash}, true, nil
}

// Version is how far a chain's index has come: its cursor, and how many rollbacks it has had (a
// Reset, which takes everything back, counts as one). A reader that holds index data up to one
// Version can read only what came after it as long as Rollbacks is unchanged; when it changed, data
// it holds may be gone.
type Version struct {
	Block     int64
	Hash      string
	Rollbacks int64
}

// Version returns the chain's index version; ok is false when the chain has nothing indexed (never
// started: Block -1, before any block, so that a reader of what came after it reads block 0 too;
// or reset: then Rollbacks still counts the reset).
func (s *Store) Version(ctx context.Context, chainName string) (v Version, ok bool, err error) {
	c, err := s.db.IndexCursor.Query().Where(indexcursor.Chain(chainName)).Only(ctx)
	if ent.IsNotFound(err) {
		return Version{Block: -1}, false, nil
	}
	if err != nil {
		return Version{}, false, fmt.Errorf("index version of %s: %w", chainName, err)
	}
	return Version{Block: c.Block, Hash: c.BlockHash, Rollbacks: c.Rollbacks}, c.GenesisHash != "", nil
}

// Start implements chain.Sink. After a Reset it reuses the chain's cursor row, which keeps counting
// the rollbacks.
func (s *Store) Start(ctx context.Context, chainName string, c chain.Cursor) error {
	now := time.Now().Unix()
	n, err := s.db.IndexCursor.Update().Where(indexcursor.Chain(chainName), indexcursor.GenesisHash("")).
		SetGenesisHash(c.Genesis).SetBlock(c.Block).SetBlockHash(c.Hash).SetUpdatedAt(now).Save(ctx)
	if err == nil && n == 0 {
		err = s.db.IndexCursor.Create().SetChain(chainName).SetGenesisHash(c.Genesis).SetBlock(c.Block).
			SetBlockHash(c.Hash).SetUpdatedAt(now).Exec(ctx)
	}
	if err != nil {
		return fmt.Errorf("start index of %s: %w", chainName, err)
	}
	return nil
}

// Watched implements chain.Sink.
func (s *Store) Watched(ctx context.Context, chainName string) (pools, tokens []string, err error) {
	if pools, err = s.db.MarketPool.Query().Where(marketpool.Chain(chainName)).Select(marketpool.FieldAddress).Strings(ctx); err != nil {
		return nil, nil, fmt.Errorf("watched pools of %s: %w", chainName, err)
	}
	if tokens, err = s.db.MarketToken.Query().Where(markettoken.Chain(chainName)).Select(markettoken.FieldAddress).Strings(ctx); err != nil {
		return nil, nil, fmt.Errorf("watched tokens of %s: %w", chainName, err)
	}
	return pools, tokens, nil
}

// RecentBlocks implements chain.Sink.
func (s *Store) RecentBlocks(ctx context.Context, chainName string, below int64, limit int) ([]chain.BlockHash, error) {
	rows, err := s.db.IndexBlock.Query().Where(indexblock.Chain(chainName), indexblock.NumberLT(below)).
		Order(ent.Desc(indexblock.FieldNumber)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("recent blocks of %s: %w", chainName, err)
	}
	out := make([]chain.BlockHash, len(rows))
	for i, r := range rows {
		out[i] = chain.BlockHash{Number: uint64(r.Number), Hash: r.Hash}
	}
	return out, nil
}

// Reset implements chain.Sink. The cursor row stays, emptied (Cursor then reports nothing indexed),
// with the reset counted in Rollbacks, so that readers holding index data (the market snapshot)
// notice it and read the index anew.
func (s *Store) Reset(ctx context.Context, chainName string) error {
	err := s.inTx(ctx, chainName, func(tx *ent.Tx) error {
		deletes := []func() error{
			func() error { _, err := tx.PoolEvent.Delete().Where(poolevent.Chain(chainName)).Exec(ctx); return err },
			func() error {
				_, err := tx.TokenTransfer.Delete().Where(tokentransfer.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.TokenBalance.Delete().Where(tokenbalance.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.LPPositionChange.Delete().Where(lppositionchange.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.LPPosition.Delete().Where(lpposition.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.MarketPool.Delete().Where(marketpool.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.MarketToken.Delete().Where(markettoken.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				_, err := tx.IndexBlock.Delete().Where(indexblock.Chain(chainName)).Exec(ctx)
				return err
			},
			func() error {
				return tx.IndexCursor.Update().Where(indexcursor.Chain(chainName)).SetGenesisHash("").SetBlock(-1).
					SetBlockHash("").SetUpdatedAt(time.Now().Unix()).AddRollbacks(1).Exec(ctx)
			},
		}
		for _, d := range deletes {
			if err := d(); err != nil {
				return err
			}
		}
		return nil
	})
	s.forget(chainName) // the writer's view holds the pools that are gone
	if err != nil {
		return fmt.Errorf("reset index of %s: %w", chainName, err)
	}
	return nil
}

// inTx runs fn in a transaction. Whatever happens, the writer's cached view of the chain is dropped
// when the transaction does not commit.
func (s *Store) inTx(ctx context.Context, chainName string, fn func(tx *ent.Tx) error) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	if s.fence != nil {
		if err := s.fence(ctx, tx, chainName); err != nil {
			return errors.Join(err, tx.Rollback())
		}
	}
	if err := fn(tx); err != nil {
		s.forget(chainName)
		return errors.Join(err, tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		s.forget(chainName)
		return err
	}
	return nil
}

func (s *Store) forget(chainName string) {
	s.mu.Lock()
	delete(s.markets, chainName)
	s.mu.Unlock()
}

// LoadMarket reads a chain's tokens and pools into a fresh Market.
func (s *Store) LoadMarket(ctx context.Context, chainName string) (*Market, error) {
	m := NewMarket(s.pricing[chainName])
	tokens, err := s.db.MarketToken.Query().Where(markettoken.Chain(chainName)).
		Select(markettoken.FieldAddress, markettoken.FieldDecimals).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load market of %s: %w", chainName, err)
	}
	for _, t := range tokens {
		m.AddToken(t.Address, t.Decimals)
	}
	pools, err := s.db.MarketPool.Query().Where(marketpool.Chain(chainName)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load market of %s: %w", chainName, err)
	}
	for _, p := range pools {
		m.AddPool(pool(p).State())
	}
	return m, nil
}

// market returns the writer's view of a chain, loading it on first use.
func (s *Store) market(ctx context.Context, chainName string) (*Market, error) {
	s.mu.Lock()
	m := s.markets[chainName]
	s.mu.Unlock()
	if m != nil {
		return m, nil
	}
	m, err := s.LoadMarket(ctx, chainName)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.markets[chainName] = m
	s.mu.Unlock()
	return m, nil
}

// insert writes rows as multi-row INSERTs of at most 500 rows (under every database's bound-parameter
// limit), without reading ids back.
func (s *Store) insert(ctx context.Context, tx *ent.Tx, table string, columns []string, rows [][]any, conflict ...sql.ConflictOption) error {
	per := min(500, 30000/len(columns)) // well under PostgreSQL's 65535 parameters
	for i := 0; i < len(rows); i += per {
		q := sql.Dialect(s.dialect).Insert(table).Columns(columns...)
		for _, r := range rows[i:min(i+per, len(rows))] {
			q.Values(r...)
		}
		if len(conflict) > 0 {
			q.OnConflict(conflict...)
		}
		query, args := q.Query()
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return err
		}
	}
	return nil
}

func parseInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return new(big.Int)
	}
	return n
}
