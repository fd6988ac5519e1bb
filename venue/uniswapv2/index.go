package uniswapv2

import (
	"encoding/hex"
	"math/big"
	"strings"

	"golang.org/x/crypto/sha3"

	"github.com/partner-platform/partnerd/chain"
)

// What indexes a Uniswap V2 venue: its factory's PairCreated logs announce its pairs, and each
// pair's Sync, Swap, Mint and Burn logs are its events (a pair is also its own LP token, whose
// Transfer events the follower reads as a token's).

// Topics of the events the venue is indexed from (Topics[0], lower-case 0x hex).
var (
	TopicPairCreated = topic("PairCreated(address,address,address,uint256)")
	TopicSync        = topic("Sync(uint112,uint112)")
	TopicSwap        = topic("Swap(address,uint256,uint256,uint256,uint256,address)")
	TopicMint        = topic("Mint(address,uint256,uint256)")
	TopicBurn        = topic("Burn(address,uint256,uint256,address)")
)

// topic is the keccak256 (legacy Keccak, as Solidity hashes) of an event signature.
func topic(signature string) string {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(signature))
	return "0x" + hex.EncodeToString(h.Sum(nil))
}

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
	return chain.EVMPool{IndexedPool: chain.IndexedPool{Address: wordAddress(l.Data[:32]), Venue: Name, FeeBps: ix.FeeBps,
		Token0: topicAddress(l.Topics[1]), Token1: topicAddress(l.Topics[2])}, LP: true}, true
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
		e.Kind, e.Reserve0, e.Reserve1 = chain.EventSync, word(l.Data, 0), word(l.Data, 1)
	case TopicSwap:
		if len(l.Data) != 128 || len(l.Topics) != 3 {
			return e, false
		}
		e.Kind = chain.EventSwap
		e.Amount0In, e.Amount1In, e.Amount0Out, e.Amount1Out = word(l.Data, 0), word(l.Data, 1), word(l.Data, 2), word(l.Data, 3)
	case TopicMint:
		if len(l.Data) != 64 {
			return e, false
		}
		e.Kind, e.Amount0In, e.Amount1In = chain.EventMint, word(l.Data, 0), word(l.Data, 1)
	case TopicBurn:
		if len(l.Data) != 64 {
			return e, false
		}
		e.Kind, e.Amount0Out, e.Amount1Out = chain.EventBurn, word(l.Data, 0), word(l.Data, 1)
	default:
		return e, false
	}
	return e, true
}

// word is the i-th 32-byte word of data, which holds it.
func word(data []byte, i int) *big.Int { return new(big.Int).SetBytes(data[32*i : 32*(i+1)]) }

// wordAddress is the address in the low 20 bytes of a 32-byte word.
func wordAddress(w []byte) string { return "0x" + hex.EncodeToString(w[12:32]) }

// topicAddress is the address in the low 20 bytes of a topic (0x + 64 hex).
func topicAddress(t string) string {
	if len(t) != 66 {
		return ""
	}
	return "0x" + t[26:]
}
