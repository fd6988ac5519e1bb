package chain

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const (
	solOwner = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	evmOwner = "0x52908400098527886E0F7030069857D2E4169EE7"
)

func TestParseOwnerRef(t *testing.T) {
	tests := []struct {
		in      string
		want    OwnerRef
		wantErr bool
	}{
		{in: solOwner, want: OwnerRef{Chain: "solana", Address: solOwner}},
		{in: "solana:" + solOwner, want: OwnerRef{Chain: "solana", Address: solOwner}},
		{in: "11111111111111111111111111111111", want: OwnerRef{Chain: "solana", Address: "11111111111111111111111111111111"}},
		{in: "base:" + evmOwner, want: OwnerRef{Chain: "base", Address: strings.ToLower(evmOwner)}},
		{in: "robinhood:" + strings.ToLower(evmOwner), want: OwnerRef{Chain: "robinhood", Address: strings.ToLower(evmOwner)}},
		{in: evmOwner, wantErr: true},              // EVM address needs its chain
		{in: "base:" + solOwner, wantErr: true},    // Solana address on an EVM chain
		{in: "solana:" + evmOwner, wantErr: true},  // EVM address on Solana
		{in: "polygon:" + evmOwner, wantErr: true}, // unsupported chain
		{in: "base:0x1234", wantErr: true},         // short
		{in: "base:0x647DA401969aD18a3D499d7e3f39bdfd885A7077", want: OwnerRef{Chain: "base", Address: "0x647da401969ad18a3d499d7e3f39bdfd885a7077"}},
		{in: "base:0x647DA401969aD18a3D499d7e3f39bdfd885A7078", wantErr: true}, // EIP-55 checksum mismatch
		{in: "base:0xZZ908400098527886E0F7030069857D2E4169EE7", wantErr: true},
		{in: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWW0", wantErr: true},  // 0 is not base58
		{in: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWMM", wantErr: true}, // 33 bytes
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseOwnerRef(tt.in)
		if tt.wantErr {
			if !errors.Is(err, ErrInvalidOwner) {
				t.Errorf("ParseOwnerRef(%q) err = %v, want ErrInvalidOwner", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseOwnerRef(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseOwnerRefsDistinctAndLimit(t *testing.T) {
	// Duplicates, in any case for EVM, count once.
	refs, err := ParseOwnerRefs(solOwner + ", base:" + evmOwner + ",base:" + strings.ToLower(evmOwner) + "," + solOwner)
	if err != nil || len(refs) != 2 {
		t.Fatalf("got %v, %v; want 2 distinct refs", refs, err)
	}
	var many []string
	for i := range 25 {
		many = append(many, fmt.Sprintf("base:0x%040x", i+1))
	}
	if _, err := ParseOwnerRefs(strings.Join(many[:24], ",")); err != nil {
		t.Fatalf("24 distinct owners: %v", err)
	}
	if _, err := ParseOwnerRefs(strings.Join(many, ",")); !errors.Is(err, ErrTooManyOwners) {
		t.Fatalf("25 distinct owners: err = %v, want ErrTooManyOwners", err)
	}
	// 24 distinct plus repeats is fine.
	if _, err := ParseOwnerRefs(strings.Join(append(many[:24], many[0], many[1]), ",")); err != nil {
		t.Fatalf("24 distinct owners with repeats: %v", err)
	}
	if _, err := ParseOwnerRefs(" , ,"); !errors.Is(err, ErrInvalidOwner) {
		t.Fatalf("empty list: err = %v", err)
	}
}

func FuzzParseOwnerRefs(f *testing.F) {
	f.Add(solOwner + ",base:" + evmOwner)
	f.Add("solana:" + solOwner)
	f.Add("1111111111111111111111111111111111")
	f.Fuzz(func(t *testing.T, s string) {
		refs, err := ParseOwnerRefs(s)
		if err != nil {
			return
		}
		if len(refs) == 0 || len(refs) > MaxBatchOwners {
			t.Fatalf("accepted %d refs", len(refs))
		}
		for _, r := range refs {
			again, err := ParseOwnerRef(r.String())
			if err != nil || again != r {
				t.Fatalf("canonical form %q does not round-trip: %v %v", r.String(), again, err)
			}
		}
	})
}

// TestBase58 checks EncodeBase58 against known Solana encodings and against decodeBase58.
func TestBase58(t *testing.T) {
	for enc, n := range map[string]int{"11111111111111111111111111111111": 32} { // the system program: 32 zero bytes
		if got := EncodeBase58(make([]byte, n)); got != enc {
			t.Errorf("EncodeBase58(%d zero bytes) = %s, want %s", n, got, enc)
		}
	}
	wsol := []byte{6, 155, 136, 87, 254, 171, 129, 132, 251, 104, 127, 99, 70, 24, 192, 53, 218, 196, 57, 220, 26, 235, 59, 85, 152, 160, 240, 0, 0, 0, 0, 1}
	if got := EncodeBase58(wsol); got != WrappedSOL {
		t.Errorf("EncodeBase58(wrapped SOL's key) = %s, want %s", got, WrappedSOL)
	}
	for _, b := range [][]byte{{}, {0}, {0, 0, 1}, {255}, bytes.Repeat([]byte{0xff}, 31), bytes.Repeat([]byte{7}, 64)} {
		back, ok := decodeBase58(EncodeBase58(b))
		if !ok || !bytes.Equal(back, b) {
			t.Errorf("decode(encode(%x)) = %x, %v", b, back, ok)
		}
	}
}
