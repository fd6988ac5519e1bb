package raydium

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// Pools are CPMM pools as the adapters read them live (chain.SVMPoolVenue).
type Pools struct{}

var _ chain.SVMPoolVenue = Pools{}

// Program is CPMM's program id.
func (Pools) Program() string { return ProgramID.String() }

// PoolAccounts are a pool's two vaults, token 0's then token 1's.
func (Pools) PoolAccounts(pool chain.SVMAccount) ([]string, bool) {
	p, ok := decodeOwned(pool)
	if !ok {
		return nil, false
	}
	return []string{p.Token0Vault.String(), p.Token1Vault.String()}, true
}

// PoolState is the pool's curve as CPMM computes with it: each vault's balance less the protocol,
// fund and creator fees the pool owes out of it, and the LP supply the pool records (its LP in
// circulation plus the LockedLP never minted), which deposits and withdrawals divide by; its
// LPToken is the pool's LP mint.
func (Pools) PoolState(pool chain.SVMAccount, accounts []chain.SVMAccount) chain.PairState {
	p, ok := decodeOwned(pool)
	if !ok || len(accounts) != 2 {
		return chain.PairState{Address: pool.Address}
	}
	var vault [2]uint64
	for i, a := range accounts {
		var ok bool
		if vault[i], ok = TokenBalance(a); !ok {
			return chain.PairState{Address: pool.Address}
		}
	}
	r0, r1, err := p.Reserves(vault[0], vault[1])
	if err != nil {
		return chain.PairState{Address: pool.Address}
	}
	return chain.PairState{Address: pool.Address, Token0: p.Token0Mint.String(), Token1: p.Token1Mint.String(),
		Reserve0: new(big.Int).SetUint64(r0), Reserve1: new(big.Int).SetUint64(r1),
		TotalSupply: new(big.Int).SetUint64(p.LPSupply), LPToken: p.LPMint.String(), OK: true}
}

// decodeOwned decodes a CPMM pool account: ok is false when it is missing, not the program's or
// not a PoolState.
func decodeOwned(a chain.SVMAccount) (PoolState, bool) {
	if !a.Exists || a.Owner != ProgramID.String() {
		return PoolState{}, false
	}
	p, err := DecodePoolState(a.Data)
	return p, err == nil
}
