package svm

import (
	"fmt"
	"strings"
)

// Base58 in the Bitcoin alphabet, as Solana writes addresses and signatures: a leading '1' for
// each leading zero byte, then the rest of the bytes as a big-endian number in base 58.

const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// maxAddressChars is the longest base58 of 32 bytes (2^256 - 1 has 44 digits); a longer string
// decodes to more than 32 bytes.
const maxAddressChars = 44

var digitOf = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(alphabet) {
		t[alphabet[i]] = int8(i)
	}
	return t
}()

// EncodeBase58 encodes b in base58.
func EncodeBase58(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	// little-endian base-58 digits of the number the rest of b is
	digits := make([]byte, 0, (len(b)-zeros)*138/100+1)
	for _, c := range b[zeros:] {
		carry := uint32(c)
		for i := range digits {
			carry += uint32(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for carry > 0 {
			digits = append(digits, byte(carry%58))
			carry /= 58
		}
	}
	out := make([]byte, zeros+len(digits))
	for i := range zeros {
		out[i] = '1'
	}
	for i, d := range digits {
		out[len(out)-1-i] = alphabet[d]
	}
	return string(out)
}

// DecodeBase58 decodes base58. It reads every string it is given: bound the length of untrusted
// input first (DecodeAddress does). Errors wrap ErrInvalidBase58.
func DecodeBase58(s string) ([]byte, error) {
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	// big-endian base-256 bytes of the number the rest of s is; 58 < 2^6 so each digit adds at
	// most 6 bits
	num := make([]byte, 0, (len(s)-zeros)*733/1000+1)
	for i := zeros; i < len(s); i++ {
		d := digitOf[s[i]]
		if d < 0 {
			return nil, fmt.Errorf("%w: %q at %d", ErrInvalidBase58, rune(s[i]), i)
		}
		carry := uint32(d)
		for j := len(num) - 1; j >= 0; j-- {
			carry += uint32(num[j]) * 58
			num[j] = byte(carry)
			carry >>= 8
		}
		if carry > 0 {
			num = append(num, 0)
			copy(num[1:], num)
			num[0] = byte(carry)
		}
	}
	return append(make([]byte, zeros, zeros+len(num)), num...), nil
}

// EncodeAddress is an address in base58.
func EncodeAddress(k [32]byte) string { return EncodeBase58(k[:]) }

// DecodeAddress parses a Solana address: the base58 encoding of exactly 32 bytes (a public key on
// the curve or a program-derived address off it). Each 32 bytes have one encoding, so a string
// that parses is the EncodeAddress of what it parses to. Errors wrap ErrInvalidAddress and say
// what s is instead.
func DecodeAddress(s string) ([32]byte, error) {
	switch {
	case s == "":
		return [32]byte{}, fmt.Errorf("%w: empty", ErrInvalidAddress)
	case isEVMAddress(s):
		return [32]byte{}, fmt.Errorf("%w: %q is an EVM address; want a Solana base58 address", ErrInvalidAddress, s)
	case len(s) > maxAddressChars:
		return [32]byte{}, fmt.Errorf("%w: %d characters; a Solana address has 32 to 44", ErrInvalidAddress, len(s))
	}
	b, err := DecodeBase58(s)
	if err != nil {
		return [32]byte{}, fmt.Errorf("%w: %w", ErrInvalidAddress, err)
	}
	if len(b) != AddressSize {
		return [32]byte{}, fmt.Errorf("%w: %q is base58 of %d bytes, not 32", ErrInvalidAddress, s, len(b))
	}
	return [32]byte(b), nil
}

// MustAddress parses an address known to be valid (a constant); it panics otherwise.
func MustAddress(s string) [32]byte {
	k, err := DecodeAddress(s)
	if err != nil {
		panic(err)
	}
	return k
}

func isEVMAddress(s string) bool {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		return false
	}
	for _, c := range s[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
