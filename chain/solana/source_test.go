package solana_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// The Source is held to the local validator (real SVM, our CPMM-compatible program, seeded mints,
// holders and pools), with raydium.Pools as the venue, and to a small fake RPC for what the
// validator never does (answer one batch at several slots, change a pool's accounts).

// roundTrips counts HTTP round trips.
type roundTrips struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *roundTrips) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

// take returns the round trips since the last take.
func (c *roundTrips) take() int64 { return c.n.Swap(0) }

func localSource(t *testing.T, o localnet.Options) (*localnet.Node, *solana.Source, *roundTrips) {
	t.Helper()
	n := localnet.StartTestWith(t, o)
	rt := &roundTrips{base: http.DefaultTransport}
	c, _, err := solana.Open(t.Context(), "solana", chain.ChainConfig{RPCURLs: []string{n.URL}, Network: chain.Devnet},
		solana.Options{Transport: rt}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	rt.take()
	return n, solana.NewSource(c, raydium.Pools{}), rt
}

func u64(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

func TestSourceLocalnetGenesis(t *testing.T) {
	n, src, rt := localSource(t, localnet.Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 8})
	ctx := t.Context()
	notPool := n.Keypairs[0].Address // a wallet: a System account
	missing := sol.PublicKeyFromBytes(bytes.Repeat([]byte{7}, 32)).String()

	t.Run("PairStates", func(t *testing.T) {
		var addrs []string
		for _, p := range n.Pools {
			addrs = append(addrs, p.Address)
		}
		asked := append(append([]string{}, addrs...), notPool, missing, n.Pools[0].Token0.Mint, addrs[0])
		check := func(states []chain.PairState) {
			t.Helper()
			if len(states) != len(asked) {
				t.Fatalf("%d states for %d addresses", len(states), len(asked))
			}
			for i, p := range n.Pools {
				st := states[i]
				want := chain.PairState{Address: p.Address, Token0: p.Token0.Mint, Token1: p.Token1.Mint,
					Reserve0: u64(p.Token0.Reserve), Reserve1: u64(p.Token1.Reserve), TotalSupply: u64(p.LPSupply), OK: true, Block: states[0].Block}
				if !samePair(st, want) || st.Block == 0 {
					t.Errorf("%s = %+v, seeded %+v", p.Name, st, want)
				}
			}
			for _, st := range states[len(n.Pools) : len(asked)-1] {
				if st.OK || st.Reserve0 != nil || st.Token0 != "" {
					t.Errorf("not a pool: %+v", st)
				}
			}
			if last := states[len(asked)-1]; !samePair(last, states[0]) || last.Block != states[0].Block {
				t.Errorf("the pool asked twice: %+v and %+v", states[0], last)
			}
		}
		states, err := src.PairStates(ctx, asked)
		if err != nil {
			t.Fatal(err)
		}
		check(states)
		if got := rt.take(); got != 2 {
			t.Errorf("first read: %d round trips, want 2", got)
		}
		states, err = src.PairStates(ctx, asked)
		if err != nil {
			t.Fatal(err)
		}
		check(states)
		if got := rt.take(); got != 1 {
			t.Errorf("second read: %d round trips, want 1", got)
		}
		// A pool read before and an address never a pool: still one.
		if _, err := src.PairStates(ctx, []string{addrs[3], notPool}); err != nil {
			t.Fatal(err)
		}
		if got := rt.take(); got != 1 {
			t.Errorf("a known pool and a non-pool: %d round trips, want 1", got)
		}
	})

	t.Run("TokenMetadata", func(t *testing.T) {
		var asked []string
		for _, m := range n.Mints {
			asked = append(asked, m.Address)
		}
		for _, p := range n.Pools {
			asked = append(asked, p.LPMint)
		}
		asked = append(asked, notPool, missing)
		metas, err := src.TokenMetadata(ctx, asked)
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.take(); got != 1 {
			t.Errorf("%d round trips, want 1", got)
		}
		if len(metas) != len(asked) {
			t.Fatalf("%d entries for %d tokens", len(metas), len(asked))
		}
		for i, m := range n.Mints {
			got := metas[i]
			if !got.OK || got.Address != m.Address || got.Name != m.Name || got.Symbol != m.Symbol || got.Decimals != int(m.Decimals) ||
				got.TotalSupply == nil || (m.Symbol != "WSOL" && got.TotalSupply.Cmp(u64(m.Supply)) != 0) {
				t.Errorf("%s = %+v, seeded %+v", m.Symbol, got, m)
			}
		}
		emb, _ := n.Mint("EMB")
		if emb.Metadata != "token-2022" || emb.Program != solana.Token2022Program {
			t.Errorf("EMB is seeded with %q metadata on %s: the test expects Token-2022's own", emb.Metadata, emb.Program)
		}
		if wsol, _ := n.Mint("WSOL"); wsol.Metadata != "" || wsol.Name != "Wrapped SOL" || wsol.Symbol != "WSOL" {
			t.Errorf("WSOL is seeded as %+v: the test expects no metadata", wsol)
		}
		for i, p := range n.Pools {
			got := metas[len(n.Mints)+i]
			if !got.OK || got.Address != p.LPMint || got.Decimals != int(p.LPDecimals) || got.TotalSupply.Cmp(u64(p.LPSupply-p.LockedLP)) != 0 ||
				got.Name != "" || got.Symbol != "" {
				t.Errorf("%s LP = %+v, seeded %d decimals, supply %d less %d locked", p.Name, got, p.LPDecimals, p.LPSupply, p.LockedLP)
			}
		}
		for _, got := range metas[len(asked)-2:] {
			if got.OK || got.TotalSupply != nil || got.Address == "" {
				t.Errorf("not a mint: %+v", got)
			}
		}
	})

	t.Run("Balances", func(t *testing.T) {
		mints := []string{notPool}
		for _, m := range n.Mints {
			mints = append(mints, m.Address)
		}
		for _, p := range n.Pools {
			mints = append(mints, p.LPMint)
		}
		var owners []string
		var tokens [][]string
		for _, k := range n.Keypairs {
			owners = append(owners, k.Address)
			tokens = append(tokens, mints)
		}
		// The pools' authority (it owns every vault), and an owner asked twice with another list.
		owners = append(owners, n.Pools[0].Authority, n.Keypairs[1].Address)
		tokens = append(tokens, mints, []string{n.Mints[0].Address, n.Mints[0].Address})

		native, balances, slot, err := src.Balances(ctx, owners, tokens)
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.take(); got != 1 {
			t.Errorf("%d round trips, want 1", got)
		}
		if slot == 0 || len(native) != len(owners) || len(balances) != len(owners) {
			t.Fatalf("slot %d, %d native and %d token balances for %d owners", slot, len(native), len(balances), len(owners))
		}
		held := map[[2]string]uint64{}
		for _, h := range n.Holdings {
			held[[2]string{h.Address, h.Mint}] += h.Amount
		}
		nonzero := 0
		for i, o := range owners {
			if i < len(n.Keypairs) && native[i].Cmp(u64(n.Keypairs[i].Lamports)) != 0 {
				t.Errorf("%s has %s lamports, seeded %d", n.Keypairs[i].Name, native[i], n.Keypairs[i].Lamports)
			}
			if len(balances[i]) != len(tokens[i]) {
				t.Fatalf("owner %d: %d balances for %d tokens", i, len(balances[i]), len(tokens[i]))
			}
			for j, m := range tokens[i] {
				want := held[[2]string{o, m}]
				if balances[i][j] == nil || balances[i][j].Cmp(u64(want)) != 0 {
					t.Errorf("%s holds %v of %s, seeded %d", o, balances[i][j], m, want)
				}
				if want > 0 {
					nonzero++
				}
			}
		}
		if last := len(owners) - 1; native[last].Cmp(native[1]) != 0 {
			t.Errorf("the owner asked twice: %s and %s lamports", native[1], native[last])
		}
		if nonzero < 20 {
			t.Errorf("only %d seeded balances compared", nonzero)
		}
	})

	t.Run("Accounts", func(t *testing.T) {
		// More than 200 keys: three getMultipleAccounts calls in one batch.
		var keys []string
		want := map[string]localnet.Holding{}
		for len(keys) <= 200 {
			for _, h := range n.Holdings {
				keys = append(keys, h.Account)
				want[h.Account] = h
			}
			keys = append(keys, missing)
		}
		accs, slot, err := src.Accounts(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.take(); got != 1 {
			t.Errorf("%d keys: %d round trips, want 1", len(keys), got)
		}
		if slot == 0 || len(accs) != len(keys) {
			t.Fatalf("slot %d, %d accounts for %d keys", slot, len(accs), len(keys))
		}
		for i, a := range accs {
			if a.Address != keys[i] {
				t.Fatalf("account %d is %s, asked %s", i, a.Address, keys[i])
			}
			h, ok := want[keys[i]]
			if !ok {
				if a.Exists || a.Data != nil || a.Owner != "" {
					t.Errorf("missing account %+v", a)
				}
				continue
			}
			m, _ := n.Mint(h.Symbol)
			program := solana.TokenProgram
			if m.Program != "" {
				program = m.Program
			}
			if !a.Exists || a.Owner != program || a.Lamports == 0 || len(a.Data) < 165 ||
				binary.LittleEndian.Uint64(a.Data[64:72]) != h.Amount || sol.PublicKeyFromBytes(a.Data[:32]).String() != h.Mint {
				t.Errorf("token account %s (%s of %s): %+v", h.Account, h.Symbol, h.Owner, a)
			}
		}
	})

	t.Run("Errors", func(t *testing.T) {
		for _, bad := range []string{"0x6B175474E89094C44Da98b954EedeAC495271d0F", "0OIl", "", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"} {
			if _, err := src.TokenMetadata(ctx, []string{n.Mints[0].Address, bad}); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("TokenMetadata(%q): %v", bad, err)
			}
			if _, _, _, err := src.Balances(ctx, []string{bad}, [][]string{{n.Mints[0].Address}}); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("Balances(owner %q): %v", bad, err)
			}
			if _, _, _, err := src.Balances(ctx, []string{notPool}, [][]string{{n.Mints[0].Address, bad}}); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("Balances(token %q): %v", bad, err)
			}
			if _, err := src.PairStates(ctx, []string{n.Pools[0].Address, bad}); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("PairStates(%q): %v", bad, err)
			}
			if _, _, err := src.Accounts(ctx, []string{bad}); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("Accounts(%q): %v", bad, err)
			}
		}
		_, _, _, err := src.Balances(ctx, []string{notPool}, nil)
		if solana.KindOf(err) != chain.UpstreamInvalidInput {
			t.Errorf("Balances with no token list: %v", err)
		}
		if got := rt.take(); got != 0 {
			t.Errorf("bad input made %d round trips", got)
		}
		// Nothing asked, nothing read.
		if s, err := src.PairStates(ctx, nil); err != nil || len(s) != 0 {
			t.Errorf("PairStates() = %v, %v", s, err)
		}
		if a, slot, err := src.Accounts(ctx, nil); err != nil || len(a) != 0 || slot != 0 {
			t.Errorf("Accounts() = %v, %d, %v", a, slot, err)
		}
		if got := rt.take(); got != 0 {
			t.Errorf("empty reads made %d round trips", got)
		}
	})
}

