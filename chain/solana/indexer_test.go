package solana_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go/base58"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// The follower against the local validator: the seeded CPMM pools and the background trader's
// swaps, indexed into index.Store on SQLite and PostgreSQL, checked against the chain read
// independently (plain JSON-RPC, json encoding).

const cpmm = "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"

// rawRPC calls the validator with plain JSON-RPC, independently of the adapter.
type rawRPC struct{ url string }

func (r rawRPC) call(t *testing.T, out any, method string, params ...any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(r.url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if env.Error != nil {
		t.Fatalf("%s: %d %s", method, env.Error.Code, env.Error.Message)
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

func (r rawRPC) slot(t *testing.T, commitment string) uint64 {
	var s uint64
	r.call(t, &s, "getSlot", map[string]any{"commitment": commitment})
	return s
}

// chainOp is a CPMM instruction of a successful transaction as the chain shows it: its kind, the
// vault accounts it names and their balance changes over the transaction.
type chainOp struct {
	sig    string
	slot   uint64
	kind   string // swap_base_input, swap_base_output, deposit, withdraw, initialize
	pool   string
	payer  string
	delta  map[string]*big.Int // vault -> post - pre
	mintOf map[string]string   // vault -> mint
}

func disc(name string) string {
	h := sha256.Sum256([]byte("global:" + name))
	return string(h[:8])
}

// chainOps reads every successful CPMM instruction in slots up to upTo.
func chainOps(t *testing.T, r rawRPC, upTo uint64) []chainOp {
	t.Helper()
	type entry struct {
		Signature string          `json:"signature"`
		Slot      uint64          `json:"slot"`
		Err       json.RawMessage `json:"err"`
	}
	var sigs []entry
	before := ""
	for {
		cfg := map[string]any{"commitment": "confirmed", "limit": 1000}
		if before != "" {
			cfg["before"] = before
		}
		var page []entry
		r.call(t, &page, "getSignaturesForAddress", cpmm, cfg)
		sigs = append(sigs, page...)
		if len(page) < 1000 {
			break
		}
		before = page[len(page)-1].Signature
	}
	kinds := map[string]string{}
	for _, k := range []string{"swap_base_input", "swap_base_output", "deposit", "withdraw", "initialize"} {
		kinds[disc(k)] = k
	}
	poolAt := map[string]int{"swap_base_input": 3, "swap_base_output": 3, "deposit": 2, "withdraw": 2, "initialize": 3}
	vaultsAt := map[string][2]int{"swap_base_input": {6, 7}, "swap_base_output": {6, 7}, "deposit": {6, 7}, "withdraw": {6, 7}, "initialize": {10, 11}}
	var out []chainOp
	for _, s := range slices.Backward(sigs) {
		if s.Slot > upTo || (len(s.Err) > 0 && string(s.Err) != "null") {
			continue
		}
		var tx struct {
			Slot        uint64 `json:"slot"`
			Transaction struct {
				Message struct {
					AccountKeys  []string `json:"accountKeys"`
					Instructions []struct {
						ProgramIDIndex int    `json:"programIdIndex"`
						Accounts       []int  `json:"accounts"`
						Data           string `json:"data"`
					} `json:"instructions"`
				} `json:"message"`
			} `json:"transaction"`
			Meta struct {
				Err                                 json.RawMessage `json:"err"`
				PreTokenBalances, PostTokenBalances []struct {
					AccountIndex  int    `json:"accountIndex"`
					Mint          string `json:"mint"`
					UITokenAmount struct {
						Amount string `json:"amount"`
					} `json:"uiTokenAmount"`
				}
			} `json:"meta"`
		}
		r.call(t, &tx, "getTransaction", s.Signature, map[string]any{"encoding": "json", "commitment": "confirmed", "maxSupportedTransactionVersion": 0})
		keys := tx.Transaction.Message.AccountKeys
		for _, in := range tx.Transaction.Message.Instructions {
			data, err := base58.Decode(in.Data)
			if err != nil {
				t.Fatal(err)
			}
			if keys[in.ProgramIDIndex] != cpmm || len(data) < 8 || kinds[string(data[:8])] == "" {
				continue
			}
			kind := kinds[string(data[:8])]
			op := chainOp{sig: s.Signature, slot: tx.Slot, kind: kind, pool: keys[in.Accounts[poolAt[kind]]], payer: keys[in.Accounts[0]],
				delta: map[string]*big.Int{}, mintOf: map[string]string{}}
			for _, v := range vaultsAt[kind] {
				vault := keys[in.Accounts[v]]
				d := new(big.Int)
				for sign, bals := range [][]struct {
					AccountIndex  int    `json:"accountIndex"`
					Mint          string `json:"mint"`
					UITokenAmount struct {
						Amount string `json:"amount"`
					} `json:"uiTokenAmount"`
				}{tx.Meta.PreTokenBalances, tx.Meta.PostTokenBalances} {
					for _, b := range bals {
						if keys[b.AccountIndex] == vault {
							a, _ := new(big.Int).SetString(b.UITokenAmount.Amount, 10)
							d.Add(d, a.Mul(a, big.NewInt(int64(2*sign-1))))
							op.mintOf[vault] = b.Mint
						}
					}
				}
				op.delta[vault] = d
			}
			out = append(out, op)
		}
	}
	return out
}

// follow steps f until the index's cursor reaches target.
func follow(t *testing.T, f *solana.Follower, sink chain.Sink, target uint64) chain.Cursor {
	t.Helper()
	// A bound against a follower that stalls, not a speed figure: under -race, on 2 cores shared with
	// the other packages' tests, catching up with a few thousand slots has taken over 2 minutes.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		caughtUp, err := f.Step(t.Context())
		if err != nil {
			t.Fatalf("step: %v", err)
		}
		cur, ok, err := sink.Cursor(t.Context(), "solana")
		if err != nil {
			t.Fatal(err)
		}
		if ok && cur.Block >= int64(target) {
			return cur
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index reached slot %d in 5 minutes, not %d", cur.Block, target)
		}
		if caughtUp {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func pricingOf(n *localnet.Node) index.Pricing {
	usdc, _ := n.Mint("USDC")
	return index.Pricing{Stablecoins: map[string]bool{usdc.Address: true}, WrappedNative: solana.NativeMint}
}

// spySink is the index with a hook on what the follower reads and counts of its rollbacks and
// resets.
type spySink struct {
	*index.Store
	mu        sync.Mutex
	tamper    func(blocks []chain.BlockHash) bool // changes what RecentBlocks answers, until it returns true
	tamperCur func(c *chain.Cursor)               // changes what Cursor answers, once
	rollbacks []uint64
	resets    int
	applying  time.Duration // spent in Apply
}

func (s *spySink) Apply(ctx context.Context, b chain.Batch) error {
	start := time.Now()
	err := s.Store.Apply(ctx, b)
	s.mu.Lock()
	s.applying += time.Since(start)
	s.mu.Unlock()
	return err
}

func (s *spySink) RecentBlocks(ctx context.Context, chainName string, below int64, limit int) ([]chain.BlockHash, error) {
	blocks, err := s.Store.RecentBlocks(ctx, chainName, below, limit)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil && s.tamper != nil && s.tamper(blocks) {
		s.tamper = nil
	}
	return blocks, err
}

func (s *spySink) Cursor(ctx context.Context, chainName string) (chain.Cursor, bool, error) {
	c, ok, err := s.Store.Cursor(ctx, chainName)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil && ok && s.tamperCur != nil {
		s.tamperCur(&c)
		s.tamperCur = nil
	}
	return c, ok, err
}

func (s *spySink) Rollback(ctx context.Context, chainName string, keep uint64, keepHash string) error {
	s.mu.Lock()
	s.rollbacks = append(s.rollbacks, keep)
	s.mu.Unlock()
	return s.Store.Rollback(ctx, chainName, keep, keepHash)
}

func (s *spySink) Reset(ctx context.Context, chainName string) error {
	s.mu.Lock()
	s.resets++
	s.mu.Unlock()
	return s.Store.Reset(ctx, chainName)
}

// indexRows is everything the index holds of the chain up to a slot.
type indexRows struct {
	Pools  []index.Pool
	Events []index.Event
}

func rowsUpTo(t *testing.T, ix *index.Store, upTo int64) indexRows {
	t.Helper()
	pools, err := ix.Pools(t.Context(), "solana")
	if err != nil {
		t.Fatal(err)
	}
	for i := range pools { // the latest reserves move on with the chain; the events hold them
		pools[i].Reserve0, pools[i].Reserve1, pools[i].StateBlock = "", "", 0
	}
	events, err := ix.ChainEvents(t.Context(), "solana", -1, upTo, 0)
	if err != nil {
		t.Fatal(err)
	}
	return indexRows{pools, events}
}

func TestFollowerLocalnet(t *testing.T) {
	// The traders swap 500 times, then stop: every later catch-up, on either store, reads the same
	// few hundred transactions however long the chain has grown (empty slots cost a follower
	// nothing).
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 40 * time.Millisecond, FinalizeDepth: 8, Activity: 10 * time.Millisecond, ActivityCount: 500})
	r := rawRPC{n.URL}
	c, err := solana.New([]string{n.URL}, solana.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	time.Sleep(8 * time.Second) // let the traders swap their 500 times

	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := t.Context()
		ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"solana": pricingOf(n)})
		sink := &spySink{Store: ix}
		newFollower := func(maxTxs, maxListed, pageSize int) *solana.Follower {
			return solana.NewFollower(solana.FollowerConfig{Chain: "solana", Client: c, Sink: sink, Indexers: []chain.SVMIndexer{raydium.Indexer{}},
				MaxTxs: maxTxs, MaxListed: maxListed, PageSize: pageSize, Interval: 20 * time.Millisecond})
		}

		// Catch up from slot 0 in batches of 100 transactions: the ingest rate.
		target := r.slot(t, "confirmed")
		f := newFollower(100, 0, 0)
		start := time.Now()
		cur := follow(t, f, sink, target)
		took := time.Since(start)
		ops := chainOps(t, r, uint64(cur.Block))
		swaps := 0
		for _, op := range ops {
			if op.kind == "swap_base_input" || op.kind == "swap_base_output" {
				swaps++
			}
		}
		if swaps < 50 {
			t.Fatalf("only %d swaps on the chain by slot %d: the trader did not trade", swaps, cur.Block)
		}
		t.Logf("%s: indexed slots 0..%d, %d CPMM transactions (%d swaps) in %s (%s of it storing): %.0f swaps/s, %.0f transactions/s",
			st.Dialect, cur.Block, len(ops), swaps, took.Round(time.Millisecond), sink.applying.Round(time.Millisecond),
			float64(swaps)/took.Seconds(), float64(len(ops))/took.Seconds())

		checkPools(t, n, ix)
		checkEvents(t, ix, ops, cur)
		checkReserves(t, n, r, f, sink, ix)

		// A token is found by its Solana address as the chain spells it, not lower-cased.
		emb, _ := n.Mint("EMB")
		found, err := ix.SearchTokens(ctx, "solana", emb.Address, 5)
		if err != nil || len(found) == 0 || found[0].Address != emb.Address {
			t.Errorf("SearchTokens(%s) = %+v, %v", emb.Address, found, err)
		}

		// Read again: a new follower on the index checks the cursor's slot, then goes on; rolled
		// back to the middle and read again, every row is as it was.
		cur = follow(t, newFollower(0, 0, 0), sink, r.slot(t, "confirmed"))
		if len(sink.rollbacks) != 0 || sink.resets != 0 {
			t.Fatalf("a new follower rolled back %v and reset %d times", sink.rollbacks, sink.resets)
		}
		before := rowsUpTo(t, ix, cur.Block)
		mid := before.Events[len(before.Events)/2].Block - 1
		if err := ix.Rollback(ctx, "solana", uint64(mid), ""); err != nil {
			t.Fatal(err)
		}
		if got := rowsUpTo(t, ix, cur.Block); len(got.Events) >= len(before.Events) {
			t.Fatalf("the rollback to slot %d kept %d of %d events", mid, len(got.Events), len(before.Events))
		}
		// small pages and a small listing held: the catch-up lists pages again
		follow(t, newFollower(7, 5, 4), sink, uint64(cur.Block))
		if got := rowsUpTo(t, ix, cur.Block); !reflect.DeepEqual(got, before) {
			t.Fatalf("read again from slot %d, the index differs:\n%s", mid, diffRows(before, got))
		}

		// A confirmed slot the chain no longer holds as indexed (here: the index's record of it
		// altered) is rolled back and read again: the same rows.
		f = newFollower(0, 0, 0)
		follow(t, f, sink, r.slot(t, "confirmed"))
		var tampered uint64
		sink.mu.Lock()
		sink.tamper = func(blocks []chain.BlockHash) bool {
			final := r.slot(t, "finalized")
			for i := range blocks { // newest first
				if blocks[i].Number > final {
					tampered = blocks[i].Number
					blocks[i].Hash = "altered"
					return true
				}
			}
			return false
		}
		sink.mu.Unlock()
		var cur2 chain.Cursor
		for deadline := time.Now().Add(time.Minute); ; {
			cur2 = follow(t, f, sink, r.slot(t, "confirmed")+1)
			sink.mu.Lock()
			done := sink.tamper == nil
			sink.mu.Unlock()
			if done && len(sink.rollbacks) > 0 && cur2.Block > int64(tampered) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the follower never compared a slot above the finalized one")
			}
		}
		if len(sink.rollbacks) != 1 || sink.rollbacks[0] != tampered-1 {
			t.Fatalf("rollbacks %v; want one to slot %d, below the altered slot", sink.rollbacks, tampered-1)
		}
		if got := rowsUpTo(t, ix, cur.Block); !reflect.DeepEqual(got, before) {
			t.Fatalf("rolled back to slot %d and read again, the index differs:\n%s", tampered-1, diffRows(before, got))
		}
		checkEvents(t, ix, chainOps(t, r, uint64(cur2.Block)), cur2)

		// A final slot that no longer holds what was indexed (a validator restarted with the same
		// seed): the index starts over, and reads the same rows.
		slot, _, ok := func() (uint64, string, bool) { c, _, _ := ix.Cursor(ctx, "solana"); return parseAnchorTest(c.Hash) }()
		if !ok || slot == 0 {
			t.Fatalf("after the rollback the cursor's anchor is slot %d (parsed: %v): it lost the newest slot with transactions", slot, ok)
		}
		sink.mu.Lock()
		sink.tamperCur = func(c *chain.Cursor) { c.Hash = fmt.Sprintf("%d:%s", slot, "altered") }
		sink.mu.Unlock()
		waitFinal(t, r, slot)
		follow(t, newFollower(0, 0, 0), sink, r.slot(t, "confirmed"))
		if sink.resets != 1 {
			t.Fatalf("%d resets, want 1", sink.resets)
		}
		if got := rowsUpTo(t, ix, cur.Block); !reflect.DeepEqual(got, before) {
			t.Fatalf("indexed over, the index differs:\n%s", diffRows(before, got))
		}
	})
}

