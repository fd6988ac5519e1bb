package main

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// LP positions on solana through the API, in local mode, held to the chain: the validator's
// lp-provider deposited into SOL/USDC and EMB/USDC at genesis, and the background trader swaps
// through the pools every 3 s meanwhile.

// apiPositions is a PositionsResult as the API answers it.
type apiPositions struct {
	Owner     string
	Chain     string
	Block     uint64
	ValueUsd  string
	Positions []struct {
		Pool struct {
			Address               string
			Venue                 string
			BaseToken, QuoteToken struct{ Address, Symbol string }
			Reserves              []string
		}
		Kind      string
		Liquidity string
		Amounts   []string
		SharePct  string
		ValueUsd  string
		Farm      json.RawMessage
	}
	Sources []struct {
		Source       string
		OK, Complete bool
	}
}

// chainPool is a pool's state on the chain at one slot: its reserves as the curve sees them (the
// vaults less the fees owed, decoded with venue/raydium's PoolState layout) and its LP supply.
type chainPool struct {
	r0, r1, supply uint64
	slot           uint64
}

// readPool reads a pool's PoolState and vaults from the validator in one getMultipleAccounts.
func (w *solanaWorld) readPool(p localnet.Pool) chainPool {
	w.t.Helper()
	var res struct {
		Context struct{ Slot uint64 }
		Value   []struct{ Data []string }
	}
	w.rpc("getMultipleAccounts", []any{[]string{p.Address, p.Token0.Vault, p.Token1.Vault}, map[string]string{"encoding": "base64", "commitment": "confirmed"}}, &res)
	var data [3][]byte
	for i, v := range res.Value {
		b, err := base64.StdEncoding.DecodeString(v.Data[0])
		if err != nil {
			w.t.Fatal(err)
		}
		data[i] = b
	}
	st, err := raydium.DecodePoolState(data[0])
	if err != nil {
		w.t.Fatal(err)
	}
	r0, r1, err := st.Reserves(binary.LittleEndian.Uint64(data[1][64:72]), binary.LittleEndian.Uint64(data[2][64:72]))
	if err != nil {
		w.t.Fatal(err)
	}
	return chainPool{r0: r0, r1: r1, supply: st.LPSupply, slot: res.Context.Slot}
}

// tokenBalances reads an owner's SPL Token accounts from the validator, summed by mint.
func (w *solanaWorld) tokenBalances(owner string) map[string]uint64 {
	w.t.Helper()
	var res struct {
		Value []struct {
			Account struct{ Data []string }
		}
	}
	w.rpc("getTokenAccountsByOwner", []any{owner, map[string]string{"programId": raydium.TokenProgram.String()},
		map[string]string{"encoding": "base64", "commitment": "confirmed"}}, &res)
	out := map[string]uint64{}
	for _, a := range res.Value {
		b, err := base64.StdEncoding.DecodeString(a.Account.Data[0])
		if err != nil || len(b) < 72 {
			w.t.Fatalf("token account %q: %v", a.Account.Data[0], err)
		}
		out[chain.EncodeBase58(b[:32])] += binary.LittleEndian.Uint64(b[64:72])
	}
	return out
}

// checkChainPositions holds an owner's positions (got) to the chain. Which pools' LP the owner
// holds, and how much, is read from its token accounts; each pool's reserves and LP supply are
// read before the API call (before) and again now: the answer's block must lie between the two
// reads and the pool must not have changed in between, which makes the state read the state at
// the answered slot. ok is false when a pool changed meanwhile (the caller asks again).
func (w *solanaWorld) checkChainPositions(label, owner string, before map[string]chainPool, got apiPositions) (ok bool) {
	w.t.Helper()
	t := w.t
	held := w.tokenBalances(owner)
	pools := slices.Clone(w.node.Pools)
	slices.SortFunc(pools, func(a, b localnet.Pool) int { return strings.Compare(a.Address, b.Address) })
	usdc, _ := w.node.Mint("USDC")
	var want []localnet.Pool
	for _, p := range pools {
		if held[p.LPMint] > 0 {
			want = append(want, p)
		}
	}
	type entry struct{ pool, liquidity, base, quote string }
	var wantEntries []entry
	for _, p := range want {
		now, b := w.readPool(p), before[p.Address]
		if now.r0 != b.r0 || now.r1 != b.r1 || now.supply != b.supply || got.Block < b.slot || got.Block > now.slot {
			return false
		}
		lp := new(big.Int).SetUint64(held[p.LPMint])
		share := func(reserve uint64) *big.Int {
			v := new(big.Int).Mul(lp, new(big.Int).SetUint64(reserve))
			return v.Div(v, new(big.Int).SetUint64(now.supply))
		}
		// The quote is USDC, else wrapped SOL (the index's orientation).
		base, quote, baseAmt, quoteAmt := p.Token0, p.Token1, share(now.r0), share(now.r1)
		if base.Mint == usdc.Address || (base.Mint == chain.WrappedSOL && quote.Mint != usdc.Address) {
			base, quote, baseAmt, quoteAmt = quote, base, quoteAmt, baseAmt
		}
		wantEntries = append(wantEntries, entry{p.Address + " " + base.Mint + "/" + quote.Mint, market.Units(lp, int(p.LPDecimals)),
			market.Units(baseAmt, int(base.Decimals)), market.Units(quoteAmt, int(quote.Decimals))})
	}
	if got.Owner != owner || got.Chain != "solana" {
		t.Errorf("%s: owner %s on %s", label, got.Owner, got.Chain)
	}
	if len(got.Sources) != 2 || got.Sources[0].Source != "solana:rpc" || !got.Sources[0].OK || !got.Sources[0].Complete ||
		got.Sources[1].Source != "solana:index" || got.Sources[1].Complete {
		t.Errorf("%s: sources %+v, want solana:rpc complete and solana:index not", label, got.Sources)
	}
	if (len(want) == 0) != (got.Block == 0) {
		t.Errorf("%s: block %d with %d pools held", label, got.Block, len(want))
	}
	var gotEntries []entry
	for _, p := range got.Positions {
		if p.Kind != "wallet" || len(p.Farm) > 0 || p.Pool.Venue != "raydium" || len(p.Amounts) != 2 || p.ValueUsd == "" || p.SharePct == "" {
			t.Errorf("%s: position %+v", label, p)
			continue
		}
		gotEntries = append(gotEntries, entry{p.Pool.Address + " " + p.Pool.BaseToken.Address + "/" + p.Pool.QuoteToken.Address, p.Liquidity, p.Amounts[0], p.Amounts[1]})
	}
	if !slices.Equal(gotEntries, wantEntries) {
		t.Errorf("%s: positions\n got %+v\nwant %+v (from the chain)", label, gotEntries, wantEntries)
	}
	return true
}

