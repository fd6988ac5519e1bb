package raydium

import "github.com/partner-platform/partnerd/chain"

// Venue is the raydium venue (Raydium CPMM) as the registry sees it (venue.All).
type Venue struct{}

var _ chain.SVMVenue = Venue{}

// Spec is the venue's entry of the contract's venues.
func (Venue) Spec() chain.VenueSpec {
	spec, _ := chain.LookupVenue(VenueName)
	return spec
}

// Status says what a raydium venue configured as cfg serves: when its factory is CPMM's program
// id, its pools (indexed from the program's transactions), swaps (quotes and builds) and liquidity
// (create, add, remove); CPMM has no farms.
func (v Venue) Status(chainName string, cfg chain.VenueConfig) chain.VenueStatus {
	out := chain.VenueStatus{Name: VenueName, Kind: v.Spec().Kind, Missing: map[chain.Capability]string{}}
	if cfg.Factory != ProgramID.String() {
		why := "the raydium venue of " + chainName + " is configured with factory " + cfg.Factory + ", not Raydium CPMM's program id " +
			ProgramID.String() + " (chains." + chainName + ".venues.raydium.factory)"
		for _, c := range chain.Capabilities {
			out.Missing[c] = why
		}
		return out
	}
	out.Serves = []chain.Capability{chain.CapPools, chain.CapSwaps, chain.CapLiquidity}
	out.Missing[chain.CapFarms] = "Raydium CPMM pools have no farms"
	return out
}

// Pools decodes Raydium CPMM pools for live reads.
func (Venue) Pools() chain.SVMPoolVenue { return Pools{} }

// Indexer reads CPMM's transactions when cfg names CPMM's program id (its pools are served).
func (v Venue) Indexer(cfg chain.VenueConfig) (chain.SVMIndexer, bool) {
	if !v.Status("", cfg).Has(chain.CapPools) {
		return nil, false
	}
	return Indexer{}, true
}
