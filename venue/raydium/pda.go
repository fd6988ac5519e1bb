package raydium

import (
	"fmt"
	"sync"

	"github.com/partner-platform/partnerd/chain/svm"
)

// Program-derived addresses of CPMM, derived as the program derives them (under ProgramID).

func derive(seeds ...[]byte) Pubkey {
	k, _, err := svm.FindProgramAddress(seeds, ProgramID)
	if err != nil { // seeds here are at most 32 bytes: unreachable
		panic(fmt.Sprintf("raydium: %v", err))
	}
	return k
}

var authority = sync.OnceValues(func() (Pubkey, uint8) {
	k, b, err := svm.FindProgramAddress([][]byte{[]byte(seedAuthority)}, ProgramID)
	if err != nil {
		panic(fmt.Sprintf("raydium: %v", err))
	}
	return k, b
})

// Authority is the pool authority: the program address of ["vault_and_lp_mint_auth_seed"], which
// owns every pool's vaults and mints its LP tokens. The same for every pool.
func Authority() Pubkey {
	k, _ := authority()
	return k
}

// AuthorityBump is the authority's bump, which PoolState.AuthBump records.
func AuthorityBump() uint8 {
	_, b := authority()
	return b
}

// AmmConfigAddress is the address of the AmmConfig of index: ["amm_config", index big-endian].
func AmmConfigAddress(index uint16) Pubkey {
	return derive([]byte(seedAmmConfig), []byte{byte(index >> 8), byte(index)})
}

// PoolAddress is the pool state address initialize derives for a config and two mints, mint0
// before mint1: ["pool", config, mint0, mint1]. Pools created through Raydium's SDK and UI sit
// there; initialize also accepts a fresh keypair's address that signs.
func PoolAddress(config, mint0, mint1 Pubkey) Pubkey {
	return derive([]byte(seedPool), config[:], mint0[:], mint1[:])
}

// LPMintAddress is a pool's LP mint: ["pool_lp_mint", pool].
func LPMintAddress(pool Pubkey) Pubkey { return derive([]byte(seedLPMint), pool[:]) }

// VaultAddress is a pool's vault of mint: ["pool_vault", pool, mint].
func VaultAddress(pool, mint Pubkey) Pubkey { return derive([]byte(seedVault), pool[:], mint[:]) }

// ObservationAddress is a pool's price observation account: ["observation", pool].
func ObservationAddress(pool Pubkey) Pubkey { return derive([]byte(seedObservation), pool[:]) }

// AssociatedTokenAccount is owner's associated token account of mint under tokenProgram.
func AssociatedTokenAccount(owner, mint, tokenProgram Pubkey) Pubkey {
	return svm.AssociatedTokenAccount(owner, mint, tokenProgram)
}

// PoolKeys are the addresses a pool's instructions name, as initialize creates them.
type PoolKeys struct {
	Pool, Config, Authority, LPMint, Vault0, Vault1, Observation Pubkey
}

// DerivePoolKeys derives a pool's addresses for a config and its mints (mint0 before mint1). pool
// is the pool state address: the zero key for PoolAddress, else a keypair's address.
func DerivePoolKeys(config, mint0, mint1, pool Pubkey) PoolKeys {
	if pool.IsZero() {
		pool = PoolAddress(config, mint0, mint1)
	}
	return PoolKeys{
		Pool: pool, Config: config, Authority: Authority(), LPMint: LPMintAddress(pool),
		Vault0: VaultAddress(pool, mint0), Vault1: VaultAddress(pool, mint1), Observation: ObservationAddress(pool),
	}
}
