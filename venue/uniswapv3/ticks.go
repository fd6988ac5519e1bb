package uniswapv3

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
)

// ErrTicksExhausted is a swap (or a count) that needs initialized ticks outside the range its
// TickData covers: the caller read too few ticks for it and must read more or refuse the quote.
var ErrTicksExhausted = errors.New("uniswapv3: swap leaves the tick range read")

// Tick is one initialized tick: its index and liquidityNet (the liquidity added when the price
// crosses it upwards; int128 in the pool).
type Tick struct {
	Index        int
	LiquidityNet *big.Int
}

// TickData is the initialized ticks a caller read and the range they cover: Ticks holds every
// initialized tick of the pool in [Lower, Upper], sorted by Index, each a multiple of the tick
// spacing. A swap that needs to know about ticks outside [Lower, Upper] fails with
// ErrTicksExhausted instead of guessing.
type TickData struct {
	Ticks        []Tick
	Lower, Upper int
}

// AllTicks is TickData that holds every initialized tick of the pool.
func AllTicks(ticks []Tick) TickData {
	return TickData{Ticks: ticks, Lower: MinTick, Upper: MaxTick}
}

// WordsTicks is TickData for ticks read by whole tick bitmap words (TickLens's
// getPopulatedTicksInWord for every word from wordLo to wordHi, inclusive).
func WordsTicks(ticks []Tick, tickSpacing, wordLo, wordHi int) TickData {
	return TickData{Ticks: ticks, Lower: wordLo * 256 * tickSpacing, Upper: (wordHi*256 + 255) * tickSpacing}
}

// validate checks the invariants the swap relies on.
func (d TickData) validate(spacing int) error {
	if d.Lower > d.Upper {
		return fmt.Errorf("uniswapv3: tick range [%d, %d] is empty", d.Lower, d.Upper)
	}
	for i, t := range d.Ticks {
		if t.Index%spacing != 0 || t.Index < MinTick || t.Index > MaxTick || t.Index < d.Lower || t.Index > d.Upper {
			return fmt.Errorf("uniswapv3: tick %d is not a multiple of %d in [%d, %d]", t.Index, spacing, d.Lower, d.Upper)
		}
		if i > 0 && d.Ticks[i-1].Index >= t.Index {
			return fmt.Errorf("uniswapv3: ticks not sorted at %d", t.Index)
		}
		if t.LiquidityNet == nil {
			return fmt.Errorf("uniswapv3: tick %d has no liquidityNet", t.Index)
		}
	}
	return nil
}

// known reports whether [lo, hi] (clamped to the ticks that can exist) lies within the range read.
func (d TickData) known(lo, hi int) bool {
	lo, hi = max(lo, MinTick), min(hi, MaxTick)
	return lo > hi || (d.Lower <= lo && hi <= d.Upper)
}

// floorDiv is a/b rounded towards negative infinity, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// nextInitializedTickWithinOneWord is TickBitmap.nextInitializedTickWithinOneWord on the ticks
// read: the next initialized tick at or below tick (lte) or above it, searching only the tick
// bitmap word the contract searches, else that word's last tick in the direction.
func (d TickData) nextInitializedTickWithinOneWord(tick, spacing int, lte bool) (int, int, bool, error) {
	compressed := floorDiv(tick, spacing)
	var lo, hi int // the searched ticks
	if lte {
		lo, hi = ((compressed>>8)<<8)*spacing, compressed*spacing
	} else {
		c := compressed + 1
		lo, hi = c*spacing, (((c>>8)<<8)+255)*spacing
	}
	// i: the first tick above hi (lte) or the first at or above lo.
	var found = -1
	if lte {
		i := sort.Search(len(d.Ticks), func(i int) bool { return d.Ticks[i].Index > hi })
		if i > 0 && d.Ticks[i-1].Index >= lo {
			found = i - 1
		}
	} else {
		i := sort.Search(len(d.Ticks), func(i int) bool { return d.Ticks[i].Index >= lo })
		if i < len(d.Ticks) && d.Ticks[i].Index <= hi {
			found = i
		}
	}
	switch {
	case found >= 0 && lte:
		if !d.known(d.Ticks[found].Index, hi) {
			return 0, 0, false, ErrTicksExhausted
		}
		return d.Ticks[found].Index, found, true, nil
	case found >= 0:
		if !d.known(lo, d.Ticks[found].Index) {
			return 0, 0, false, ErrTicksExhausted
		}
		return d.Ticks[found].Index, found, true, nil
	case !d.known(lo, hi):
		return 0, 0, false, ErrTicksExhausted
	case lte:
		return lo, -1, false, nil
	default:
		return hi, -1, false, nil
	}
}

// CountInitializedTicksCrossed is QuoterV2's PoolTicksCounter.countInitializedTicksCrossed: the
// number of initialized ticks between tickBefore and tickAfter (the pool's tick before and after
// a swap) that the quoter reports as initializedTicksCrossed. It works on the tick bitmap with the
// tick divided by the spacing rounded towards zero, as the library does, so for a negative tick
// that is not a multiple of the spacing it can count a tick the swap did not cross; Swap's
// TicksCrossed is the count of the crossings the swap made.
func CountInitializedTicksCrossed(tickBefore, tickAfter, tickSpacing int, ticks TickData) (int, error) {
	cb, ca := tickBefore/tickSpacing, tickAfter/tickSpacing // Solidity's signed division truncates
	lo, hi := min(cb, ca), max(cb, ca)
	if !ticks.known(lo*tickSpacing, hi*tickSpacing) {
		return 0, ErrTicksExhausted
	}
	has := func(c int) bool {
		i := sort.Search(len(ticks.Ticks), func(i int) bool { return ticks.Ticks[i].Index >= c*tickSpacing })
		return i < len(ticks.Ticks) && ticks.Ticks[i].Index == c*tickSpacing
	}
	n := 0
	for _, t := range ticks.Ticks {
		if c := t.Index / tickSpacing; c >= lo && c <= hi {
			n++
		}
	}
	if has(ca) && tickAfter%tickSpacing == 0 && tickBefore > tickAfter {
		n--
	}
	if has(cb) && tickBefore%tickSpacing == 0 && tickBefore < tickAfter {
		n--
	}
	return n, nil
}
