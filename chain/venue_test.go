package chain

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestKnownUniswapV2Factories: a uniswap-v2 venue whose factory is an official deployment gets its
// initCodeHash (and PancakeSwap's 25 bps fee) by default; an explicit value wins, and an unknown
// factory gets none.
func TestKnownUniswapV2Factories(t *testing.T) {
	for _, tc := range []struct {
		chain, factory, hash string // hash "" : none configured
		wantHash             string
		wantFee              int
	}{
		{"base", "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6", "", UniswapV2InitCodeHash, 30},
		{"base", "0x8909dc15e40173ff4699343b6eb8132c65e18ec6", "", UniswapV2InitCodeHash, 30}, // any case
		{"bsc", "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73", "", "0x00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5", 25},
		{"bsc", "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73", "0x" + strings.Repeat("11", 32), "0x" + strings.Repeat("11", 32), 25},
		{"base", "0x1000000000000000000000000000000000000009", "", "", 30},                        // not an official factory
		{"ethereum", "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6", "", "", 30},                    // official elsewhere only
		{"ethereum", "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f", "", UniswapV2InitCodeHash, 30}, // the original
	} {
		m := doc(t)
		v := at(m, "chains.base.venues.uniswap-v2")
		v["factory"] = tc.factory
		if tc.hash != "" {
			v["initCodeHash"] = tc.hash
		}
		chains := at(m, "chains")
		if tc.chain != "base" {
			chains[tc.chain] = chains["base"]
			delete(chains, "base")
			c := chains[tc.chain].(map[string]any)
			delete(c, "chainId")
		}
		data, _ := json.Marshal(m)
		cfg, err := ParseConfig(data)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.chain, tc.factory, err)
		}
		got := cfg.Chains[tc.chain].Venues["uniswap-v2"]
		if got.InitCodeHash != tc.wantHash || got.FeeBps != tc.wantFee {
			t.Errorf("%s %s: initCodeHash %q feeBps %d, want %q %d", tc.chain, tc.factory, got.InitCodeHash, got.FeeBps, tc.wantHash, tc.wantFee)
		}
	}
}

// TestNewVenue: what a configured venue serves, and why it serves no more.
func TestNewVenue(t *testing.T) {
	full := VenueConfig{Factory: "0x1", Router: "0x2", InitCodeHash: UniswapV2InitCodeHash, StakingRewardsFactory: "0x3"}
	for _, tc := range []struct {
		name   string
		venue  string
		cfg    func(VenueConfig) VenueConfig
		serves []Capability
		why    string // in Missing[CapSwaps] (or CapFarms when swaps are served)
	}{
		{"complete", "uniswap-v2", func(v VenueConfig) VenueConfig { return v }, Capabilities, ""},
		{"no farms", "uniswap-v2", func(v VenueConfig) VenueConfig { v.StakingRewardsFactory = ""; return v },
			[]Capability{CapPools, CapSwaps, CapLiquidity}, "chains.base.venues.uniswap-v2.stakingRewardsFactory"},
		{"no hash", "uniswap-v2", func(v VenueConfig) VenueConfig { v.InitCodeHash = ""; return v }, []Capability{CapPools}, "chains.base.venues.uniswap-v2.initCodeHash"},
		{"no router", "uniswap-v2", func(v VenueConfig) VenueConfig { v.Router = ""; return v }, []Capability{CapPools}, "chains.base.venues.uniswap-v2.router"},
		{"not served yet", "uniswap-v3", func(v VenueConfig) VenueConfig { return v }, nil, "not served by this version yet"},
	} {
		v := NewVenue("base", tc.venue, tc.cfg(full))
		if !slices.Equal(v.Serves, tc.serves) {
			t.Errorf("%s: serves %v, want %v", tc.name, v.Serves, tc.serves)
		}
		why := v.Missing[CapSwaps]
		if v.Has(CapSwaps) {
			why = v.Missing[CapFarms]
		}
		if !strings.Contains(why, tc.why) || (tc.why == "") != (len(v.Missing) == 0) {
			t.Errorf("%s: missing %v, want %q", tc.name, v.Missing, tc.why)
		}
	}
	r, err := NewRegistry(map[string]Served{"base": {Venues: []Venue{NewVenue("base", "uniswap-v3", full), NewVenue("base", "uniswap-v2", VenueConfig{Factory: "0x1"})}}})
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := r.Capable("base", CapSwaps); ok || !strings.Contains(why, "initCodeHash") {
		t.Errorf("Capable(swaps) = %v %q: want the uniswap-v2 venue's missing setting, not that uniswap-v3 is not served", ok, why)
	}
	if ok, _ := r.Capable("base", CapPools); !ok {
		t.Error("Capable(pools) = false")
	}
}
