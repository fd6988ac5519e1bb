package chain

import (
	"errors"
	"fmt"
	"strings"

	"github.com/partner-platform/partnerd/chain/svm"
)

// MaxBatchOwners is the most distinct owner refs one batch portfolio call may name.
const MaxBatchOwners = 24

// Errors returned by the owner-ref parsers.
var (
	ErrInvalidOwner   = errors.New("invalid owner ref")
	ErrTooManyOwners  = errors.New("too many owners")
	ErrInvalidAddress = errors.New("invalid address")
)

// OwnerRef is a wallet on a chain: a Solana base58 address, or `<evm chain>:<0x address>`.
type OwnerRef struct {
	Chain   string
	Address string // base58 for Solana; lower-case 0x hex for EVM chains
}

// String returns the canonical form of the ref.
func (o OwnerRef) String() string {
	if o.Chain == "solana" {
		return o.Address
	}
	return o.Chain + ":" + o.Address
}

// ParseOwnerRef parses one owner ref. A bare ref is a Solana address; `solana:<base58>` is accepted too.
func ParseOwnerRef(s string) (OwnerRef, error) {
	name, addr, qualified := strings.Cut(s, ":")
	if !qualified {
		name, addr = "solana", s
	}
	info, ok := Lookup(name)
	if !ok {
		return OwnerRef{}, fmt.Errorf("%w %q: unknown chain %q", ErrInvalidOwner, s, name)
	}
	switch info.Kind {
	case KindSolana:
		if !IsSolanaAddress(addr) {
			return OwnerRef{}, fmt.Errorf("%w %q: not a Solana base58 address", ErrInvalidOwner, s)
		}
	default:
		switch err := CheckEVMAddress(addr); {
		case errors.Is(err, ErrChecksumMismatch):
			return OwnerRef{}, fmt.Errorf("%w %q: checksum mismatch: %s", ErrInvalidOwner, s, ChecksumAdvice)
		case err != nil:
			return OwnerRef{}, fmt.Errorf("%w %q: want %s:0x followed by 40 hex digits", ErrInvalidOwner, s, name)
		}
		addr = strings.ToLower(addr)
	}
	return OwnerRef{Chain: name, Address: addr}, nil
}

// ParseOwnerRefs parses a comma-separated list of owner refs, dropping duplicates (by canonical form)
// and keeping the first-seen order. It fails on an empty list, a bad ref, or more than MaxBatchOwners distinct refs.
func ParseOwnerRefs(list string) ([]OwnerRef, error) {
	var refs []OwnerRef
	seen := map[OwnerRef]bool{}
	for part := range strings.SplitSeq(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ref, err := ParseOwnerRef(part)
		if err != nil {
			return nil, err
		}
		if seen[ref] {
			continue
		}
		if len(refs) == MaxBatchOwners {
			return nil, fmt.Errorf("%w: at most %d distinct owners per call", ErrTooManyOwners, MaxBatchOwners)
		}
		seen[ref] = true
		refs = append(refs, ref)
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%w: no owner given", ErrInvalidOwner)
	}
	return refs, nil
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// IsSolanaAddress reports whether s is the base58 encoding of exactly 32 bytes (a Solana public key).
func IsSolanaAddress(s string) bool {
	if len(s) < 32 || len(s) > 44 {
		return false
	}
	b, ok := decodeBase58(s)
	return ok && len(b) == 32
}

// ParseSolanaAddress checks that s is a Solana address, called what in the error: the canonical
// base58 encoding of 32 bytes (a public key on or off the ed25519 curve); it returns the 32 bytes.
// Errors wrap ErrInvalidAddress and say what s is instead: empty, an EVM address, too long, not
// base58 (naming the first character that is not), or base58 of another length.
func ParseSolanaAddress(what, s string) ([32]byte, error) {
	switch {
	case s == "":
		return [32]byte{}, fmt.Errorf("%w: %s is empty", ErrInvalidAddress, what)
	case IsEVMAddress(s):
		return [32]byte{}, fmt.Errorf("%w: %s %q is an EVM address; want a Solana base58 address", ErrInvalidAddress, what, s)
	case len(s) > 44:
		return [32]byte{}, fmt.Errorf("%w: %s is %d characters; a Solana address has 32 to 44", ErrInvalidAddress, what, len(s))
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(base58Alphabet, r) }); i >= 0 {
		return [32]byte{}, fmt.Errorf("%w: %s is not base58 (character %q at %d)", ErrInvalidAddress, what, s[i], i)
	}
	b, err := svm.DecodeBase58(s)
	if err != nil {
		return [32]byte{}, fmt.Errorf("%w: %s is not base58", ErrInvalidAddress, what)
	}
	if len(b) != 32 {
		return [32]byte{}, fmt.Errorf("%w: %s decodes to %d bytes; a Solana address is 32", ErrInvalidAddress, what, len(b))
	}
	if svm.EncodeBase58(b) != s { // not the canonical encoding
		return [32]byte{}, fmt.Errorf("%w: %s is not in canonical base58 form", ErrInvalidAddress, what)
	}
	return [32]byte(b), nil
}

