package uniswapv3

import (
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// Name is the venue's `amm` value.
const Name = "uniswap-v3"

// Venue is the Uniswap V3 venue.
type Venue struct{}

// Spec is the venue's entry of the contract's venues.
func (Venue) Spec() chain.VenueSpec {
	spec, _ := chain.LookupVenue(Name)
	return spec
}

// Status says what a uniswap-v3 venue configured as cfg serves: its pools are indexed from its
// factory (index.go); swaps (quotes and SwapRouter02 builds) when it also has a router and a
// tickLens, through which quotes read each pool's initialized ticks; liquidity (lp/add, increase,
// remove and harvest through the NonfungiblePositionManager: npm.go) when it has a positionManager
// and a tickLens (an add reads its pool through it; lp/migrate also needs a migrator); farms
// (lp/farm and the staker rewards of lp/harvest: staker.go) when it also has a staker.
func (v Venue) Status(chainName string, cfg chain.VenueConfig) chain.VenueStatus {
	out := chain.VenueStatus{Name: Name, Kind: v.Spec().Kind, Serves: []chain.Capability{chain.CapPools}, Missing: map[chain.Capability]string{}}
	at := "chains." + chainName + ".venues." + Name + "."
	var lacks []string
	if cfg.Router == "" {
		lacks = append(lacks, "router ("+at+"router: the chain's SwapRouter02)")
	}
	if cfg.TickLens == "" {
		lacks = append(lacks, "tickLens ("+at+"tickLens: the chain's TickLens, through which quotes read initialized ticks)")
	}
	if len(lacks) > 0 {
		out.Missing[chain.CapSwaps] = "the " + Name + " venue of " + chainName + " is configured without " + strings.Join(lacks, " and ")
	} else {
		out.Serves = append(out.Serves, chain.CapSwaps)
	}
	if cfg.PositionManager != "" && cfg.TickLens != "" {
		out.Serves = append(out.Serves, chain.CapLiquidity)
	} else {
		out.Missing[chain.CapLiquidity] = "the " + Name + " venue of " + chainName + " is configured without positionManager (" + at +
			"positionManager) or tickLens (" + at + "tickLens)"
	}
	if cfg.PositionManager != "" && cfg.TickLens != "" && cfg.Staker != "" {
		out.Serves = append(out.Serves, chain.CapFarms)
	} else {
		out.Missing[chain.CapFarms] = "the " + Name + " venue of " + chainName + " is configured without positionManager, tickLens or staker (" +
			at + "staker: the chain's UniswapV3Staker)"
	}
	return out
}