func parseAnchorTest(h string) (uint64, string, bool) {
	var slot uint64
	var fp string
	n, _ := fmt.Sscanf(h, "%d:%s", &slot, &fp)
	return slot, fp, n == 2
}

func waitFinal(t *testing.T, r rawRPC, slot uint64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); r.slot(t, "finalized") < slot; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("slot %d not finalized in 30 s", slot)
		}
	}
}

func diffRows(want, got indexRows) string {
	var out bytes.Buffer
	if !reflect.DeepEqual(want.Pools, got.Pools) {
		fmt.Fprintf(&out, "pools:\n  want %+v\n  got  %+v\n", want.Pools, got.Pools)
	}
	if len(want.Events) != len(got.Events) {
		fmt.Fprintf(&out, "%d events, want %d\n", len(got.Events), len(want.Events))
	}
	for i := range min(len(want.Events), len(got.Events)) {
		if want.Events[i] != got.Events[i] {
			fmt.Fprintf(&out, "event %d:\n  want %+v\n  got  %+v\n", i, want.Events[i], got.Events[i])
			break
		}
	}
	return out.String()
}

// checkPools: the five seeded pools, found from their initialize transactions, with their mints
// as tokens.
func checkPools(t *testing.T, n *localnet.Node, ix *index.Store) {
	t.Helper()
	ctx := t.Context()
	pools, err := ix.Pools(ctx, "solana")
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != len(n.Pools) || len(pools) != 5 {
		t.Fatalf("%d pools indexed, the validator seeded %d", len(pools), len(n.Pools))
	}
	byAddr := map[string]index.Pool{}
	for _, p := range pools {
		byAddr[p.Address] = p
	}
	usdc, _ := n.Mint("USDC")
	for _, want := range n.Pools {
		p, ok := byAddr[want.Address]
		if !ok {
			t.Errorf("pool %s (%s) not indexed", want.Name, want.Address)
			continue
		}
		if p.Venue != "raydium" || p.Token0 != want.Token0.Mint || p.Token1 != want.Token1.Mint || p.FeeBps != int(want.TradeFeeRate/100) {
			t.Errorf("pool %s indexed as %+v; want venue raydium, tokens %s, %s, fee %d bps", want.Name, p, want.Token0.Mint, want.Token1.Mint, want.TradeFeeRate/100)
		}
		// the quote is USDC where the pool has it, else wrapped SOL
		quote := p.Quote()
		if (want.Token0.Mint == usdc.Address || want.Token1.Mint == usdc.Address) != (quote == usdc.Address) {
			t.Errorf("pool %s quotes in %s", want.Name, quote)
		}
		toks, err := ix.Tokens(ctx, "solana", []string{want.Token0.Mint, want.Token1.Mint, want.LPMint})
		if err != nil {
			t.Fatal(err)
		}
		for _, side := range []localnet.PoolToken{want.Token0, want.Token1} {
			tok := toks[side.Mint]
			m, _ := n.Mint(side.Symbol)
			sym := side.Symbol
			if side.Mint == solana.NativeMint {
				sym = "WSOL"
			}
			if tok.Decimals != int(side.Decimals) || tok.LP || tok.Symbol != sym || (m.Metadata != "" && tok.Name != m.Name) {
				t.Errorf("token %s indexed as %+v; want %s, %d decimals", side.Mint, tok, sym, side.Decimals)
			}
		}
		if lp := toks[want.LPMint]; !lp.LP || lp.Decimals != int(want.LPDecimals) || lp.Symbol == "" {
			t.Errorf("LP mint %s indexed as %+v", want.LPMint, lp)
		}
		// The LP mint is recorded as the pool's LP token: an LP token held leads to its pool.
		if p.LPToken != want.LPMint {
			t.Errorf("pool %s's LP token is %q, want its LP mint %s", want.Name, p.LPToken, want.LPMint)
		}
		if of, err := ix.PoolsOfLPTokens(ctx, "solana", []string{want.LPMint, want.Address}); err != nil || len(of) != 1 || of[want.LPMint].Address != want.Address {
			t.Errorf("pools of %s's LP mint: %+v, %v", want.Name, of, err)
		}
	}
}

