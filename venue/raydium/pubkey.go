package raydium

import (
	"bytes"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// Pubkey is a Solana address: 32 bytes, written in base58.
type Pubkey [32]byte

// ParsePubkey parses a base58 Solana address (exactly 32 bytes). Errors wrap
// chain.ErrInvalidAddress (400 invalid_address) and svm.ErrInvalidAddress, and say what s is
// instead.
func ParsePubkey(s string) (Pubkey, error) {
	b, err := svm.DecodeAddress(s)
	if err != nil {
		return Pubkey{}, fmt.Errorf("raydium: %w: %w", chain.ErrInvalidAddress, err)
	}
	return b, nil
}

// MustPubkey parses a base58 address known to be valid (a constant); it panics otherwise.
func MustPubkey(s string) Pubkey {
	k, err := ParsePubkey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// String is the base58 form.
func (k Pubkey) String() string { return svm.EncodeAddress(k) }

// IsZero reports whether k is all zeros (the System Program's id, and an unset key).
func (k Pubkey) IsZero() bool { return k == Pubkey{} }

// Less orders keys as CPMM orders a pool's mints: byte by byte.
func (k Pubkey) Less(o Pubkey) bool { return bytes.Compare(k[:], o[:]) < 0 }

// MarshalText writes the base58 form.
func (k Pubkey) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a base58 address. Errors wrap chain.ErrInvalidAddress.
func (k *Pubkey) UnmarshalText(b []byte) error {
	v, err := ParsePubkey(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
