package uniswapv3

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// Golden logs of the position manager and a pool, as the official contracts emit them (ABI words).
const (
	goldenNPM   = "0xc36442b4a4522e871399cd717abdd847ab11fe88"
	goldenPool  = "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640"
	goldenAlice = "0x00000000000000000000000000000000000a11ce"
	goldenZero  = "0x0000000000000000000000000000000000000000"
)

// word is v as a 32-byte two's complement ABI word, in hex.
func word(v int64) string {
	n := big.NewInt(v)
	if n.Sign() < 0 {
		n.Add(n, twoTo256)
	}
	return fmt.Sprintf("%064x", n)
}

func addrWord(a string) string { return strings.Repeat("0", 24) + a[2:] }

func data(words ...string) []byte {
	b, err := hex.DecodeString(strings.Join(words, ""))
	if err != nil {
		panic(err)
	}
	return b
}

// poolMint is the pool's Mint(sender, owner indexed, tickLower indexed, tickUpper indexed, amount, amount0, amount1).
func poolMint(owner string, lower, upper, amount, a0, a1 int64, index uint) chain.EVMBlockLog {
	return chain.EVMBlockLog{Address: goldenPool, Topics: []string{TopicMint, "0x" + addrWord(owner), "0x" + word(lower), "0x" + word(upper)},
		Data: data(addrWord(goldenNPM), word(amount), word(a0), word(a1)), Block: 9, TxHash: "0xt", Index: index}
}

// poolBurn is the pool's Burn(owner indexed, tickLower indexed, tickUpper indexed, amount, amount0, amount1).
func poolBurn(owner string, lower, upper, amount, a0, a1 int64, index uint) chain.EVMBlockLog {
	return chain.EVMBlockLog{Address: goldenPool, Topics: []string{TopicBurn, "0x" + addrWord(owner), "0x" + word(lower), "0x" + word(upper)},
		Data: data(word(amount), word(a0), word(a1)), Block: 9, TxHash: "0xt", Index: index}
}

// npmLiquidity is the manager's IncreaseLiquidity or DecreaseLiquidity(tokenId indexed, liquidity, amount0, amount1).
func npmLiquidity(topic string, id, liquidity, a0, a1 int64, index uint) chain.EVMBlockLog {
	return chain.EVMBlockLog{Address: goldenNPM, Topics: []string{topic, "0x" + word(id)},
		Data: data(word(liquidity), word(a0), word(a1)), Block: 9, TxHash: "0xt", Index: index}
}

// npmTransfer is the manager's Transfer(from indexed, to indexed, tokenId indexed).
func npmTransfer(from, to string, id int64, index uint) chain.EVMBlockLog {
	return chain.EVMBlockLog{Address: goldenNPM, Topics: []string{TopicTransfer, "0x" + addrWord(from), "0x" + addrWord(to), "0x" + word(id)},
		Block: 9, TxHash: "0xt", Index: index}
}

