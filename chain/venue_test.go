package chain

import (
	"encoding/json"
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

// poolsOnly is a venue that serves its pools and nothing else, saying why.
type poolsOnly struct{}

func (poolsOnly) Spec() VenueSpec { return VenueSpec{"uniswap-v2", KindEVM, ConstantProduct, "2"} }

func (poolsOnly) Status(chainName string, cfg VenueConfig) VenueStatus {
	why := "configured without initCodeHash"
	return VenueStatus{Name: "uniswap-v2", Serves: []Capability{CapPools},
		Missing: map[Capability]string{CapSwaps: why, CapLiquidity: why, CapFarms: why}}
}

// TestVenueSet: an implemented venue says what it serves; a venue of the contract this build does
// not implement serves nothing, and Capable prefers the reason of a venue that serves something.
func TestVenueSet(t *testing.T) {
	set := NewVenueSet(poolsOnly{})
	full := VenueConfig{Factory: "0x1", Router: "0x2", InitCodeHash: UniswapV2InitCodeHash}
	v3 := set.Status("base", "uniswap-v3", full)
	if len(v3.Serves) != 0 || v3.Kind != "concentrated" || !strings.Contains(v3.Missing[CapPools], "not served by this version yet") {
		t.Errorf("uniswap-v3 = %+v", v3)
	}
	got := set.Configured("base", ChainConfig{Venues: map[string]VenueConfig{"uniswap-v3": full, "uniswap-v2": {Factory: "0x1"}}})
	if len(got) != 2 || got[0].Name != "uniswap-v2" || got[1].Name != "uniswap-v3" {
		t.Fatalf("Configured = %+v", got)
	}
	r, err := NewRegistry(map[string]Served{"base": {Venues: []VenueStatus{got[1], got[0]}}})
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
