package access

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"math/big"
	"strings"
	"testing"
)

// mustNewKey returns a fresh key or fails the test.
func mustNewKey(tb testing.TB) Key {
	tb.Helper()
	k, err := NewKey()
	if err != nil {
		tb.Fatalf("NewKey: %v", err)
	}
	return k
}

// withChecksum returns body (a key without its checksum) completed with its
// correct checksum, computed with hash/crc32 as an independent reference.
func withChecksum(body string) string {
	var sum [sumLen]byte
	encodeSum(&sum, crc32.ChecksumIEEE([]byte(body)))
	return body + string(sum[:])
}

// refBase62 is v in base62 with our 0-9A-Za-z alphabet, computed with
// math/big (whose alphabet is 0-9a-zA-Z) as an independent reference.
func refBase62(v *big.Int, width int) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return r - 'a' + 'A'
		case 'A' <= r && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, v.Text(62))
	return strings.Repeat("0", width-len(s)) + s
}

func TestKeyConstants(t *testing.T) {
	maxV := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	if got := refBase62(maxV, randLen); got != maxRand || len(got) != randLen {
		t.Errorf("maxRand = %q, want %q (%d digits)", maxRand, got, len(got))
	}
	if got := refBase62(big.NewInt(1<<32-1), sumLen); len(got) != sumLen {
		t.Errorf("2^32-1 needs %d base62 digits, sumLen is %d", len(got), sumLen)
	}
	if keyLen != 57 {
		t.Errorf("keyLen = %d, want 57", keyLen)
	}
}

func TestEncodeRandom(t *testing.T) {
	cases := map[string][randBytes]byte{"zero": {}, "one": {31: 1}, "max": {}}
	maxRaw := cases["max"]
	for i := range maxRaw {
		maxRaw[i] = 0xff
	}
	cases["max"] = maxRaw
	for i := range 100 {
		cases[fmt.Sprint("random", i)] = mustNewKey(t).Hash() // random values
	}
	for name, raw := range cases {
		var got [randLen]byte
		encodeRandom(&got, &raw)
		want := refBase62(new(big.Int).SetBytes(raw[:]), randLen)
		if string(got[:]) != want {
			t.Errorf("%s: encodeRandom = %s, want %s", name, got[:], want)
		}
	}
}

func TestChecksum(t *testing.T) {
	for _, s := range []string{"", "a", KeyPrefix, strings.Repeat("xyz", 40)} {
		if got, want := checksum(s), crc32.ChecksumIEEE([]byte(s)); got != want {
			t.Errorf("checksum(%q) = %08x, want %08x", s, got, want)
		}
	}
}

func TestNewKey(t *testing.T) {
	const n = 1000
	seen := make(map[string]bool, n)
	for range n {
		k := mustNewKey(t)
		s := k.String()
		if len(s) != keyLen || !strings.HasPrefix(s, KeyPrefix) {
			t.Fatalf("NewKey made a key of length %d with prefix %q", len(s), s[:len(KeyPrefix)])
		}
		if s != withChecksum(s[:sumStart]) {
			t.Fatal("NewKey made a key with a wrong checksum")
		}
		if seen[s] {
			t.Fatal("NewKey repeated a key")
		}
		seen[s] = true
		p, err := ParseKey(s)
		if err != nil {
			t.Fatalf("ParseKey(NewKey()) = %v", err)
		}
		if p.String() != s || p.Hash() != k.Hash() {
			t.Fatal("ParseKey(NewKey()) is not the same key")
		}
	}
}

// mutate returns s with the character at i replaced by c.
func mutate(s string, i int, c byte) string {
	b := []byte(s)
	b[i] = c
	return string(b)
}