func TestDecodePositions(t *testing.T) {
	ix := Indexer{Factory: "0x1f98431c8ad98523631ae4a59f267346ea31f984", PositionManager: goldenNPM}
	change := func(kind chain.PositionKind, id int64, index uint) chain.PositionChange {
		return chain.PositionChange{Manager: goldenNPM, ID: big.NewInt(id), Kind: kind, Block: 9, LogIndex: index, TxHash: "0xt"}
	}
	liquidity := func(c chain.PositionChange, lower, upper int, l, a0, a1 int64) chain.PositionChange {
		c.Pool, c.TickLower, c.TickUpper, c.Liquidity, c.Amount0, c.Amount1 = goldenPool, lower, upper, big.NewInt(l), big.NewInt(a0), big.NewInt(a1)
		return c
	}
	transfer := func(c chain.PositionChange, from, to string) chain.PositionChange {
		c.From, c.To = from, to
		return c
	}
	for _, tc := range []struct {
		name string
		tx   []chain.EVMBlockLog
		want []chain.PositionChange
	}{
		{"mint: the pool's Mint, the NFT's mint, IncreaseLiquidity",
			[]chain.EVMBlockLog{poolMint(goldenNPM, -887220, 887220, 1000, 5, 7, 1), npmTransfer(goldenZero, goldenAlice, 7, 2), npmLiquidity(TopicIncreaseLiquidity, 7, 1000, 5, 7, 3)},
			[]chain.PositionChange{transfer(change(chain.PositionTransfer, 7, 2), goldenZero, goldenAlice), liquidity(change(chain.PositionIncrease, 7, 3), -887220, 887220, 1000, 5, 7)}},
		{"decrease: the pool's Burn, DecreaseLiquidity",
			[]chain.EVMBlockLog{poolBurn(goldenNPM, -60, 60, 400, 2, 3, 4), npmLiquidity(TopicDecreaseLiquidity, 7, 400, 2, 3, 5)},
			[]chain.PositionChange{liquidity(change(chain.PositionDecrease, 7, 5), -60, 60, 400, 2, 3)}},
		{"a multicall of two increases: each tied to its own Mint",
			[]chain.EVMBlockLog{poolMint(goldenNPM, -10, 10, 50, 1, 1, 1), npmLiquidity(TopicIncreaseLiquidity, 1, 50, 1, 1, 2),
				poolMint(goldenNPM, -20, 20, 50, 1, 1, 3), npmLiquidity(TopicIncreaseLiquidity, 2, 50, 1, 1, 4)},
			[]chain.PositionChange{liquidity(change(chain.PositionIncrease, 1, 2), -10, 10, 50, 1, 1), liquidity(change(chain.PositionIncrease, 2, 4), -20, 20, 50, 1, 1)}},
		{"a Mint of another owner, or with other amounts, is not the position's",
			[]chain.EVMBlockLog{poolMint(goldenAlice, -10, 10, 50, 1, 1, 1), poolMint(goldenNPM, -10, 10, 50, 1, 2, 2), npmLiquidity(TopicIncreaseLiquidity, 1, 50, 1, 1, 3)},
			nil},
		{"a Mint after the IncreaseLiquidity is not its",
			[]chain.EVMBlockLog{npmLiquidity(TopicIncreaseLiquidity, 1, 50, 1, 1, 1), poolMint(goldenNPM, -10, 10, 50, 1, 1, 2)},
			nil},
		{"an ERC-20-shaped Transfer, and logs of another contract, are not positions",
			[]chain.EVMBlockLog{{Address: goldenNPM, Topics: []string{TopicTransfer, "0x" + addrWord(goldenZero), "0x" + addrWord(goldenAlice)}, Data: data(word(7)), Index: 1},
				func() chain.EVMBlockLog {
					l := npmTransfer(goldenZero, goldenAlice, 7, 2)
					l.Address = goldenPool
					return l
				}()},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ix.DecodePositions(tc.tx); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if got := (Indexer{Factory: ix.Factory}).DecodePositions([]chain.EVMBlockLog{npmTransfer(goldenZero, goldenAlice, 7, 2)}); got != nil {
		t.Fatalf("an indexer without a position manager read %+v", got)
	}
}

// TestDecodeCollect reads a pool's Collect(owner indexed, recipient, tickLower indexed, tickUpper
// indexed, amount0, amount1) as a collect of the two amounts, out of the pool.
func TestDecodeCollect(t *testing.T) {
	l := chain.EVMBlockLog{Address: goldenPool, Topics: []string{TopicCollect, "0x" + addrWord(goldenNPM), "0x" + word(-60), "0x" + word(60)},
		Data: data(addrWord(goldenAlice), word(11), word(13)), Block: 9, TxHash: "0xt", Index: 4}
	e, ok := Indexer{}.DecodeEvent(l)
	if !ok || e.Kind != chain.EventCollect || e.Amount0Out.Int64() != 11 || e.Amount1Out.Int64() != 13 || e.Concentrated != nil ||
		e.Pool != goldenPool || e.LogIndex != 4 {
		t.Fatalf("collect decoded as %+v, %v", e, ok)
	}
	l.Data = l.Data[:64]
	if _, ok := (Indexer{}).DecodeEvent(l); ok {
		t.Fatal("a short Collect decoded")
	}
}

// FuzzDecodePositions feeds the position and pool decoders logs of any shape: they never panic, and
// every liquidity change they read is tied to an earlier pool log of the manager with its liquidity.
func FuzzDecodePositions(f *testing.F) {
	f.Add(uint8(0), uint8(0), []byte(nil), data(addrWord(goldenNPM), word(5), word(1), word(2)), data(word(5), word(1), word(2)), data(word(7), word(-1)))
	f.Add(uint8(1), uint8(1), []byte{1}, data(word(5), word(1), word(2)), data(word(5), word(1), word(2)), []byte(nil))
	f.Add(uint8(2), uint8(2), []byte{0xff}, []byte(nil), []byte(nil), data(word(1<<40)))
	topics := []string{TopicMint, TopicBurn, TopicCollect, TopicIncreaseLiquidity, TopicDecreaseLiquidity, TopicTransfer, TopicSwap, TopicInitialize}
	f.Fuzz(func(t *testing.T, poolKind, npmKind uint8, tick []byte, poolData, npmData, topicWords []byte) {
		topic := func(i int) string { // a topic from the fuzzed words: a tick, an id, an address
			w := make([]byte, 32)
			if len(topicWords) > 0 {
				copy(w, topicWords[(i*32)%len(topicWords):])
			}
			if len(tick) > 0 && i == 2 {
				w[0] = tick[0]
			}
			return "0x" + hex.EncodeToString(w)
		}
		pool := chain.EVMBlockLog{Address: goldenPool, Topics: []string{topics[int(poolKind)%len(topics)], "0x" + addrWord(goldenNPM), topic(2), topic(3)}, Data: poolData, Index: 1}
		npm := chain.EVMBlockLog{Address: goldenNPM, Topics: []string{topics[int(npmKind)%len(topics)], topic(1)}, Data: npmData, Index: 2}
		if npmKind%2 == 1 {
			npm.Topics = append(npm.Topics, topic(2), topic(3))
		}
		ix := Indexer{PositionManager: goldenNPM}
		ix.DecodeEvent(pool)
		ix.DecodeEvent(npm)
		for _, c := range ix.DecodePositions([]chain.EVMBlockLog{pool, npm}) {
			if c.ID == nil || c.ID.Sign() < 0 || c.Manager != goldenNPM || c.LogIndex != 2 {
				t.Fatalf("change %+v", c)
			}
			if c.Kind == chain.PositionTransfer {
				continue
			}
			if c.Pool != goldenPool || c.Liquidity == nil || c.TickLower < -(1<<23) || c.TickUpper >= 1<<23 {
				t.Fatalf("liquidity change %+v not tied to the pool log", c)
			}
			first := 1
			if c.Kind == chain.PositionDecrease {
				first = 0
			}
			if chain.EVMLogWord(pool.Data, first).Cmp(c.Liquidity) != 0 {
				t.Fatalf("change %+v tied to a pool log of another liquidity", c)
			}
		}
	})
}
