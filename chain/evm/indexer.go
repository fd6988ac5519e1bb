package evm

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// Topics of the token events the indexer reads (the venues' events are their indexers').
var (
	topicTransfer = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	// WETH9's wrap and unwrap: they mint and burn without a Transfer event.
	topicDeposit    = crypto.Keccak256Hash([]byte("Deposit(address,uint256)"))
	topicWithdrawal = crypto.Keccak256Hash([]byte("Withdrawal(address,uint256)"))
)

// tokenTopics are the events that move the balances of a watched token.
var tokenTopics = []common.Hash{topicTransfer, topicDeposit, topicWithdrawal}

// FollowerConfig configures a Follower.
type FollowerConfig struct {
	Chain         string
	Reader        *Reader // its RPC client is the one the follower reads logs with
	Sink          chain.Sink
	Indexers      []chain.EVMIndexer // the venues whose pools are indexed (chain.EVMVenue)
	WrappedNative common.Address     // its Deposit and Withdrawal events count as mints and burns; zero: none
	StartBlock    uint64
	Confirmations uint64        // blocks within this depth of the head may still reorg
	MaxRange      uint64        // most blocks read per batch; default 2,000
	Interval      time.Duration // pause when caught up; default 2 s
	StepTimeout   time.Duration // bounds one step of Run, so a hung RPC cannot stall it; default 1 min
	Logger        *slog.Logger
}

// Follower indexes one EVM chain: from the start block it reads, in bounded block ranges, the logs
// that announce the venues' new pools (such as a Uniswap V2 factory's PairCreated), then the events
// of their pools (such as a pair's Sync, Swap, Mint and Burn) and the Transfer events of the pools'
// tokens and LP tokens, with the logs of the venues' position managers (chain.EVMPositionIndexer:
// Uniswap V3's NFT positions, read per transaction with its pool logs), and hands each range to the
// Sink as one batch. What a venue's logs mean is its chain.EVMIndexer's (FollowerConfig.Indexers);
// the follower is the same for every venue. The
// configured wrapped native token (WETH9 and its kind) wraps and unwraps without a Transfer: its
// Deposit(dst, wad) is read as a mint to dst and its Withdrawal(src, wad) as a burn from src. It reads up to the head (reads are fresh) but treats only blocks deeper than the
// confirmation depth as final: when the block at the cursor is no longer canonical, it walks the
// kept block hashes back to the newest canonical one and rolls the index back to it.
//
// An index is of one chain, told by the hash of its block 0: when the RPC serves a chain with
// another genesis block (a devnet started anew), the index starts over on the new chain.
type Follower struct {
	cfg     FollowerConfig
	rpc     RPC
	log     *slog.Logger
	span    uint64 // current range size: halved when a read fails, grown back on success
	genesis string
	pools   map[common.Address]bool
	tokens  map[common.Address]bool

	creators       []common.Address                    // every indexer's Creators
	creationTopics []common.Hash                       // every indexer's CreationTopics
	poolTopics     []common.Hash                       // every indexer's PoolTopics
	byCreator      map[string][]chain.EVMIndexer       // the indexers naming a creator, in order
	byPoolTopic    map[string][]chain.EVMIndexer       // the indexers naming a pool topic, in order
	managers       []common.Address                    // every position indexer's PositionManagers
	positionTopics []common.Hash                       // their PositionTopics
	byManager      map[string]chain.EVMPositionIndexer // the first indexer naming a position manager
}

