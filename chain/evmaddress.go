package chain

import (
	"fmt"
	"strings"

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
	digits := s[2:]
	if digits == strings.ToLower(digits) || digits == strings.ToUpper(digits) {
		return nil
	}
	if EVMChecksum(s)[2:] != digits {
		return ErrChecksumMismatch
	}
	return nil
}

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