func TestParseKey(t *testing.T) {
	valid := mustNewKey(t).String()
	body := valid[:sumStart]
	sum := valid[sumStart:]
	// A checksum-valid key whose random part encodes a value above 2^256-1.
	overMax := withChecksum(KeyPrefix + "z" + strings.Repeat("0", randLen-1))

	tests := []struct {
		name   string
		in     string
		reason string // "" for a valid key
	}{
		{"valid", valid, ""},
		{"all zero random part", withChecksum(KeyPrefix + strings.Repeat("0", randLen)), ""},
		{"largest random part", withChecksum(KeyPrefix + maxRand), ""},
		{"empty", "", "empty"},
		{"leading space", " " + valid, "whitespace"},
		{"trailing newline", valid + "\n", "whitespace"},
		{"trailing tab", valid + "\t", "whitespace"},
		{"prefix only", KeyPrefix, "wrong length"},
		{"wrong prefix", "pk_test_" + valid[len(KeyPrefix):], "prefix"},
		{"upper-case prefix", strings.ToUpper(KeyPrefix) + valid[len(KeyPrefix):], "prefix"},
		{"no prefix", valid[len(KeyPrefix):], "prefix"},
		{"too short", valid[:keyLen-1], "wrong length"},
		{"too long", valid + "0", "wrong length"},
		{"inner space", mutate(valid, 20, ' '), "character"},
		{"dash", mutate(valid, 20, '-'), "character"},
		{"underscore in checksum", mutate(valid, keyLen-1, '_'), "character"},
		{"non-ASCII", valid[:keyLen-2] + "é", "character"},
		{"random part above 2^256-1", overMax, "out of range"},
		{"bad checksum", body + string(otherThan(sum[0])) + sum[1:], "checksum"},
		{"changed random part", mutate(valid, 10, otherThan(valid[10])), "checksum"},
		{"swapped neighbours", valid[:10] + valid[11:12] + valid[10:11] + valid[12:], "checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "swapped neighbours" && tt.in == valid {
				t.Skip("neighbours are equal")
			}
			k, err := ParseKey(tt.in)
			if tt.reason == "" {
				if err != nil {
					t.Fatalf("ParseKey = %v, want a key", err)
				}
				if k.String() != tt.in {
					t.Fatal("ParseKey changed the key text")
				}
				return
			}
			if err == nil {
				t.Fatal("ParseKey accepted it")
			}
			if !errors.Is(err, ErrMalformedKey) {
				t.Errorf("error %v does not match ErrMalformedKey", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.reason) {
				t.Errorf("error %q does not say %q", msg, tt.reason)
			}
			if msg := err.Error(); strings.Contains(msg, body[len(KeyPrefix):len(KeyPrefix)+6]) {
				t.Errorf("error %q contains part of the key", msg)
			}
			if k.String() != "" {
				t.Error("a rejected key is not the zero Key")
			}
		})
	}
}

func TestParseKeyAllocs(t *testing.T) {
	valid := mustNewKey(t).String()
	junk := mutate(valid, 10, valid[10]^1)
	for name, s := range map[string]string{"valid": valid, "junk": junk, "short": "x"} {
		if n := testing.AllocsPerRun(100, func() { _, _ = ParseKey(s) }); n != 0 {
			t.Errorf("ParseKey(%s) allocates %v times", name, n)
		}
	}
	k, _ := ParseKey(valid)
	if n := testing.AllocsPerRun(100, func() { _ = k.Hash() }); n != 0 {
		t.Errorf("Hash allocates %v times", n)
	}
}

func TestKeyAccessors(t *testing.T) {
	k := mustNewKey(t)
	s := k.String()
	if got, want := k.Hash(), hashRef(s); got != want {
		t.Errorf("Hash = %x, want SHA-256 of the key text %x", got, want)
	}
	if got, want := k.DisplayPrefix(), s[:len(KeyPrefix)+6]; got != want {
		t.Errorf("DisplayPrefix = %q, want %q", got, want)
	}
	var zero Key
	if zero.String() != "" || zero.DisplayPrefix() != "" {
		t.Error("the zero Key is not empty")
	}
	if got := fmt.Sprint(zero); got != "<no key>" {
		t.Errorf("the zero Key prints as %q", got)
	}
}

// holder holds keys the ways callers might.
type holder struct {
	Exported Key
	hidden   Key
	Ptr      *Key
	List     []Key
	Map      map[string]Key
}