// positionsOnChain asks the API for owners' positions (one owner: the single form; more: the
// batch) until an answer can be held to the chain, and checks it.
func (w *solanaWorld) positionsOnChain(owners ...string) []apiPositions {
	w.t.Helper()
	for range 20 {
		before := map[string]chainPool{}
		for _, p := range w.node.Pools {
			before[p.Address] = w.readPool(p)
		}
		var got []apiPositions
		if len(owners) == 1 {
			var one apiPositions
			w.get("/v1/portfolio/"+owners[0]+"/positions?chain=solana", &one)
			got = append(got, one)
		} else {
			var batch struct {
				Results []struct {
					Ref    string
					Code   string
					Result *apiPositions
				}
			}
			w.get("/v1/portfolio/positions?owners="+url.QueryEscape(strings.Join(owners, ",")), &batch)
			for i, r := range batch.Results {
				if r.Ref != owners[i] || r.Result == nil {
					w.t.Fatalf("batch entry %d: %+v", i, r)
				}
				got = append(got, *r.Result)
			}
		}
		ok := true
		for i, o := range owners {
			ok = ok && w.checkChainPositions(o, o, before, got[i])
		}
		if ok {
			return got
		}
	}
	w.t.Fatal("the pools changed during each of 20 reads")
	return nil
}

// TestSolanaPositions: lp-provider's positions on solana are exactly the pools whose LP it holds,
// each with its LP balance and floor(balance × reserve / supply) of each side at the answered slot,
// alone and in a batch; a wallet with no LP has none; positions are listed for solana; an owner
// that is no Solana address answers what its holdings answer.
func TestSolanaPositions(t *testing.T) {
	t.Parallel()
	w := newSolanaWorld(t)

	var chains struct {
		Chains []struct {
			ID         string
			Operations []string
		}
	}
	w.get("/v1/chains", &chains)
	for _, c := range chains.Chains {
		if c.ID == "solana" && (!slices.Contains(c.Operations, "getPositions") || !slices.Contains(c.Operations, "getPositionsBatch")) {
			t.Errorf("solana's operations %v lack the positions reads", c.Operations)
		}
	}

	provider, _ := w.node.Keypair("lp-provider")
	holder, _ := w.node.Keypair("holder-0")
	got := w.positionsOnChain(provider.Address)[0]
	var names []string
	for _, p := range got.Positions {
		names = append(names, p.Pool.BaseToken.Symbol+"/"+p.Pool.QuoteToken.Symbol)
	}
	if !slices.Equal(names, []string{"WSOL/USDC", "EMB/USDC"}) && !slices.Equal(names, []string{"EMB/USDC", "WSOL/USDC"}) {
		t.Errorf("lp-provider's positions are in %v, want SOL/USDC and EMB/USDC", names)
	}

	if none := w.positionsOnChain(holder.Address)[0]; len(none.Positions) != 0 || none.ValueUsd != "0" || none.Block != 0 {
		t.Errorf("holder-0 (no LP): %+v", none)
	}

	batch := w.positionsOnChain(holder.Address, provider.Address)
	if len(batch[1].Positions) != len(got.Positions) || len(batch[0].Positions) != 0 {
		t.Errorf("batch: %+v", batch)
	}

	// An owner that is not a Solana address: the same answer as its holdings.
	evm := "0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d"
	for _, owner := range []string{evm, "0OIl" + provider.Address[4:]} {
		ps, pb := w.getRaw("/v1/portfolio/" + owner + "/positions?chain=solana")
		hs, hb := w.getRaw("/v1/portfolio/" + owner + "/holdings?chain=solana")
		var pe, he struct{ Code, Error string }
		json.Unmarshal(pb, &pe)
		json.Unmarshal(hb, &he)
		if ps != 400 || ps != hs || pe.Code == "" || pe != he {
			t.Errorf("owner %s: positions %d %s, holdings %d %s", owner, ps, pb, hs, hb)
		}
	}
}
