package chain

import (
	"maps"
	"slices"
	"strings"
)

// What a venue configured on a chain serves, as the services use it and GET /v1/chains lists it.

// Capability is a group of operations a venue serves on a chain.
type Capability string

// Capabilities, in the order GET /v1/chains lists them.
const (
	// CapPools: the venue's pools are indexed: prices, trades, charts, pool reads, trending, LP positions.
	CapPools Capability = "pools"
	// CapSwaps: swap quotes and swap builds (pool addresses derived offline).
	CapSwaps Capability = "swaps"
	// CapLiquidity: pool creation, adding and removing liquidity.
	CapLiquidity Capability = "liquidity"
	// CapFarms: staking LP in the venue's farms, harvesting and compounding their rewards.
	CapFarms Capability = "farms"
)

// Capabilities lists every capability in order.
var Capabilities = []Capability{CapPools, CapSwaps, CapLiquidity, CapFarms}

// VenueStatus is a venue configured on an enabled chain and what it serves there.
type VenueStatus struct {
	Name string // an `amm` value (Venues)
	// Kind is the venue's pool model: constant-product, concentrated (ranged positions) or bins.
	Kind string
	// Serves lists the capabilities the venue serves on the chain, in Capabilities order.
	Serves []Capability
	// Missing says, for a capability the venue does not serve, why: the setting its configuration
	// lacks, or that this version does not serve the venue yet.
	Missing map[Capability]string
}

// Has reports whether the venue serves cap.
func (v VenueStatus) Has(c Capability) bool { return slices.Contains(v.Serves, c) }

// Venue is a venue's implementation: one package under venue/ each (venue.All lists them). It says
// what the venue serves on a chain; the rest of the venue (its pool math, builds and what indexes
// it) is reached through the interfaces of the adapters that use it, such as SVMIndexer.
type Venue interface {
	// Spec is the venue's name, chain family and pool model (one of VenueSpecs).
	Spec() VenueSpec
	// Status is what the venue serves on the chain called chainName when configured as cfg, and
	// why it serves no more (naming the setting cfg lacks).
	Status(chainName string, cfg VenueConfig) VenueStatus
}

// SVMVenue is a Solana venue's parts the Solana adapter runs: the decoding of its pools for live
// reads and the reading of its program's transactions for the index. The adapter takes them from
// every configured venue that implements it, so a Solana venue is wired by its registration alone.
type SVMVenue interface {
	Venue
	// Pools decodes the venue's pools for live reads.
	Pools() SVMPoolVenue
	// Indexer reads the venue's pools and events from its program's transactions; ok is false when
	// cfg does not serve pools (Status says why).
	Indexer(cfg VenueConfig) (ix SVMIndexer, ok bool)
}

// SVM returns the Solana venues of a chain's configuration, sorted by name, with their configuration.
func (s VenueSet) SVM(cc ChainConfig) (venues []SVMVenue, configs []VenueConfig) {
	return configuredAs[SVMVenue](s, cc)
}

// configuredAs returns the venues of a chain's configuration that are a V, sorted by name, with
// their configuration.
func configuredAs[V Venue](s VenueSet, cc ChainConfig) (venues []V, configs []VenueConfig) {
	for _, name := range slices.Sorted(maps.Keys(cc.Venues)) {
		if v, ok := s[name].(V); ok {
			venues = append(venues, v)
			configs = append(configs, cc.Venues[name])
		}
	}
	return venues, configs
}

// VenueSet is the venues this build implements, by name.
type VenueSet map[string]Venue

// NewVenueSet is the set of venues vs.
func NewVenueSet(vs ...Venue) VenueSet {
	s := VenueSet{}
	for _, v := range vs {
		s[v.Spec().Name] = v
	}
	return s
}

// Status is what the venue called name serves on the chain called chainName when configured as
// cfg; a venue of the contract this build does not implement serves nothing, "not served by this
// version yet".
func (s VenueSet) Status(chainName, name string, cfg VenueConfig) VenueStatus {
	if v, ok := s[name]; ok {
		return v.Status(chainName, cfg)
	}
	spec, _ := LookupVenue(name)
	out := VenueStatus{Name: name, Kind: spec.Kind, Missing: map[Capability]string{}}
	for _, c := range Capabilities {
		out.Missing[c] = name + " is not served by this version yet"
	}
	return out
}

// Configured are the statuses of the venues of a chain's configuration, sorted by name.
func (s VenueSet) Configured(chainName string, cc ChainConfig) []VenueStatus {
	var out []VenueStatus
	for name, v := range cc.Venues {
		out = append(out, s.Status(chainName, name, v))
	}
	slices.SortFunc(out, func(a, b VenueStatus) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// KnownUniswapV2 is an official deployment of a Uniswap V2 compatible factory: ParseConfig defaults
// a uniswap-v2 venue's initCodeHash (and feeBps) from it when the configured factory is one.
type KnownUniswapV2 struct {
	Chain, Factory, Name, InitCodeHash string
	FeeBps                             int
}

// KnownUniswapV2Factories are the official deployments of the contract's EVM chains.
var KnownUniswapV2Factories = []KnownUniswapV2{
	{"ethereum", "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f", "Uniswap V2", UniswapV2InitCodeHash, 30},
	{"base", "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6", "Uniswap V2", UniswapV2InitCodeHash, 30},
	{"bsc", "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6", "Uniswap V2", UniswapV2InitCodeHash, 30},
	{"bsc", "0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73", "PancakeSwap V2", "0x00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5", 25},
}

// knownUniswapV2 returns the official deployment of factory on the chain, if it is one.
func knownUniswapV2(chainName, factory string) (KnownUniswapV2, bool) {
	for _, k := range KnownUniswapV2Factories {
		if k.Chain == chainName && strings.EqualFold(k.Factory, factory) {
			return k, true
		}
	}
	return KnownUniswapV2{}, false
}

// EVMVenue is an EVM venue's parts the EVM adapter runs: the reading of its pools and events from
// logs for the index. The adapter takes them from every configured venue that implements it, so an
// EVM venue is wired by its registration alone.
type EVMVenue interface {
	Venue
	// Indexer reads the venue's pools and events from logs; ok is false when cfg does not serve
	// pools (Status says why).
	Indexer(cfg VenueConfig) (ix EVMIndexer, ok bool)
}

// EVM returns the EVM venues of a chain's configuration, sorted by name, with their configuration.
func (s VenueSet) EVM(cc ChainConfig) (venues []EVMVenue, configs []VenueConfig) {
	return configuredAs[EVMVenue](s, cc)
}
