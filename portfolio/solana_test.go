package portfolio

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
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

// Solana holdings against the local validator (chain/solana/localnet: standard Solana JSON-RPC
// over LiteSVM), through the real adapter: what the service answers must equal the seeded state.

// seeded are the seeded wallets whose holdings the tests check (every holder and trader).
var seeded = []string{"holder-0", "holder-1", "holder-2", "holder-3", "holder-4", "holder-5", "holder-6", "holder-7",
	"trader-0", "trader-1", "trader-2"}

// solanaEnv is a service reading the local validator through a transport that counts HTTP round
// trips (a JSON-RPC batch is one) and may rewrite answers.
type solanaEnv struct {
	n      *localnet.Node
	client *solana.Client
	chain  *Chain   // solana, read through the adapter's Source (with raydium's pools)
	svc    *Service // without an index or a market
	rt     *rpcTransport
}

// solanaChain is the solana chain as partnerd wires it: the adapter's Source, with raydium's pools.
func solanaChain(c *solana.Client) *Chain {
	return &Chain{Name: "solana", Source: solana.NewSource(c, raydium.Pools{}), NativeSymbol: "SOL", Pricing: index.Pricing{WrappedNative: chain.WrappedSOL}}
}

func newSolanaEnv(t testing.TB) *solanaEnv {
	t.Helper()
	n := localnet.StartTest(t)
	rt := &rpcTransport{base: http.DefaultTransport.(*http.Transport).Clone()}
	c, err := solana.New([]string{n.URL}, solana.Options{Transport: rt})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	sc := solanaChain(c)
	return &solanaEnv{n: n, client: c, chain: sc, svc: New(nil, nil, []*Chain{sc}), rt: rt}
}

// withMarket is the service as partnerd wires it: prices from a market service that serves the
// chain through the same client (it prices nothing on Solana until pools are indexed there).
func (e *solanaEnv) withMarket(t testing.TB) *Service {
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{})
	m := market.New(ix, []*market.Chain{{Name: "solana", Source: e.chain.Source, Live: e.client}}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return New(ix, m, []*Chain{e.chain})
}

func (e *solanaEnv) address(t testing.TB, name string) string {
	t.Helper()
	k, ok := e.n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	return k.Address
}

// want is what the seed says name holds: SOL first, then one row per mint it holds (its accounts
// summed), by mint address; no prices (the market serves no Solana prices here).
func (e *solanaEnv) want(t testing.TB, name string) Holdings {
	t.Helper()
	k, _ := e.n.Keypair(name)
	h := Holdings{Owner: k.Address, Chain: "solana", Holdings: []Holding{}, ValueUSD: "0",
		Sources: []Source{{Name: "solana:rpc", OK: true, Complete: true}}}
	if k.Lamports > 0 {
		h.Holdings = append(h.Holdings, Holding{Token: market.Token{Chain: "solana", Address: "native", Symbol: "SOL", Name: "SOL", Decimals: 9},
			Amount: market.Units(new(big.Int).SetUint64(k.Lamports), 9), Native: true})
	}
	mints := slices.Clone(e.n.Mints)
	slices.SortFunc(mints, func(a, b localnet.Mint) int { return strings.Compare(a.Address, b.Address) })
	for _, m := range mints {
		sum := new(big.Int)
		for _, acc := range e.n.HoldingsOf(name, m.Symbol) {
			sum.Add(sum, new(big.Int).SetUint64(acc.Amount))
		}
		if sum.Sign() > 0 {
			h.Holdings = append(h.Holdings, Holding{Token: market.Token{Chain: "solana", Address: m.Address, Symbol: m.Symbol, Name: m.Name,
				Decimals: int(m.Decimals)}, Amount: market.Units(sum, int(m.Decimals))})
		}
	}
	return h
}

// empty is the answer for a wallet with nothing.
func empty(owner string) Holdings {
	return Holdings{Owner: owner, Chain: "solana", Holdings: []Holding{}, ValueUSD: "0", Sources: []Source{{Name: "solana:rpc", OK: true, Complete: true}}}
}

func checkHoldings(t *testing.T, label string, got, want Holdings) {
	t.Helper()
	if got.Err != nil {
		t.Errorf("%s: %v", label, got.Err)
		return
	}
	if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("%s:\n got %s\nwant %s", label, g, w)
	}
}

