// Package uniswapv2 is the Uniswap V2 venue (and its forks, such as PancakeSwap V2): what it serves
// on a configured chain, the pair's exact swap math (math.go), held to the official SDK's vectors,
// and what indexes it (index.go: its factory's and pairs' logs, as chain.EVMIndexer).
package uniswapv2

import (
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// Name is the venue's `amm` value.
const Name = "uniswap-v2"

// Venue is the Uniswap V2 venue.
type Venue struct{}

// Spec is the venue's entry of the contract's venues.
func (Venue) Spec() chain.VenueSpec {
	spec, _ := chain.LookupVenue(Name)
	return spec
}

// Status says what a uniswap-v2 venue configured as cfg serves: its pools are indexed from its
// factory; it is traded on (swaps and liquidity) when it also has a router and an initCodeHash
// (pair addresses are derived offline); its farms are served when it has a stakingRewardsFactory
// too.
func (v Venue) Status(chainName string, cfg chain.VenueConfig) chain.VenueStatus {
	out := chain.VenueStatus{Name: Name, Kind: v.Spec().Kind, Missing: map[chain.Capability]string{}}
	at := "chains." + chainName + ".venues." + Name + "."
	out.Serves = append(out.Serves, chain.CapPools)
	var lacks []string
	if cfg.Router == "" {
		lacks = append(lacks, "router ("+at+"router)")
	}
	if cfg.InitCodeHash == "" {
		lacks = append(lacks, "initCodeHash ("+at+"initCodeHash: the pair init code hash that pair addresses are derived with)")
	}
	if len(lacks) > 0 {
		why := "the " + Name + " venue of " + chainName + " is configured without " + strings.Join(lacks, " and ")
		out.Missing[chain.CapSwaps], out.Missing[chain.CapLiquidity], out.Missing[chain.CapFarms] = why, why, why
		return out
	}
	out.Serves = append(out.Serves, chain.CapSwaps, chain.CapLiquidity)
	if cfg.StakingRewardsFactory == "" {
		out.Missing[chain.CapFarms] = "the " + Name + " venue of " + chainName + " is configured without stakingRewardsFactory (" + at + "stakingRewardsFactory)"
		return out
	}
	out.Serves = append(out.Serves, chain.CapFarms)
	return out
}
