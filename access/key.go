// Package access holds consumers, plans and API keys: the live-key format,
// hashing, and verification of keys presented on the partner API.
package access

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math/bits"
	"strconv"
	"unsafe"
)

// KeyPrefix starts every live API key.
const KeyPrefix = "pk_live_"

// Live-key layout: KeyPrefix, then the 32 random bytes as a fixed-width
// base62 number (randLen characters, most significant digit first, padded
// with '0'), then the CRC32 (IEEE) of everything before it as a fixed-width
// base62 number (sumLen characters).
const (
	randBytes = 32
	randLen   = 43 // base62 digits needed for 2^256-1
	sumLen    = 6  // base62 digits needed for 2^32-1
	keyLen    = len(KeyPrefix) + randLen + sumLen
	sumStart  = len(KeyPrefix) + randLen

	// displayLen is how many characters of the random part DisplayPrefix shows.
	displayLen = 6

	// base62 digits in ASCII order, so that comparing two fixed-width
	// base62 strings byte by byte compares the numbers they encode.
	base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

	// maxRand is 2^256-1 in randLen base62 digits. A random part above it
	// encodes no 32-byte value, so NewKey cannot have made it.
	maxRand = "yhjskwdA6OZ1AL1YmHWZWm8LLG7HjnuCA2j5rOw8Xp1"
)

// Key is a parsed, checksum-valid live API key. It is a secret: never log it.
//
// String is the only way to get the key text. fmt (every verb, including %v,
// %+v, %#v, %s, %q, %x), slog and encoding/json see a redacted form such as
// "pk_live_Ab12Cd...". The text is held behind a pointer rather than in a
// string field so that fmt also prints only an address when a Key sits in an
// unexported struct field, where fmt cannot call its methods.
//
// The zero Key holds no key; only NewKey and ParseKey make non-zero Keys.
// Key is deliberately not comparable: compare Hash values instead.
type Key struct {
	_ [0]func() // not comparable: == would compare pointers, not keys
	p *byte     // first byte of the keyLen-byte key text; nil for the zero Key
}

// keyError is a malformed-key error. Its text is a fixed reason, never any
// part of the key, and it unwraps to ErrMalformedKey. Being a string type,
// returning a constant of it allocates nothing, which keeps rejecting junk
// cheap.
type keyError string

func (e keyError) Error() string { return "malformed API key: " + string(e) }
func (e keyError) Unwrap() error { return ErrMalformedKey }

// NewKey returns a fresh key made from 32 bytes of crypto/rand.
// It fails only if the system's random source fails.
func NewKey() (Key, error) {
	var raw [randBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return Key{}, fmt.Errorf("new key: %w", err)
	}
	return keyFromRandom(&raw), nil
}

// keyFromRandom builds the key whose random part encodes raw.
func keyFromRandom(raw *[randBytes]byte) Key {
	buf := make([]byte, keyLen)
	copy(buf, KeyPrefix)
	encodeRandom((*[randLen]byte)(buf[len(KeyPrefix):sumStart]), raw)
	encodeSum((*[sumLen]byte)(buf[sumStart:]), checksum(string(buf[:sumStart])))
	return Key{p: &buf[0]} // buf is never written again
}

// ParseKey checks that s is a well-formed live key with a valid checksum and
// returns it. It does not consult any store, so a key it accepts may still
// be unknown, revoked or expired. It allocates nothing.
//
// Every rejection is an error that matches ErrMalformedKey with errors.Is;
// its text gives the reason but never any part of s. Rejected: surrounding
// whitespace, a missing KeyPrefix, a wrong length, characters outside
// [0-9A-Za-z], a random part that encodes no 32-byte value, a bad checksum.
func ParseKey(s string) (Key, error) {
	if err := checkKey(s); err != nil {
		return Key{}, err
	}
	return Key{p: unsafe.StringData(s)}, nil
}