// checkEvents: every CPMM instruction on the chain up to the cursor is one row of the index, its
// amounts the vaults' changes.
func checkEvents(t *testing.T, ix *index.Store, ops []chainOp, cur chain.Cursor) {
	t.Helper()
	events, err := ix.ChainEvents(t.Context(), "solana", -1, cur.Block, 0)
	if err != nil {
		t.Fatal(err)
	}
	pools, err := ix.Pools(t.Context(), "solana")
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[string]index.Pool{}
	for _, p := range pools {
		byAddr[p.Address] = p
	}
	rows := map[string][]index.Event{}
	for _, e := range events {
		if e.Kind == "sync" {
			t.Errorf("a bare sync row %+v: every Sync belongs to an event", e)
		}
		rows[e.TxHash] = append(rows[e.TxHash], e)
	}
	if len(events) != len(ops) {
		t.Errorf("%d rows for %d CPMM instructions on the chain", len(events), len(ops))
	}
	kinds := map[string]string{"swap_base_input": "swap", "swap_base_output": "swap", "deposit": "mint", "initialize": "mint", "withdraw": "burn"}
	for _, op := range ops {
		got := rows[op.sig]
		if len(got) != 1 {
			t.Errorf("%s (%s, slot %d) has %d rows, want 1", op.sig, op.kind, op.slot, len(got))
			continue
		}
		e, p := got[0], byAddr[op.pool]
		var base, quote *big.Int
		for vault, d := range op.delta {
			if op.mintOf[vault] == p.Base() {
				base = d
			} else if op.mintOf[vault] == p.Quote() {
				quote = d
			}
		}
		if base == nil || quote == nil {
			t.Errorf("%s: the vaults' mints %v are not the pool's %s, %s", op.sig, op.mintOf, p.Token0, p.Token1)
			continue
		}
		side := "none"
		if kinds[op.kind] == "swap" {
			side = "sell"
			if base.Sign() < 0 {
				side = "buy"
			}
		}
		ab, aq := new(big.Int).Abs(base), new(big.Int).Abs(quote)
		if e.Pool != op.pool || e.Kind != kinds[op.kind] || e.Side != side || e.BaseAmount != ab.String() || e.QuoteAmount != aq.String() ||
			e.Block != int64(op.slot) || e.Trader != op.payer {
			t.Errorf("%s (%s): row %+v; want pool %s, %s %s, base %s quote %s, slot %d, trader %s",
				op.sig, op.kind, e, op.pool, kinds[op.kind], side, ab, aq, op.slot, op.payer)
		}
		if e.Kind == "swap" && (e.PriceUSD <= 0 || e.VolumeUSD <= 0) {
			t.Errorf("%s: swap row unpriced: %+v", op.sig, e)
		}
	}
}

