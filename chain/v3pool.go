package chain

import "math/big"

// V3PoolRead asks for one Uniswap V3 pool's state (or a fork's with the same getters and TickLens).
type V3PoolRead struct {
	Pool string
	// Words is how many tick bitmap words to read on each side of the word w holding the current
	// tick (w = floor(tick / tickSpacing) >> 8): 2*Words+1 words, [w-Words, w+Words]. 0 reads w only.
	Words int
	// Word is the caller's guess of w; nil lets the adapter guess it from the pool's last known tick
	// (its last read, its last indexed event). When the guess is right, or close enough that the
	// words it reads cover [w-Words, w+Words], the whole read is one round trip; when there is none
	// (a pool never seen) or it is stale, the missing words are read in a second round trip pinned
	// to the same block.
	Word *int16
	// TickSpacing is the pool's tick spacing when the caller knows it (a fee tier's): with it a
	// tick known from the index gives the word before the pool was ever read. 0: unknown.
	TickSpacing int
	// NoTicks reads the pool's getters alone (slot0, liquidity, tokens, fee, spacing): no tick
	// words, so never a second round trip; the state has no Ticks.
	NoTicks bool
}

// V3PoolState is a Uniswap V3 pool read at one block: its immutables, slot0's price and tick, the
// in-range liquidity and the initialized ticks of the tick bitmap words [WordLow, WordHigh].
type V3PoolState struct {
	Address, Token0, Token1 string
	Fee                     int // pips (hundredths of a basis point): 3000 is 0.3 %
	TickSpacing             int
	SqrtPriceX96            *big.Int
	Tick                    int
	Liquidity               *big.Int
	// Ticks is every initialized tick of the pool in [WordLow*256*TickSpacing,
	// (WordHigh+1)*256*TickSpacing), sorted by Index: a swap that stays within that tick range
	// needs no other tick, one that leaves it needs more words (venue/uniswapv3's ErrTicksExhausted).
	Ticks []V3Tick
	// WordLow and WordHigh are the tick bitmap words read: w-Words and w+Words (clamped to int16)
	// around the word w of the current tick.
	WordLow, WordHigh int16
	Block             uint64 // the block everything was read at
	// OK is false when the address is not a V3 pool (no code, or a getter or TickLens reverted or
	// answered undecodable data); the other fields are then zero.
	OK bool
}

// V3Tick is one initialized tick as TickLens and the pool's ticks(i) report it.
type V3Tick struct {
	Index          int
	LiquidityNet   *big.Int // int128: the liquidity added when the price crosses the tick upwards
	LiquidityGross *big.Int // uint128: the liquidity referencing the tick
}

// CurrentWord is the tick bitmap word of the pool's current tick: floor(floor(Tick/TickSpacing)/256).
func (s V3PoolState) CurrentWord() int16 {
	compressed := floorDiv(s.Tick, s.TickSpacing)
	return int16(floorDiv(compressed, 256))
}

// floorDiv is a/b rounded towards negative infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
