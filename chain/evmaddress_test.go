package chain

import (
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestEVMChecksum(t *testing.T) {
	// EIP-55's own examples.
	for _, want := range []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
	} {
		if got := EVMChecksum(want[:2] + strings.ToLower(want[2:])); got != want {
			t.Errorf("EVMChecksum = %s, want %s", got, want)
		}
	}
}

func TestCheckEVMAddress(t *testing.T) {
	const good = "0x647DA401969aD18a3D499d7e3f39bdfd885A7077"
	for _, tc := range []struct {
		in   string
		want error // nil, ErrChecksumMismatch or ErrInvalidAddress
	}{
		{good, nil},
		{strings.ToLower(good), nil},
		{"0x" + strings.ToUpper(good[2:]), nil},
		{"0X" + strings.ToLower(good[2:]), nil},
		{"0x647DA401969aD18a3D499d7e3f39bdfd885A7078", ErrChecksumMismatch}, // the typo: last digit
		{"0x647dA401969aD18a3D499d7e3f39bdfd885A7077", ErrChecksumMismatch}, // one letter's case flipped
		{"0x0000000000000000000000000000000000000000", nil},                 // no letters: nothing to check
		{"0x647DA401969aD18a3D499d7e3f39bdfd885A707", ErrInvalidAddress},
		{"647DA401969aD18a3D499d7e3f39bdfd885A7077", ErrInvalidAddress},
		{"0x647DA401969aD18a3D499d7e3f39bdfd885A707G", ErrInvalidAddress},
		{"", ErrInvalidAddress},
	} {
		err := CheckEVMAddress(tc.in)
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("CheckEVMAddress(%q) = %v, want nil", tc.in, err)
		case tc.want != nil && !errors.Is(err, tc.want):
			t.Errorf("CheckEVMAddress(%q) = %v, want %v", tc.in, err, tc.want)
		case errors.Is(tc.want, ErrInvalidAddress) && tc.want != ErrChecksumMismatch && errors.Is(err, ErrChecksumMismatch):
			t.Errorf("CheckEVMAddress(%q) calls bad syntax a checksum mismatch", tc.in)
		}
	}
}

// FuzzCheckEVMAddress holds CheckEVMAddress against go-ethereum's EIP-55 implementation: an address
// is accepted exactly when it is syntactically an address and is all lower, all upper or go-ethereum's
// checksummed form; and every single-letter case flip of a checksummed address is refused.
func FuzzCheckEVMAddress(f *testing.F) {
	f.Add("0x647DA401969aD18a3D499d7e3f39bdfd885A7077", uint8(3))
	f.Add("0x647da401969ad18a3d499d7e3f39bdfd885a7077", uint8(40))
	f.Add("0xZZ", uint8(0))
	f.Fuzz(func(t *testing.T, s string, flip uint8) {
		err := CheckEVMAddress(s)
		if !common.IsHexAddress(s) || len(s) != 42 {
			if err == nil {
				t.Fatalf("accepted %q, which is not 0x and 40 hex digits", s)
			}
			return
		}
		digits := s[2:]
		want := digits == strings.ToLower(digits) || digits == strings.ToUpper(digits) || common.HexToAddress(s).Hex()[2:] == digits
		if (err == nil) != want {
			t.Fatalf("CheckEVMAddress(%q) = %v; go-ethereum's checksum is %s", s, err, common.HexToAddress(s).Hex())
		}
		if err != nil && !errors.Is(err, ErrChecksumMismatch) {
			t.Fatalf("CheckEVMAddress(%q) = %v, want a checksum mismatch", s, err)
		}
		// Flip the case of one letter of the checksummed form: always a mismatch, unless that makes
		// the whole address one case.
		sum := []byte(common.HexToAddress(s).Hex())
		i := 2 + int(flip)%40
		if c := sum[i]; c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			sum[i] ^= 0x20
			d := string(sum[2:])
			if d != strings.ToLower(d) && d != strings.ToUpper(d) && !errors.Is(CheckEVMAddress(string(sum)), ErrChecksumMismatch) {
				t.Fatalf("accepted %s, a case flip of %s", sum, common.HexToAddress(s).Hex())
			}
		}
	})
}

// TestCheckEVMAddressAgreesWithChecksum: on random addresses, the checked form is exactly the one
// EVMChecksum makes: it passes, and flipping the case of any one of its letters fails.
func TestCheckEVMAddressAgreesWithChecksum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2_000 {
		var raw [20]byte
		for i := range raw {
			raw[i] = byte(rng.Uint32())
		}
		addr := EVMChecksum("0x" + hex.EncodeToString(raw[:]))
		if err := CheckEVMAddress(addr); err != nil {
			t.Fatalf("CheckEVMAddress(%s) = %v", addr, err)
		}
		for i := 2; i < len(addr); i++ {
			if addr[i] <= '9' { // a digit has no case
				continue
			}
			flipped := []byte(addr)
			flipped[i] ^= 0x20
			if err := CheckEVMAddress(string(flipped)); err != ErrChecksumMismatch && !allOneCase(string(flipped[2:])) {
				t.Fatalf("CheckEVMAddress(%s) = %v, want ErrChecksumMismatch", flipped, err)
			}
		}
	}
}

func allOneCase(digits string) bool {
	return digits == strings.ToLower(digits) || digits == strings.ToUpper(digits)
}

// TestCheckEVMAddressAllocates nothing: it runs on every call that names an address. Checking a
// checksum allocates nothing, and an address checked before is not stored again.
func TestCheckEVMAddressAllocates(t *testing.T) {
	addr := EVMChecksum("0xfa172d7e20a062de8b89f8b03821e77072b141b3")
	if n := testing.AllocsPerRun(100, func() { _ = checksummed(addr) }); n != 0 {
		t.Fatalf("checksummed allocates %v times a call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = CheckEVMAddress(addr) }); n != 0 {
		t.Fatalf("CheckEVMAddress allocates %v times a call, want 0", n)
	}
}

// TestCheckEVMAddressCacheIsExact: an address verified before (so cached in its slot) does not make
// another spelling of it pass, nor does another address verified in the same slot, also while
// goroutines check them at once.
func TestCheckEVMAddressCacheIsExact(t *testing.T) {
	good := EVMChecksum("0xfa172d7e20a062de8b89f8b03821e77072b141b3")
	other := EVMChecksum("0x647da401969ad18a3d499d7e3f39bdfd885a70b3") // the same last two digits: the same slot
	flip := func(addr string, i int) string { b := []byte(addr); b[i] ^= 0x20; return string(b) }
	typos := []string{flip(good, 3), flip(good, 40), flip(other, 5)} // one letter's case each
	for _, typo := range typos {
		if allOneCase(typo[2:]) {
			t.Fatalf("test address %s must stay mixed-case", typo)
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				for _, addr := range []string{good, other} {
					if err := CheckEVMAddress(addr); err != nil {
						t.Errorf("CheckEVMAddress(%s) = %v (goroutine %d, round %d)", addr, err, g, i)
						return
					}
				}
				for _, typo := range typos {
					if err := CheckEVMAddress(typo); !errors.Is(err, ErrChecksumMismatch) {
						t.Errorf("CheckEVMAddress(%s) = %v after its address was verified, want ErrChecksumMismatch", typo, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
