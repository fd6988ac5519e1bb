package raydium

import (
	"errors"
	"slices"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// TestPlanSwap: the venue's swap plan is PlanQuote's over DefaultAmmConfigs, and bad arguments are
// invalid requests.
func TestPlanSwap(t *testing.T) {
	sol, usdc := NativeMint.String(), qrUSDC.String()
	p, err := Venue{}.PlanSwap(qrX.String(), qrY.String(), []string{sol, "not an address", usdc})
	if err != nil {
		t.Fatal(err)
	}
	want, err := PlanQuote(qrX, qrY, []Pubkey{NativeMint, qrUSDC}, DefaultAmmConfigs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Addresses(), want.Addresses) {
		t.Errorf("addresses differ from PlanQuote's")
	}
	if got := p.Mints(); !slices.Equal(got, []string{qrX.String(), qrY.String(), sol, usdc}) {
		t.Errorf("mints %v", got)
	}
	for _, tc := range [][2]string{{sol, sol}, {"0x0000000000000000000000000000000000000000", usdc}, {sol, "short"}} {
		if _, err := (Venue{}).PlanSwap(tc[0], tc[1], nil); !errors.Is(err, chain.ErrInvalidRequest) {
			t.Errorf("PlanSwap(%s, %s): %v, want an invalid request", tc[0], tc[1], err)
		}
	}
	if _, err := p.Best(nil, 1); err == nil {
		t.Error("Best without the plan's accounts succeeded")
	}
}
