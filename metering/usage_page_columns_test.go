package metering

import "testing"

// TestParseRequestID tries every byte at every digit's place of a few ids against the definition:
// an id parses exactly when it is "req_" and 32 lowercase hex digits, and then formats back to
// itself (requestID, with encoding/hex).
func TestParseRequestID(t *testing.T) {
	for _, base := range []string{"req_0123456789abcdef0123456789abcdef", "req_fedcba9876543210fedcba9876543210",
		"req_00000000000000000000000000000000", "req_ffffffffffffffffffffffffffffffff"} {
		for i := len(requestIDHead); i < len(base); i++ {
			for b := range 256 {
				id := []byte(base)
				id[i] = byte(b)
				ms, rnd, ok := parseRequestID(string(id))
				if ok != isHex(byte(b)) {
					t.Fatalf("%q parsed: %v", id, ok)
				}
				if ok && requestID(ms, rnd[:]) != string(id) {
					t.Fatalf("%q parsed as %d %x, which formats as %q", id, ms, rnd, requestID(ms, rnd[:]))
				}
			}
		}
	}
	for _, id := range []string{"", "req_", "req_0123456789abcdef0123456789abcde", "req_0123456789abcdef0123456789abcdef0",
		"REQ_0123456789abcdef0123456789abcdef", "req-0123456789abcdef0123456789abcdef", "req_0123456789ABCDEF0123456789abcdef"} {
		if _, _, ok := parseRequestID(id); ok {
			t.Errorf("%q parsed", id)
		}
	}
}
