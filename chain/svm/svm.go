// Package svm holds the Solana primitives the venues share, without a Solana SDK: base58
// addresses, program-derived addresses (with the ed25519 off-curve check), associated token
// accounts and the ids of the programs every venue names. It uses the standard library and
// filippo.io/edwards25519 (for decoding curve points) only, so that packages which may not import
// solana-go (venue/*, DESIGN section 3) can derive and print the addresses they build for.
//
// Keys are plain [32]byte: a named 32-byte type of a caller (such as raydium.Pubkey) passes and
// receives them without conversion. Every answer is held to solana-go's (testdata/vectors.json,
// written once by testdata/gen_vectors.go, which is no part of any build).
package svm

import "errors"

// AddressSize is the size of an address (an ed25519 public key, or a program-derived address).
const AddressSize = 32

// Errors.
var (
	// ErrInvalidAddress: a string is not the base58 encoding of 32 bytes. The message says what it
	// is instead (empty, an EVM address, a character outside base58, another length).
	ErrInvalidAddress = errors.New("svm: invalid address")
	// ErrInvalidBase58: a string has a character outside the base58 (Bitcoin) alphabet.
	ErrInvalidBase58 = errors.New("svm: invalid base58")
	// ErrMaxSeedLength: more than MaxSeeds seeds, or a seed longer than MaxSeedLen (Solana's
	// PubkeyError::MaxSeedLengthExceeded).
	ErrMaxSeedLength = errors.New("svm: max seed length exceeded")
	// ErrInvalidSeeds: the seeds give an address on the ed25519 curve, which no program may sign for
	// (Solana's PubkeyError::InvalidSeeds).
	ErrInvalidSeeds = errors.New("svm: invalid seeds: the address is on the ed25519 curve")
	// ErrNoProgramAddress: no bump from 255 down to 1 gives an address off the curve (odds of
	// 2^-255 for valid seeds).
	ErrNoProgramAddress = errors.New("svm: no viable bump seed")
)