func TestSolanaHoldingsEqualSeed(t *testing.T) {
	e := newSolanaEnv(t)
	owners := make([]string, len(seeded))
	for i, name := range seeded {
		owners[i] = e.address(t, name)
	}
	e.rt.n.Store(0)
	res, err := e.svc.Holdings(t.Context(), "solana", owners)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.rt.n.Load(); n > 2 {
		t.Errorf("%d owners took %d round trips, want at most 2", len(owners), n)
	}
	if len(res) != len(owners) {
		t.Fatalf("%d results for %d owners", len(res), len(owners))
	}
	for i, name := range seeded {
		checkHoldings(t, name, res[i], e.want(t, name))
	}

	// The figures the seed states, spelled out: holder-0's two USDC accounts (its associated one
	// and a second, non-associated one) are one row; EMB is Token-2022, named by its in-mint
	// metadata; wrapped SOL is a token row beside the SOL row.
	row := func(h Holdings, symbol string, native bool) Holding {
		for _, r := range h.Holdings {
			if r.Token.Symbol == symbol && r.Native == native {
				return r
			}
		}
		t.Fatalf("%s holds no %s (native %v): %+v", h.Owner, symbol, native, h.Holdings)
		return Holding{}
	}
	if accts := e.n.HoldingsOf("holder-0", "USDC"); len(accts) != 2 || accts[0].Associated == accts[1].Associated {
		t.Fatalf("the seed should give holder-0 an associated and a non-associated USDC account: %+v", accts)
	}
	emb, _ := e.n.Mint("EMB")
	if emb.Program != solana.Token2022Program {
		t.Fatalf("EMB is on %s, want Token-2022", emb.Program)
	}
	for _, c := range []struct {
		owner, symbol string
		native        bool
		amount        string
		decimals      int
		name          string
	}{
		{"holder-0", "USDC", false, "1251000.5", 6, "USD Coin (localnet)"},
		{"holder-0", "EMB", false, "1000000", 6, "Ember (localnet)"},
		{"holder-6", "EMB", false, "1234.567891", 6, ""},
		{"holder-0", "WSOL", false, "5", 9, "Wrapped SOL"},
		{"holder-4", "QRTZ", false, "1000000.5", 2, ""},
	} {
		r := row(res[slices.Index(seeded, c.owner)], c.symbol, c.native)
		if r.Amount != c.amount || r.Token.Decimals != c.decimals || (c.name != "" && r.Token.Name != c.name) {
			t.Errorf("%s %s: %+v, want %s with %d decimals", c.owner, c.symbol, r, c.amount, c.decimals)
		}
		if r.PriceUSD != "" || r.ValueUSD != "" {
			t.Errorf("%s %s is priced (%s, %s) though no market prices Solana", c.owner, c.symbol, r.PriceUSD, r.ValueUSD)
		}
	}
	if r := row(res[0], "EMB", false); r.Token.Address != emb.Address || r.Token.Name != emb.Name {
		t.Errorf("EMB row %+v, want the mint %s named %q", r.Token, emb.Address, emb.Name)
	}
}

// freshKeys returns n addresses the validator has never seen (base58 of hashes: on or off the
// curve, both are valid owners).
func freshKeys(n int) []string {
	out := make([]string, n)
	for i := range out {
		h := sha256.Sum256([]byte(fmt.Sprint("portfolio fresh wallet ", i)))
		out[i] = chain.EncodeBase58(h[:])
	}
	return out
}

// solanaRefs returns 24 refs: every seeded holder and trader (11), then fresh wallets.
func (e *solanaEnv) solanaRefs(t testing.TB) []chain.OwnerRef {
	var refs []chain.OwnerRef
	for _, name := range seeded {
		refs = append(refs, chain.OwnerRef{Chain: "solana", Address: e.address(t, name)})
	}
	for _, a := range freshKeys(chain.MaxBatchOwners - len(seeded)) {
		refs = append(refs, chain.OwnerRef{Chain: "solana", Address: a})
	}
	return refs
}

func TestSolanaBatch24Owners(t *testing.T) {
	e := newSolanaEnv(t)
	refs := e.solanaRefs(t)
	if len(refs) != chain.MaxBatchOwners {
		t.Fatalf("%d refs", len(refs))
	}
	check := func(label string, refs []chain.OwnerRef, res []Holdings) {
		t.Helper()
		if len(res) != len(refs) {
			t.Fatalf("%s: %d results for %d refs", label, len(res), len(refs))
		}
		for i, r := range refs {
			if res[i].Owner != r.Address || res[i].Chain != "solana" {
				t.Errorf("%s: entry %d is %s on %s, want %s in the order given", label, i, res[i].Owner, res[i].Chain, r.Address)
			}
			if j := slices.IndexFunc(seeded, func(n string) bool { return e.address(t, n) == r.Address }); j >= 0 {
				checkHoldings(t, label+" "+seeded[j], res[i], e.want(t, seeded[j]))
			} else {
				checkHoldings(t, label+" fresh "+r.Address, res[i], empty(r.Address))
			}
		}
	}

	svc := e.withMarket(t)
	e.rt.n.Store(0)
	start := time.Now()
	res := svc.HoldingsBatch(t.Context(), refs)
	took := time.Since(start)
	trips := e.rt.n.Load()
	if trips > 2 {
		t.Errorf("24 owners took %d JSON-RPC round trips, want at most 2", trips)
	}
	t.Logf("24 Solana owners: %d round trips (JSON-RPC batches), %v", trips, took)
	check("batch", refs, res)

	// The same owners in another order: each answer is the same, in the new order; and each owner
	// alone answers as in the batch.
	reversed := slices.Clone(refs)
	slices.Reverse(reversed)
	check("reversed", reversed, svc.HoldingsBatch(t.Context(), reversed))
	for _, i := range []int{0, 5, len(refs) - 1} {
		one, err := svc.Holdings(t.Context(), "solana", []string{refs[i].Address})
		if err != nil {
			t.Fatal(err)
		}
		checkHoldings(t, "alone "+refs[i].Address, one[0], res[i])
	}
}

