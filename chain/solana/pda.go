package solana

import (
	"fmt"

	sol "github.com/gagliardetto/solana-go"
)

// Plain-byte helpers for the packages that may not import solana-go (the venues, DESIGN section 3):
// addresses as [32]byte, program-derived addresses, associated token accounts.

// DecodeAddress parses a Solana address (canonical base58 of 32 bytes) into its bytes. Errors wrap
// chain.ErrInvalidAddress (400 invalid_address), as ParseAddress's do.
func DecodeAddress(s string) ([32]byte, error) {
	k, err := pubkey("address", s)
	if err != nil {
		return [32]byte{}, err
	}
	return k, nil
}

// FindProgramAddress derives the program address of seeds under program, as Solana's
// find_program_address does: the first bump from 255 down whose
// sha256(seeds, bump, program, "ProgramDerivedAddress") is off the ed25519 curve. It fails only
// when a seed is longer than 32 bytes or there are more than 16 seeds (no bump is left: odds of
// 2^-255).
func FindProgramAddress(seeds [][]byte, program [32]byte) (addr [32]byte, bump uint8, err error) {
	k, b, err := sol.FindProgramAddress(seeds, program)
	if err != nil {
		return [32]byte{}, 0, fmt.Errorf("find program address: %w", err)
	}
	return k, b, nil
}

// AssociatedTokenAccount returns owner's associated token account of mint under tokenProgram (SPL
// Token or Token-2022): the program address of [owner, tokenProgram, mint] under the associated
// token program.
func AssociatedTokenAccount(owner, mint, tokenProgram [32]byte) [32]byte {
	return ata(owner, mint, tokenProgram)
}
