package uniswapv3

import (
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// What indexes a Uniswap V3 venue: its factory's PoolCreated logs announce its pools, and each
// pool's Initialize, Swap, Mint, Burn and Collect logs are its events. Each but Collect says what it
// does to the pool's state (chain.ConcentratedChange): Initialize and Swap the whole state after
// them, Mint and Burn the liquidity of a tick range, so the index keeps the price and in-range
// liquidity exactly from logs alone. A Burn of zero liquidity (the position manager's fee poke)
// changes nothing and is not indexed. A Collect (a position's owed tokens, fees and what Burns
// freed, paid out) is a pool event of its own kind, chain.EventCollect: it changes no state and is
// neither a trade nor volume. The position manager's logs (npmindex.go) keep its NFT positions.

// Topics of the events the venue is indexed from (Topics[0], lower-case 0x hex).
var (
	TopicPoolCreated = chain.EVMEventTopic("PoolCreated(address,address,uint24,int24,address)")
	TopicInitialize  = chain.EVMEventTopic("Initialize(uint160,int24)")
	TopicSwap        = chain.EVMEventTopic("Swap(address,address,int256,int256,uint160,uint128,int24)")
	TopicMint        = chain.EVMEventTopic("Mint(address,address,int24,int24,uint128,uint256,uint256)")
	TopicBurn        = chain.EVMEventTopic("Burn(address,int24,int24,uint128,uint256,uint256)")
	TopicCollect     = chain.EVMEventTopic("Collect(address,address,int24,int24,uint128,uint128)")
)

// Indexer reads the pools of one Uniswap V3 factory and their events from logs, and the positions
// of its position manager when it has one.
type Indexer struct {
	Factory         string // lower-case 0x hex
	PositionManager string // lower-case 0x hex; empty: positions are not indexed
}

var (
	_ chain.EVMIndexer         = Indexer{}
	_ chain.EVMPositionIndexer = Indexer{}
	_ chain.EVMVenue           = Venue{}
)

// Indexer reads the pools of cfg's factory and the positions of its position manager (when cfg
// names one); ok is false when cfg names no factory.
func (Venue) Indexer(cfg chain.VenueConfig) (chain.EVMIndexer, bool) {
	if cfg.Factory == "" {
		return nil, false
	}
	return Indexer{Factory: strings.ToLower(cfg.Factory), PositionManager: strings.ToLower(cfg.PositionManager)}, true
}

// Creators is the factory.
func (ix Indexer) Creators() []string { return []string{ix.Factory} }

// CreationTopics is PoolCreated.
func (Indexer) CreationTopics() []string { return []string{TopicPoolCreated} }

// DecodeCreated reads PoolCreated(token0 indexed, token1 indexed, fee indexed, tickSpacing, pool).
// FeeBps is the fee tier in basis points, rounded down (a 0.01 % tier is 1).
func (ix Indexer) DecodeCreated(l chain.EVMBlockLog) (chain.EVMPool, bool) {
	if len(l.Topics) != 4 || l.Topics[0] != TopicPoolCreated || len(l.Data) != 64 || l.Address != ix.Factory {
		return chain.EVMPool{}, false
	}
	fee, ok := topicInt(l.Topics[3])
	if !ok || fee.Sign() < 0 || fee.Cmp(big.NewInt(FeeDenominator)) >= 0 {
		return chain.EVMPool{}, false
	}
	return chain.EVMPool{IndexedPool: chain.IndexedPool{Address: chain.EVMWordAddress(l.Data[32:64]), Venue: Name, FeeBps: int(fee.Int64()) / 100,
		Token0: chain.EVMTopicAddress(l.Topics[1]), Token1: chain.EVMTopicAddress(l.Topics[2])}}, true
}

// PoolTopics are Initialize, Swap, Mint, Burn and Collect.
func (Indexer) PoolTopics() []string {
	return []string{TopicInitialize, TopicSwap, TopicMint, TopicBurn, TopicCollect}
}

// DecodeEvent reads a pool's Initialize(sqrtPriceX96, tick) as a sync, Swap(sender indexed,
// recipient indexed, amount0, amount1, sqrtPriceX96, liquidity, tick) as a swap (a positive amount
// goes into the pool), Mint(sender, owner indexed, tickLower indexed, tickUpper indexed, amount,
// amount0, amount1) and Burn(owner indexed, tickLower indexed, tickUpper indexed, amount, amount0,
// amount1) as a mint and a burn of amount liquidity in the range, and Collect(owner indexed,
// recipient, tickLower indexed, tickUpper indexed, amount0, amount1) as a collect of the amounts.
func (Indexer) DecodeEvent(l chain.EVMBlockLog) (chain.PoolEvent, bool) {
	if len(l.Topics) == 0 {
		return chain.PoolEvent{}, false
	}
	e := chain.PoolEvent{Pool: l.Address, Block: l.Block, LogIndex: l.Index, TxHash: l.TxHash}
	switch l.Topics[0] {
	case TopicInitialize:
		if len(l.Data) != 64 {
			return e, false
		}
		tick, ok := signedWord(l.Data, 1)
		if !ok {
			return e, false
		}
		e.Kind = chain.EventSync
		e.Concentrated = &chain.ConcentratedChange{State: &chain.ConcentratedState{SqrtPriceX96: chain.EVMLogWord(l.Data, 0), Liquidity: new(big.Int), Tick: tick}}
	case TopicSwap:
		if len(l.Data) != 160 || len(l.Topics) != 3 {
			return e, false
		}
		a0, a1 := signedBig(l.Data, 0), signedBig(l.Data, 1)
		tick, ok := signedWord(l.Data, 4)
		if !ok {
			return e, false
		}
		e.Kind = chain.EventSwap
		e.Amount0In, e.Amount0Out = split(a0)
		e.Amount1In, e.Amount1Out = split(a1)
		e.Concentrated = &chain.ConcentratedChange{State: &chain.ConcentratedState{SqrtPriceX96: chain.EVMLogWord(l.Data, 2), Liquidity: chain.EVMLogWord(l.Data, 3), Tick: tick}}
	case TopicMint, TopicBurn:
		lower, okL := topicInt(topicAt(l.Topics, 2))
		upper, okU := topicInt(topicAt(l.Topics, 3))
		first := 1 // Mint's data starts with the sender
		if l.Topics[0] == TopicBurn {
			first = 0
		}
		if len(l.Topics) != 4 || !okL || !okU || len(l.Data) != 32*(first+3) {
			return e, false
		}
		amount := chain.EVMLogWord(l.Data, first)
		if amount.Sign() == 0 {
			return e, false // a fee poke: nothing changes
		}
		e.Concentrated = &chain.ConcentratedChange{LiquidityDelta: amount, TickLower: int(lower.Int64()), TickUpper: int(upper.Int64())}
		if l.Topics[0] == TopicMint {
			e.Kind, e.Amount0In, e.Amount1In = chain.EventMint, chain.EVMLogWord(l.Data, first+1), chain.EVMLogWord(l.Data, first+2)
		} else {
			e.Kind, e.Amount0Out, e.Amount1Out = chain.EventBurn, chain.EVMLogWord(l.Data, first+1), chain.EVMLogWord(l.Data, first+2)
			e.Concentrated.LiquidityDelta = new(big.Int).Neg(amount)
		}
	case TopicCollect:
		if len(l.Topics) != 4 || len(l.Data) != 96 {
			return e, false
		}
		e.Kind, e.Amount0Out, e.Amount1Out = chain.EventCollect, chain.EVMLogWord(l.Data, 1), chain.EVMLogWord(l.Data, 2)
	default:
		return e, false
	}
	return e, true
}

// split is a pool's signed token delta as what went in and what came out.
func split(delta *big.Int) (in, out *big.Int) {
	if delta.Sign() >= 0 {
		return delta, new(big.Int)
	}
	return new(big.Int), new(big.Int).Neg(delta)
}

// twoTo256 is 2^256, for two's complement.
var twoTo256 = new(big.Int).Lsh(big.NewInt(1), 256)

// signedBig is the i-th word of data as a two's complement int256.
func signedBig(data []byte, i int) *big.Int {
	v := chain.EVMLogWord(data, i)
	if v.Bit(255) == 1 {
		v.Sub(v, twoTo256)
	}
	return v
}

// signedWord is the i-th word of data as an int24 (a tick); ok is false outside the int24 range.
func signedWord(data []byte, i int) (int, bool) {
	v := signedBig(data, i)
	if !v.IsInt64() || v.Int64() < -(1<<23) || v.Int64() >= 1<<23 {
		return 0, false
	}
	return int(v.Int64()), true
}

// topicInt is a topic (0x + 64 hex) as a two's complement int256.
func topicInt(t string) (*big.Int, bool) {
	if len(t) != 66 {
		return nil, false
	}
	b, err := hex.DecodeString(t[2:])
	if err != nil {
		return nil, false
	}
	return signedBig(b, 0), true
}

// topicAt is topics[i], "" when there are fewer.
func topicAt(topics []string, i int) string {
	if i < len(topics) {
		return topics[i]
	}
	return ""
}
