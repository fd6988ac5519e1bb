package chain

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseBaseUnits(t *testing.T) {
	for _, ok := range []string{"1", "1500000", strings.Repeat("9", 78)} {
		if _, err := ParseBaseUnits(ok); err != nil {
			t.Errorf("ParseBaseUnits(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0", "01", "-1", "+1", "1.0", "1e6", " 1", "1 ", "0x10", strings.Repeat("9", 79)} {
		if _, err := ParseBaseUnits(bad); err == nil {
			t.Errorf("ParseBaseUnits(%q) accepted", bad)
		}
	}
}

func TestParseHumanAmount(t *testing.T) {
	for _, ok := range []string{"1", "12.5", "0.000001", "100000", "0.5"} {
		if _, err := ParseHumanAmount(ok, 18); err != nil {
			t.Errorf("ParseHumanAmount(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0", "0.0", ".5", "5.", "-1", "+1", "1e3", "1E3", "01.5", " 1", "1,5", "NaN", "Inf", "0x1", "1.5.5", "0.0000001"} {
		if _, err := ParseHumanAmount(bad, 6); err == nil {
			t.Errorf("ParseHumanAmount(%q, 6) accepted", bad)
		}
	}
}

func FuzzParseHumanAmount(f *testing.F) {
	for _, s := range []string{"1", "12.5", "0.000001", "1e3", "-0", "00.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseHumanAmount(s, 18)
		if err != nil {
			return
		}
		// Whatever is accepted is an exact decimal whose canonical form is the input itself.
		r, ok := new(big.Rat).SetString(got)
		if !ok || r.Sign() <= 0 {
			t.Fatalf("accepted %q, which is not a positive decimal", s)
		}
		_, frac, _ := strings.Cut(got, ".")
		if r.FloatString(len(frac)) != got {
			t.Fatalf("accepted %q, whose canonical form is %q", s, r.FloatString(len(frac)))
		}
	})
}

func FuzzParseBaseUnits(f *testing.F) {
	for _, s := range []string{"1", "1500000", "01", "1e6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseBaseUnits(s)
		if err != nil {
			return
		}
		n, ok := new(big.Int).SetString(got, 10)
		if !ok || n.Sign() <= 0 || n.String() != got {
			t.Fatalf("accepted %q, which is not a canonical positive integer", s)
		}
	})
}
