package solana_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
)

// TestSourceWallets: the Source lists wallets for the portfolio service (chain.WalletSource) as
// the seed holds them: every token account of the owner, its lamports, the held mints described as
// TokenMetadata describes them; an owner that is no Solana address fails alone, unread.
func TestSourceWallets(t *testing.T) {
	n, src, rt := localSource(t, localnet.Options{})
	var _ chain.WalletSource = src
	provider, _ := n.Keypair("lp-provider")
	holder, _ := n.Keypair("holder-0")
	owners := []string{"0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d", provider.Address, "", holder.Address}
	res, err := src.Wallets(t.Context(), owners)
	if err != nil {
		t.Fatal(err)
	}
	if trips := rt.take(); trips != 2 {
		t.Errorf("%d round trips, want 2", trips)
	}
	if len(res.Owners) != len(owners) {
		t.Fatalf("%d wallets for %d owners", len(res.Owners), len(owners))
	}
	for _, i := range []int{0, 2} {
		w := res.Owners[i]
		if w.Owner != owners[i] || !errors.Is(w.Err, chain.ErrInvalidAddress) || w.Native != nil || w.Tokens != nil {
			t.Errorf("owner %q: %+v", owners[i], w)
		}
	}
	for _, i := range []int{1, 3} {
		w, k := res.Owners[i], []localnet.Keypair{provider, holder}[i/2]
		if w.Err != nil || w.Owner != k.Address || w.Native.Cmp(new(big.Int).SetUint64(k.Lamports)) != 0 || w.Block == 0 {
			t.Errorf("%s: %+v", k.Name, w)
			continue
		}
		want := map[string]uint64{} // token account -> amount, as seeded
		for _, h := range n.Holdings {
			if h.Owner == k.Name {
				want[h.Account] = h.Amount
			}
		}
		if len(w.Tokens) != len(want) {
			t.Errorf("%s: %d token accounts, seeded %d", k.Name, len(w.Tokens), len(want))
		}
		for _, tok := range w.Tokens {
			m := res.Tokens[tok.Token]
			if amount, ok := want[tok.Account]; !ok || tok.Amount.Uint64() != amount || !m.OK || tok.Decimals != m.Decimals {
				t.Errorf("%s: account %+v (seeded %d), token %+v", k.Name, tok, amount, m)
			}
		}
	}
	if m := res.Tokens[solana.NativeMint]; !m.OK || m.Symbol != "WSOL" || m.Name != "Wrapped SOL" || m.Decimals != 9 {
		t.Errorf("wrapped SOL described as %+v", m)
	}
	emb, _ := n.Mint("EMB")
	if m := res.Tokens[emb.Address]; m.Symbol != "EMB" || m.Name != emb.Name || m.Decimals != int(emb.Decimals) {
		t.Errorf("EMB (Token-2022, in-mint metadata) described as %+v", m)
	}

	// No valid owner: nothing is read.
	res, err = src.Wallets(t.Context(), []string{"not an address"})
	if err != nil || len(res.Owners) != 1 || !errors.Is(res.Owners[0].Err, chain.ErrInvalidAddress) {
		t.Errorf("%+v, %v", res, err)
	}
	if trips := rt.take(); trips != 0 {
		t.Errorf("%d round trips for no valid owner", trips)
	}
}
