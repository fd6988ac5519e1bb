package chain

import (
	"context"
	"errors"
	"math/big"
)

// What an indexer reads from a chain and hands to a Sink. Addresses are in canonical form
// (lower-case 0x hex on EVM chains); amounts are base units.

// EventKind is the kind of a pool event.
type EventKind string

// Pool event kinds. A Sync carries the pool's reserves after the event it accompanies; the
// Uniswap V2 pair emits it just before every Swap, Mint and Burn.
const (
	EventSwap EventKind = "swap"
	EventMint EventKind = "mint"
	EventBurn EventKind = "burn"
	EventSync EventKind = "sync"
	// EventCollect is a concentrated-liquidity pool's Collect: a position's owed tokens (fees and
	// what a Burn freed) paid out. Its amounts are the two Out; it is neither a trade nor volume.
	EventCollect EventKind = "collect"
)

// BlockHash is a block number and its hash.
type BlockHash struct {
	Number uint64
	Hash   string
}

// IndexedToken is a token the indexer has started to follow.
type IndexedToken struct {
	Address  string
	Symbol   string
	Name     string
	Decimals int
	LP       bool   // a pool's own LP token
	Block    uint64 // block of the pool that introduced it
}

// IndexedPool is a pool created by a configured factory.
type IndexedPool struct {
	Address string
	Venue   string
	Token0  string
	Token1  string
	FeeBps  int
	Block   uint64
	Time    int64
	// LPToken is the pool's LP token when it is a token of its own (a Solana venue's LP mint: the
	// Solana follower sets it from SVMPool.LPMint). Empty means the pool's own address is its LP
	// token (a Uniswap V2 pair), or that the pool has no fungible LP token (Uniswap V3); the EVM
	// follower leaves it empty.
	LPToken string
}

// PoolEvent is one Swap, Mint, Burn, Sync or Collect log of an indexed pool. Amounts not carried by
// the kind are nil: a Swap sets the four In/Out amounts, a Mint the two In, a Burn and a Collect the
// two Out, a Sync the reserves. An event of a concentrated-liquidity pool carries Concentrated instead of
// reserves: the index derives the pool's reserves from its state (ConcentratedState.Reserves).
type PoolEvent struct {
	Pool     string
	Kind     EventKind
	Block    uint64
	LogIndex uint
	TxHash   string
	Trader   string // the transaction's sender
	Time     int64

	Amount0In, Amount1In, Amount0Out, Amount1Out *big.Int
	Reserve0, Reserve1                           *big.Int
	Concentrated                                 *ConcentratedChange
}

// ConcentratedChange is what an event of a concentrated-liquidity pool (Uniswap V3) says of the
// pool's state: the whole state after it (Initialize, Swap), or the liquidity a Mint adds or a
// Burn removes in a tick range, which changes the in-range liquidity when the range holds the
// pool's current tick (TickLower <= tick < TickUpper, as the pool decides).
type ConcentratedChange struct {
	State                *ConcentratedState // after the event; nil for a Mint or Burn
	LiquidityDelta       *big.Int           // Mint: positive, Burn: negative
	TickLower, TickUpper int
}

// ConcentratedState is a concentrated-liquidity pool's price and in-range liquidity.
type ConcentratedState struct {
	SqrtPriceX96 *big.Int // sqrt(token1 per token0) in Q64.96
	Liquidity    *big.Int
	Tick         int
}

// Apply is the state after change: its State when it has one, else s with the liquidity of a range
// holding the tick changed by LiquidityDelta.
func (s ConcentratedState) Apply(change ConcentratedChange) ConcentratedState {
	if change.State != nil {
		return *change.State
	}
	if change.LiquidityDelta != nil && s.Liquidity != nil && change.TickLower <= s.Tick && s.Tick < change.TickUpper {
		s.Liquidity = new(big.Int).Add(s.Liquidity, change.LiquidityDelta)
	}
	return s
}

// q96 is 2^96, the scale of sqrt prices.
var q96 = new(big.Int).Lsh(big.NewInt(1), 96)

// Reserves are the pool's virtual reserves: what a constant-product pool with the same depth at the
// current price would hold, L/sqrt(P) of token0 and L*sqrt(P) of token1 (rounded down). Their ratio
// is the pool's price, and their value its in-range liquidity at that price: the market prices and
// ranks a concentrated pool by them as by a pair's reserves. Zero without liquidity in range.
func (s ConcentratedState) Reserves() (r0, r1 *big.Int) {
	if s.SqrtPriceX96 == nil || s.SqrtPriceX96.Sign() == 0 || s.Liquidity == nil || s.Liquidity.Sign() <= 0 {
		return new(big.Int), new(big.Int)
	}
	r0 = new(big.Int).Lsh(s.Liquidity, 96)
	r0.Quo(r0, s.SqrtPriceX96)
	r1 = new(big.Int).Mul(s.Liquidity, s.SqrtPriceX96)
	r1.Quo(r1, q96)
	return r0, r1
}

// Transfer is one ERC-20 Transfer of an indexed token, or a balance change the token reports with
// another event: the wrapped native token's Deposit (wrap) is a Transfer from the zero address (a
// mint) and its Withdrawal (unwrap) a Transfer to it (a burn).
type Transfer struct {
	Token    string
	From     string
	To       string
	Value    *big.Int
	Block    uint64
	LogIndex uint
}

// Batch is everything an indexer read in the block range From..To (inclusive), in chain order. A
// Sink applies a batch whole or not at all, and only on top of the cursor From-1.
type Batch struct {
	Chain   string
	Genesis string // hash of block 0: tells this chain from another
	From    uint64
	To      uint64
	ToHash  string // hash of block To, kept to notice a reorg
	Final   uint64 // blocks up to Final are past the confirmation depth: their undo data may go

	Blocks    []BlockHash // blocks read (at least To), kept until final to find a reorg's common ancestor
	Tokens    []IndexedToken
	Pools     []IndexedPool
	Events    []PoolEvent
	Transfers []Transfer
	Positions []PositionChange // changes of NFT liquidity positions, in chain order
}

// Cursor is how far a chain is indexed: every block up to Block. Block is -1 (and Hash empty)
// when the start block is 0 and nothing is read yet.
type Cursor struct {
	Genesis string
	Block   int64
	Hash    string
}

// ErrCursorMoved is returned by Sink.Apply when the index no longer ends at the batch's From-1:
// another indexer got there first, or a rollback happened. Re-read the cursor and carry on.
var ErrCursorMoved = errors.New("index cursor moved")

// Sink stores what indexers read. Every method is atomic.
type Sink interface {
	// Cursor returns the chain's cursor; ok is false when nothing is indexed yet.
	Cursor(ctx context.Context, chain string) (c Cursor, ok bool, err error)
	// Start sets the cursor of a chain with nothing indexed (c.Block: the block before the start block).
	Start(ctx context.Context, chain string, c Cursor) error
	// Apply stores a batch and moves the cursor to its To; ErrCursorMoved when the cursor is not at From-1.
	Apply(ctx context.Context, b Batch) error
	// Rollback removes everything above block keep and moves the cursor back to it (hash given).
	Rollback(ctx context.Context, chain string, keep uint64, keepHash string) error
	// RecentBlocks returns the kept block hashes below block `below`, newest first, at most limit.
	RecentBlocks(ctx context.Context, chain string, below int64, limit int) ([]BlockHash, error)
	// Reset forgets everything indexed on the chain.
	Reset(ctx context.Context, chain string) error
	// Watched returns the pools and tokens (LP tokens included) whose logs the indexer reads.
	Watched(ctx context.Context, chain string) (pools, tokens []string, err error)
}
