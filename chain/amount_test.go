package chain

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseBaseUnits(t *testing.T) {
	for _, ok := range []string{"1", "1500000", maxUint256.String()} {
		if _, err := ParseBaseUnits(ok); err != nil {
			t.Errorf("ParseBaseUnits(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "0", "01", "-1", "+1", "1.0", "1e6", " 1", "1 ", "0x10", strings.Repeat("9", 79)} {
		if _, err := ParseBaseUnits(bad); err == nil {
			t.Errorf("ParseBaseUnits(%q) accepted", bad)
		}
	}
	// What the caller did wrong, in words: integer base units, or beyond every token's range.
	for in, want := range map[string]string{
		"1.5": "want integer base units",
		new(big.Int).Add(maxUint256, big.NewInt(1)).String(): "exceeds the token's range",
		strings.Repeat("9", 80):                              "exceeds the token's range",
	} {
		if _, err := ParseBaseUnits(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseBaseUnits(%q) = %v, want it to say %q", in, err, want)
		}
	}
}

// TestAmountMessages: an amount that is a plain decimal but too large says it exceeds the token's
// range (not "want a plain decimal"), and no message repeats itself.
func TestAmountMessages(t *testing.T) {
	for _, tc := range []struct {
		in       string
		decimals int
		want     string
	}{
		{strings.Repeat("9", 80), 18, "exceeds the token's range"},
		{"1" + strings.Repeat("0", 60), 18, "exceeds the token's range: with 18 decimals"},
		{"1.0000000000000000001", 18, "at most 18 decimals"},
		{"1e3", 18, "want a plain decimal such as 12.5"},
	} {
		_, err := HumanToBaseUnits(tc.in, tc.decimals)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "invalid amount") != 1 {
			t.Errorf("HumanToBaseUnits(%q, %d) = %v, want it to say %q once", tc.in, tc.decimals, err, tc.want)
		}
	}
	if n, err := HumanToBaseUnits(maxUint256.String(), 0); err != nil || n.Cmp(maxUint256) != 0 {
		t.Errorf("the largest amount: %v %v", n, err)
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
		if !ok || n.Sign() <= 0 || n.String() != got || n.Cmp(maxUint256) > 0 {
			t.Fatalf("accepted %q, which is not a canonical positive integer", s)
		}
	})
}