// checkKey is ParseKey without building the Key.
func checkKey(s string) error {
	if s == "" {
		return keyError("empty")
	}
	if isSpace(s[0]) || isSpace(s[len(s)-1]) {
		return keyError("leading or trailing whitespace")
	}
	if len(s) < len(KeyPrefix) || s[:len(KeyPrefix)] != KeyPrefix {
		return keyError("missing " + KeyPrefix + " prefix")
	}
	if len(s) != keyLen {
		return keyError("wrong length")
	}
	var sum uint64
	for i := len(KeyPrefix); i < keyLen; i++ {
		d := digit(s[i])
		if d < 0 {
			return keyError("character outside [0-9A-Za-z]")
		}
		if i >= sumStart {
			sum = sum*62 + uint64(d)
		}
	}
	// Fixed width and an ASCII-ordered alphabet: string order is numeric order.
	if s[len(KeyPrefix):sumStart] > maxRand {
		return keyError("random part out of range")
	}
	if sum != uint64(checksum(s[:sumStart])) {
		return keyError("bad checksum")
	}
	return nil
}

// String returns the whole secret key text, e.g. to show it once at creation
// or to send it as X-API-Key. It is the only method that reveals the key:
// fmt and slog use Format and LogValue instead, but code that calls String
// on any fmt.Stringer it is given (some third-party loggers do) sees it.
// The zero Key gives "".
func (k Key) String() string {
	if k.p == nil {
		return ""
	}
	return unsafe.String(k.p, keyLen)
}

// Hash returns SHA-256 of the whole key text: the only form of a key that is
// stored. It allocates nothing.
func (k Key) Hash() [32]byte { return hashKey(k.String()) }

// hashKey is SHA-256 of s, which must be "" or keyLen bytes long. Copying
// into a fixed-size array keeps the input on the stack, where []byte(s)
// would allocate.
func hashKey(s string) [32]byte {
	var buf [keyLen]byte
	n := copy(buf[:], s)
	return sha256.Sum256(buf[:n])
}

// DisplayPrefix returns KeyPrefix plus the first 6 characters of the random
// part, e.g. "pk_live_Ab12Cd": enough to tell keys apart in the console and in
// logs, far too little to guess the rest (about 220 random bits remain).
// The zero Key gives "".
func (k Key) DisplayPrefix() string {
	if k.p == nil {
		return ""
	}
	return k.String()[:len(KeyPrefix)+displayLen]
}

// redacted is what every printed form of k shows.
func (k Key) redacted() string {
	if k.p == nil {
		return "<no key>"
	}
	return k.DisplayPrefix() + "..."
}

// GoString returns a redacted Go-syntax form for %#v,
// e.g. `access.Key("pk_live_Ab12Cd...")`.
func (k Key) GoString() string { return "access.Key(" + strconv.Quote(k.redacted()) + ")" }

// Format makes every fmt verb print a redacted form: the display prefix
// followed by "...", quoted for %q, and GoString for %#v. It never prints
// the secret; width and precision are ignored.
func (k Key) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		_, _ = io.WriteString(f, k.GoString())
	case verb == 'q':
		_, _ = io.WriteString(f, strconv.Quote(k.redacted()))
	default:
		_, _ = io.WriteString(f, k.redacted())
	}
}

// LogValue makes log/slog record the redacted form.
func (k Key) LogValue() slog.Value { return slog.StringValue(k.redacted()) }

// MarshalJSON encodes the redacted form, so a Key cannot leak through JSON.
// Send the key itself with String.
func (k Key) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(k.redacted())), nil }

// checksum is CRC32 (IEEE) of s, computed over the string directly:
// crc32.ChecksumIEEE would need a []byte, and converting costs an allocation.
func checksum(s string) uint32 {
	tab := crc32.IEEETable
	crc := ^uint32(0)
	for i := 0; i < len(s); i++ {
		crc = tab[byte(crc)^s[i]] ^ crc>>8
	}
	return ^crc
}

// encodeRandom writes raw, a big-endian 256-bit number, as randLen base62 digits.
func encodeRandom(dst *[randLen]byte, raw *[randBytes]byte) {
	var n [4]uint64 // big-endian limbs
	for i := range n {
		n[i] = binary.BigEndian.Uint64(raw[8*i:])
	}
	for i := len(dst) - 1; i >= 0; i-- {
		var r uint64
		for j := range n {
			n[j], r = bits.Div64(r, n[j], 62)
		}
		dst[i] = base62[r]
	}
}

// encodeSum writes sum as sumLen base62 digits.
func encodeSum(dst *[sumLen]byte, sum uint32) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = base62[sum%62]
		sum /= 62
	}
}

// digit returns the base62 value of c, or -1 if c is not a base62 digit.
func digit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 36
	}
	return -1
}

// isSpace reports whether c is ASCII whitespace.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