// NewFollower returns a follower; it reads nothing until Run or Step.
func NewFollower(cfg FollowerConfig) *Follower {
	if cfg.MaxRange == 0 {
		cfg.MaxRange = 2000
	}
	if cfg.Interval == 0 {
		cfg.Interval = 2 * time.Second
	}
	if cfg.StepTimeout == 0 {
		cfg.StepTimeout = time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	f := &Follower{cfg: cfg, rpc: cfg.Reader.rpc, log: cfg.Logger.With("chain", cfg.Chain), span: cfg.MaxRange,
		byCreator: map[string][]chain.EVMIndexer{}, byPoolTopic: map[string][]chain.EVMIndexer{}, byManager: map[string]chain.EVMPositionIndexer{}}
	for _, ix := range cfg.Indexers {
		for _, a := range ix.Creators() {
			a = strings.ToLower(a)
			if len(f.byCreator[a]) == 0 {
				f.creators = append(f.creators, common.HexToAddress(a))
			}
			f.byCreator[a] = append(f.byCreator[a], ix)
		}
		for _, t := range ix.CreationTopics() {
			if h := common.HexToHash(t); !slices.Contains(f.creationTopics, h) {
				f.creationTopics = append(f.creationTopics, h)
			}
		}
		for _, t := range ix.PoolTopics() {
			t = strings.ToLower(t)
			if len(f.byPoolTopic[t]) == 0 {
				f.poolTopics = append(f.poolTopics, common.HexToHash(t))
			}
			f.byPoolTopic[t] = append(f.byPoolTopic[t], ix)
		}
		pix, ok := ix.(chain.EVMPositionIndexer)
		if !ok {
			continue
		}
		for _, a := range pix.PositionManagers() {
			if a = strings.ToLower(a); f.byManager[a] == nil {
				f.byManager[a] = pix
				f.managers = append(f.managers, common.HexToAddress(a))
			}
		}
		for _, t := range pix.PositionTopics() {
			if h := common.HexToHash(t); !slices.Contains(f.positionTopics, h) {
				f.positionTopics = append(f.positionTopics, h)
			}
		}
	}
	return f
}

// Run follows the chain until ctx ends, each step under StepTimeout. Errors (a timeout included)
// are logged and retried with a growing pause (at most a minute); nothing is half-written because
// every batch is applied in one transaction.
func (f *Follower) Run(ctx context.Context) {
	pause := f.cfg.Interval
	for {
		stepCtx, cancel := context.WithTimeout(ctx, f.cfg.StepTimeout)
		caughtUp, err := f.Step(stepCtx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			f.log.Warn("indexer step failed; retrying", "err", detail(err), "retry_in", pause)
			pause = min(2*pause, time.Minute)
		default:
			pause = f.cfg.Interval
		}
		if err == nil && !caughtUp {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
	}
}

func detail(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	return err.Error()
}

// Step does one unit of work: set the index up, roll back a reorg, or read and apply one range.
// caughtUp reports that the index has reached the head.
func (f *Follower) Step(ctx context.Context) (caughtUp bool, err error) {
	if f.genesis == "" {
		h, err := f.header(ctx, 0)
		if err != nil {
			return false, err
		}
		f.genesis = h.Hash
	}
	cur, ok, err := f.cfg.Sink.Cursor(ctx, f.cfg.Chain)
	if err != nil {
		return false, err
	}
	if ok && cur.Genesis != f.genesis {
		f.log.Info("the RPC serves a new chain, not the one indexed (its block 0 differs, as when a devnet starts anew): indexing the new chain from the start",
			"indexed_genesis", cur.Genesis, "genesis", f.genesis, "start_block", f.cfg.StartBlock)
		if err := f.cfg.Sink.Reset(ctx, f.cfg.Chain); err != nil {
			return false, err
		}
		ok = false
	}
	if !ok {
		f.pools = nil
		return false, f.cfg.Sink.Start(ctx, f.cfg.Chain, chain.Cursor{Genesis: f.genesis, Block: int64(f.cfg.StartBlock) - 1})
	}
	if f.pools == nil {
		if err := f.loadWatched(ctx); err != nil {
			return false, err
		}
	}
	head, err := f.head(ctx)
	if err != nil {
		return false, err
	}
	if reorged, err := f.checkReorg(ctx, cur, head); err != nil || reorged {
		return false, err
	}
	from := uint64(cur.Block + 1)
	if from > head {
		return true, nil
	}
	to := min(head, from+f.span-1)
	batch, err := f.read(ctx, from, to, head)
	if err != nil {
		f.span = max(1, f.span/2)
		return false, err
	}
	if err := f.cfg.Sink.Apply(ctx, batch); err != nil {
		f.pools = nil // reload what is watched: the batch may not have landed
		if errors.Is(err, chain.ErrCursorMoved) {
			return false, nil
		}
		return false, err
	}
	for _, p := range batch.Pools {
		f.pools[common.HexToAddress(p.Address)] = true
	}
	for _, t := range batch.Tokens {
		f.tokens[common.HexToAddress(t.Address)] = true
	}
	f.span = min(f.cfg.MaxRange, f.span*2)
	return to == head, nil
}

func (f *Follower) loadWatched(ctx context.Context) error {
	pools, tokens, err := f.cfg.Sink.Watched(ctx, f.cfg.Chain)
	if err != nil {
		return err
	}
	f.pools, f.tokens = map[common.Address]bool{}, map[common.Address]bool{}
	for _, p := range pools {
		f.pools[common.HexToAddress(p)] = true
	}
	for _, t := range tokens {
		f.tokens[common.HexToAddress(t)] = true
	}
	return nil
}

// checkReorg compares the cursor's block with the canonical chain. When it differs (or the chain is
// now shorter), it first checks that the chain is still the same one: when block 0 changed, the
// next step starts the index over on the new chain. Otherwise it finds the newest kept block that
// is still canonical and rolls back to it; with none left, the chain is indexed over from the start.
func (f *Follower) checkReorg(ctx context.Context, cur chain.Cursor, head uint64) (bool, error) {
	if cur.Block < 0 || cur.Hash == "" {
		return false, nil
	}
	if uint64(cur.Block) <= head {
		h, err := f.header(ctx, uint64(cur.Block))
		if err != nil {
			return false, err
		}
		if h.Hash == cur.Hash {
			return false, nil
		}
	}
	genesis, err := f.header(ctx, 0)
	if err != nil {
		return false, err
	}
	if genesis.Hash != f.genesis { // the RPC switched chains while we followed it
		f.genesis = genesis.Hash
		return true, nil
	}
	below := cur.Block
	for {
		kept, err := f.cfg.Sink.RecentBlocks(ctx, f.cfg.Chain, below, 64)
		if err != nil {
			return true, err
		}
		if len(kept) == 0 {
			f.log.Warn("none of the block hashes the index kept is on the chain any more (a reorg deeper than they reach, or another chain with the same block 0): indexing the chain over",
				"cursor", cur.Block, "confirmations", f.cfg.Confirmations)
			return true, f.cfg.Sink.Reset(ctx, f.cfg.Chain)
		}
		numbers := make([]uint64, 0, len(kept))
		for _, k := range kept {
			if k.Number <= head {
				numbers = append(numbers, k.Number)
			}
		}
		canonical, err := f.headers(ctx, numbers)
		if err != nil {
			return true, err
		}
		for _, k := range kept {
			if h, ok := canonical[k.Number]; ok && h.Hash == k.Hash {
				f.log.Warn("chain reorganised: rolling the index back", "from", cur.Block, "to", k.Number)
				f.pools = nil
				return true, f.cfg.Sink.Rollback(ctx, f.cfg.Chain, k.Number, k.Hash)
			}
		}
		below = int64(kept[len(kept)-1].Number)
	}
}

// read reads blocks from..to into a batch.
func (f *Follower) read(ctx context.Context, from, to, head uint64) (chain.Batch, error) {
	end, err := f.header(ctx, to)
	if err != nil {
		return chain.Batch{}, err
	}
	b := chain.Batch{Chain: f.cfg.Chain, Genesis: f.genesis, From: from, To: to, ToHash: end.Hash}
	if head > f.cfg.Confirmations {
		b.Final = head - f.cfg.Confirmations
	}

	// New pools first: their logs in the same range must be read too.
	created, err := f.logs(ctx, from, to, f.creators, f.creationTopics)
	if err != nil {
		return chain.Batch{}, err
	}
	newPools, newTokens := f.newPools(created)
	var watch []common.Address
	watch = append(watch, slices.Collect(maps.Keys(f.pools))...)
	watch = append(watch, slices.Collect(maps.Keys(f.tokens))...)
	for _, p := range newPools {
		watch = append(watch, common.HexToAddress(p.Address))
	}
	watch = append(watch, newTokens...)
	watch = append(watch, f.managers...)
	slices.SortFunc(watch, func(a, b common.Address) int { return a.Cmp(b) })
	watch = slices.Compact(watch)
	topics := append(append(slices.Clone(f.poolTopics), tokenTopics...), f.positionTopics...)
	slices.SortFunc(topics, func(a, b common.Hash) int { return a.Cmp(b) })
	events, err := f.logs(ctx, from, to, watch, slices.Compact(topics))
	if err != nil {
		return chain.Batch{}, err
	}
	// Transfers (and the wrapped native's wraps and unwraps) of newly found tokens before this range:
	// their balances start with the index.
	var earlier []types.Log
	if len(newTokens) > 0 && from > f.cfg.StartBlock {
		for lo := f.cfg.StartBlock; lo < from; lo += f.cfg.MaxRange {
			logs, err := f.logs(ctx, lo, min(from-1, lo+f.cfg.MaxRange-1), newTokens, tokenTopics)
			if err != nil {
				return chain.Batch{}, err
			}
			earlier = append(earlier, logs...)
		}
	}

	all := append(append(append([]types.Log{}, earlier...), created...), events...)
	blocks := map[uint64]bool{to: true}
	for _, l := range all {
		blocks[l.BlockNumber] = true
	}
	headers, err := f.headers(ctx, slices.Sorted(maps.Keys(blocks)))
	if err != nil {
		return chain.Batch{}, err
	}
	for _, l := range all {
		if headers[l.BlockNumber].Hash != strings.ToLower(l.BlockHash.Hex()) {
			return chain.Batch{}, badResponse("index", "block %d changed while it was read (reorg in progress)", l.BlockNumber)
		}
	}

	pools := maps.Clone(f.pools)
	tokens := maps.Clone(f.tokens)
	for _, t := range newTokens {
		tokens[t] = true
	}
	for _, p := range newPools {
		pools[common.HexToAddress(p.Address)] = true
		if p.LP { // the pool is also its LP token
			tokens[common.HexToAddress(p.Address)] = true
		}
	}
	txs := map[common.Hash]bool{} // the transactions whose senders trade or move liquidity
	for _, l := range append(earlier, events...) {
		switch {
		case l.Topics[0] == topicTransfer && tokens[l.Address]:
			if t, ok := decodeTransfer(l); ok {
				b.Transfers = append(b.Transfers, t)
			}
		case (l.Topics[0] == topicDeposit || l.Topics[0] == topicWithdrawal) && tokens[l.Address]:
			if t, ok := f.decodeWrap(l); ok {
				b.Transfers = append(b.Transfers, t)
			}
		case pools[l.Address]:
			if e, ok := f.decodeEvent(l); ok {
				if c := e.Concentrated; c != nil && c.State != nil {
					f.cfg.Reader.rememberTick(l.Address, c.State.Tick) // the next read of the pool guesses its word
				}
				e.Time = int64(headers[l.BlockNumber].Time)
				b.Events = append(b.Events, e)
				if e.Kind != chain.EventSync {
					txs[l.TxHash] = true
				}
			}
		}
	}
	b.Positions = f.decodePositions(events, pools)
	senders, err := f.senders(ctx, slices.Collect(maps.Keys(txs)))
	if err != nil {
		return chain.Batch{}, err
	}
	for i := range b.Events {
		b.Events[i].Trader = senders[common.HexToHash(b.Events[i].TxHash)]
	}
	if again, err := f.header(ctx, to); err != nil || again.Hash != end.Hash {
		if err != nil {
			return chain.Batch{}, err
		}
		return chain.Batch{}, badResponse("index", "block %d changed while the range was read (reorg in progress)", to)
	}
	for _, n := range slices.Sorted(maps.Keys(headers)) {
		if n >= b.Final {
			b.Blocks = append(b.Blocks, chain.BlockHash{Number: n, Hash: headers[n].Hash})
		}
	}
	if !slices.ContainsFunc(b.Blocks, func(h chain.BlockHash) bool { return h.Number == to }) {
		b.Blocks = append(b.Blocks, chain.BlockHash{Number: to, Hash: end.Hash})
	}

	if err := f.describe(ctx, &b, newPools, newTokens, headers); err != nil {
		return chain.Batch{}, err
	}
	return b, nil
}

// blockLog is a log as the venues' indexers read it.
func blockLog(l types.Log) chain.EVMBlockLog {
	topics := make([]string, len(l.Topics))
	for i, t := range l.Topics {
		topics[i] = strings.ToLower(t.Hex())
	}
	return chain.EVMBlockLog{Address: lower(l.Address), Topics: topics, Data: l.Data, Block: l.BlockNumber,
		TxHash: strings.ToLower(l.TxHash.Hex()), Index: l.Index}
}

// decodeCreated reads the pool a creation log announces, with the indexer that names the log's
// contract among its creators (the first that decodes it), its addresses canonical and its Block
// the log's.
func (f *Follower) decodeCreated(l types.Log) (chain.EVMPool, bool) {
	bl := blockLog(l)
	for _, ix := range f.byCreator[bl.Address] {
		if !slices.Contains(lowerAll(ix.CreationTopics()), bl.Topics[0]) {
			continue
		}
		if p, ok := ix.DecodeCreated(bl); ok {
			p.Address, p.Token0, p.Token1 = canonicalHex(p.Address), canonicalHex(p.Token0), canonicalHex(p.Token1)
			p.Block, p.Time = l.BlockNumber, 0
			return p, true
		}
	}
	return chain.EVMPool{}, false
}

// decodeEvent reads a pool's log with the first indexer that names its topic and decodes it, held
// to the log's pool and place.
func (f *Follower) decodeEvent(l types.Log) (chain.PoolEvent, bool) {
	bl := blockLog(l)
	for _, ix := range f.byPoolTopic[bl.Topics[0]] {
		if e, ok := ix.DecodeEvent(bl); ok {
			e.Pool, e.Block, e.LogIndex, e.TxHash, e.Time, e.Trader = bl.Address, bl.Block, bl.Index, bl.TxHash, 0, ""
			return e, true
		}
	}
	return chain.PoolEvent{}, false
}

// decodePositions reads the position changes of the transactions with a log of a position manager:
// each such transaction's logs of the managers and the indexed pools go, in chain order, to the
// indexer naming the manager; the changes come back in chain order, held to their manager.
func (f *Follower) decodePositions(logs []types.Log, pools map[common.Address]bool) []chain.PositionChange {
	if len(f.byManager) == 0 {
		return nil
	}
	byTx := map[common.Hash][]chain.EVMBlockLog{}
	managers := map[common.Hash][]string{} // the managers with a log in the transaction
	var order []common.Hash
	for _, l := range logs {
		a := lower(l.Address)
		manager := f.byManager[a] != nil
		if !manager && !pools[l.Address] {
			continue
		}
		if _, seen := byTx[l.TxHash]; !seen {
			order = append(order, l.TxHash)
		}
		byTx[l.TxHash] = append(byTx[l.TxHash], blockLog(l))
		if manager && !slices.Contains(managers[l.TxHash], a) {
			managers[l.TxHash] = append(managers[l.TxHash], a)
		}
	}
	var out []chain.PositionChange
	for _, h := range order {
		for _, m := range managers[h] {
			for _, c := range f.byManager[m].DecodePositions(byTx[h]) {
				if c.Manager == m {
					out = append(out, c)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b chain.PositionChange) int {
		if a.Block != b.Block {
			return int(a.Block) - int(b.Block)
		}
		return int(a.LogIndex) - int(b.LogIndex)
	})
	return out
}

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// canonicalHex is an address as the index spells it: 0x and lower-case hex.
func canonicalHex(a string) string { return lower(common.HexToAddress(a)) }

// newPools returns the pools created in the logs that are not indexed yet, in chain order, and the
// tokens they bring that are not watched yet.
func (f *Follower) newPools(created []types.Log) (pools []chain.EVMPool, tokens []common.Address) {
	seen := map[common.Address]bool{}
	for _, l := range created {
		p, ok := f.decodeCreated(l)
		if !ok {
			continue
		}
		pool := common.HexToAddress(p.Address)
		if f.pools[pool] || seen[pool] {
			continue
		}
		seen[pool] = true
		pools = append(pools, p)
		for _, t := range []common.Address{common.HexToAddress(p.Token0), common.HexToAddress(p.Token1)} {
			if !f.tokens[t] && !seen[t] {
				seen[t] = true
				tokens = append(tokens, t)
			}
		}
	}
	return pools, tokens
}

// describe adds the new pools, and the new tokens (the pools that are LP tokens included) with
// their metadata, to the batch. A token whose getters fail is still followed (its Transfer events
// count), with what could be read.
func (f *Follower) describe(ctx context.Context, b *chain.Batch, newPools []chain.EVMPool, newTokens []common.Address, headers map[uint64]header) error {
	var lps []common.Address
	var lpBlocks []uint64
	for _, p := range newPools {
		pool := p.IndexedPool
		pool.Time = int64(headers[pool.Block].Time)
		b.Pools = append(b.Pools, pool)
		if p.LP {
			lps = append(lps, common.HexToAddress(p.Address))
			lpBlocks = append(lpBlocks, p.Block)
		}
	}
	if len(newTokens)+len(lps) == 0 {
		return nil
	}
	metas, err := f.cfg.Reader.TokenMetadata(ctx, append(append([]common.Address{}, newTokens...), lps...))
	if err != nil {
		return err
	}
	found := map[common.Address]uint64{}
	for _, p := range b.Pools {
		for _, t := range []string{p.Token0, p.Token1} {
			if _, ok := found[common.HexToAddress(t)]; !ok {
				found[common.HexToAddress(t)] = p.Block
			}
		}
	}
	for i, m := range metas {
		lp := i >= len(newTokens)
		block := found[m.Address]
		if lp {
			block = lpBlocks[i-len(newTokens)]
		}
		b.Tokens = append(b.Tokens, chain.IndexedToken{Address: lower(m.Address), Symbol: m.Symbol, Name: m.Name,
			Decimals: int(m.Decimals), LP: lp, Block: block})
	}
	return nil
}

func lower(a common.Address) string { return strings.ToLower(a.Hex()) }

func dataWord(data []byte, i int) *big.Int {
	if len(data) < 32*(i+1) {
		return nil
	}
	return new(big.Int).SetBytes(data[32*i : 32*(i+1)])
}

func decodeTransfer(l types.Log) (chain.Transfer, bool) {
	if len(l.Topics) != 3 || len(l.Data) != 32 { // ERC-721 Transfer indexes the id: four topics
		return chain.Transfer{}, false
	}
	return chain.Transfer{Token: lower(l.Address), From: lower(common.BytesToAddress(l.Topics[1].Bytes())),
		To: lower(common.BytesToAddress(l.Topics[2].Bytes())), Value: dataWord(l.Data, 0), Block: l.BlockNumber, LogIndex: l.Index}, true
}

// decodeWrap reads a Deposit or Withdrawal of the wrapped native token as a Transfer from or to
// the zero address (a mint or a burn); the same events of any other contract are not balances.
func (f *Follower) decodeWrap(l types.Log) (chain.Transfer, bool) {
	if l.Address != f.cfg.WrappedNative || f.cfg.WrappedNative == (common.Address{}) || len(l.Topics) != 2 || len(l.Data) != 32 {
		return chain.Transfer{}, false
	}
	holder, zero := lower(common.BytesToAddress(l.Topics[1].Bytes())), lower(common.Address{})
	t := chain.Transfer{Token: lower(l.Address), From: zero, To: holder, Value: dataWord(l.Data, 0), Block: l.BlockNumber, LogIndex: l.Index}
	if l.Topics[0] == topicWithdrawal {
		t.From, t.To = holder, zero
	}
	return t, true
}

// header is what the indexer needs of a block header.
type header struct {
	Hash string
	Time uint64
}

// rpcHeader is the part of eth_getBlockByNumber's answer the adapter reads.
type rpcHeader struct {
	Hash      common.Hash    `json:"hash"`
	Number    hexutil.Uint64 `json:"number"`
	Timestamp hexutil.Uint64 `json:"timestamp"`
	BaseFee   *hexutil.Big   `json:"baseFeePerGas"` // nil before London
}

func (f *Follower) head(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := f.rpc.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, classify(ctx, "index", err)
	}
	return uint64(n), nil
}

func (f *Follower) header(ctx context.Context, n uint64) (header, error) {
	hs, err := f.headers(ctx, []uint64{n})
	if err != nil {
		return header{}, err
	}
	return hs[n], nil
}

// rpcBatchSize bounds the calls of one JSON-RPC batch: providers cap batches (often at 100 to 1,000).
const rpcBatchSize = 100

// headers reads block headers in JSON-RPC batches.
func (f *Follower) headers(ctx context.Context, numbers []uint64) (map[uint64]header, error) {
	out := make(map[uint64]header, len(numbers))
	raw := make([]*rpcHeader, len(numbers))
	elems := make([]rpc.BatchElem, len(numbers))
	for i, n := range numbers {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(n), false}, Result: &raw[i]}
	}
	if err := f.batch(ctx, elems); err != nil {
		return nil, err
	}
	for i, n := range numbers {
		if raw[i] == nil || uint64(raw[i].Number) != n {
			return nil, badResponse("index", "block %d not served", n)
		}
		out[n] = header{Hash: strings.ToLower(raw[i].Hash.Hex()), Time: uint64(raw[i].Timestamp)}
	}
	return out, nil
}

// senders returns the sender of each transaction, lower-case.
func (f *Follower) senders(ctx context.Context, hashes []common.Hash) (map[common.Hash]string, error) {
	type rpcTx struct {
		From common.Address `json:"from"`
	}
	raw := make([]*rpcTx, len(hashes))
	elems := make([]rpc.BatchElem, len(hashes))
	for i, h := range hashes {
		elems[i] = rpc.BatchElem{Method: "eth_getTransactionByHash", Args: []any{h}, Result: &raw[i]}
	}
	if err := f.batch(ctx, elems); err != nil {
		return nil, err
	}
	out := make(map[common.Hash]string, len(hashes))
	for i, h := range hashes {
		if raw[i] == nil {
			return nil, badResponse("index", "transaction %s not served", h)
		}
		out[h] = lower(raw[i].From)
	}
	return out, nil
}

// batch sends calls in JSON-RPC batches of at most rpcBatchSize.
func (f *Follower) batch(ctx context.Context, elems []rpc.BatchElem) error {
	for i := 0; i < len(elems); i += rpcBatchSize {
		part := elems[i:min(i+rpcBatchSize, len(elems))]
		if err := f.rpc.BatchCallContext(ctx, part); err != nil {
			return classify(ctx, "index", err)
		}
		for _, e := range part {
			if e.Error != nil {
				return classify(ctx, "index", e.Error)
			}
		}
	}
	return nil
}

// maxAddressesPerFilter bounds the addresses of one eth_getLogs filter.
const maxAddressesPerFilter = 1000

// logs reads the logs of addresses with one of topics in from..to, in chain order.
func (f *Follower) logs(ctx context.Context, from, to uint64, addresses []common.Address, topics []common.Hash) ([]types.Log, error) {
	var out []types.Log
	for i := 0; i < len(addresses); i += maxAddressesPerFilter {
		filter := map[string]any{
			"fromBlock": hexutil.EncodeUint64(from),
			"toBlock":   hexutil.EncodeUint64(to),
			"address":   addresses[i:min(i+maxAddressesPerFilter, len(addresses))],
			"topics":    [][]common.Hash{topics},
		}
		var logs []types.Log
		if err := f.rpc.CallContext(ctx, &logs, "eth_getLogs", filter); err != nil {
			return nil, classify(ctx, "index", err)
		}
		for _, l := range logs {
			if !l.Removed && len(l.Topics) > 0 {
				out = append(out, l)
			}
		}
	}
	slices.SortFunc(out, func(a, b types.Log) int {
		if a.BlockNumber != b.BlockNumber {
			return int(a.BlockNumber) - int(b.BlockNumber)
		}
		return int(a.Index) - int(b.Index)
	})
	return out, nil
}