// checkReserves: the reserves the index holds for each pool at a slot are the vaults less the fees
// owed at that slot, read from the chain.
func checkReserves(t *testing.T, n *localnet.Node, r rawRPC, f *solana.Follower, sink chain.Sink, ix *index.Store) {
	t.Helper()
	var keys []string
	for _, p := range n.Pools {
		keys = append(keys, p.Address, p.Token0.Vault, p.Token1.Vault)
	}
	var res struct {
		Context struct {
			Slot uint64 `json:"slot"`
		} `json:"context"`
		Value []struct {
			Data [2]string `json:"data"`
		} `json:"value"`
	}
	r.call(t, &res, "getMultipleAccounts", keys, map[string]any{"encoding": "base64", "commitment": "confirmed"})
	at := res.Context.Slot
	cur := follow(t, f, sink, at)
	data := func(i int) []byte {
		b, err := base64.StdEncoding.DecodeString(res.Value[i].Data[0])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i, p := range n.Pools {
		st, err := raydium.DecodePoolState(data(3 * i))
		if err != nil {
			t.Fatal(err)
		}
		v0, v1 := binary.LittleEndian.Uint64(data(3*i + 1)[64:]), binary.LittleEndian.Uint64(data(3*i + 2)[64:])
		r0, r1, err := st.Reserves(v0, v1)
		if err != nil {
			t.Fatal(err)
		}
		events, err := ix.ChainEvents(t.Context(), "solana", -1, int64(at), 0)
		if err != nil {
			t.Fatal(err)
		}
		var last *index.Event
		for j := range events {
			if events[j].Pool == p.Address {
				last = &events[j]
			}
		}
		if last == nil {
			t.Fatalf("no event of %s by slot %d (cursor %d)", p.Name, at, cur.Block)
		}
		if last.Reserve0 != fmt.Sprint(r0) || last.Reserve1 != fmt.Sprint(r1) {
			t.Errorf("%s at slot %d: indexed reserves %s, %s (slot %d); the chain's vaults %d, %d less owed: %d, %d",
				p.Name, at, last.Reserve0, last.Reserve1, last.Block, v0, v1, r0, r1)
		}
		owed := st.ProtocolFeesToken0 + st.FundFeesToken0 + st.ProtocolFeesToken1 + st.FundFeesToken1
		if owed == 0 && i == 0 {
			t.Logf("%s owes no fees at slot %d: the reserves check does not tell vaults from reserves", p.Name, at)
		}
	}
}

// BenchmarkFollowerIngest measures the ingest rate: a follower indexes the same history of the
// local validator (the seeded pools and ~10 s of the background trader's swaps, every 5 ms) from
// slot 0 into a fresh index on SQLite and on PostgreSQL, in batches of 1,000 transactions;
// swaps/s counts the trader's swaps read and stored per second, store-ms/op the time spent in the
// index's Apply and store-swaps/s the swaps it stores per second of it. The
// validator is a single node process on the same machine, still trading while it is read.
//
//	go test ./chain/solana/ -run '^$' -bench FollowerIngest -benchtime 5x
func BenchmarkFollowerIngest(b *testing.B) {
	n, err := localnet.Start(b.Context(), localnet.Options{SlotTime: 40 * time.Millisecond, FinalizeDepth: 8, Activity: 5 * time.Millisecond})
	if err != nil {
		b.Skipf("the local Solana validator is unavailable: %v", err)
	}
	b.Cleanup(n.Close)
	c, err := solana.New([]string{n.URL}, solana.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	time.Sleep(10 * time.Second)
	var target uint64
	{
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "getSlot", "params": []any{map[string]any{"commitment": "finalized"}}})
		resp, err := http.Post(n.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var env struct {
			Result uint64 `json:"result"`
		}
		err = json.NewDecoder(resp.Body).Decode(&env)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		target = env.Result
	}
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(backend.name, func(b *testing.B) {
			var swaps int
			var storing, total time.Duration
			for b.Loop() {
				st := backend.open(b)
				ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"solana": pricingOf(n)})
				sink := &spySink{Store: ix}
				f := solana.NewFollower(solana.FollowerConfig{Chain: "solana", Client: c, Sink: sink, Indexers: []chain.SVMIndexer{raydium.Indexer{}}, Logger: discard})
				start := time.Now()
				for {
					if _, err := f.Step(b.Context()); err != nil {
						b.Fatal(err)
					}
					cur, ok, err := sink.Cursor(b.Context(), "solana")
					if err != nil {
						b.Fatal(err)
					}
					if ok && cur.Block >= int64(target) {
						break
					}
				}
				total += time.Since(start)
				storing += sink.applying
				events, err := ix.ChainEvents(b.Context(), "solana", -1, int64(target)+1_000_000, 0)
				if err != nil {
					b.Fatal(err)
				}
				swaps = 0
				for _, e := range events {
					if e.Kind == "swap" && e.Block <= int64(target) {
						swaps++
					}
				}
			}
			b.ReportMetric(float64(swaps)*float64(b.N)/total.Seconds(), "swaps/s")
			b.ReportMetric(float64(storing.Milliseconds())/float64(b.N), "store-ms/op")
			b.ReportMetric(float64(swaps)*float64(b.N)/storing.Seconds(), "store-swaps/s")
			b.ReportMetric(float64(swaps), "swaps/op")
		})
	}
}

var discard = slog.New(slog.DiscardHandler)

// TestFollowerFromGenesis: a follower that starts while only genesis (slot 0, where the local
// validator seeds its pools) is finalized finds the pools in slot 0, as local mode's does when it
// starts with the validator. A new feed's first walk must happen even when the finalized slot is 0.
func TestFollowerFromGenesis(t *testing.T) {
	n := localnet.StartTestWith(t, localnet.Options{Activity: 3 * time.Second})
	c, err := solana.New([]string{n.URL}, solana.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if f := (rawRPC{n.URL}).slot(t, "finalized"); f != 0 {
		t.Skipf("the validator finalized slot %d before the follower started", f)
	}
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"solana": pricingOf(n)})
	f := solana.NewFollower(solana.FollowerConfig{Chain: "solana", Client: c, Sink: ix, Indexers: []chain.SVMIndexer{raydium.Indexer{}}})
	for range 2 { // start the cursor, then read slot 0
		if _, err := f.Step(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	pools, err := ix.Pools(t.Context(), "solana")
	if err != nil || len(pools) != len(n.Pools) {
		t.Fatalf("after reading slot 0: %d pools (%v), seeded %d", len(pools), err, len(n.Pools))
	}
}
