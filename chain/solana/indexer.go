package solana

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// FollowerConfig configures a Follower.
type FollowerConfig struct {
	Chain  string
	Client *Client // the chain's client; the follower states its own commitments
	Sink   chain.Sink
	// Indexers are the venues whose programs the follower reads (chain.SVMIndexer, one per
	// program).
	Indexers  []chain.SVMIndexer
	StartSlot uint64 // the first slot read
	// MaxSlots bounds the slots of one batch (default 100,000: empty slots cost nothing), MaxTxs
	// the transactions of the followed programs one batch reads (default 1,000; a slot is never
	// split, so a batch may hold more when one slot has more).
	MaxSlots uint64
	MaxTxs   int
	// MaxListed bounds the signatures held in memory per program while the follower catches up
	// with a long history (default 100,000); older listing pages past it are listed again when
	// their turn comes.
	MaxListed int
	// PageSize is the most signatures one getSignaturesForAddress asks for (default and at most
	// 1,000, Solana's limit).
	PageSize    int
	Interval    time.Duration // pause when caught up; default 1 s
	StepTimeout time.Duration // bounds one step of Run; default 1 min
	Logger      *slog.Logger
}

// Follower indexes the pools of Solana venues from their programs' transactions: from the start
// slot it lists each program's transactions (getSignaturesForAddress, paged with before and
// until), reads them (getTransaction in JSON-RPC batches, maxSupportedTransactionVersion 0),
// hands the successful ones to the venues' chain.SVMIndexer and gives the Sink a batch per range
// of slots: the pools created (with their mints and LP mints as tokens, read as Mints reads them)
// and the pool events of the pools it follows. Slots are the batch's block numbers. Pools are
// found in the transactions that create them (never configured): a pool created before the start
// slot is not followed. Failed transactions are skipped.
//
// Finality. It indexes at `confirmed` commitment (optimistically confirmed: a supermajority
// voted) and treats slots up to the `finalized` one as final (Batch.Final). Confirmed slots have
// never been rolled back on mainnet, but the follower does not assume it: while the index holds
// slots above the finalized one it lists the programs' transactions from the finalized slot up at
// every step and compares them with what it indexed; when a slot differs it rolls the index back
// (Sink.Rollback) below that slot and reads on from there, as an EVM follower does on a reorg.
//
// What it keeps as a slot's "hash" (Batch.Blocks, Cursor.Hash) is not the block hash: reading
// block hashes needs getBlock, which not every RPC serves (the local validator does not, and
// providers ration it), and what the index took from a slot is exactly the followed programs'
// transactions in it. So a slot's hash is the fingerprint of those transactions (base58 SHA-256
// of their sorted signatures, the same for a slot without any), and the cursor's is
// "<slot>:<fingerprint>" of the newest slot at or below it that has some (empty before the first).
// When it starts, the follower checks that slot against the chain once: when a final slot no
// longer holds what was indexed (a local validator restarted with the same seed, hence the same
// genesis hash), the index is started over.
//
// Order and log indexes. A slot's transactions are numbered in the order getSignaturesForAddress
// lists them (Agave lists a slot's transactions in block order, newest first); with several
// programs, each program's transactions keep their order. An event's log index is its
// transaction's number × 2^16 plus its ordinal in the transaction (chain.SVMTx.EventIndex): the
// same transactions give the same rows, so reading a range again stores nothing twice.
//
// An index is of one chain, told by its genesis hash: when the RPC serves another cluster, the
// index starts over on it. A Follower is used by one goroutine (Run's); a second follower of the
// same chain (on another replica) is harmless, only slower: every batch lands on top of the
// cursor it was read from or not at all.
type Follower struct {
	cfg      FollowerConfig
	c        *Client
	log      *slog.Logger
	genesis  string
	pools    map[string]bool
	tokens   map[string]bool
	feeds    map[string]*sigFeed // catching up: each program's listing; nil near the head
	fedTo    int64               // the cursor the feeds were used up to
	verified bool                // the cursor's anchor slot was checked against the chain
}

