package solana

import (
	"errors"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/base58"

	"github.com/partner-platform/partnerd/chain"
)

// TestParseAddress: chain.ParseSolanaAddress, against solana-go's encoding.
func TestParseAddress(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want string // in the error
	}{
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", ok: true},
		{in: "11111111111111111111111111111111", ok: true},             // the system program: 32 zero bytes
		{in: "So11111111111111111111111111111111111111112", ok: true},  // wrapped SOL
		{in: ata(sender, usdcMint, tokenProgramID).String(), ok: true}, // an off-curve PDA
		{in: "", want: "empty"},
		{in: "0x6B175474E89094C44Da98b954EedeAC495271d0F", want: "EVM address"},
		{in: "0x6b175474e89094c44da98b954eedeac495271d0f", want: "EVM address"},
		{in: base58.Encode([]byte(strings.Repeat("\xff", 31))), want: "31 bytes"},
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv", want: "characters"}, // 45 characters
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10", want: "not base58"},  // '0' is not base58
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtIl", want: "not base58"},  // 'I' and 'l' neither
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1 ", want: "not base58"},  // a space
		{in: "abc", want: "bytes"},
		{in: base58.Encode(make([]byte, 64)), want: "characters"},                        // a signature's length
		{in: "1" + base58.Encode(append([]byte{1}, make([]byte, 31)...)), want: "bytes"}, // 33 bytes
	} {
		k, err := chain.ParseSolanaAddress("address", tc.in)
		if tc.ok {
			if got := sol.PublicKey(k).String(); err != nil || got != tc.in {
				t.Errorf("ParseSolanaAddress(%q) = %q, %v", tc.in, got, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseSolanaAddress(%q) accepted", tc.in)
			continue
		}
		if !errors.Is(err, chain.ErrInvalidAddress) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSolanaAddress(%q) = %v, want chain.ErrInvalidAddress saying %q", tc.in, err, tc.want)
		}
	}
}

// TestParseSignature: chain.ParseSolanaSignature, against solana-go's encoding.
func TestParseSignature(t *testing.T) {
	good := sigFinal.String()
	for _, tc := range []struct {
		in   string
		ok   bool
		want string
	}{
		{in: good, ok: true},
		{in: base58.Encode(make([]byte, 64)), ok: true}, // 64 zero bytes: "1" x 64
		{in: "", want: "empty"},
		{in: "0x" + strings.Repeat("ab", 32), want: "EVM transaction hash"},
		{in: good[:len(good)-2], want: "bytes"},
		{in: good + "11", want: "characters"},
		{in: good[:10] + "0" + good[11:], want: "not base58"},
		{in: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", want: "bytes"}, // an address
	} {
		b, err := chain.ParseSolanaSignature(tc.in)
		if tc.ok {
			if got := sol.SignatureFromBytes(b[:]).String(); err != nil || got != tc.in {
				t.Errorf("ParseSolanaSignature(%q) = %q, %v", tc.in, got, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseSolanaSignature(%q) accepted", tc.in)
			continue
		}
		if !errors.Is(err, chain.ErrInvalidSolanaSignature) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSolanaSignature(%q) = %v, want chain.ErrInvalidSolanaSignature saying %q", tc.in, err, tc.want)
		}
	}
}

func TestAssociatedTokenAddress(t *testing.T) {
	// The USDC associated token account of the Circle-published wallet in the SPL docs' example is
	// not at hand offline; check the derivation against solana-go's own and the program split.
	got, err := AssociatedTokenAddress(sender.String(), usdcMint.String(), TokenProgram)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := sol.FindAssociatedTokenAddress(sender, usdcMint)
	if got != want.String() {
		t.Errorf("ATA = %s, want %s", got, want)
	}
	got22, err := AssociatedTokenAddress(sender.String(), usdcMint.String(), Token2022Program)
	if err != nil || got22 == got {
		t.Errorf("Token-2022 ATA = %s, %v: must differ from SPL Token's", got22, err)
	}
	if _, err := AssociatedTokenAddress(sender.String(), usdcMint.String(), SystemProgram); !errors.Is(err, chain.ErrInvalidAddress) {
		t.Errorf("ATA under the system program: %v", err)
	}
	// The Metaplex metadata PDA: seeds "metadata", the program id, the mint.
	md, _, _ := sol.FindTokenMetadataAddress(usdcMint)
	if metadataPDA(usdcMint) != md {
		t.Errorf("metadata PDA = %s, want %s", metadataPDA(usdcMint), md)
	}
}

// FuzzParseAddress: never panics; what it accepts is the canonical base58 of 32 bytes.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "11111111111111111111111111111111", "0x6B175474E89094C44Da98b954EedeAC495271d0F",
		"", "1", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "111111111111111111111111111111111", "\xff\xfe", sigFinal.String()} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := chain.ParseSolanaAddress("address", s)
		if err != nil {
			if !errors.Is(err, chain.ErrInvalidAddress) {
				t.Fatalf("error %v does not wrap chain.ErrInvalidAddress", err)
			}
			return
		}
		b, derr := base58.Decode(s)
		if derr != nil || len(b) != 32 || base58.Encode(b) != s || sol.PublicKey(k).String() != s {
			t.Fatalf("accepted %q: %d bytes, %v", s, len(b), derr)
		}
		if !chain.IsSolanaAddress(s) {
			t.Fatalf("accepted %q, which chain.IsSolanaAddress refuses", s)
		}
	})
}

// FuzzParseSignature: never panics; what it accepts is the canonical base58 of 64 bytes.
func FuzzParseSignature(f *testing.F) {
	for _, s := range []string{sigFinal.String(), sigFailed.String(), "", "0x" + strings.Repeat("00", 32), strings.Repeat("1", 64), strings.Repeat("z", 88)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sig, err := chain.ParseSolanaSignature(s)
		if err != nil {
			if !errors.Is(err, chain.ErrInvalidSolanaSignature) {
				t.Fatalf("error %v does not wrap chain.ErrInvalidSolanaSignature", err)
			}
			return
		}
		b, derr := base58.Decode(s)
		if derr != nil || len(b) != 64 || base58.Encode(b) != s || sol.SignatureFromBytes(sig[:]).String() != s {
			t.Fatalf("accepted %q: %d bytes, %v", s, len(b), derr)
		}
		if !chain.IsTxID(chain.Info{Kind: chain.KindSolana}, s) {
			t.Fatalf("accepted %q, which chain.IsTxID refuses", s)
		}
	})
}
