package svm_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// vectors is testdata/vectors.json: what solana-go answers (see testdata/gen_vectors.go).
type vectors struct {
	About  string `json:"about"`
	Base58 []struct {
		Hex, Base58 string
	} `json:"base58"`
	Parse []struct {
		S   string `json:"s"`
		Hex string `json:"hex"`
		Err string `json:"err"`
	} `json:"parse"`
	OnCurve []struct {
		Hex     string `json:"hex"`
		What    string `json:"what"`
		OnCurve bool   `json:"onCurve"`
	} `json:"onCurve"`
	Create []pdaVector `json:"createProgramAddress"`
	Find   []pdaVector `json:"findProgramAddress"`
	ATA    []struct {
		Owner, Mint, TokenProgram, Address string
	} `json:"associatedTokenAccount"`
}

type pdaVector struct {
	Seeds   []string `json:"seeds"`
	Program string   `json:"program"`
	Bump    *uint8   `json:"bump"`
	Address string   `json:"address"`
	Err     string   `json:"err"`
}

func load(t *testing.T) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return &v
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (p pdaVector) seeds(t *testing.T) [][]byte {
	s := make([][]byte, len(p.Seeds))
	for i, h := range p.Seeds {
		s[i] = unhex(t, h)
	}
	return s
}

// TestSolanaGoVectors holds every function to what solana-go answers for the same input:
// encodings, parses (accepted as the same key, or refused), the on-curve check (edge encodings
// included), create_program_address (with its two refusals), find_program_address (bumps below
// 255 included) and associated token accounts.
func TestSolanaGoVectors(t *testing.T) {
	v := load(t)
	t.Log(v.About)
	if len(v.Base58) < 100 || len(v.Parse) < 70 || len(v.OnCurve) < 500 || len(v.Create) < 100 || len(v.Find) < 250 || len(v.ATA) < 30 {
		t.Fatal("the vectors shrank")
	}
	for _, c := range v.Base58 {
		b := unhex(t, c.Hex)
		if got := svm.EncodeAddress([32]byte(b)); got != c.Base58 {
			t.Errorf("EncodeAddress(%s) = %s, want %s", c.Hex, got, c.Base58)
		}
		if got, err := svm.DecodeAddress(c.Base58); err != nil || got != [32]byte(b) {
			t.Errorf("DecodeAddress(%s) = %x, %v; want %s", c.Base58, got, err, c.Hex)
		}
	}
	for _, c := range v.Parse {
		got, err := svm.DecodeAddress(c.S)
		switch {
		case c.Err != "" && err == nil:
			t.Errorf("DecodeAddress(%q) = %x; solana-go refuses it (%s)", c.S, got, c.Err)
		case c.Err != "" && !errors.Is(err, svm.ErrInvalidAddress):
			t.Errorf("DecodeAddress(%q): %v, not ErrInvalidAddress", c.S, err)
		case c.Err == "" && (err != nil || hex.EncodeToString(got[:]) != c.Hex):
			t.Errorf("DecodeAddress(%q) = %x, %v; solana-go parses %s", c.S, got, err, c.Hex)
		}
	}
	curve := 0
	for _, c := range v.OnCurve {
		if got := svm.IsOnCurve([32]byte(unhex(t, c.Hex))); got != c.OnCurve {
			t.Errorf("IsOnCurve(%s) (%s) = %v, solana-go says %v", c.Hex, c.What, got, c.OnCurve)
		}
		if c.OnCurve {
			curve++
		}
	}
	if curve < 100 || curve > len(v.OnCurve)-100 {
		t.Errorf("%d of %d on the curve: the vectors should have plenty of both", curve, len(v.OnCurve))
	}
	refusals := map[string]int{}
	for _, c := range v.Create {
		got, err := svm.CreateProgramAddress(c.seeds(t), svm.MustAddress(c.Program))
		want := map[string]error{"": nil, "max seed length exceeded": svm.ErrMaxSeedLength,
			"invalid seeds; address must fall off the curve": svm.ErrInvalidSeeds}[c.Err]
		refusals[c.Err]++
		switch {
		case want == nil && c.Err != "":
			t.Fatalf("unknown solana-go error %q", c.Err)
		case want == nil && (err != nil || svm.EncodeAddress(got) != c.Address):
			t.Errorf("CreateProgramAddress(%v, %s) = %s, %v; want %s", c.Seeds, c.Program, svm.EncodeAddress(got), err, c.Address)
		case want != nil && !errors.Is(err, want):
			t.Errorf("CreateProgramAddress(%v, %s) = %s, %v; want %v", c.Seeds, c.Program, svm.EncodeAddress(got), err, want)
		}
	}
	if len(refusals) != 3 {
		t.Errorf("create vectors by outcome %v: want successes and both refusals", refusals)
	}
	bumps := map[uint8]int{}
	for _, c := range v.Find {
		got, bump, err := svm.FindProgramAddress(c.seeds(t), svm.MustAddress(c.Program))
		if c.Err != "" {
			if !errors.Is(err, svm.ErrMaxSeedLength) { // solana-go: "unable to find a valid program address" (no bump fits)
				t.Errorf("FindProgramAddress(%v, %s) = %s, %d, %v; solana-go: %s", c.Seeds, c.Program, svm.EncodeAddress(got), bump, err, c.Err)
			}
			continue
		}
		if err != nil || svm.EncodeAddress(got) != c.Address || bump != *c.Bump {
			t.Errorf("FindProgramAddress(%v, %s) = %s, %d, %v; want %s, %d", c.Seeds, c.Program, svm.EncodeAddress(got), bump, err, c.Address, *c.Bump)
		}
		bumps[bump]++
	}
	if len(bumps) < 5 {
		t.Errorf("bumps found %v: want some below 254", bumps)
	}
	for _, c := range v.ATA {
		got := svm.AssociatedTokenAccount(svm.MustAddress(c.Owner), svm.MustAddress(c.Mint), svm.MustAddress(c.TokenProgram))
		if svm.EncodeAddress(got) != c.Address {
			t.Errorf("AssociatedTokenAccount(%s, %s, %s) = %s, want %s", c.Owner, c.Mint, c.TokenProgram, svm.EncodeAddress(got), c.Address)
		}
	}
}