// NewFollower returns a follower; it reads nothing until Run or Step.
func NewFollower(cfg FollowerConfig) *Follower {
	if cfg.MaxSlots == 0 {
		cfg.MaxSlots = 100_000
	}
	if cfg.MaxTxs <= 0 {
		cfg.MaxTxs = 1000
	}
	if cfg.MaxListed <= 0 {
		cfg.MaxListed = 100_000
	}
	if cfg.PageSize <= 0 || cfg.PageSize > maxPageSize {
		cfg.PageSize = maxPageSize
	}
	if cfg.Interval == 0 {
		cfg.Interval = time.Second
	}
	if cfg.StepTimeout == 0 {
		cfg.StepTimeout = time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Follower{cfg: cfg, c: cfg.Client, log: cfg.Logger.With("chain", cfg.Chain)}
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
			f.log.Warn("indexer step failed; retrying", "err", err, "retry_in", pause)
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

// forget drops what the follower holds of the index and the chain, to be read again.
func (f *Follower) forget() {
	f.pools, f.tokens, f.feeds, f.verified = nil, nil, nil, false
}

// Step does one unit of work: set the index up, roll back a slot the chain no longer holds, or
// read and apply one range of slots. caughtUp reports that the index has reached the confirmed
// slot.
func (f *Follower) Step(ctx context.Context) (caughtUp bool, err error) {
	if f.genesis == "" {
		if f.genesis, err = f.c.GenesisHash(ctx); err != nil {
			return false, err
		}
	}
	cur, ok, err := f.cfg.Sink.Cursor(ctx, f.cfg.Chain)
	if err != nil {
		return false, err
	}
	if ok && cur.Genesis != f.genesis {
		f.log.Info("the RPC serves another cluster than the one indexed (its genesis hash differs): indexing the new one from the start",
			"indexed_genesis", cur.Genesis, "genesis", f.genesis, "start_slot", f.cfg.StartSlot)
		if err := f.cfg.Sink.Reset(ctx, f.cfg.Chain); err != nil {
			return false, err
		}
		ok = false
	}
	if !ok {
		f.forget()
		return false, f.cfg.Sink.Start(ctx, f.cfg.Chain, chain.Cursor{Genesis: f.genesis, Block: int64(f.cfg.StartSlot) - 1})
	}
	if f.pools == nil {
		if err := f.loadWatched(ctx); err != nil {
			return false, err
		}
	}
	if f.feeds != nil && cur.Block != f.fedTo { // the cursor moved without us (a rollback): list anew
		f.feeds = nil
	}
	confirmed, finalized, err := f.slots(ctx)
	if err != nil {
		return false, err
	}
	if cur.Block >= int64(confirmed) { // caught up, or the node is behind the index: wait for it
		return true, nil
	}
	var sl *slotList
	var upTo int64 // the listing is complete up to this slot
	if cur.Block < int64(finalized) {
		sl, upTo, err = f.catchUp(ctx, cur, finalized)
	} else {
		var stop bool
		if sl, stop, err = f.nearHead(ctx, cur, finalized); err != nil || stop {
			return false, err
		}
		upTo = int64(confirmed)
	}
	if err != nil || sl == nil {
		return false, err
	}
	from := uint64(cur.Block + 1)
	if upTo < int64(from) {
		return true, nil
	}
	to := sl.bound(from, min(uint64(upTo), from+f.cfg.MaxSlots-1), f.cfg.MaxTxs)
	batch, err := f.read(ctx, cur, sl, from, to, finalized)
	if err != nil {
		return false, err
	}
	if err := f.cfg.Sink.Apply(ctx, batch); err != nil {
		f.forget() // read the index again: the batch may not have landed
		if errors.Is(err, chain.ErrCursorMoved) {
			return false, nil
		}
		return false, err
	}
	for _, fd := range f.feeds {
		fd.consume(to)
	}
	f.fedTo = int64(to)
	for _, p := range batch.Pools {
		f.pools[p.Address] = true
	}
	for _, t := range batch.Tokens {
		f.tokens[t.Address] = true
	}
	return to >= confirmed, nil
}

func (f *Follower) loadWatched(ctx context.Context) error {
	pools, tokens, err := f.cfg.Sink.Watched(ctx, f.cfg.Chain)
	if err != nil {
		return err
	}
	f.pools, f.tokens = map[string]bool{}, map[string]bool{}
	for _, p := range pools {
		f.pools[p] = true
	}
	for _, t := range tokens {
		f.tokens[t] = true
	}
	return nil
}

// slots reads the confirmed and the finalized slot: one round trip.
func (f *Follower) slots(ctx context.Context) (confirmed, finalized uint64, err error) {
	const op = "index"
	ctx, cancel := f.c.bound(ctx)
	defer cancel()
	calls := []*call{
		newCall("getSlot", &confirmed, map[string]any{"commitment": "confirmed"}),
		newCall("getSlot", &finalized, map[string]any{"commitment": "finalized"}),
	}
	if err := f.c.batch(ctx, op, calls); err != nil {
		return 0, 0, err
	}
	if err := firstErr(calls...); err != nil {
		return 0, 0, err
	}
	return confirmed, min(finalized, confirmed), nil
}

// Fingerprints: a slot's "hash" in the index.

// slotFingerprint is the fingerprint of a slot's transactions (any order): base58 SHA-256 of the
// sorted signatures, each followed by a newline.
func slotFingerprint(sigs []string) string {
	sorted := slices.Sorted(slices.Values(sigs))
	h := sha256.New()
	for _, s := range sorted {
		h.Write([]byte(s))
		h.Write([]byte{'\n'})
	}
	return chain.EncodeBase58(h.Sum(nil))
}

// anchor is the cursor's hash: "<slot>:<fingerprint>" of the newest slot with transactions.
func anchor(slot uint64, fp string) string { return strconv.FormatUint(slot, 10) + ":" + fp }

func parseAnchor(h string) (slot uint64, fp string, ok bool) {
	s, fp, found := strings.Cut(h, ":")
	if !found {
		return 0, "", false
	}
	slot, err := strconv.ParseUint(s, 10, 64)
	return slot, fp, err == nil
}

// Listing.

// sigInfo is one entry of getSignaturesForAddress.
type sigInfo struct {
	Signature string          `json:"signature"`
	Slot      uint64          `json:"slot"`
	Err       json.RawMessage `json:"err"`
	BlockTime *int64          `json:"blockTime"`
}

func (s *sigInfo) failed() bool {
	e := bytes.TrimSpace(s.Err)
	return len(e) > 0 && !bytes.Equal(e, []byte("null"))
}

// maxPageSize is the most entries getSignaturesForAddress answers.
const maxPageSize = 1000

// listPage lists up to limit of program's transactions, newest first, older than before (""
// for the newest) and newer than until ("" for no bound), at commitment.
func (f *Follower) listPage(ctx context.Context, program, before, until string, limit int, commitment string) ([]sigInfo, error) {
	const op = "index"
	ctx, cancel := f.c.bound(ctx)
	defer cancel()
	cfg := map[string]any{"limit": limit, "commitment": commitment}
	if before != "" {
		cfg["before"] = before
	}
	if until != "" {
		cfg["until"] = until
	}
	var out []sigInfo
	cl := newCall("getSignaturesForAddress", &out, program, cfg)
	if err := f.c.batch(ctx, op, []*call{cl}); err != nil {
		return nil, err
	}
	if cl.err != nil {
		return nil, cl.err
	}
	for i := 1; i < len(out); i++ {
		if out[i].Slot > out[i-1].Slot {
			return nil, badResponse(op, "getSignaturesForAddress(%s) listed slot %d after slot %d", program, out[i].Slot, out[i-1].Slot)
		}
	}
	return out, nil
}

// walk lists program's transactions from the newest down, stopping at until (exclusive) or after
// the first entry at or below slot floor (-1: none). The pages come newest first; entries at or
// below floor are dropped.
func (f *Follower) walk(ctx context.Context, program, until string, floor int64, commitment string) ([][]sigInfo, error) {
	var pages [][]sigInfo
	before := ""
	for {
		entries, err := f.listPage(ctx, program, before, until, f.cfg.PageSize, commitment)
		if err != nil {
			return nil, err
		}
		n := len(entries)
		i := slices.IndexFunc(entries, func(s sigInfo) bool { return int64(s.Slot) <= floor })
		if i >= 0 {
			entries = entries[:i]
		}
		if len(entries) > 0 {
			pages = append(pages, entries)
		}
		if i >= 0 || n < f.cfg.PageSize {
			return pages, nil
		}
		before = entries[len(entries)-1].Signature
	}
}

// sigFeed is one program's listing while the follower catches up (commitment finalized, so it
// never changes): held entries oldest first, and the pages listed but not held (past MaxListed),
// to be listed again when the held ones are used.
type sigFeed struct {
	held   []sigInfo
	marks  []pageMark // newest first: the last one is the oldest page not held
	newest string     // the newest signature listed: where the next walk stops
	head   uint64     // the slot the latest walk listed up to
	walked bool       // a walk listed the feed at least once (head 0 is also slot 0's)
}

// pageMark names a page not held: its newest entry and its size, so that the page is listed
// again as that entry and the size-1 entries before it.
type pageMark struct {
	first sigInfo
	size  int
}

// coverage is the slot up to which the held entries are complete (-1: none).
func (fd *sigFeed) coverage() int64 {
	if len(fd.marks) == 0 {
		return int64(fd.head)
	}
	if len(fd.held) == 0 {
		return -1
	}
	return int64(fd.held[len(fd.held)-1].Slot) - 1 // the next page may hold more of the last slot
}

// consume drops the held entries up to slot to.
func (fd *sigFeed) consume(to uint64) {
	i, _ := slices.BinarySearchFunc(fd.held, to+1, func(s sigInfo, slot uint64) int { return cmp.Compare(s.Slot, slot) })
	fd.held = slices.Delete(fd.held, 0, i)
}

// feed brings program's feed up to date for reading from slot from on: a walk of what was
// finalized since the last one (the first one down to floor) once every page listed is held, then
// the pages not held, oldest first, until the held entries cover from.
func (f *Follower) feed(ctx context.Context, program string, floor int64, from, finalized uint64) (*sigFeed, error) {
	if f.feeds == nil {
		f.feeds = map[string]*sigFeed{}
	}
	fd := f.feeds[program]
	if fd == nil {
		fd = &sigFeed{}
		f.feeds[program] = fd
	}
	if len(fd.marks) == 0 && (!fd.walked || fd.head < finalized) {
		// What was finalized since the last walk, newer than everything held.
		pages, err := f.walk(ctx, program, fd.newest, floor, "finalized")
		if err != nil {
			return nil, err
		}
		if len(pages) > 0 {
			fd.newest = pages[0][0].Signature
		}
		fd.head, fd.walked = finalized, true
		// Hold the oldest pages, up to MaxListed entries in all; mark the newer ones.
		held := len(fd.held)
		keep := len(pages)
		for keep > 0 && (held == 0 || held+len(pages[keep-1]) <= f.cfg.MaxListed) {
			keep--
			held += len(pages[keep])
		}
		for _, p := range pages[:keep] {
			fd.marks = append(fd.marks, pageMark{first: p[0], size: len(p)})
		}
		for i := len(pages) - 1; i >= keep; i-- {
			fd.held = append(fd.held, reversed(pages[i])...)
		}
	}
	for len(fd.marks) > 0 && (len(fd.held) == 0 || fd.coverage() < int64(from)) {
		m := fd.marks[len(fd.marks)-1]
		var rest []sigInfo
		if m.size > 1 {
			var err error
			if rest, err = f.listPage(ctx, program, m.first.Signature, "", m.size-1, "finalized"); err != nil {
				return nil, err
			}
			if len(rest) != m.size-1 {
				return nil, badResponse("index", "getSignaturesForAddress(%s) listed %d signatures before %s at finalized commitment, earlier %d",
					program, len(rest), m.first.Signature, m.size-1)
			}
		}
		fd.marks = fd.marks[:len(fd.marks)-1]
		fd.held = append(fd.held, reversed(append([]sigInfo{m.first}, rest...))...)
	}
	return fd, nil
}

func reversed(s []sigInfo) []sigInfo {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// slotList is the followed programs' transactions by slot, each slot's in chain order, complete
// for the slots the follower reads.
type slotList struct {
	bySlot map[uint64][]sigInfo
}

// add adds one program's entries, oldest first, keeping entries already listed by another
// program where they are.
func (sl *slotList) add(entries []sigInfo) {
	for _, e := range entries {
		if !slices.ContainsFunc(sl.bySlot[e.Slot], func(s sigInfo) bool { return s.Signature == e.Signature }) {
			sl.bySlot[e.Slot] = append(sl.bySlot[e.Slot], e)
		}
	}
}

func (sl *slotList) fingerprint(slot uint64) string {
	sigs := make([]string, len(sl.bySlot[slot]))
	for i, s := range sl.bySlot[slot] {
		sigs[i] = s.Signature
	}
	return slotFingerprint(sigs)
}

// bound lowers to so that from..to holds about maxTxs transactions (never splitting a slot, and
// at least one slot).
func (sl *slotList) bound(from, to uint64, maxTxs int) uint64 {
	n := 0
	for _, slot := range slices.Sorted(maps.Keys(sl.bySlot)) {
		if slot < from || slot > to {
			continue
		}
		n += len(sl.bySlot[slot])
		if n >= maxTxs {
			return slot
		}
	}
	return to
}

// programs are the followed programs, in configuration order, once each.
func (f *Follower) programs() []string {
	var out []string
	for _, ix := range f.cfg.Indexers {
		if p := ix.Program(); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// catchUp lists the transactions of the slots after the cursor, up to the finalized slot, from the
// feeds; to is the slot up to which they are complete. On its first step it checks the cursor's
// anchor slot too.
func (f *Follower) catchUp(ctx context.Context, cur chain.Cursor, finalized uint64) (*slotList, int64, error) {
	from := uint64(cur.Block + 1)
	floor := cur.Block
	aSlot, aFP, hasAnchor := parseAnchor(cur.Hash)
	check := !f.verified && hasAnchor && int64(aSlot) <= floor
	if check {
		floor = int64(aSlot) - 1
	}
	sl := &slotList{bySlot: map[uint64][]sigInfo{}}
	to := int64(finalized)
	for _, p := range f.programs() {
		fd, err := f.feed(ctx, p, floor, from, finalized)
		if err != nil {
			return nil, 0, err
		}
		sl.add(fd.held)
		to = min(to, fd.coverage())
	}
	if check {
		f.verified = true
		if got := sl.fingerprint(aSlot); got != aFP {
			f.log.Warn("the chain's final slot no longer holds the transactions the index read from it (a local validator restarted with the same seed?): indexing the chain over",
				"slot", aSlot, "indexed", aFP, "chain", got)
			f.forget()
			return nil, 0, f.cfg.Sink.Reset(ctx, f.cfg.Chain)
		}
	}
	f.verified = true
	if cur.Block >= 0 {
		for _, fd := range f.feeds {
			fd.consume(uint64(cur.Block))
		}
	}
	f.fedTo = cur.Block
	return sl, to, nil
}

// nearHead lists the transactions of the slots above the finalized one (and the cursor's anchor
// slot on the first step), checks those the index holds against the chain and rolls the index
// back below the first slot that differs (stop: the step is done).
func (f *Follower) nearHead(ctx context.Context, cur chain.Cursor, finalized uint64) (sl *slotList, stop bool, err error) {
	f.feeds = nil
	floor := int64(finalized)
	aSlot, aFP, hasAnchor := parseAnchor(cur.Hash)
	check := !f.verified && hasAnchor && aSlot <= finalized
	if check {
		floor = int64(aSlot) - 1
	}
	sl = &slotList{bySlot: map[uint64][]sigInfo{}}
	for _, p := range f.programs() {
		pages, err := f.walk(ctx, p, "", floor, "confirmed")
		if err != nil {
			return nil, false, err
		}
		for i := len(pages) - 1; i >= 0; i-- {
			sl.add(reversed(pages[i]))
		}
	}
	if check {
		f.verified = true
		if got := sl.fingerprint(aSlot); got != aFP {
			f.log.Warn("the chain's final slot no longer holds the transactions the index read from it (a local validator restarted with the same seed?): indexing the chain over",
				"slot", aSlot, "indexed", aFP, "chain", got)
			f.forget()
			return nil, true, f.cfg.Sink.Reset(ctx, f.cfg.Chain)
		}
	}
	f.verified = true
	// The index's slots above the finalized one, against the chain.
	kept := map[uint64]string{}
	below := cur.Block + 1
	for below > int64(finalized)+1 {
		blocks, err := f.cfg.Sink.RecentBlocks(ctx, f.cfg.Chain, below, 256)
		if err != nil {
			return nil, false, err
		}
		for _, b := range blocks {
			if b.Number > finalized {
				kept[b.Number] = b.Hash
			}
		}
		if len(blocks) < 256 {
			break
		}
		below = int64(blocks[len(blocks)-1].Number)
	}
	empty := slotFingerprint(nil)
	for slot := finalized + 1; slot <= uint64(cur.Block); slot++ {
		want, ok := kept[slot]
		if !ok {
			want = empty
		}
		if _, listed := sl.bySlot[slot]; !listed && want == empty {
			continue
		}
		if got := sl.fingerprint(slot); got != want {
			// The kept cursor's anchor: the newest slot with transactions at or below keep, from the
			// chain above the finalized slot, else the cursor's own anchor when it is that low.
			keep, keepHash := slot-1, ""
			if hasAnchor && aSlot <= keep {
				keepHash = cur.Hash
			}
			for s := keep; s > finalized; s-- {
				if len(sl.bySlot[s]) > 0 {
					keepHash = anchor(s, sl.fingerprint(s))
					break
				}
			}
			f.log.Warn("a confirmed slot the index read was rolled back: rolling the index back", "slot", slot, "to", keep,
				"indexed", want, "chain", got)
			f.forget()
			f.verified = true
			return nil, true, f.cfg.Sink.Rollback(ctx, f.cfg.Chain, keep, keepHash)
		}
	}
	return sl, false, nil
}

// Reading a range.

// read reads the slots from..to into a batch.
func (f *Follower) read(ctx context.Context, cur chain.Cursor, sl *slotList, from, to, finalized uint64) (chain.Batch, error) {
	b := chain.Batch{Chain: f.cfg.Chain, Genesis: f.genesis, From: from, To: to, ToHash: cur.Hash, Final: finalized}
	var slots []uint64
	for _, s := range slices.Sorted(maps.Keys(sl.bySlot)) {
		if s >= from && s <= to && len(sl.bySlot[s]) > 0 {
			slots = append(slots, s)
		}
	}
	var want []sigInfo // the successful transactions, in chain order
	index := map[string]int{}
	for _, s := range slots {
		fp := sl.fingerprint(s)
		if s >= finalized {
			b.Blocks = append(b.Blocks, chain.BlockHash{Number: s, Hash: fp})
		}
		b.ToHash = anchor(s, fp)
		for i, e := range sl.bySlot[s] {
			index[e.Signature] = i
			if !e.failed() {
				want = append(want, e)
			}
		}
	}
	if !slices.ContainsFunc(b.Blocks, func(h chain.BlockHash) bool { return h.Number == to }) {
		b.Blocks = append(b.Blocks, chain.BlockHash{Number: to, Hash: sl.fingerprint(to)})
	}
	txs, err := f.transactions(ctx, want, index)
	if err != nil {
		return chain.Batch{}, err
	}
	if err := f.decode(ctx, &b, txs); err != nil {
		return chain.Batch{}, err
	}
	return b, nil
}

// txChunk is how many getTransaction calls go into one batch round (the client splits it into
// JSON-RPC batches of MaxBatch, sent at once).
const txChunk = 400

// transactions reads the listed transactions (getTransaction at confirmed commitment, base64,
// maxSupportedTransactionVersion 0), in order; failed ones are left out.
func (f *Follower) transactions(ctx context.Context, list []sigInfo, index map[string]int) ([]*chain.SVMTx, error) {
	const op = "index"
	var out []*chain.SVMTx
	for i := 0; i < len(list); i += txChunk {
		part := list[i:min(i+txChunk, len(list))]
		raw := make([]*rpc.GetTransactionResult, len(part))
		calls := make([]*call, len(part))
		for j, e := range part {
			calls[j] = newCall("getTransaction", &raw[j], e.Signature,
				map[string]any{"encoding": "base64", "maxSupportedTransactionVersion": 0, "commitment": "confirmed"})
		}
		bctx, cancel := f.c.bound(ctx)
		err := f.c.batch(bctx, op, calls)
		cancel()
		if err != nil {
			return nil, err
		}
		for j, e := range part {
			if calls[j].err != nil {
				return nil, calls[j].err
			}
			if raw[j] == nil {
				return nil, badResponse(op, "getTransaction(%s): not served at confirmed commitment though listed in slot %d", e.Signature, e.Slot)
			}
			tx, err := svmTx(raw[j], e)
			if err != nil {
				return nil, badResponse(op, "getTransaction(%s): %v", e.Signature, err)
			}
			tx.Index = index[e.Signature]
			if !tx.Failed {
				out = append(out, tx)
			}
		}
	}
	return out, nil
}

// svmTx maps a getTransaction answer about the listed e.
func svmTx(r *rpc.GetTransactionResult, e sigInfo) (*chain.SVMTx, error) {
	if r.Transaction == nil || r.Meta == nil {
		return nil, fmt.Errorf("no transaction or no meta")
	}
	if r.Slot != e.Slot {
		return nil, fmt.Errorf("in slot %d, listed in slot %d", r.Slot, e.Slot)
	}
	tx, err := decodeTx(r.Transaction.GetBinary())
	if err != nil {
		return nil, err
	}
	if tx.Signatures[0].String() != e.Signature {
		return nil, fmt.Errorf("answered about another transaction")
	}
	m := r.Meta
	keys := slices.Clone(tx.Message.AccountKeys)
	keys = append(keys, m.LoadedAddresses.Writable...)
	keys = append(keys, m.LoadedAddresses.ReadOnly...)
	if want := len(tx.Message.AccountKeys) + tx.Message.NumLookups(); len(keys) != want {
		return nil, fmt.Errorf("%d loaded addresses for %d lookups", len(keys)-len(tx.Message.AccountKeys), tx.Message.NumLookups())
	}
	out := &chain.SVMTx{Signature: e.Signature, Slot: r.Slot, Accounts: keyStrings(keys)}
	out.FeePayer = out.Accounts[0]
	switch {
	case r.BlockTime != nil:
		out.Time = int64(*r.BlockTime)
	case e.BlockTime != nil:
		out.Time = *e.BlockTime
	}
	if m.Err != nil {
		b, _ := json.Marshal(m.Err)
		out.Failed, out.Err = true, string(b)
		return out, nil
	}
	inner := map[int][]rpc.CompiledInstruction{}
	for _, ii := range m.InnerInstructions {
		inner[int(ii.Index)] = append(inner[int(ii.Index)], ii.Instructions...)
	}
	resolve := func(program uint16, accounts []uint16, data []byte, outer, depth int) (chain.SVMInstruction, error) {
		if int(program) >= len(keys) {
			return chain.SVMInstruction{}, fmt.Errorf("program index %d of %d keys", program, len(keys))
		}
		in := chain.SVMInstruction{Program: out.Accounts[program], Data: slices.Clone(data), Outer: outer, Depth: depth,
			Accounts: make([]string, len(accounts))}
		for i, a := range accounts {
			if int(a) >= len(keys) {
				return chain.SVMInstruction{}, fmt.Errorf("account index %d of %d keys", a, len(keys))
			}
			in.Accounts[i] = out.Accounts[a]
		}
		return in, nil
	}
	for i, ci := range tx.Message.Instructions {
		accts := make([]uint16, len(ci.Accounts))
		copy(accts, ci.Accounts)
		in, err := resolve(ci.ProgramIDIndex, accts, ci.Data, i, 1)
		if err != nil {
			return nil, fmt.Errorf("instruction %d: %w", i, err)
		}
		out.Instructions = append(out.Instructions, in)
		for j, ii := range inner[i] {
			depth := int(ii.StackHeight)
			if depth < 2 {
				depth = 2 // nodes from before stackHeight
			}
			in, err := resolve(ii.ProgramIDIndex, ii.Accounts, ii.Data, i, depth)
			if err != nil {
				return nil, fmt.Errorf("inner instruction %d.%d: %w", i, j, err)
			}
			out.Instructions = append(out.Instructions, in)
		}
	}
	balances := map[uint16]*chain.SVMTokenBalance{}
	var order []uint16
	for k, list := range [][]rpc.TokenBalance{m.PreTokenBalances, m.PostTokenBalances} {
		for _, tb := range list {
			if int(tb.AccountIndex) >= len(keys) {
				return nil, fmt.Errorf("token balance of account index %d of %d keys", tb.AccountIndex, len(keys))
			}
			if tb.UiTokenAmount == nil {
				return nil, fmt.Errorf("token balance of account index %d without an amount", tb.AccountIndex)
			}
			amount, err := strconv.ParseUint(tb.UiTokenAmount.Amount, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("token balance of account index %d: amount %q", tb.AccountIndex, tb.UiTokenAmount.Amount)
			}
			b := balances[tb.AccountIndex]
			if b == nil {
				b = &chain.SVMTokenBalance{AccountIndex: int(tb.AccountIndex), Account: out.Accounts[tb.AccountIndex], Mint: tb.Mint.String()}
				balances[tb.AccountIndex] = b
				order = append(order, tb.AccountIndex)
			}
			if tb.Owner != nil {
				b.Owner = tb.Owner.String()
			}
			if tb.ProgramId != nil {
				b.Program = tb.ProgramId.String()
			}
			if k == 0 {
				b.Pre = amount
			} else {
				b.Post = amount
			}
		}
	}
	for _, i := range order {
		out.TokenBalances = append(out.TokenBalances, *balances[i])
	}
	out.Logs = m.LogMessages
	out.LogsComplete = attributeLogs(out.Instructions, out.Logs)
	return out, nil
}

// Programs that run without logging their invocation (the signature precompiles).
var silentPrograms = map[string]bool{
	"Ed25519SigVerify111111111111111111111111111": true,
	"KeccakSecp256k11111111111111111111111111111": true,
	"Secp256r1SigVerify1111111111111111111111111": true,
}

// attributeLogs gives each instruction the "Program data:" payloads it logged, following the
// runtime's "Program <id> invoke [<depth>]" and "Program <id> success|failed" lines. It reports
// false, leaving every LogData nil, when the logs are truncated or do not match the instructions.
func attributeLogs(ins []chain.SVMInstruction, logs []string) (ok bool) {
	defer func() {
		if !ok {
			for i := range ins {
				ins[i].LogData = nil
			}
		}
	}()
	var stack []int
	next := 0
	for _, line := range logs {
		switch {
		case line == "Log truncated":
			return false
		case strings.HasPrefix(line, "Program data: "):
			if len(stack) == 0 {
				return false
			}
			var data []byte
			for _, field := range strings.Fields(strings.TrimPrefix(line, "Program data: ")) {
				b, err := base64.StdEncoding.DecodeString(field)
				if err != nil {
					return false
				}
				data = append(data, b...)
			}
			top := stack[len(stack)-1]
			ins[top].LogData = append(ins[top].LogData, data)
		case strings.HasPrefix(line, "Program ") && strings.Contains(line, " invoke ["):
			program, depth, found := strings.Cut(strings.TrimPrefix(line, "Program "), " invoke [")
			if !found {
				return false
			}
			d, err := strconv.Atoi(strings.TrimSuffix(depth, "]"))
			if err != nil {
				return false
			}
			for next < len(ins) && ins[next].Program != program && silentPrograms[ins[next].Program] {
				next++
			}
			if next >= len(ins) || ins[next].Program != program || ins[next].Depth != d || d != len(stack)+1 {
				return false
			}
			stack = append(stack, next)
			next++
		case strings.HasPrefix(line, "Program ") && (strings.HasSuffix(line, " success") || strings.Contains(line, " failed")):
			program, _, _ := strings.Cut(strings.TrimPrefix(line, "Program "), " ")
			if len(stack) == 0 || ins[stack[len(stack)-1]].Program != program {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	for next < len(ins) && silentPrograms[ins[next].Program] {
		next++
	}
	return len(stack) == 0 && next == len(ins)
}

// decode hands the transactions to the venues and adds what they find to the batch: the new
// pools with their tokens, and the events of the followed pools.
func (f *Follower) decode(ctx context.Context, b *chain.Batch, txs []*chain.SVMTx) error {
	// The accounts the venues need, read once.
	need := map[string]bool{}
	type job struct {
		tx *chain.SVMTx
		ix chain.SVMIndexer
	}
	var jobs []job
	for _, tx := range txs {
		for _, ix := range f.cfg.Indexers {
			if slices.Contains(tx.Accounts, ix.Program()) {
				jobs = append(jobs, job{tx, ix})
				for _, a := range ix.Accounts(tx) {
					need[a] = true
				}
			}
		}
	}
	accounts, err := f.accountData(ctx, slices.Sorted(maps.Keys(need)))
	if err != nil {
		return err
	}
	var pools []chain.SVMPool
	known := maps.Clone(f.pools)
	seen := map[[2]uint64]bool{}
	for _, j := range jobs {
		ps, events, err := j.ix.Decode(j.tx, accounts)
		if err != nil {
			f.log.Warn("indexer skips a transaction its venue cannot read", "signature", j.tx.Signature, "slot", j.tx.Slot,
				"program", j.ix.Program(), "err", err)
			continue
		}
		for _, p := range ps {
			if !known[p.Address] {
				known[p.Address] = true
				pools = append(pools, p)
			}
		}
		for _, e := range events {
			switch {
			case !known[e.Pool]: // a pool created before the start slot
			case e.Block != j.tx.Slot || e.TxHash != j.tx.Signature || e.LogIndex/chain.SVMMaxEventsPerTx != uint(j.tx.Index):
				return fmt.Errorf("index %s: %s's event %+v is not of its transaction", f.cfg.Chain, j.ix.Program(), e)
			case seen[[2]uint64{e.Block, uint64(e.LogIndex)}]:
				return fmt.Errorf("index %s: two events at slot %d, log index %d", f.cfg.Chain, e.Block, e.LogIndex)
			default:
				seen[[2]uint64{e.Block, uint64(e.LogIndex)}] = true
				b.Events = append(b.Events, e)
			}
		}
	}
	slices.SortStableFunc(b.Events, func(x, y chain.PoolEvent) int {
		return cmp.Or(cmp.Compare(x.Block, y.Block), cmp.Compare(x.LogIndex, y.LogIndex))
	})
	return f.describe(ctx, b, pools)
}

// accountData reads accounts' data (getMultipleAccounts at the client's commitment, in one
// round trip); an account that does not exist is left out.
func (f *Follower) accountData(ctx context.Context, addrs []string) (map[string][]byte, error) {
	const op = "index"
	if len(addrs) == 0 {
		return nil, nil
	}
	keys := make([]sol.PublicKey, 0, len(addrs))
	for _, a := range addrs {
		k, err := sol.PublicKeyFromBase58(a)
		if err != nil {
			return nil, fmt.Errorf("index %s: a venue asked for account %q: %w", f.cfg.Chain, a, err)
		}
		keys = append(keys, k)
	}
	ctx, cancel := f.c.bound(ctx)
	defer cancel()
	ar := f.c.accounts(keys, nil)
	if err := f.c.batch(ctx, op, ar.calls); err != nil {
		return nil, err
	}
	got, _, err := ar.result(op)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for k, acc := range got {
		if acc == nil {
			continue
		}
		data, err := acc.bytes()
		if err != nil {
			return nil, badResponse(op, "account %s: %v", k, err)
		}
		out[k.String()] = data
	}
	return out, nil
}

// describe adds the new pools, with their LP mints as their LP tokens, and their mints and LP mints
// not followed yet as tokens, to the batch. A mint that cannot be read is still followed, with what
// could be read.
func (f *Follower) describe(ctx context.Context, b *chain.Batch, pools []chain.SVMPool) error {
	type tok struct {
		addr string
		lp   bool
		pool chain.SVMPool
	}
	var toks []tok
	added := map[string]bool{}
	for _, p := range pools {
		ip := p.IndexedPool
		ip.LPToken = cmp.Or(ip.LPToken, p.LPMint)
		b.Pools = append(b.Pools, ip)
		for _, t := range []tok{{p.Token0, false, p}, {p.Token1, false, p}, {p.LPMint, true, p}} {
			if t.addr != "" && !f.tokens[t.addr] && !added[t.addr] {
				added[t.addr] = true
				toks = append(toks, t)
			}
		}
	}
	if len(toks) == 0 {
		return nil
	}
	addrs := make([]string, len(toks))
	for i, t := range toks {
		addrs[i] = t.addr
	}
	mints, err := f.c.Mints(ctx, addrs)
	if err != nil {
		return err
	}
	symbols := map[string]string{}
	for _, m := range mints {
		symbols[m.Address] = mintSymbol(m)
	}
	for i, t := range toks {
		m := mints[i]
		it := chain.IndexedToken{Address: t.addr, Decimals: m.Decimals, LP: t.lp, Block: t.pool.Block}
		name, symbol, named := m.NameSymbol()
		switch {
		case named:
			it.Symbol, it.Name = symbol, name
		case t.lp:
			s0, s1 := cmp.Or(symbols[t.pool.Token0], f.symbolOf(t.pool.Token0)), cmp.Or(symbols[t.pool.Token1], f.symbolOf(t.pool.Token1))
			it.Symbol = s0 + "-" + s1 + "-LP"
			it.Name = t.pool.Venue + " " + s0 + "/" + s1 + " LP"
		}
		it.Symbol, it.Name = truncate(it.Symbol, 64), truncate(it.Name, 128)
		b.Tokens = append(b.Tokens, it)
	}
	return nil
}

// symbolOf is the short address of a token the batch did not read (its symbol is in the index).
func (f *Follower) symbolOf(addr string) string {
	if len(addr) > 4 {
		return addr[:4]
	}
	return addr
}

// mintSymbol is the mint's symbol (chain.SVMMint.NameSymbol's); empty when it has none.
func mintSymbol(m chain.SVMMint) string {
	_, symbol, _ := m.NameSymbol()
	return symbol
}

func truncate(s string, n int) string {
	for len(s) > n {
		s = s[:len(s)-1]
	}
	return strings.ToValidUTF8(s, "")
}
