package chain

import (
	"fmt"
	"hash"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/sha3"
)

// EVM addresses as partners send them: 0x and 40 hex digits, all lower-case, all upper-case, or
// mixed-case in the EIP-55 checksummed form. A mixed-case address whose case does not match its
// checksum is a typo (one mistyped digit changes the checksum of most letters), never an address
// to send funds to.

// IsEVMAddress reports whether s is 0x followed by 40 hex digits (any case). It checks syntax only:
// CheckEVMAddress also checks a mixed-case address's checksum.
func IsEVMAddress(s string) bool {
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ErrChecksumMismatch is CheckEVMAddress's error for a mixed-case address whose case is not its
// EIP-55 checksum: a digit is likely mistyped. It wraps ErrInvalidAddress.
var ErrChecksumMismatch = fmt.Errorf("%w: checksum mismatch", ErrInvalidAddress)

// CheckEVMAddress checks that s is an EVM address a partner may mean: 0x and 40 hex digits, and,
// when its hex digits mix upper and lower case, exactly its EIP-55 checksummed form. Errors wrap
// ErrInvalidAddress; a wrong checksum is ErrChecksumMismatch.
func CheckEVMAddress(s string) error {
	if !IsEVMAddress(s) {
		return fmt.Errorf("%w: want 0x followed by 40 hex digits", ErrInvalidAddress)
	}
	var upper, lower bool
	for i := 2; i < len(s); i++ {
		upper = upper || 'A' <= s[i] && s[i] <= 'F'
		lower = lower || 'a' <= s[i] && s[i] <= 'f'
	}
	if !upper || !lower {
		return nil
	}
	slot := &checkedAddresses[hexValue(s[40])<<4|hexValue(s[41])]
	if p := slot.Load(); p != nil && *p == s {
		return nil
	}
	if !checksummed(s) {
		return ErrChecksumMismatch
	}
	c := strings.Clone(s) // s may be a slice of a request that should not stay in memory
	slot.Store(&c)
	return nil
}

// checkedAddresses remembers mixed-case addresses whose checksum CheckEVMAddress verified, so the
// addresses partners name over and over (popular tokens, their own wallets) skip keccak: one slot
// per value of the last two hex digits, each holding the last address verified there. A hit is an
// exact match of the string, so the cache can save work but never accept a spelling it has not
// verified.
var checkedAddresses [256]atomic.Pointer[string]

// hexValue is the value of the hex digit c.
func hexValue(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

// checksummed reports whether the mixed-case address s (0x and 40 hex digits) is its EIP-55 form:
// each letter upper-case exactly when its nibble of keccak256(lower-case digits) is 8 or more. It
// allocates nothing.
func checksummed(s string) bool {
	k := keccakPool.Get().(*keccak)
	defer keccakPool.Put(k)
	digits := &k.digits
	for i := range digits {
		digits[i] = s[2+i] | 0x20 // hex letters to lower case; digits keep their bit
	}
	k.h.Reset()
	k.h.Write(digits[:])
	sum := k.sum[:]
	k.h.Read(sum) // the sum, without Sum's copy of the state
	for i, c := range digits {
		if c < 'a' {
			continue
		}
		wantUpper := sum[i/2]>>(4*(1-uint(i%2)))&0xf >= 8
		if wantUpper != (s[2+i] < 'a') {
			return false
		}
	}
	return true
}

// keccak is a Keccak-256 state and buffers for its input and sum, kept in keccakPool for
// checksummed.
type keccak struct {
	h      keccakState
	digits [40]byte
	sum    [32]byte
}

// keccakState is a Keccak-256 hash that also reads its sum out (x/crypto's legacy hash does),
// without Sum's copy of the state.
type keccakState interface {
	hash.Hash
	Read(p []byte) (int, error)
}

var keccakPool = sync.Pool{New: func() any { return &keccak{h: sha3.NewLegacyKeccak256().(keccakState)} }}

// EVMChecksum returns the EIP-55 mixed-case form of a 0x EVM address (unchanged when it is not one).
func EVMChecksum(addr string) string {
	if !IsEVMAddress(addr) {
		return addr
	}
	lower := strings.ToLower(addr[2:])
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lower))
	sum := h.Sum(nil)
	out := []byte("0x" + lower)
	for i := range 40 {
		c := lower[i]
		nibble := sum[i/2] >> (4 * (1 - uint(i%2))) & 0xf
		if c >= 'a' && c <= 'f' && nibble >= 8 {
			out[2+i] = c - 32
		}
	}
	return string(out)
}

// ChecksumAdvice is what to tell a caller whose address failed its checksum.
const ChecksumAdvice = "it mixes upper and lower case but is not its EIP-55 checksummed form, so a digit is likely " +
	"mistyped: check it, or send it all in lower case"
