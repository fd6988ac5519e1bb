package portfolio

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// LP positions on Solana against the local validator, through the real adapter, the real follower
// indexing the validator's pools into SQLite and the real market over that index. What the service
// answers is held to the chain, read here directly over JSON-RPC: the owner's LP token accounts,
// and the pools' vaults and PoolState (decoded with venue/raydium's layout, itself held to
// Raydium's SDK).

// withIndex is the service as partnerd wires it for solana: the validator's pools indexed by the
// Solana follower with raydium's indexer (LP mints recorded as the pools' LP tokens), and the
// market over that index pricing in USDC.
func (e *solanaEnv) withIndex(t *testing.T) *Service {
	t.Helper()
	usdc, _ := e.n.Mint("USDC")
	pricing := index.Pricing{Stablecoins: map[string]bool{usdc.Address: true}, WrappedNative: chain.WrappedSOL}
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{"solana": pricing})
	discard := slog.New(slog.DiscardHandler)
	f := solana.NewFollower(solana.FollowerConfig{Chain: "solana", Client: e.client, Sink: ix, Indexers: []chain.SVMIndexer{raydium.Indexer{}}, Logger: discard})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := f.Step(t.Context()); err != nil {
			t.Fatal(err)
		}
		pools, err := ix.Pools(t.Context(), "solana")
		if err != nil {
			t.Fatal(err)
		}
		if len(pools) == len(e.n.Pools) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the follower indexed %d of the %d seeded pools in a minute", len(pools), len(e.n.Pools))
		}
	}
	c := *e.chain
	c.Pricing = pricing
	m := market.New(ix, []*market.Chain{{Name: "solana", Source: c.Source, Pricing: pricing, Live: e.client}}, discard)
	return New(ix, m, []*Chain{&c})
}