// TestDecodeAddressErrors: each refusal wraps ErrInvalidAddress and says what the string is.
func TestDecodeAddressErrors(t *testing.T) {
	for _, c := range []struct{ s, says string }{
		{"", "empty"},
		{"0x8ba1f109551bD432803012645Ac136ddd64DBA72", "EVM address"},
		{strings.Repeat("1", 45), "45 characters"},
		{"CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP10", `'0' at 43`},
		{"1111111111111111111111111111111", "of 31 bytes"},
		{"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "of 33 bytes"},
	} {
		_, err := svm.DecodeAddress(c.s)
		if !errors.Is(err, svm.ErrInvalidAddress) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("DecodeAddress(%q) = %v; want ErrInvalidAddress saying %q", c.s, err, c.says)
		}
	}
	if _, err := svm.DecodeBase58("abc0"); !errors.Is(err, svm.ErrInvalidBase58) {
		t.Errorf("DecodeBase58(abc0) = %v, want ErrInvalidBase58", err)
	}
}

// TestPDAErrors: the seed limits, checked before any hashing.
func TestPDAErrors(t *testing.T) {
	p := svm.TokenProgram
	long := bytes.Repeat([]byte{1}, 33)
	for _, c := range []struct {
		name  string
		seeds [][]byte
	}{{"a seed of 33 bytes", [][]byte{[]byte("a"), long}}, {"17 seeds", make([][]byte, 17)}} {
		if _, err := svm.CreateProgramAddress(c.seeds, p); !errors.Is(err, svm.ErrMaxSeedLength) {
			t.Errorf("CreateProgramAddress with %s: %v, want ErrMaxSeedLength", c.name, err)
		}
	}
	if _, _, err := svm.FindProgramAddress(make([][]byte, 16), p); !errors.Is(err, svm.ErrMaxSeedLength) {
		t.Errorf("FindProgramAddress with 16 seeds (17 with the bump): %v, want ErrMaxSeedLength", err)
	}
	if _, _, err := svm.FindProgramAddress(make([][]byte, 15), p); err != nil {
		t.Errorf("FindProgramAddress with 15 seeds: %v", err)
	}
	// the bump found is the highest: every bump above it gives a key on the curve
	seeds := [][]byte{nil}
	for i := range 64 {
		seeds[0] = []byte{'s', byte(i)}
		k, bump, err := svm.FindProgramAddress(seeds, p)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := svm.CreateProgramAddress([][]byte{seeds[0], {bump}}, p); err != nil || c != k || svm.IsOnCurve(k) {
			t.Errorf("bump %d: create gives %x, %v; find gave %x", bump, c, err, k)
		}
		for b := 255; b > int(bump); b-- {
			if _, err := svm.CreateProgramAddress([][]byte{seeds[0], {byte(b)}}, p); !errors.Is(err, svm.ErrInvalidSeeds) {
				t.Errorf("bump %d above the found %d: %v, want ErrInvalidSeeds", b, bump, err)
			}
		}
	}
}

// TestBase58AgainstChain holds the encoding to chain's own (a second implementation) on keys and
// on byte strings of every length up to 80.
func TestBase58AgainstChain(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		b := make([]byte, i%81)
		for j := range b {
			if r.IntN(4) > 0 || j > 3 { // leading zero bytes now and then
				b[j] = byte(r.Uint32())
			}
		}
		s := svm.EncodeBase58(b)
		if want := chain.EncodeBase58(b); s != want {
			t.Fatalf("EncodeBase58(%x) = %s, chain's is %s", b, s, want)
		}
		back, err := svm.DecodeBase58(s)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("DecodeBase58(%s) = %x, %v; want %x", s, back, err, b)
		}
		if _, err := svm.DecodeAddress(s); (err == nil) != (len(b) == 32) || (err == nil) != chain.IsSolanaAddress(s) {
			t.Fatalf("DecodeAddress(%s) (%d bytes) = %v; chain.IsSolanaAddress says %v", s, len(b), err, chain.IsSolanaAddress(s))
		}
	}
	if got := svm.EncodeBase58(nil); got != "" {
		t.Errorf("EncodeBase58(nil) = %q", got)
	}
}

