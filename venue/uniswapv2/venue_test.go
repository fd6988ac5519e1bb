package uniswapv2

import (
	"slices"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// TestStatus: what a configured uniswap-v2 venue serves, and why it serves no more.
func TestStatus(t *testing.T) {
	full := chain.VenueConfig{Factory: "0x1", Router: "0x2", InitCodeHash: chain.UniswapV2InitCodeHash, StakingRewardsFactory: "0x3"}
	for _, tc := range []struct {
		name   string
		cfg    func(chain.VenueConfig) chain.VenueConfig
		serves []chain.Capability
		why    string // in Missing[CapSwaps] (or CapFarms when swaps are served)
	}{
		{"complete", func(v chain.VenueConfig) chain.VenueConfig { return v }, chain.Capabilities, ""},
		{"no farms", func(v chain.VenueConfig) chain.VenueConfig { v.StakingRewardsFactory = ""; return v },
			[]chain.Capability{chain.CapPools, chain.CapSwaps, chain.CapLiquidity}, "chains.base.venues.uniswap-v2.stakingRewardsFactory"},
		{"no hash", func(v chain.VenueConfig) chain.VenueConfig { v.InitCodeHash = ""; return v }, []chain.Capability{chain.CapPools}, "chains.base.venues.uniswap-v2.initCodeHash"},
		{"no router", func(v chain.VenueConfig) chain.VenueConfig { v.Router = ""; return v }, []chain.Capability{chain.CapPools}, "chains.base.venues.uniswap-v2.router"},
	} {
		v := Venue{}.Status("base", tc.cfg(full))
		if v.Name != Name || v.Kind != "constant-product" || !slices.Equal(v.Serves, tc.serves) {
			t.Errorf("%s: %s %s serves %v, want %v", tc.name, v.Name, v.Kind, v.Serves, tc.serves)
		}
		why := v.Missing[chain.CapSwaps]
		if v.Has(chain.CapSwaps) {
			why = v.Missing[chain.CapFarms]
		}
		if !strings.Contains(why, tc.why) || (tc.why == "") != (len(v.Missing) == 0) {
			t.Errorf("%s: missing %v, want %q", tc.name, v.Missing, tc.why)
		}
	}
}