// rawRPC calls the validator's JSON-RPC directly (no adapter) and decodes the result into out.
func (e *solanaEnv) rawRPC(t testing.TB, out any, method string, params ...any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(e.n.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Error != nil {
		t.Fatalf("%s: %v %+v", method, err, r.Error)
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

// chainLPBalances reads owner's SPL Token accounts from the chain and sums them by mint: the
// balances of every LP mint (CPMM's LP mints are SPL Token mints) and of everything else it holds.
func (e *solanaEnv) chainLPBalances(t testing.TB, owner string) map[string]uint64 {
	t.Helper()
	var res struct {
		Value []struct {
			Account struct{ Data []string }
		}
	}
	e.rawRPC(t, &res, "getTokenAccountsByOwner", owner, map[string]string{"programId": solana.TokenProgram},
		map[string]string{"encoding": "base64", "commitment": "confirmed"})
	out := map[string]uint64{}
	for _, a := range res.Value {
		data, err := base64.StdEncoding.DecodeString(a.Account.Data[0])
		if err != nil || len(data) < 72 {
			t.Fatalf("token account data %q: %v", a.Account.Data[0], err)
		}
		out[chain.EncodeBase58(data[:32])] += binary.LittleEndian.Uint64(data[64:72])
	}
	return out
}

// poolAt is a pool's state as the chain holds it: reserves as the curve sees them (the vaults less
// the fees owed) and LP supply, read at one slot.
type poolAt struct {
	r0, r1, supply uint64
	slot           uint64
}

// chainPool reads a pool's PoolState and vaults at one slot (one getMultipleAccounts).
func (e *solanaEnv) chainPool(t testing.TB, p localnet.Pool) poolAt {
	t.Helper()
	var res struct {
		Context struct{ Slot uint64 }
		Value   []struct{ Data []string }
	}
	e.rawRPC(t, &res, "getMultipleAccounts", []string{p.Address, p.Token0.Vault, p.Token1.Vault},
		map[string]string{"encoding": "base64", "commitment": "confirmed"})
	var data [3][]byte
	for i, v := range res.Value {
		b, err := base64.StdEncoding.DecodeString(v.Data[0])
		if err != nil {
			t.Fatal(err)
		}
		data[i] = b
	}
	st, err := raydium.DecodePoolState(data[0])
	if err != nil {
		t.Fatal(err)
	}
	r0, r1, err := st.Reserves(binary.LittleEndian.Uint64(data[1][64:72]), binary.LittleEndian.Uint64(data[2][64:72]))
	if err != nil {
		t.Fatal(err)
	}
	return poolAt{r0: r0, r1: r1, supply: st.LPSupply, slot: res.Context.Slot}
}

// wantPositions is what the chain says owner's positions are at the slot of got (the answer):
// one wallet entry per seeded pool whose LP mint owner holds, by pool address, with
// floor(balance × reserve / supply) of each side. The pools' state is read before and after the
// answer; the answer's slot must lie between, and the state must not have changed meanwhile
// (then it is the state at the answered slot): retry is false when it did.
func (e *solanaEnv) wantPositions(t testing.TB, owner string, before map[string]poolAt, got Positions) (want []Position, ok bool) {
	t.Helper()
	balances := e.chainLPBalances(t, owner)
	pools := slices.Clone(e.n.Pools)
	slices.SortFunc(pools, func(a, b localnet.Pool) int { return strings.Compare(a.Address, b.Address) })
	for _, p := range pools {
		lp := balances[p.LPMint]
		if lp == 0 {
			continue
		}
		at := e.chainPool(t, p)
		b := before[p.Address]
		if b.r0 != at.r0 || b.r1 != at.r1 || b.supply != at.supply || got.Block < b.slot || got.Block > at.slot {
			return nil, false // the pool changed while the service read it, or the slots do not nest
		}
		share := func(reserve uint64) *big.Int {
			v := new(big.Int).Mul(new(big.Int).SetUint64(lp), new(big.Int).SetUint64(reserve))
			return v.Div(v, new(big.Int).SetUint64(at.supply))
		}
		// The quote is the USD stablecoin, else wrapped SOL (the index's orientation).
		base, quote := p.Token0, p.Token1
		baseAmt, quoteAmt := share(at.r0), share(at.r1)
		if usdc, _ := e.n.Mint("USDC"); base.Mint == usdc.Address || (base.Mint == chain.WrappedSOL && quote.Mint != usdc.Address) {
			base, quote, baseAmt, quoteAmt = quote, base, quoteAmt, baseAmt
		}
		want = append(want, Position{
			Pool:        market.PoolSummary{Address: p.Address, Base: market.Token{Address: base.Mint}, Quote: market.Token{Address: quote.Mint}},
			Liquidity:   market.Units(new(big.Int).SetUint64(lp), int(p.LPDecimals)),
			BaseAmount:  market.Units(baseAmt, int(base.Decimals)),
			QuoteAmount: market.Units(quoteAmt, int(quote.Decimals)),
			SharePct:    market.Decimal(market.Ratio(new(big.Int).SetUint64(lp), new(big.Int).SetUint64(at.supply)) * 100),
		})
	}
	return want, true
}

// poolsBefore reads every seeded pool's state from the chain.
func (e *solanaEnv) poolsBefore(t testing.TB) map[string]poolAt {
	out := map[string]poolAt{}
	for _, p := range e.n.Pools {
		out[p.Address] = e.chainPool(t, p)
	}
	return out
}

// checkPositions holds got, the service's answer for owner, to the chain (wantPositions): every
// field an entry's figures come from, the pool's base and quote, nothing farmed, the sources.
// false: the pools changed meanwhile, ask again.
func (e *solanaEnv) checkPositions(t *testing.T, label, owner string, before map[string]poolAt, got Positions) bool {
	t.Helper()
	if got.Err != nil {
		t.Fatalf("%s: %v", label, got.Err)
	}
	want, ok := e.wantPositions(t, owner, before, got)
	if !ok {
		return false
	}
	if got.Owner != owner || got.Chain != "solana" {
		t.Errorf("%s: owner %s on %s", label, got.Owner, got.Chain)
	}
	wantSources := []Source{{Name: "solana:rpc", OK: true, Complete: true}, {Name: "solana:index", OK: true, Complete: false}}
	if !slices.Equal(got.Sources, wantSources) {
		t.Errorf("%s: sources %+v, want %+v", label, got.Sources, wantSources)
	}
	if len(want) == 0 && got.Block != 0 {
		t.Errorf("%s: no LP, yet block %d", label, got.Block)
	}
	if len(want) > 0 && got.Block == 0 {
		t.Errorf("%s: no block", label)
	}
	if len(got.Positions) != len(want) {
		t.Errorf("%s: %d positions, the chain says %d: %+v", label, len(got.Positions), len(want), got.Positions)
		return true
	}
	var total float64
	for i, w := range want {
		g := got.Positions[i]
		if g.Pool.Address != w.Pool.Address || g.Pool.Base.Address != w.Pool.Base.Address || g.Pool.Quote.Address != w.Pool.Quote.Address ||
			g.Pool.Venue != "raydium" || g.Liquidity != w.Liquidity || g.BaseAmount != w.BaseAmount || g.QuoteAmount != w.QuoteAmount ||
			g.SharePct != w.SharePct || g.Farm != nil {
			t.Errorf("%s: position %d\n got %+v\nwant %+v", label, i, g, w)
		}
		if g.ValueUSD != "" {
			v, err := strconv.ParseFloat(g.ValueUSD, 64)
			if err != nil {
				t.Errorf("%s: position %d's value %q", label, i, g.ValueUSD)
			}
			total += v
		}
	}
	if v, err := strconv.ParseFloat(got.ValueUSD, 64); err != nil || math.Abs(v-total) > 1e-9*max(1, total) {
		t.Errorf("%s: value %q, the entries sum to %v", label, got.ValueUSD, total)
	}
	return true
}

// positionsOf asks the service for owners' positions until an answer can be held to the chain
// (the pools did not change while it was read), then checks it.
func (e *solanaEnv) positionsOf(t *testing.T, svc *Service, names ...string) []Positions {
	t.Helper()
	owners := make([]string, len(names))
	for i, n := range names {
		owners[i] = e.address(t, n)
	}
	for range 10 {
		before := e.poolsBefore(t)
		res, err := svc.Positions(t.Context(), "solana", owners)
		if err != nil {
			t.Fatal(err)
		}
		checked := true
		for i, n := range names {
			checked = checked && e.checkPositions(t, n, owners[i], before, res[i])
		}
		if checked {
			return res
		}
	}
	t.Fatal("the pools changed during each of 10 reads")
	return nil
}

func TestSolanaPositionsEqualChain(t *testing.T) {
	e := newSolanaEnv(t)
	svc := e.withIndex(t)

	// lp-provider deposited into SOL/USDC and EMB/USDC; pool-creator keeps the LP of all five pools
	// it created; holder-0 holds tokens but no LP.
	res := e.positionsOf(t, svc, "lp-provider", "pool-creator", "holder-0")
	var pools []string
	for _, p := range res[0].Positions {
		pools = append(pools, p.Pool.Base.Symbol+"/"+p.Pool.Quote.Symbol)
	}
	slices.Sort(pools)
	if !slices.Equal(pools, []string{"EMB/USDC", "WSOL/USDC"}) {
		t.Errorf("lp-provider's positions are in %v, want EMB/USDC and WSOL/USDC", pools)
	}
	if len(res[1].Positions) != len(e.n.Pools) {
		t.Errorf("pool-creator has %d positions, want one in each of the %d pools", len(res[1].Positions), len(e.n.Pools))
	}
	if len(res[2].Positions) != 0 || res[2].ValueUSD != "0" {
		t.Errorf("holder-0: %+v, want no positions", res[2])
	}
	// The pools are priced in USDC (SOL by its SOL/USDC pool): every entry has a value.
	for _, p := range res[0].Positions {
		if p.ValueUSD == "" {
			t.Errorf("lp-provider's %s position is not valued", p.Pool.Address)
		}
	}

	// Each owner alone answers as in the batch (the pools do not move: no activity here, only the
	// slot of the read differs).
	for i, name := range map[int]string{0: "lp-provider", 2: "holder-0"} {
		alone := e.positionsOf(t, svc, name)[0]
		alone.Block, res[i].Block = 0, 0
		if g, w := fmt.Sprintf("%+v", alone), fmt.Sprintf("%+v", res[i]); g != w {
			t.Errorf("%s alone:\n got %s\nwant %s", name, g, w)
		}
	}

	// The batch form: the same entries, also among refs of a chain the service does not read.
	provider := e.address(t, "lp-provider")
	batch := svc.PositionsBatch(t.Context(), []chain.OwnerRef{{Chain: "solana", Address: provider}, {Chain: "base", Address: "0x00000000000000000000000000000000000000b1"}})
	if batch[0].Err != nil || len(batch[0].Positions) != len(res[0].Positions) || !errors.Is(batch[1].Err, market.ErrNotFound) {
		t.Errorf("batch: %+v", batch)
	}
}

func TestSolanaPositionsOwners(t *testing.T) {
	e := newSolanaEnv(t)
	svc := e.withIndex(t)
	fresh := freshKeys(1)[0]
	provider := e.address(t, "lp-provider")
	evm := "0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"
	e.rt.n.Store(0)
	res, err := svc.Positions(t.Context(), "solana", []string{fresh, evm, provider, "", provider})
	if err != nil {
		t.Fatal(err)
	}
	// One wallet read (two round trips) and one read of the pools' states (the first read of a
	// pool learns its accounts: one more).
	if n := e.rt.n.Load(); n > 4 {
		t.Errorf("%d round trips", n)
	}
	want := Positions{Owner: fresh, Chain: "solana", Positions: []Position{}, ValueUSD: "0",
		Sources: []Source{{Name: "solana:rpc", OK: true, Complete: true}, {Name: "solana:index", OK: true, Complete: false}}}
	if g, w := fmt.Sprintf("%+v", res[0]), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("a fresh wallet:\n got %s\nwant %s", g, w)
	}
	// An owner that is no Solana address fails alone, as its holdings do.
	holdings, err := svc.Holdings(t.Context(), "solana", []string{evm, ""})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range []int{1, 3} {
		p := res[j]
		if !errors.Is(p.Err, chain.ErrInvalidOwner) || !errors.Is(p.Err, chain.ErrInvalidAddress) || p.Positions != nil || p.Sources != nil {
			t.Errorf("owner %q: %+v", p.Owner, p)
		}
		if p.Err.Error() != holdings[i].Err.Error() {
			t.Errorf("owner %q: positions say %q, holdings %q", p.Owner, p.Err, holdings[i].Err)
		}
	}
	if len(res[2].Positions) != 2 || fmt.Sprintf("%+v", res[2]) != fmt.Sprintf("%+v", res[4]) {
		t.Errorf("lp-provider twice:\n%+v\n%+v", res[2], res[4])
	}
}