func TestKeyNeverPrinted(t *testing.T) {
	k := mustNewKey(t)
	secret := k.String()
	// Any long run of the random part would be a leak; the display prefix
	// shows only the first 6 characters.
	leak := secret[len(KeyPrefix)+displayLen:]
	h := holder{Exported: k, hidden: k, Ptr: &k, List: []Key{k}, Map: map[string]Key{"a": k}}

	check := func(t *testing.T, what, out string) {
		t.Helper()
		if strings.Contains(out, leak) {
			t.Errorf("%s prints the secret: %s", what, out)
		}
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%p", "%T", "%10.3s", "%-v"} {
		check(t, verb+" of a Key", fmt.Sprintf(verb, k))
		check(t, verb+" of a *Key", fmt.Sprintf(verb, &k))
		check(t, verb+" of a struct", fmt.Sprintf(verb, h))
		check(t, verb+" of a *struct", fmt.Sprintf(verb, &h))
	}
	check(t, "Sprint", fmt.Sprint(k, h))
	check(t, "Sprintln", fmt.Sprintln(k, h))
	check(t, "Errorf %w", fmt.Errorf("x %v: %w", k, errors.New("e")).Error())
	if got, want := fmt.Sprint(k), k.DisplayPrefix()+"..."; got != want {
		t.Errorf("%%v of a Key = %q, want %q", got, want)
	}
	if got, want := fmt.Sprintf("%#v", k), `access.Key("`+k.DisplayPrefix()+`...")`; got != want {
		t.Errorf("%%#v of a Key = %q, want %q", got, want)
	}

	j, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "json", string(j))

	var buf bytes.Buffer
	for name, hd := range map[string]slog.Handler{
		"text": slog.NewTextHandler(&buf, nil),
		"json": slog.NewJSONHandler(&buf, nil),
	} {
		buf.Reset()
		l := slog.New(hd)
		l.Info("key", "key", k, "ptr", &k, "holder", h, "holderPtr", &h)
		l.Info("key", slog.Any("key", k), slog.Group("g", "key", k))
		l.With("key", k).Info("with")
		check(t, "slog "+name, buf.String())
		if !strings.Contains(buf.String(), k.DisplayPrefix()) {
			t.Errorf("slog %s does not show the display prefix: %s", name, buf.String())
		}
	}
}

// hashRef is SHA-256 of s through the ordinary []byte path.
func hashRef(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func FuzzParseKey(f *testing.F) {
	f.Add(withChecksum(KeyPrefix + strings.Repeat("0", randLen)))
	f.Add(withChecksum(KeyPrefix + maxRand))
	f.Add(withChecksum(KeyPrefix + "z" + strings.Repeat("0", randLen-1)))
	for range 4 {
		s := mustNewKey(f).String()
		f.Add(s)
		f.Add(s[:keyLen-1])
		f.Add(" " + s)
		f.Add(mutate(s, 30, '+'))
	}
	f.Add("")
	f.Add(KeyPrefix)
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKey(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedKey) {
				t.Fatalf("error %v does not match ErrMalformedKey", err)
			}
			if k.String() != "" {
				t.Fatal("a rejected key is not the zero Key")
			}
			return
		}
		if k.String() != s {
			t.Fatalf("accepted %q re-serializes as %q", s, k.String())
		}
		if len(s) != keyLen || !strings.HasPrefix(s, KeyPrefix) {
			t.Fatalf("accepted %q: wrong shape", s)
		}
		if withChecksum(s[:sumStart]) != s {
			t.Fatalf("accepted %q with a bad checksum", s)
		}
		// The random part is a canonical encoding of some 32-byte value.
		v, ok := new(big.Int).SetString(strings.Map(func(r rune) rune {
			switch {
			case 'a' <= r && r <= 'z':
				return r - 'a' + 'A'
			case 'A' <= r && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s[len(KeyPrefix):sumStart]), 62)
		if !ok || v.BitLen() > 256 || refBase62(v, randLen) != s[len(KeyPrefix):sumStart] {
			t.Fatalf("accepted %q: random part is not a 32-byte value", s)
		}
	})
}

func BenchmarkParseKey(b *testing.B) {
	s := mustNewKey(b).String()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseKey(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseKeyBadChecksum(b *testing.B) {
	s := mustNewKey(b).String()
	s = mutate(s, 10, s[10]^1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseKey(s); err == nil {
			b.Fatal("accepted")
		}
	}
}

func BenchmarkNewKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		mustNewKey(b)
	}
}

// otherThan returns a base62 digit different from d ('0', or '1' when d is '0'). Flipping a bit
// instead can leave the alphabet ('A'^1 is '@').
func otherThan(d byte) byte {
	if d == '0' {
		return '1'
	}
	return '0'
}
