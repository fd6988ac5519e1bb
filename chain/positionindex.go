package chain

import "math/big"

// PositionKind is the kind of a PositionChange.
type PositionKind string

// Position change kinds: liquidity added to or removed from a position, and the position's NFT
// moving (minted from the zero address, burned to it, or transferred between owners).
const (
	PositionIncrease PositionKind = "increase"
	PositionDecrease PositionKind = "decrease"
	PositionTransfer PositionKind = "transfer"
)

// PositionChange is one change of a liquidity position held as an NFT of a position manager (a
// Uniswap V3 NonfungiblePositionManager), tied to its pool and tick range. Increase and Decrease set
// Pool, the ticks, Liquidity (what was added or removed, positive) and Amount0, Amount1 (the tokens
// paid in, or freed into what the position is owed). Transfer sets From and To.
type PositionChange struct {
	Manager  string // the position manager, whose NFT the position is
	ID       *big.Int
	Kind     PositionKind
	Block    uint64
	LogIndex uint
	TxHash   string

	Pool                 string
	TickLower, TickUpper int
	Liquidity            *big.Int
	Amount0, Amount1     *big.Int

	From, To string
}
