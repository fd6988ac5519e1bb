package chain

import (
	"encoding/hex"
	"math/big"
)

// What an EVM indexer reads: logs, as plain values (no go-ethereum here), and the interface through
// which a venue reads its pools and pool events from them. Addresses, topics and hashes are 0x
// followed by lower-case hex (an address 40 digits, a topic or hash 64), so they compare as strings;
// amounts are base units.

// EVMBlockLog is one log as eth_getLogs answers it (never a removed one), with its place in the
// chain. (EVMLog is a receipt's log, as a transaction's status reports it.)
type EVMBlockLog struct {
	// Address is the contract that emitted the log.
	Address string
	// Topics are the log's topics: Topics[0] is the event's signature hash (a follower never hands
	// over a log without one), the rest its indexed arguments, 32 bytes each.
	Topics []string
	// Data is the log's non-indexed arguments, ABI-encoded.
	Data   []byte
	Block  uint64
	TxHash string
	// Index is the log's index in its block.
	Index uint
}

// EVMPool is a pool an EVMIndexer saw created.
type EVMPool struct {
	IndexedPool
	// LP reports that the pool's own address is a fungible LP token (a Uniswap V2 pair): the
	// follower reads its metadata, indexes it as an LP token and follows its Transfer events. A pool
	// without one (Uniswap V3: positions are NFTs of a position manager) leaves it false.
	LP bool
}

// EVMIndexer reads one venue's pools and pool events from logs: the EVM follower reads, in each
// block range, the logs of Creators with one of CreationTopics and hands each to the indexer that
// named its address; then the logs of every indexed pool with one of PoolTopics, each to an indexer
// that names its topic. A venue package implements it (chain.EVMVenue); the follower is the same for
// every venue: it pages the chain, handles reorgs and leases, and reads block times and transaction
// senders itself.
//
// What it returns means what the index stores (see PoolEvent): pools by their address, Token0 and
// Token1 in the venue's own order, events of the log's pool, block, index and transaction. A pool's
// state (its reserves) is a row of its own, EventSync, from a log of its own, such as Uniswap V2's
// Sync, which the pool emits just before the Swap, Mint or Burn that changed it.
type EVMIndexer interface {
	// Creators are the contracts whose logs announce new pools: the venue's factories.
	Creators() []string
	// CreationTopics are the topics (Topics[0]) of those logs, such as PairCreated or PoolCreated.
	CreationTopics() []string
	// DecodeCreated reads the pool a log of a Creator announces: its Address, Venue, Token0, Token1
	// and FeeBps (the follower sets Block and Time). ok is false for a log that announces none (an
	// admin event, or one that does not decode).
	DecodeCreated(l EVMBlockLog) (pool EVMPool, ok bool)
	// PoolTopics are the topics (Topics[0]) of the venue's pools' events, such as Sync, Swap, Mint
	// and Burn. Indexers whose pools emit the same event (a fork's) must decode it alike: a pool's
	// log goes to the first indexer that names its topic and decodes it.
	PoolTopics() []string
	// DecodeEvent reads one log of a pool into one row (the index keeps one per log): its Kind and
	// amounts (or reserves), and its Pool, Block, LogIndex and TxHash, which are the log's Address,
	// Block, Index and TxHash (the follower holds them to it). The follower sets Time (the block's)
	// and Trader (the transaction's sender, for every row of a transaction that has a row other than
	// a Sync). ok is false for a log it does not index.
	DecodeEvent(l EVMBlockLog) (event PoolEvent, ok bool)
}

// EVMPositionIndexer is an EVMIndexer whose venue holds liquidity in NFT positions of position
// managers (Uniswap V3's NonfungiblePositionManager), which are neither pools nor creators: the
// follower also reads, in each block range, the logs of PositionManagers with one of PositionTopics,
// and hands each transaction that has one to DecodePositions with the transaction's logs of the
// indexed pools (in chain order), so that a position's change is tied to its pool from logs alone.
type EVMPositionIndexer interface {
	EVMIndexer
	// PositionManagers are the contracts whose NFTs are the venue's positions.
	PositionManagers() []string
	// PositionTopics are the topics (Topics[0]) of the managers' logs that change a position.
	PositionTopics() []string
	// DecodePositions reads the position changes of one transaction's logs (the managers' and the
	// indexed pools', in chain order), each with the Block, LogIndex and TxHash of its manager's log.
	DecodePositions(tx []EVMBlockLog) []PositionChange
}

// Decoding an EVMBlockLog, for the venues' indexers.

// EVMEventTopic is the topic (Topics[0]) of an event signature such as "Sync(uint112,uint112)":
// its keccak256, as Solidity hashes it.
func EVMEventTopic(signature string) string {
	return "0x" + hex.EncodeToString(legacyKeccak256([]byte(signature)))
}

// EVMLogWord is the i-th 32-byte word of a log's data, which must hold it, as an unsigned integer.
func EVMLogWord(data []byte, i int) *big.Int { return new(big.Int).SetBytes(data[32*i : 32*(i+1)]) }

// EVMWordAddress is the address in the low 20 bytes of a 32-byte word.
func EVMWordAddress(w []byte) string { return "0x" + hex.EncodeToString(w[12:32]) }

// EVMTopicAddress is the address in the low 20 bytes of a topic (0x + 64 hex); "" for another length.
func EVMTopicAddress(t string) string {
	if len(t) != 66 {
		return ""
	}
	return "0x" + t[26:]
}