func samePair(a, b chain.PairState) bool {
	eq := func(x, y *big.Int) bool { return (x == nil) == (y == nil) && (x == nil || x.Cmp(y) == 0) }
	return a.Address == b.Address && a.Token0 == b.Token0 && a.Token1 == b.Token1 && a.OK == b.OK &&
		eq(a.Reserve0, b.Reserve0) && eq(a.Reserve1, b.Reserve1) && eq(a.TotalSupply, b.TotalSupply)
}

// TestSourceLocalnetSwaps reads the pools while the validator's traders swap through them: each
// pool's reserves are its vaults' balances, as getTokenAccountBalance answers them, less the fees
// the pool state says it owes, at the slot PairStates read.
func TestSourceLocalnetSwaps(t *testing.T) {
	n, src, rt := localSource(t, localnet.Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 8, Activity: 150 * time.Millisecond})
	ctx := t.Context()
	var addrs []string
	for _, p := range n.Pools {
		addrs = append(addrs, p.Address)
	}

	// Wait until a swap went through every pool.
	deadline := time.Now().Add(60 * time.Second)
	for first := true; ; first = false {
		states, err := src.PairStates(ctx, addrs)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := rt.take(), map[bool]int64{true: 2, false: 1}[first]; got != want {
			t.Errorf("PairStates (first %v): %d round trips, want %d", first, got, want)
		}
		moved := 0
		for i, p := range n.Pools {
			if states[i].OK && (states[i].Reserve0.Cmp(u64(p.Token0.Reserve)) != 0 || states[i].Reserve1.Cmp(u64(p.Token1.Reserve)) != 0) {
				moved++
			}
		}
		if moved == len(n.Pools) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute, swaps moved %d of %d pools; validator log:\n%s", moved, len(n.Pools), n.Log())
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Compare at one slot: PairStates, then Accounts of the pools and vaults and a raw batch of
	// getTokenAccountBalance and getMultipleAccounts, kept when all answered at PairStates' slot.
	var vaults []string
	for _, p := range n.Pools {
		vaults = append(vaults, p.Token0.Vault, p.Token1.Vault)
	}
	owed := false
	for try := 0; ; try++ {
		if try == 50 {
			t.Fatal("never read PairStates, Accounts and the vaults at one slot in 50 tries")
		}
		states, err := src.PairStates(ctx, addrs)
		if err != nil {
			t.Fatal(err)
		}
		if got := rt.take(); got != 1 {
			t.Errorf("PairStates of known pools: %d round trips, want 1", got)
		}
		slot := states[0].Block
		accs, accSlot, err := src.Accounts(ctx, append(append([]string{}, addrs...), vaults...))
		if err != nil {
			t.Fatal(err)
		}
		calls := []rawCall{{"getMultipleAccounts", []any{addrs, map[string]any{"encoding": "base64", "commitment": "confirmed", "minContextSlot": slot}}}}
		for _, v := range vaults {
			calls = append(calls, rawCall{"getTokenAccountBalance", []any{v, map[string]any{"commitment": "confirmed", "minContextSlot": slot}}})
		}
		answers := rawBatch(t, n.URL, calls)
		same := accSlot == slot
		for _, st := range states {
			same = same && st.Block == slot
		}
		for _, a := range answers {
			same = same && a.Context.Slot == slot
		}
		if !same {
			rt.take()
			continue
		}

		var pools []struct {
			Data [2]string `json:"data"`
		}
		if err := json.Unmarshal(answers[0].Value, &pools); err != nil {
			t.Fatal(err)
		}
		for i, p := range n.Pools {
			var balance [2]uint64
			for j := range 2 {
				var v struct {
					Amount string `json:"amount"`
				}
				if err := json.Unmarshal(answers[1+2*i+j].Value, &v); err != nil {
					t.Fatal(err)
				}
				if balance[j], err = strconv.ParseUint(v.Amount, 10, 64); err != nil {
					t.Fatal(err)
				}
				if a := accs[len(addrs)+2*i+j]; binary.LittleEndian.Uint64(a.Data[64:72]) != balance[j] {
					t.Errorf("%s vault %d: Accounts reads %d, getTokenAccountBalance %d", p.Name, j, binary.LittleEndian.Uint64(a.Data[64:72]), balance[j])
				}
			}
			data, err := base64.StdEncoding.DecodeString(pools[i].Data[0])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, accs[i].Data) {
				t.Errorf("%s: Accounts and getMultipleAccounts differ at one slot", p.Name)
			}
			ps, err := raydium.DecodePoolState(data)
			if err != nil {
				t.Fatal(err)
			}
			owed0 := ps.ProtocolFeesToken0 + ps.FundFeesToken0 + ps.CreatorFeesToken0
			owed1 := ps.ProtocolFeesToken1 + ps.FundFeesToken1 + ps.CreatorFeesToken1
			owed = owed || owed0+owed1 > 0
			want := chain.PairState{Address: p.Address, Token0: p.Token0.Mint, Token1: p.Token1.Mint,
				Reserve0: u64(balance[0] - owed0), Reserve1: u64(balance[1] - owed1), TotalSupply: u64(ps.LPSupply), OK: true}
			if !samePair(states[i], want) {
				t.Errorf("%s at slot %d = %+v, want vaults %v less owed %d, %d: %+v", p.Name, slot, states[i], balance, owed0, owed1, want)
			}
		}
		t.Logf("compared at slot %d after %d tries", slot, try+1)
		break
	}
	if !owed {
		t.Error("no pool owes fees after the swaps: the comparison did not test their subtraction")
	}
}

