package uniswapv3

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// What indexes the position manager's NFT positions: its IncreaseLiquidity and DecreaseLiquidity
// logs change a position's liquidity, its Transfer logs (ERC-721, the id indexed) its owner. Neither
// liquidity log names the pool or the range: the manager emits each just after the pool's Mint or
// Burn whose owner is the manager, in the same transaction and with the same liquidity and amounts,
// so the position is tied to that pool log (logs alone, no positions(id) call). A liquidity log with
// no such pool log (its pool is not indexed) is not read. The manager's Collect is not followed:
// the pool's Collect, which the manager's causes in the same transaction, is indexed as a pool event
// (chain.EventCollect), and collecting changes neither a position's liquidity nor its owner.

// Topics of the position manager's events the venue's positions are indexed from.
var (
	TopicIncreaseLiquidity = chain.EVMEventTopic("IncreaseLiquidity(uint256,uint128,uint256,uint256)")
	TopicDecreaseLiquidity = chain.EVMEventTopic("DecreaseLiquidity(uint256,uint128,uint256,uint256)")
	TopicTransfer          = chain.EVMEventTopic("Transfer(address,address,uint256)")
)

// PositionManagers is the position manager, when the venue has one.
func (ix Indexer) PositionManagers() []string {
	if ix.PositionManager == "" {
		return nil
	}
	return []string{ix.PositionManager}
}

// PositionTopics are IncreaseLiquidity, DecreaseLiquidity and Transfer.
func (Indexer) PositionTopics() []string {
	return []string{TopicIncreaseLiquidity, TopicDecreaseLiquidity, TopicTransfer}
}

// DecodePositions reads the position manager's IncreaseLiquidity(tokenId indexed, liquidity,
// amount0, amount1) and DecreaseLiquidity (alike), each tied to the latest earlier pool Mint (Burn)
// of the transaction whose owner is the manager and whose liquidity and amounts are the same, and
// its Transfer(from indexed, to indexed, tokenId indexed).
func (ix Indexer) DecodePositions(tx []chain.EVMBlockLog) []chain.PositionChange {
	var out []chain.PositionChange
	used := map[int]bool{} // pool logs already tied to a position
	for i, l := range tx {
		if ix.PositionManager == "" || l.Address != ix.PositionManager || len(l.Topics) == 0 {
			continue
		}
		c := chain.PositionChange{Manager: l.Address, Block: l.Block, LogIndex: l.Index, TxHash: l.TxHash}
		switch l.Topics[0] {
		case TopicTransfer:
			if len(l.Topics) != 4 || len(l.Data) != 0 {
				continue
			}
			c.Kind, c.ID = chain.PositionTransfer, topicUint(l.Topics[3])
			c.From, c.To = chain.EVMTopicAddress(l.Topics[1]), chain.EVMTopicAddress(l.Topics[2])
		case TopicIncreaseLiquidity, TopicDecreaseLiquidity:
			if len(l.Topics) != 2 || len(l.Data) != 96 {
				continue
			}
			c.Kind, c.ID = chain.PositionIncrease, topicUint(l.Topics[1])
			c.Liquidity, c.Amount0, c.Amount1 = chain.EVMLogWord(l.Data, 0), chain.EVMLogWord(l.Data, 1), chain.EVMLogWord(l.Data, 2)
			if l.Topics[0] == TopicDecreaseLiquidity {
				c.Kind = chain.PositionDecrease
			}
			j, ok := ix.poolLog(tx[:i], used, c)
			if !ok {
				continue
			}
			used[j] = true
			c.Pool = tx[j].Address
			c.TickLower, c.TickUpper, _ = ticks(tx[j]) // poolLog checked them
		default:
			continue
		}
		if c.ID == nil {
			continue
		}
		out = append(out, c)
	}
	return out
}

// poolLog is the index of the latest log among before that is a pool's Mint (for an increase) or
// Burn (for a decrease) by the position manager with c's liquidity and amounts, not used yet.
func (ix Indexer) poolLog(before []chain.EVMBlockLog, used map[int]bool, c chain.PositionChange) (int, bool) {
	want, first := TopicMint, 1 // Mint's data starts with the sender
	if c.Kind == chain.PositionDecrease {
		want, first = TopicBurn, 0
	}
	for j := len(before) - 1; j >= 0; j-- {
		p := before[j]
		if used[j] || len(p.Topics) != 4 || p.Topics[0] != want || chain.EVMTopicAddress(p.Topics[1]) != ix.PositionManager ||
			len(p.Data) != 32*(first+3) {
			continue
		}
		if _, _, ok := ticks(p); !ok {
			continue
		}
		if chain.EVMLogWord(p.Data, first).Cmp(c.Liquidity) == 0 && chain.EVMLogWord(p.Data, first+1).Cmp(c.Amount0) == 0 &&
			chain.EVMLogWord(p.Data, first+2).Cmp(c.Amount1) == 0 {
			return j, true
		}
	}
	return 0, false
}

// ticks is a pool Mint's or Burn's tick range (Topics[2] and [3]); ok is false outside int24.
func ticks(l chain.EVMBlockLog) (lower, upper int, ok bool) {
	lo, okL := topicInt(topicAt(l.Topics, 2))
	hi, okU := topicInt(topicAt(l.Topics, 3))
	if !okL || !okU || !lo.IsInt64() || !hi.IsInt64() || lo.Int64() < -(1<<23) || lo.Int64() >= 1<<23 || hi.Int64() < -(1<<23) || hi.Int64() >= 1<<23 {
		return 0, 0, false
	}
	return int(lo.Int64()), int(hi.Int64()), true
}

// topicUint is a topic (0x + 64 hex) as an unsigned integer; nil when it is not one.
func topicUint(t string) *big.Int {
	v, ok := topicInt(t)
	if !ok {
		return nil
	}
	if v.Sign() < 0 {
		v.Add(v, twoTo256)
	}
	return v
}
