package market

import (
	"math/big"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, c := range []struct {
		amount   string
		decimals int
		want     string
	}{
		{"0", 6, "0"}, {"1", 6, "0.000001"}, {"1000000", 6, "1"}, {"1234567", 6, "1.234567"}, {"-1500000", 6, "-1.5"},
		{"123", 0, "123"}, {"100000000000000000000", 18, "100"}, {"99307532624102071757451", 18, "99307.532624102071757451"},
	} {
		n, _ := new(big.Int).SetString(c.amount, 10)
		if got := Units(n, c.decimals); got != c.want {
			t.Errorf("Units(%s, %d) = %s, want %s", c.amount, c.decimals, got, c.want)
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{{0, "0"}, {1, "1"}, {2.5, "2.5"}, {3000.123456789012345, "3000.12345679"}, {0.000012345678901234, "0.0000123456789012"}, {-12.5, "-12.5"}, {1e15, "1000000000000000"}} {
		if got := Decimal(c.f); got != c.want {
			t.Errorf("Decimal(%v) = %s, want %s", c.f, got, c.want)
		}
	}
}

func TestUnitsFloatAndRatio(t *testing.T) {
	supply, _ := new(big.Int).SetString("1000000000000000000000000", 10) // 1,000,000 at 18 decimals
	if got := UnitsFloat(supply, 18); got != 1e6 {
		t.Errorf("UnitsFloat = %v, want 1e6", got)
	}
	if got := UnitsFloat(big.NewInt(1_500_000), 6); got != 1.5 {
		t.Errorf("UnitsFloat = %v, want 1.5", got)
	}
	if got := Ratio(big.NewInt(1), big.NewInt(8)); got != 0.125 {
		t.Errorf("Ratio = %v, want 0.125", got)
	}
}
