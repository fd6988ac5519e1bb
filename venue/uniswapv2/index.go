package uniswapv2

import (
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// What indexes a Uniswap V2 venue: its factory's PairCreated logs announce its pairs, and each
// pair's Sync, Swap, Mint and Burn logs are its events (a pair is also its own LP token, whose
// Transfer events the follower reads as a token's).

// Topics of the events the venue is indexed from (Topics[0], lower-case 0x hex).
var (
	TopicPairCreated = chain.EVMEventTopic("PairCreated(address,address,address,uint256)")
	TopicSync        = chain.EVMEventTopic("Sync(uint112,uint112)")
	TopicSwap        = chain.EVMEventTopic("Swap(address,uint256,uint256,uint256,uint256,address)")
	TopicMint        = chain.EVMEventTopic("Mint(address,uint256,uint256)")
	TopicBurn        = chain.EVMEventTopic("Burn(address,uint256,uint256,address)")
)

// Indexer reads the pairs of one Uniswap V2 factory and their events from logs.
type Indexer struct {
	Factory string // lower-case 0x hex
	FeeBps  int    // the pairs' swap fee
}

var (
	_ chain.EVMIndexer = Indexer{}
	_ chain.EVMVenue   = Venue{}
)

// Indexer reads the pairs of cfg's factory; ok is false when cfg names none.
func (Venue) Indexer(cfg chain.VenueConfig) (chain.EVMIndexer, bool) {
	if cfg.Factory == "" {
		return nil, false
	}
	return Indexer{Factory: strings.ToLower(cfg.Factory), FeeBps: cfg.FeeBps}, true
}

// Creators is the factory.
func (ix Indexer) Creators() []string { return []string{ix.Factory} }

// CreationTopics is PairCreated.
func (Indexer) CreationTopics() []string { return []string{TopicPairCreated} }

// DecodeCreated reads PairCreated(token0 indexed, token1 indexed, pair, allPairsLength).
func (ix Indexer) DecodeCreated(l chain.EVMBlockLog) (chain.EVMPool, bool) {
	if len(l.Topics) != 3 || l.Topics[0] != TopicPairCreated || len(l.Data) < 32 || l.Address != ix.Factory {
		return chain.EVMPool{}, false
	}
	return chain.EVMPool{IndexedPool: chain.IndexedPool{Address: chain.EVMWordAddress(l.Data[:32]), Venue: Name, FeeBps: ix.FeeBps,
		Token0: chain.EVMTopicAddress(l.Topics[1]), Token1: chain.EVMTopicAddress(l.Topics[2])}, LP: true}, true
}

// PoolTopics are Sync, Swap, Mint and Burn.
func (Indexer) PoolTopics() []string { return []string{TopicSync, TopicSwap, TopicMint, TopicBurn} }

// DecodeEvent reads a pair's Sync(reserve0, reserve1), Swap(sender indexed, amount0In, amount1In,
// amount0Out, amount1Out, to indexed), Mint(sender indexed, amount0, amount1) or Burn(sender
// indexed, amount0, amount1, to indexed).
func (Indexer) DecodeEvent(l chain.EVMBlockLog) (chain.PoolEvent, bool) {
	if len(l.Topics) == 0 {
		return chain.PoolEvent{}, false
	}
	e := chain.PoolEvent{Pool: l.Address, Block: l.Block, LogIndex: l.Index, TxHash: l.TxHash}
	switch l.Topics[0] {
	case TopicSync:
		if len(l.Data) != 64 {
			return e, false
		}
		e.Kind, e.Reserve0, e.Reserve1 = chain.EventSync, chain.EVMLogWord(l.Data, 0), chain.EVMLogWord(l.Data, 1)
	case TopicSwap:
		if len(l.Data) != 128 || len(l.Topics) != 3 {
			return e, false
		}
		e.Kind = chain.EventSwap
		e.Amount0In, e.Amount1In, e.Amount0Out, e.Amount1Out = chain.EVMLogWord(l.Data, 0), chain.EVMLogWord(l.Data, 1), chain.EVMLogWord(l.Data, 2), chain.EVMLogWord(l.Data, 3)
	case TopicMint:
		if len(l.Data) != 64 {
			return e, false
		}
		e.Kind, e.Amount0In, e.Amount1In = chain.EventMint, chain.EVMLogWord(l.Data, 0), chain.EVMLogWord(l.Data, 1)
	case TopicBurn:
		if len(l.Data) != 64 {
			return e, false
		}
		e.Kind, e.Amount0Out, e.Amount1Out = chain.EventBurn, chain.EVMLogWord(l.Data, 0), chain.EVMLogWord(l.Data, 1)
	default:
		return e, false
	}
	return e, true
}
