package raydium

import (
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// TestPoolsPoolState: a pool account and its vaults, laid out as CPMM writes them, decode to the
// pool's curve: the vaults less the fees owed, its lp_supply, and its LP mint as LPToken.
func TestPoolsPoolState(t *testing.T) {
	w := qrWorld{}
	p := w.addPool(qrConfigs[1], qrX, qrY, 5_000_000, 9_000_000, map[Pubkey]Pubkey{qrX: TokenProgram, qrY: Token2022Program})
	pool := PoolAddress(qrConfigs[1], p.Token0Mint, p.Token1Mint)
	acc := w.read([]Pubkey{pool})[0]
	names, ok := Pools{}.PoolAccounts(acc)
	if !ok || len(names) != 2 || names[0] != p.Token0Vault.String() || names[1] != p.Token1Vault.String() {
		t.Fatalf("pool accounts %v, %v; want the vaults", names, ok)
	}
	vaults := w.read([]Pubkey{p.Token0Vault, p.Token1Vault})
	st := Pools{}.PoolState(acc, vaults)
	r0, r1, err := p.Reserves(5_000_000, 9_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if !st.OK || st.Address != pool.String() || st.Token0 != p.Token0Mint.String() || st.Token1 != p.Token1Mint.String() ||
		st.Reserve0.Uint64() != r0 || st.Reserve1.Uint64() != r1 || st.TotalSupply.Uint64() != p.LPSupply {
		t.Errorf("state %+v, want reserves %d/%d and LP supply %d", st, r0, r1, p.LPSupply)
	}
	if st.LPToken != LPMintAddress(pool).String() || st.LPToken != p.LPMint.String() {
		t.Errorf("LP token %s, want the pool's LP mint %s", st.LPToken, LPMintAddress(pool))
	}

	// A vault missing, or an account not the program's: not a pool, no LP token.
	for name, st := range map[string]chain.PairState{
		"vault missing": Pools{}.PoolState(acc, []chain.SVMAccount{vaults[0], {Address: p.Token1Vault.String()}}),
		"foreign owner": Pools{}.PoolState(chain.SVMAccount{Address: acc.Address, Exists: true, Owner: TokenProgram.String(), Data: acc.Data}, vaults),
	} {
		if st.OK || st.LPToken != "" || st.TotalSupply != nil {
			t.Errorf("%s: %+v, want not a pool", name, st)
		}
	}
}