// FuzzBase58: decode(encode(b)) == b for any bytes, and an address parses only to its one
// encoding.
func FuzzBase58(f *testing.F) {
	for _, s := range [][]byte{nil, {0}, {0, 0, 1}, bytes.Repeat([]byte{0xff}, 32), make([]byte, 32)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := svm.EncodeBase58(b)
		back, err := svm.DecodeBase58(s)
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("DecodeBase58(EncodeBase58(%x)) = %x, %v", b, back, err)
		}
		if len(b) == 32 {
			k, err := svm.DecodeAddress(s)
			if err != nil || k != [32]byte(b) {
				t.Fatalf("DecodeAddress(%s) = %x, %v; want %x", s, k, err, b)
			}
		}
	})
}

// FuzzDecodeAddress: any string either fails with ErrInvalidAddress or parses to a key whose
// encoding is the string itself (base58 of 32 bytes is canonical), as chain.IsSolanaAddress
// agrees.
func FuzzDecodeAddress(f *testing.F) {
	for _, s := range []string{"", "1", "11111111111111111111111111111111", "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
		"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG", "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", "0x8ba1f109551bD432803012645Ac136ddd64DBA72"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := svm.DecodeAddress(s)
		if err != nil {
			if !errors.Is(err, svm.ErrInvalidAddress) {
				t.Fatalf("DecodeAddress(%q): %v, not ErrInvalidAddress", s, err)
			}
			if chain.IsSolanaAddress(s) {
				t.Fatalf("DecodeAddress(%q) refuses what chain.IsSolanaAddress accepts: %v", s, err)
			}
			return
		}
		if e := svm.EncodeAddress(k); e != s {
			t.Fatalf("DecodeAddress(%q) = %x, which encodes as %q", s, k, e)
		}
		if !chain.IsSolanaAddress(s) {
			t.Fatalf("DecodeAddress(%q) accepts what chain.IsSolanaAddress refuses", s)
		}
	})
}

// TestProgramIDs: the ids decode to what their names say, with the well-known encodings.
func TestProgramIDs(t *testing.T) {
	for id, want := range map[[32]byte]string{
		svm.SystemProgram: "11111111111111111111111111111111", svm.TokenProgram: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
		svm.NativeMint: "So11111111111111111111111111111111111111112", svm.AssociatedTokenProgram: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
	} {
		if got := svm.EncodeAddress(id); got != want {
			t.Errorf("%s encodes as %s", want, got)
		}
	}
}

func BenchmarkFindProgramAddress(b *testing.B) {
	seeds := [][]byte{[]byte("pool_vault"), make([]byte, 32), make([]byte, 32)}
	for i := 0; b.Loop(); i++ {
		seeds[1][0] = byte(i)
		if _, _, err := svm.FindProgramAddress(seeds, svm.TokenProgram); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFeeSchedule holds Fee to the formula in math/big: min(ceil(n × bps / 10,000), max).
func TestFeeSchedule(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	amounts := []uint64{0, 1, 2, 9_999, 10_000, 10_001, 1<<63 - 1, 1 << 63, ^uint64(0) - 1, ^uint64(0)}
	for range 5000 {
		amounts = append(amounts, r.Uint64()>>r.IntN(64))
	}
	for i, n := range amounts {
		for _, f := range []svm.FeeSchedule{{BasisPoints: 0, MaximumFee: 5}, {BasisPoints: 1, MaximumFee: ^uint64(0)},
			{BasisPoints: 100, MaximumFee: 10_000_000}, {BasisPoints: 10_000, MaximumFee: ^uint64(0)}, {BasisPoints: 65_535, MaximumFee: ^uint64(0)},
			{BasisPoints: uint16(r.IntN(10_001)), MaximumFee: r.Uint64() >> r.IntN(64)}} {
			want := new(big.Int).Mul(new(big.Int).SetUint64(n), big.NewInt(int64(f.BasisPoints)))
			want.Add(want, big.NewInt(9_999)).Quo(want, big.NewInt(10_000))
			if f.BasisPoints == 0 || n == 0 {
				want.SetUint64(0)
			} else if want.Cmp(new(big.Int).SetUint64(f.MaximumFee)) > 0 {
				want.SetUint64(f.MaximumFee)
			}
			if got := f.Fee(n); got != want.Uint64() {
				t.Fatalf("case %d: %+v.Fee(%d) = %d, want %s", i, f, n, got, want)
			}
		}
	}
}