type rawCall struct {
	method string
	params []any
}

type rawAnswer struct {
	Context struct {
		Slot uint64 `json:"slot"`
	} `json:"context"`
	Value json.RawMessage `json:"value"`
}

// rawBatch sends calls as one JSON-RPC batch, by hand, and returns their results in order.
func rawBatch(t *testing.T, url string, calls []rawCall) []rawAnswer {
	t.Helper()
	reqs := make([]map[string]any, len(calls))
	for i, c := range calls {
		reqs[i] = map[string]any{"jsonrpc": "2.0", "id": i, "method": c.method, "params": c.params}
	}
	body, _ := json.Marshal(reqs)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got []struct {
		ID     int             `json:"id"`
		Result rawAnswer       `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	out := make([]rawAnswer, len(calls))
	for _, g := range got {
		if g.Error != nil {
			t.Fatalf("%s: %s", calls[g.ID].method, g.Error)
		}
		out[g.ID] = g.Result
	}
	return out
}

// accountsFake answers getMultipleAccounts from a map of accounts, at the slot slotOf says for
// each call of each batch, and records the minContextSlot each call carried.
type accountsFake struct {
	mu       sync.Mutex
	accounts map[string]chain.SVMAccount
	slotOf   func(batch, call int, minSlot uint64) uint64
	batches  int
	minSlots [][]uint64 // per batch, per call
	url      string
}

func newAccountsFake(t *testing.T) *accountsFake {
	f := &accountsFake{accounts: map[string]chain.SVMAccount{}, slotOf: func(int, int, uint64) uint64 { return 500 }}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func (f *accountsFake) serve(w http.ResponseWriter, r *http.Request) {
	var reqs []struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params []json.RawMessage
	}
	if err := json.NewDecoder(r.Body).Decode(&reqs); err != nil {
		http.Error(w, "want a batch", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.batches++
	var mins []uint64
	var out []map[string]any
	for i, q := range reqs {
		var keys []string
		var cfg struct {
			Encoding       string `json:"encoding"`
			Commitment     string `json:"commitment"`
			MinContextSlot uint64 `json:"minContextSlot"`
		}
		if q.Method != "getMultipleAccounts" || len(q.Params) != 2 || json.Unmarshal(q.Params[0], &keys) != nil ||
			json.Unmarshal(q.Params[1], &cfg) != nil || cfg.Encoding != "base64" || cfg.Commitment != "confirmed" || len(keys) > 100 {
			out = append(out, map[string]any{"jsonrpc": "2.0", "id": q.ID, "error": map[string]any{"code": -32602, "message": "unexpected call"}})
			continue
		}
		mins = append(mins, cfg.MinContextSlot)
		value := make([]any, len(keys))
		for j, k := range keys {
			if a, ok := f.accounts[k]; ok {
				value[j] = map[string]any{"lamports": a.Lamports, "owner": a.Owner, "executable": false, "rentEpoch": 0,
					"space": len(a.Data), "data": []string{base64.StdEncoding.EncodeToString(a.Data), "base64"}}
			}
		}
		slot := f.slotOf(f.batches, i, cfg.MinContextSlot)
		out = append(out, map[string]any{"jsonrpc": "2.0", "id": q.ID, "result": map[string]any{"context": map[string]any{"slot": slot}, "value": value}})
	}
	f.minSlots = append(f.minSlots, mins)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (f *accountsFake) set(k string, a *chain.SVMAccount) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a == nil {
		delete(f.accounts, k)
		return
	}
	a.Address, a.Exists = k, true
	f.accounts[k] = *a
}

func (f *accountsFake) source(t *testing.T, venues ...chain.SVMPoolVenue) *solana.Source {
	t.Helper()
	c, err := solana.New([]string{f.url}, solana.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return solana.NewSource(c, venues...)
}

// take returns the batches (round trips) since the last take.
func (f *accountsFake) take() int {
	n, _ := f.takeMin()
	return n
}

// takeMin is take, with the minContextSlot of each call of each batch.
func (f *accountsFake) takeMin() (int, [][]uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, mins := f.batches, f.minSlots
	f.batches, f.minSlots = 0, nil
	return n, mins
}

func testKey(s string) string {
	h := sha256.Sum256([]byte(s))
	return sol.PublicKeyFromBytes(h[:]).String()
}

func TestSourceAccountsAtOneSlot(t *testing.T) {
	f := newAccountsFake(t)
	src := f.source(t)
	var keys []string
	for i := range 250 {
		keys = append(keys, testKey("k"+strconv.Itoa(i)))
	}
	f.set(keys[120], &chain.SVMAccount{Owner: solana.SystemProgram, Lamports: 42, Data: []byte{1, 2, 3}})

	// The first batch's three calls are answered at slots 10, 11 and 12; the second, asked with
	// minContextSlot 12, at 12.
	f.slotOf = func(batch, call int, minSlot uint64) uint64 {
		if batch == 1 {
			return 10 + uint64(call)
		}
		return max(minSlot, 10)
	}
	accs, slot, err := src.Accounts(t.Context(), keys)
	if err != nil {
		t.Fatal(err)
	}
	n, mins := f.takeMin()
	if n != 2 || slot != 12 || len(mins) != 2 || len(mins[1]) != 3 {
		t.Fatalf("%d round trips, slot %d, minContextSlot %v; want 2 round trips at slot 12", n, slot, mins)
	}
	for i, m := range mins[1] {
		if m != 12 || mins[0][i] != 0 {
			t.Errorf("call %d asked with minContextSlot %d then %d, want none then 12", i, mins[0][i], m)
		}
	}
	for i, a := range accs {
		if a.Address != keys[i] || a.Exists != (i == 120) {
			t.Errorf("account %d: %+v", i, a)
		}
	}
	if a := accs[120]; a.Owner != solana.SystemProgram || a.Lamports != 42 || !bytes.Equal(a.Data, []byte{1, 2, 3}) {
		t.Errorf("account 120: %+v", a)
	}

	// A node that never answers a batch at one slot: an upstream error after three tries.
	f.slotOf = func(batch, call int, minSlot uint64) uint64 { return max(minSlot, 100) + uint64(call) }
	_, _, err = src.Accounts(t.Context(), keys)
	if !errors.Is(err, chain.ErrUpstreamBadResponse) {
		t.Errorf("answers at three slots: %v", err)
	}
	if n := f.take(); n != 3 {
		t.Errorf("%d round trips, want 3", n)
	}

	// Up to 100 keys, one call: its slot whatever it is.
	f.slotOf = func(batch, call int, minSlot uint64) uint64 { return 77 + uint64(batch) }
	if _, slot, err := src.Accounts(t.Context(), keys[:100]); err != nil || slot != 78 || f.take() != 1 {
		t.Errorf("100 keys: slot %d, %v", slot, err)
	}
}

// fakeVenue's pools are accounts of its program holding "POOL" and the key of their one vault,
// whose first 8 bytes are the reserve.
type fakeVenue struct{ program string }

func (v fakeVenue) Program() string { return v.program }

func (v fakeVenue) PoolAccounts(pool chain.SVMAccount) ([]string, bool) {
	if !pool.Exists || pool.Owner != v.program || len(pool.Data) != 36 || string(pool.Data[:4]) != "POOL" {
		return nil, false
	}
	return []string{sol.PublicKeyFromBytes(pool.Data[4:]).String()}, true
}

func (v fakeVenue) PoolState(pool chain.SVMAccount, accounts []chain.SVMAccount) chain.PairState {
	if _, ok := v.PoolAccounts(pool); !ok || len(accounts) != 1 || !accounts[0].Exists || len(accounts[0].Data) < 8 {
		return chain.PairState{Address: pool.Address}
	}
	return chain.PairState{Address: "ignored", Token0: v.program, Reserve0: u64(binary.LittleEndian.Uint64(accounts[0].Data)), OK: true, Block: 1}
}

func TestSourcePairStatesLearnsPools(t *testing.T) {
	f := newAccountsFake(t)
	venueA, venueB := fakeVenue{testKey("program A")}, fakeVenue{testKey("program B")}
	src := f.source(t, venueA, venueB)
	pool, other, missing, foreign := testKey("pool"), testKey("pool B"), testKey("missing"), testKey("foreign")
	vault1, vault2 := testKey("vault 1"), testKey("vault 2")
	poolData := func(vault string) []byte {
		return append([]byte("POOL"), sol.MustPublicKeyFromBase58(vault).Bytes()...)
	}
	amount := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	f.set(pool, &chain.SVMAccount{Owner: venueA.program, Data: poolData(vault1)})
	f.set(other, &chain.SVMAccount{Owner: venueB.program, Data: poolData(vault2)})
	f.set(foreign, &chain.SVMAccount{Owner: solana.SystemProgram, Data: poolData(vault1)}) // a pool's bytes, no venue's account
	f.set(vault1, &chain.SVMAccount{Owner: solana.TokenProgram, Data: amount(100)})
	f.set(vault2, &chain.SVMAccount{Owner: solana.TokenProgram, Data: amount(300)})
	f.slotOf = func(batch, call int, minSlot uint64) uint64 { return 1000 + uint64(batch) }

	read := func(wantRTs int, addrs ...string) []chain.PairState {
		t.Helper()
		states, err := src.PairStates(t.Context(), addrs)
		if err != nil {
			t.Fatal(err)
		}
		if n := f.take(); n != wantRTs {
			t.Errorf("PairStates(%d addresses): %d round trips, want %d", len(addrs), n, wantRTs)
		}
		return states
	}
	expect := func(st chain.PairState, addr, program string, reserve uint64, block uint64) {
		t.Helper()
		if !st.OK || st.Address != addr || st.Token0 != program || st.Reserve0.Uint64() != reserve || st.Block != block {
			t.Errorf("%s = %+v, want %s reserve %d at %d", addr, st, program, reserve, block)
		}
	}
	notPool := func(st chain.PairState, addr string) {
		t.Helper()
		if st.OK || st.Address != addr || st.Reserve0 != nil {
			t.Errorf("%s = %+v, want not a pool", addr, st)
		}
	}

	// First read: two round trips, every pool at the second's slot.
	states := read(2, pool, missing, foreign, other, pool)
	expect(states[0], pool, venueA.program, 100, 1002)
	notPool(states[1], missing)
	notPool(states[2], foreign)
	expect(states[3], other, venueB.program, 300, 1002)
	expect(states[4], pool, venueA.program, 100, 1002)

	// Read again: one.
	f.set(vault1, &chain.SVMAccount{Owner: solana.TokenProgram, Data: amount(150)})
	states = read(1, pool, other, missing)
	expect(states[0], pool, venueA.program, 150, 1001)
	expect(states[1], other, venueB.program, 300, 1001)
	notPool(states[2], missing)

	// A pool whose accounts changed is learned again and read again: two.
	f.set(pool, &chain.SVMAccount{Owner: venueA.program, Data: poolData(vault2)})
	states = read(2, pool, other)
	expect(states[0], pool, venueA.program, 300, 1002)
	expect(states[1], other, venueB.program, 300, 1002)

	// A pool closed is not a pool, and is forgotten: when it comes back it costs two again.
	f.set(pool, nil)
	notPool(read(1, pool)[0], pool)
	f.set(pool, &chain.SVMAccount{Owner: venueA.program, Data: poolData(vault1)})
	expect(read(2, pool)[0], pool, venueA.program, 150, 1002)

	// A pool whose vault is gone: the venue says not OK, the source keeps asking it.
	f.set(vault1, nil)
	if st := read(1, pool)[0]; st.OK || st.Address != pool {
		t.Errorf("pool without its vault: %+v", st)
	}
}
