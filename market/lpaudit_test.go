package market

import (
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// TestLPFindings: a pool's liquidity findings from its state and its LP mint's holders.
func TestLPFindings(t *testing.T) {
	const (
		lpMint    = "4cJq8QyhSQZU1VLqTsGaHUkYBfvECd2DhcuHhXMW9rKV"
		authority = "GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL"
		whale     = "J2VRywEnkRXgBs75Ju6XeuyVkkt7zdCSf5CyTejFWKU"
	)
	owner := func(i int) string { return strings.Repeat(string(rune('A'+i)), 32) }
	// read is a pool whose LP supply is supply, its mint's supply mint (at slot 7, the pool's at
	// block), held by owners with the amounts given, largest first.
	read := func(supply, mint int64, block uint64, complete bool, holders ...chain.SVMHolder) (chain.PairState, chain.SVMHolderList) {
		pair := chain.PairState{OK: true, TotalSupply: big.NewInt(supply), LPToken: lpMint, Block: block}
		l := chain.SVMHolderList{Mint: chain.SVMMint{Found: true, Address: lpMint, Program: solana.TokenProgram, Decimals: 9,
			Supply: big.NewInt(mint), MintAuthority: authority, Slot: 7}, Holders: holders, Complete: complete}
		return pair, l
	}
	h := func(o string, n int64) chain.SVMHolder {
		return chain.SVMHolder{Owner: o, Amount: big.NewInt(n), Accounts: 1}
	}

	// Concentrated: one owner holds 90%; the 100 units the pool counts but never minted are locked.
	f := lpFindings(read(1_000_000_000, 999_999_900, 7, true, h(whale, 900_000_000), h(owner(0), 99_999_900)))
	want := []Finding{
		{Code: "lp_supply", Level: "info", Message: "the pool's LP supply is 1 LP (LP mint " + lpMint + "), 0.9999999 LP of it in circulation"},
		{Code: "lp_locked", Level: "info", Message: "0.0000001 LP (0.00001% of the LP supply) can never be withdrawn: 0.0000001 LP that the pool counts and no one holds (locked at its creation or burned)"},
		{Code: "lp_top10_holders", Level: "info", Message: "the 10 largest LP holders hold 99.99999% of the LP supply"},
		{Code: "lp_concentrated", Level: "warning", Message: "one owner, " + whale + ", holds 90% of the LP supply (0.9 LP): it can withdraw most of the pool's liquidity"},
	}
	if !slices.Equal(f, want) {
		t.Errorf("concentrated:\n got %+v\nwant %+v", f, want)
	}
	if s := auditScore(f); s != 85 {
		t.Errorf("concentrated: score %d, want 85", s)
	}
	// Exactly half is most of it too.
	if f := lpFindings(read(1000, 1000, 7, true, h(whale, 500), h(owner(0), 500))); f[3].Code != "lp_concentrated" {
		t.Errorf("half: %+v", f[3])
	}

	// Spread: twelve owners, the largest with 20%; only the 10 largest count in the top 10.
	holders := []chain.SVMHolder{h(whale, 200)}
	for i := range 11 {
		holders = append(holders, h(owner(i), 70))
	}
	f = lpFindings(read(1000, 970, 7, true, holders...))
	if f[2].Message != "the 10 largest LP holders hold 83% of the LP supply" || f[3] != (Finding{Code: "lp_spread", Level: "info",
		Message: "no owner holds half of the LP supply: the largest, " + whale + ", holds 20% (0.0000002 LP)"}) {
		t.Errorf("spread: %+v", f)
	}
	if s := auditScore(f); s != 100 {
		t.Errorf("spread: score %d", s)
	}

	// The pool's authority holds LP: locked, and left out of who can withdraw.
	f = lpFindings(read(1000, 900, 7, true, h(authority, 600), h(whale, 300)))
	if f[1].Message != "0.0000007 LP (70% of the LP supply) can never be withdrawn: 0.0000001 LP that the pool counts and no one holds (locked at its creation or burned); 0.0000006 LP held by the pool's authority ("+authority+"), which mints the LP" ||
		f[2].Message != "the 10 largest LP holders (the pool's authority left out) hold 30% of the LP supply" || f[3].Code != "lp_spread" {
		t.Errorf("authority: %+v", f)
	}

	// Read at different slots: what the pool counts and no one holds is not reported; nor is
	// "nothing locked". The authority's part is still exact.
	f = lpFindings(read(1000, 900, 6, true, h(whale, 900)))
	if codes := findingCodes(f); !slices.Equal(codes, []string{"lp_supply", "lp_top10_holders", "lp_concentrated"}) {
		t.Errorf("two slots: %v", codes)
	}
	f = lpFindings(read(1000, 900, 6, true, h(authority, 100), h(whale, 800)))
	if f[1].Message != "0.0000001 LP (10% of the LP supply) can never be withdrawn: 0.0000001 LP held by the pool's authority ("+authority+"), which mints the LP" {
		t.Errorf("two slots, the authority holding: %+v", f[1])
	}

	// Nothing locked; only the largest accounts read; no one holding LP.
	f = lpFindings(read(1000, 1000, 7, false, h(whale, 600)))
	if f[1].Message != "none of the pool's liquidity is locked: every LP token is held by someone who can withdraw it" ||
		!strings.HasSuffix(f[2].Message, "60% of the LP supply (at least: only the largest token accounts could be read)") ||
		!strings.Contains(f[3].Message, "(0.0000006 LP) (at least") {
		t.Errorf("nothing locked, partial: %+v", f)
	}
	f = lpFindings(read(1000, 0, 7, true))
	if codes := findingCodes(f); !slices.Equal(codes, []string{"lp_supply", "lp_locked", "lp_top10_holders", "lp_spread"}) ||
		f[1].Message != "0.000001 LP (100% of the LP supply) can never be withdrawn: 0.000001 LP that the pool counts and no one holds (locked at its creation or burned)" ||
		f[3].Message != "no one can withdraw the pool's liquidity: no wallet holds its LP tokens" {
		t.Errorf("no holders: %+v", f)
	}
	// An empty pool: its supply only.
	if f := lpFindings(read(0, 0, 7, true)); len(f) != 1 || f[0].Message != "the pool's LP supply is 0 LP (LP mint "+lpMint+"), 0 LP of it in circulation" {
		t.Errorf("empty pool: %+v", f)
	}
}

func findingCodes(f []Finding) []string {
	out := make([]string, len(f))
	for i, x := range f {
		out[i] = x.Code
	}
	return out
}

// TestSolanaPoolAudit audits seeded pools on the local validator: the mint's findings as TokenAudit
// gives them, then the pool's liquidity as the seed made it (LP supply, the 100 units CPMM locks,
// the pool creator holding most of it, lp-provider a part of SOL/USDC).
func TestSolanaPoolAudit(t *testing.T) {
	n := localnet.StartTest(t)
	rt := &countingTransport{base: http.DefaultTransport}
	client, err := solana.New([]string{n.URL}, solana.Options{Transport: rt})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{})
	ctx := t.Context()
	if err := ix.Start(ctx, "solana", chain.Cursor{Genesis: n.GenesisHash, Block: -1}); err != nil {
		t.Fatal(err)
	}
	b := chain.Batch{Chain: "solana", Genesis: n.GenesisHash, From: 0, To: 0, ToHash: "h0"}
	for _, p := range n.Pools {
		b.Pools = append(b.Pools, chain.IndexedPool{Address: p.Address, Venue: "raydium", Token0: p.Token0.Mint, Token1: p.Token1.Mint, FeeBps: 25})
	}
	if err := ix.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	s := New(ix, []*Chain{{Name: "solana", Source: solana.NewSource(client, raydium.Pools{}), Live: client}},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	creator, _ := n.Keypair("pool-creator")
	provider, _ := n.Keypair("lp-provider")

	for _, name := range []string{"SOL/USDC", "AUR/USDC"} {
		p, _ := n.Pool(name)
		rt.n.Store(0)
		a, err := s.Audit(ctx, "solana", p.Address, p.Token1.Mint)
		if err != nil {
			t.Fatal(err)
		}
		// The mint's scan, the pool's state (its account, then with its vaults), the LP mint's scan;
		// the pool's state again, at most twice, when the slots differ.
		if trips := rt.n.Load(); trips < 4 || trips > 6 {
			t.Errorf("%s: the first audit took %d round trips, want 4 (at most 6)", name, trips)
		}
		rt.n.Store(0)
		if _, err := s.Audit(ctx, "solana", p.Address, p.Token1.Mint); err != nil {
			t.Fatal(err)
		}
		if trips := rt.n.Load(); trips < 3 || trips > 5 {
			t.Errorf("%s: the next audit took %d round trips, want 3 (at most 5)", name, trips)
		}
		mint, err := s.TokenAudit(ctx, "solana", p.Token1.Mint)
		if err != nil {
			t.Fatal(err)
		}
		if a.Pool != p.Address || a.Token != p.Token1.Mint || len(a.Findings) != len(mint.Findings)+4 ||
			!slices.Equal(a.Findings[:len(mint.Findings)], mint.Findings) || a.Score != mint.Score-15 {
			t.Fatalf("%s: audit %+v\nwant the mint's findings %+v, then four of the LP, score %d", name, a, mint.Findings, mint.Score-15)
		}
		holders := seededHolders(n, p.LPMint)
		if holders[0].owner != creator.Address || (name == "SOL/USDC") != slices.ContainsFunc(holders, func(h seededHolder) bool { return h.owner == provider.Address }) {
			t.Fatalf("%s: seeded LP holders %+v", name, holders)
		}
		supply, locked := new(big.Int).SetUint64(p.LPSupply), new(big.Int).SetUint64(p.LockedLP)
		minted := new(big.Int).Sub(supply, locked)
		top := new(big.Int)
		for _, h := range holders[:min(10, len(holders))] {
			top.Add(top, h.amount)
		}
		lp := func(n *big.Int) string { return Units(n, int(p.LPDecimals)) + " LP" }
		pct := func(n *big.Int) string { return Decimal(Ratio(n, supply)*100) + "%" }
		want := []Finding{
			{Code: "lp_supply", Level: "info", Message: "the pool's LP supply is " + lp(supply) + " (LP mint " + p.LPMint + "), " + lp(minted) + " of it in circulation"},
			{Code: "lp_locked", Level: "info", Message: lp(locked) + " (" + pct(locked) + " of the LP supply) can never be withdrawn: " + lp(locked) +
				" that the pool counts and no one holds (locked at its creation or burned)"},
			{Code: "lp_top10_holders", Level: "info", Message: "the 10 largest LP holders hold " + pct(top) + " of the LP supply"},
			{Code: "lp_concentrated", Level: "warning", Message: "one owner, " + creator.Address + ", holds " + pct(holders[0].amount) +
				" of the LP supply (" + lp(holders[0].amount) + "): it can withdraw most of the pool's liquidity"},
		}
		if got := a.Findings[len(mint.Findings):]; !slices.Equal(got, want) {
			t.Errorf("%s: LP findings\n got %+v\nwant %+v", name, got, want)
		}
		if p.LockedLP != uint64(raydium.LockedLP) {
			t.Errorf("%s: seeded with %d LP locked, CPMM locks %d", name, p.LockedLP, raydium.LockedLP)
		}
	}
}

// countingTransport counts HTTP round trips (a JSON-RPC batch is one).
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}
