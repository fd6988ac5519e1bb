package svm

import (
	"crypto/sha256"
	"fmt"

	"filippo.io/edwards25519"
)

// Program-derived addresses, as Solana's solana-pubkey derives them.

// Seed limits of a program-derived address (Solana's MAX_SEEDS and MAX_SEED_LEN). The bump
// FindProgramAddress adds is a seed: it takes at most MaxSeeds-1.
const (
	MaxSeeds   = 16
	MaxSeedLen = 32
)

// pdaMarker ends the preimage of every program-derived address.
const pdaMarker = "ProgramDerivedAddress"

// IsOnCurve reports whether k is the encoding of a point on the ed25519 curve, as Solana's
// bytes_are_curve_point decides it (curve25519-dalek's decompression): the y coordinate is read
// modulo 2^255-19 (non-canonical encodings are accepted), and the point exists when
// (y²-1)/(dy²+1) is a square, whatever the sign bit says (an x of zero with the sign bit set
// included). An address on the curve may have a private key; a program-derived address never is.
func IsOnCurve(k [32]byte) bool {
	_, err := new(edwards25519.Point).SetBytes(k[:])
	return err == nil
}

func checkSeeds(seeds [][]byte, max int) error {
	if len(seeds) > max {
		return fmt.Errorf("%w: %d seeds, at most %d", ErrMaxSeedLength, len(seeds), max)
	}
	for i, s := range seeds {
		if len(s) > MaxSeedLen {
			return fmt.Errorf("%w: seed %d has %d bytes, at most %d", ErrMaxSeedLength, i, len(s), MaxSeedLen)
		}
	}
	return nil
}

// preimage is seeds, then a byte for the bump when bump, then program and the marker.
func preimage(seeds [][]byte, bump bool, program [32]byte) []byte {
	n := len(pdaMarker) + AddressSize + 1
	for _, s := range seeds {
		n += len(s)
	}
	b := make([]byte, 0, n)
	for _, s := range seeds {
		b = append(b, s...)
	}
	if bump {
		b = append(b, 0)
	}
	b = append(b, program[:]...)
	return append(b, pdaMarker...)
}

// CreateProgramAddress is Solana's create_program_address: sha256(seeds..., program,
// "ProgramDerivedAddress"), refused where it is on the curve. Errors: ErrMaxSeedLength (more than
// MaxSeeds seeds, or one longer than MaxSeedLen), ErrInvalidSeeds (on the curve).
func CreateProgramAddress(seeds [][]byte, program [32]byte) ([32]byte, error) {
	if err := checkSeeds(seeds, MaxSeeds); err != nil {
		return [32]byte{}, fmt.Errorf("create program address: %w", err)
	}
	k := sha256.Sum256(preimage(seeds, false, program))
	if IsOnCurve(k) {
		return [32]byte{}, fmt.Errorf("create program address: %w", ErrInvalidSeeds)
	}
	return k, nil
}

// FindProgramAddress is Solana's find_program_address: the address of seeds and the first bump
// from 255 down to 1 whose address is off the curve (CreateProgramAddress of seeds and the bump).
// Errors: ErrMaxSeedLength (more than MaxSeeds-1 seeds, or one longer than MaxSeedLen: no bump
// fits), ErrNoProgramAddress.
func FindProgramAddress(seeds [][]byte, program [32]byte) (addr [32]byte, bump uint8, err error) {
	if err := checkSeeds(seeds, MaxSeeds-1); err != nil {
		return [32]byte{}, 0, fmt.Errorf("find program address: %w", err)
	}
	b := preimage(seeds, true, program)
	at := len(b) - len(pdaMarker) - AddressSize - 1
	for bump = 255; bump > 0; bump-- {
		b[at] = bump
		if k := sha256.Sum256(b); !IsOnCurve(k) {
			return k, bump, nil
		}
	}
	return [32]byte{}, 0, fmt.Errorf("find program address: %w", ErrNoProgramAddress)
}

// AssociatedTokenAccount is owner's associated token account of mint under tokenProgram (SPL
// Token or Token-2022): the program address of [owner, tokenProgram, mint] under the Associated
// Token Account program. The owner may be off the curve (a program-derived address).
func AssociatedTokenAccount(owner, mint, tokenProgram [32]byte) [32]byte {
	k, _, err := FindProgramAddress([][]byte{owner[:], tokenProgram[:], mint[:]}, AssociatedTokenProgram)
	if err != nil { // three 32-byte seeds: only ErrNoProgramAddress, at odds of 2^-255
		panic(fmt.Sprintf("svm: associated token account: %v", err))
	}
	return k
}
