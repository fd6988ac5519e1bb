// Package venue lists the venues this build implements, one package each under venue/: adding a
// venue is its package plus its line in All.
package venue

import (
	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/venue/raydium"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// All is every venue this build implements.
func All() chain.VenueSet {
	return chain.NewVenueSet(uniswapv2.Venue{}, uniswapv3.Venue{}, raydium.Venue{})
}