// decodeBase58 decodes Bitcoin-alphabet base58, keeping leading zero bytes for leading '1's.
func decodeBase58(s string) ([]byte, bool) {
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	// Big-endian base-256 accumulator, enough for 44 base58 digits.
	out := make([]byte, 0, 40)
	for i := zeros; i < len(s); i++ {
		carry := strings.IndexByte(base58Alphabet, s[i])
		if carry < 0 {
			return nil, false
		}
		for j := len(out) - 1; j >= 0; j-- {
			carry += int(out[j]) * 58
			out[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			out = append([]byte{byte(carry)}, out...)
			carry >>= 8
		}
	}
	return append(make([]byte, zeros), out...), true
}

// EncodeBase58 encodes b in the Bitcoin alphabet, as Solana writes addresses and signatures, with
// a '1' for each leading zero byte; decodeBase58 reads it back.
func EncodeBase58(b []byte) string {
	digits := make([]byte, 0, len(b)*138/100+1) // little-endian base-58 digits
	for _, c := range b {
		carry := int(c)
		for i := range digits {
			carry += int(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, byte(carry%58))
			carry /= 58
		}
	}
	out := make([]byte, 0, len(digits)+len(b))
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i := len(digits) - 1; i >= 0; i-- {
		out = append(out, base58Alphabet[digits[i]])
	}
	return string(out)
}

// IsTxID reports whether s names a transaction on the chain's family: a 0x-prefixed 32-byte hash on
// EVM chains, a base58 64-byte signature on Solana.
func IsTxID(c Info, s string) bool {
	if c.Kind == KindSolana {
		if len(s) < 64 || len(s) > 88 {
			return false
		}
		b, ok := decodeBase58(s)
		return ok && len(b) == 64
	}
	if len(s) != 66 || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// CanonicalAddress is the form an address of the named chain is stored and compared in: lower-case
// hex on EVM chains, unchanged on Solana (base58 is case-sensitive) and on an unknown chain.
func CanonicalAddress(chainName, addr string) string {
	if c, ok := Lookup(chainName); ok && c.Kind == KindEVM {
		return strings.ToLower(addr)
	}
	return addr
}

// DisplayAddress is the form an address of the named chain takes in responses: EIP-55 on EVM
// chains (addr canonical or not), unchanged on Solana.
func DisplayAddress(chainName, addr string) string {
	if c, ok := Lookup(chainName); ok && c.Kind == KindEVM {
		return EVMChecksum(addr)
	}
	return addr
}

// CheckAddress checks an address of the named chain, called what in the error: base58 of 32 bytes
// on Solana; on EVM chains 0x and 40 hex digits, in its EIP-55 form when the case is mixed. Errors
// wrap ErrInvalidAddress and say what the string is instead.
func CheckAddress(chainName, what, addr string) error {
	if c, _ := Lookup(chainName); c.Kind == KindSolana {
		if _, err := svm.DecodeAddress(addr); err != nil {
			return fmt.Errorf("%w: %s %s", ErrInvalidAddress, what, strings.TrimPrefix(err.Error(), svm.ErrInvalidAddress.Error()+": "))
		}
		return nil
	}
	if err := CheckEVMAddress(addr); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