func TestSolanaOwnerFailures(t *testing.T) {
	e := newSolanaEnv(t)
	holder0, holder1, victim := e.address(t, "holder-0"), e.address(t, "holder-1"), e.address(t, "holder-3")
	short := chain.EncodeBase58(bytes.Repeat([]byte{0xff}, 31)) // 31 bytes, not 32
	bad := []struct{ owner, why string }{
		{"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d", "an EVM address"},
		{"0OIl" + holder0[4:], "not base58"},
		{short, "31 bytes"},
		{holder0 + holder0, "too long"},
		{"", "empty"},
	}
	// The RPC answers the batch but refuses every read of the victim (a node that is behind).
	e.rt.failOwner.Store(&victim)
	owners := []string{holder0}
	for _, b := range bad {
		owners = append(owners, b.owner)
	}
	owners = append(owners, victim, holder1, holder0)
	e.rt.n.Store(0)
	res, err := e.svc.Holdings(t.Context(), "solana", owners)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.rt.n.Load(); n > 2 {
		t.Errorf("%d round trips", n)
	}
	checkHoldings(t, "holder-0", res[0], e.want(t, "holder-0"))
	for i, b := range bad {
		got := res[1+i]
		if got.Owner != b.owner || got.Chain != "solana" || got.Holdings != nil || got.Sources != nil {
			t.Errorf("%s: %+v", b.why, got)
		}
		if !errors.Is(got.Err, chain.ErrInvalidOwner) || !errors.Is(got.Err, chain.ErrInvalidAddress) {
			t.Errorf("%s: error %v, want an invalid owner and address", b.why, got.Err)
		}
	}
	if got := res[1].Err.Error(); !strings.Contains(got, "EVM address") {
		t.Errorf("the EVM address's error says %q", got)
	}
	v := res[1+len(bad)]
	if v.Owner != victim || !errors.Is(v.Err, chain.ErrUpstreamUnavailable) || solana.KindOf(v.Err) != solana.KindUnavailable || v.Holdings != nil {
		t.Errorf("the victim: %+v", v)
	}
	if strings.Contains(v.Err.Error(), "unhealthy") {
		t.Errorf("the victim's error %q repeats the RPC's text", v.Err)
	}
	checkHoldings(t, "holder-1", res[2+len(bad)], e.want(t, "holder-1"))
	checkHoldings(t, "holder-0 again", res[3+len(bad)], e.want(t, "holder-0"))

	// Only invalid owners: nothing to read, no round trip.
	e.rt.n.Store(0)
	res, err = e.svc.Holdings(t.Context(), "solana", []string{bad[0].owner, bad[1].owner})
	if err != nil || len(res) != 2 || res[0].Err == nil || res[1].Err == nil {
		t.Errorf("%+v, %v", res, err)
	}
	if n := e.rt.n.Load(); n != 0 {
		t.Errorf("%d round trips for no valid owner", n)
	}

	// A whole round trip that fails fails the call (each batch owner then fails alone).
	down, err := solana.New([]string{"http://127.0.0.1:1"}, solana.Options{CallTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	svc := New(nil, nil, []*Chain{solanaChain(down)})
	if _, err := svc.Holdings(t.Context(), "solana", []string{holder0}); !errors.Is(err, chain.ErrUpstreamUnavailable) {
		t.Errorf("RPC down: %v", err)
	}
	batch := svc.HoldingsBatch(t.Context(), []chain.OwnerRef{{Chain: "solana", Address: holder0}, {Chain: "base", Address: strings.ToLower(bad[0].owner)}})
	if !errors.Is(batch[0].Err, chain.ErrUpstreamUnavailable) || !errors.Is(batch[1].Err, market.ErrNotFound) || batch[1].Chain != "base" {
		t.Errorf("batch with the RPC down and an unserved chain: %+v", batch)
	}
	if !svc.Serves("solana") || svc.Serves("base") {
		t.Errorf("serves: solana %v, base %v", svc.Serves("solana"), svc.Serves("base"))
	}
	// Positions need the index (which pools an LP token belongs to) and the market: without them
	// the chain's positions are not found.
	if _, err := svc.Positions(t.Context(), "solana", []string{holder0}); !errors.Is(err, market.ErrNotFound) {
		t.Errorf("positions on Solana without an index: %v", err)
	}
}

// BenchmarkSolanaHoldings24 reads 24 Solana owners (11 seeded, 13 fresh) from the local validator
// through the service: the latency of the batch call, two JSON-RPC round trips.
func BenchmarkSolanaHoldings24(b *testing.B) {
	e := newSolanaEnv(b)
	refs := e.solanaRefs(b)
	svc := e.withMarket(b)
	e.rt.n.Store(0)
	for b.Loop() {
		for _, h := range svc.HoldingsBatch(b.Context(), refs) {
			if h.Err != nil {
				b.Fatal(h.Err)
			}
		}
	}
	b.ReportMetric(float64(e.rt.n.Load())/float64(b.N), "roundtrips/op")
}

// rpcTransport counts HTTP round trips and, when failOwner is set, answers every JSON-RPC call
// whose first parameter is that owner with Solana's "node is unhealthy" error, as a node that is
// behind does, leaving the other calls of the batch alone.
type rpcTransport struct {
	base      http.RoundTripper
	n         atomic.Int64
	failOwner atomic.Pointer[string]
}

type rpcMsg struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method,omitempty"`
	Params  []json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage   `json:"result,omitempty"`
	Error   json.RawMessage   `json:"error,omitempty"`
}

func (rt *rpcTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.n.Add(1)
	victim := rt.failOwner.Load()
	if victim == nil || r.Body == nil {
		return rt.base.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body.Close()
	r = r.Clone(r.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	var calls []rpcMsg
	fail := map[string]bool{}
	if json.Unmarshal(body, &calls) == nil {
		for _, c := range calls {
			var first string
			if len(c.Params) > 0 && json.Unmarshal(c.Params[0], &first) == nil && first == *victim {
				fail[string(c.ID)] = true
			}
		}
	}
	resp, err := rt.base.RoundTrip(r)
	if err != nil || len(fail) == 0 {
		return resp, err
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var answers []rpcMsg
	if err := json.Unmarshal(answer, &answers); err != nil {
		return nil, err
	}
	for i := range answers {
		if fail[string(answers[i].ID)] {
			answers[i].Result = nil
			answers[i].Error = json.RawMessage(`{"code":-32005,"message":"Node is unhealthy","data":{"numSlotsBehind":42}}`)
		}
	}
	if answer, err = json.Marshal(answers); err != nil {
		return nil, err
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(answer)), int64(len(answer))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// fakeWallets is a source that answers Wallets from fixed results, recording what it was asked
// (its other reads are not called).
type fakeWallets struct {
	chain.Source
	res   chain.Wallets
	asked [][]string
}

func (f *fakeWallets) Wallets(_ context.Context, owners []string) (chain.Wallets, error) {
	f.asked = append(f.asked, owners)
	return f.res, nil
}

func TestSolanaUnreadableMintIsPartial(t *testing.T) {
	owner := freshKeys(1)[0]
	known, unknown := freshKeys(3)[1], freshKeys(3)[2]
	f := &fakeWallets{res: chain.Wallets{
		Owners: []chain.Wallet{{Owner: owner, Native: big.NewInt(1), Tokens: []chain.WalletToken{
			{Account: "a1", Token: known, Amount: big.NewInt(250), Decimals: 2},
			{Account: "a2", Token: unknown, Amount: big.NewInt(7), Decimals: -1},
			{Account: "a3", Token: known, Amount: big.NewInt(0), Decimals: 2},
			{Account: "a4", Token: known, Amount: big.NewInt(50), Decimals: 2},
		}}},
		Tokens: map[string]chain.TokenMeta{known: {Address: known, OK: true, Decimals: 2}, unknown: {Address: unknown}},
	}}
	svc := New(nil, nil, []*Chain{{Name: "solana", Source: f, NativeSymbol: "SOL"}})
	res, err := svc.Holdings(t.Context(), "solana", []string{owner, owner})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.asked) != 1 || len(f.asked[0]) != 1 {
		t.Errorf("asked %v, want the owner once", f.asked)
	}
	want := Holdings{Owner: owner, Chain: "solana", ValueUSD: "0", Sources: []Source{{Name: "solana:rpc", OK: true, Complete: false}},
		Holdings: []Holding{
			{Token: market.Token{Chain: "solana", Address: "native", Symbol: "SOL", Name: "SOL", Decimals: 9}, Amount: "0.000000001", Native: true},
			{Token: market.Token{Chain: "solana", Address: known, Decimals: 2}, Amount: "3"},
		}}
	checkHoldings(t, "first", res[0], want)
	checkHoldings(t, "second", res[1], want)
}
