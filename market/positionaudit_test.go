package market

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/partner-platform/partnerd/index"
)

// TestPositionFindings: a pool's NFT positions tell who holds its liquidity, by owner (positions of
// one owner summed), as shares of the positions' liquidity; one owner with half or more is a warning.
func TestPositionFindings(t *testing.T) {
	const alice, bob = "0x00000000000000000000000000000000000a11ce", "0x0000000000000000000000000000000000000b0b"
	pos := func(owner string, liquidity int64) index.Position {
		return index.Position{Owner: owner, Liquidity: big.NewInt(liquidity)}
	}
	if f := positionFindings("base", nil); f != nil {
		t.Fatalf("findings without positions: %+v", f)
	}
	codes := func(f []Finding) (out []string) {
		for _, x := range f {
			out = append(out, x.Level+" "+x.Code)
		}
		return out
	}
	concentrated := positionFindings("base", []index.Position{pos(alice, 600), pos(bob, 300), pos(alice, 100)})
	if got, want := codes(concentrated), []string{"info lp_positions", "info lp_top10_holders", "warning lp_concentrated"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("findings %v, want %v", got, want)
	}
	if m := concentrated[0].Message; m != "3 NFT positions hold the pool's liquidity (1000 in liquidity units), owned by 2 owners" {
		t.Errorf("lp_positions: %q", m)
	}
	if m := concentrated[2].Message; m != "one owner, 0x00000000000000000000000000000000000A11cE, holds 70% of the positions' liquidity: it can withdraw most of the pool's liquidity" {
		t.Errorf("lp_concentrated: %q", m)
	}
	spread := positionFindings("base", []index.Position{pos(alice, 400), pos(bob, 600), pos("0x0000000000000000000000000000000000000c0c", 1000)})
	if got := codes(spread)[2]; got != "warning lp_concentrated" {
		t.Fatalf("an owner with exactly half: %v", codes(spread))
	}
	spread = positionFindings("base", []index.Position{pos(alice, 400), pos(bob, 300), pos("0x0000000000000000000000000000000000000c0c", 301)})
	if got := codes(spread)[2]; got != "info lp_spread" {
		t.Fatalf("no owner with half: %v", codes(spread))
	}
}
