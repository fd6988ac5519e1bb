// Package chain holds the chain and venue registry and the domain types shared by the chain adapters.
package chain

import (
	"errors"
	"fmt"
)

// Kind is a chain family.
type Kind string

// Chain families.
const (
	KindEVM    Kind = "evm"
	KindSolana Kind = "solana"
)

// Info describes one supported chain as GET /v1/chains lists it.
type Info struct {
	Name        string // the `chain` parameter value
	Kind        Kind
	ChainID     int64  // EVM chain id; 0 for Solana
	NativeToken string // symbol of the gas token
	// NativeDecimals is the gas token's decimals: 18 on every EVM chain (arc's native USDC too), 9 for SOL.
	NativeDecimals int
}

// Native is the token parameter value that names a chain's gas token (ETH, BNB, SOL ...).
const Native = "native"

// Supported lists every chain of the contract, in the contract's order.
var Supported = []Info{
	{Name: "solana", Kind: KindSolana, NativeToken: "SOL", NativeDecimals: 9},
	{Name: "ethereum", Kind: KindEVM, ChainID: 1, NativeToken: "ETH", NativeDecimals: 18},
	{Name: "base", Kind: KindEVM, ChainID: 8453, NativeToken: "ETH", NativeDecimals: 18},
	{Name: "bsc", Kind: KindEVM, ChainID: 56, NativeToken: "BNB", NativeDecimals: 18},
	{Name: "robinhood", Kind: KindEVM, ChainID: 4663, NativeToken: "ETH", NativeDecimals: 18},
	// Arc pays gas in native USDC with 18 decimals; its ERC-20 USDC has 6. Never mix them.
	{Name: "arc", Kind: KindEVM, ChainID: 5042, NativeToken: "USDC", NativeDecimals: 18},
}

// VenueSpec is one venue of the contract: its `amm` value, the chain family it trades on, its
// pool model and the `version` the LP builders name it by.
type VenueSpec struct {
	Name   string
	Family Kind
	// Kind is the pool model: constant-product (fungible LP), concentrated (ranged, NFT-style
	// positions) or bins.
	Kind string
	// Version is the LP builders' version value: the pool program (Solana) or version (EVM).
	Version string
}

// Pool models, a VenueSpec's Kind.
const (
	ConstantProduct = "constant-product" // fungible LP tokens
	Concentrated    = "concentrated"     // ranged, NFT-style positions
	Bins            = "bins"             // liquidity in discrete price bins
)

// VenueSpecs are the contract's venues, in its order: four Solana venues, then the two EVM pool ABIs.
var VenueSpecs = []VenueSpec{
	{"raydium", KindSolana, ConstantProduct, "cpmm"},
	{"orca", KindSolana, Concentrated, "whirlpool"},
	{"meteora", KindSolana, Bins, "dlmm"},
	{"pumpswap", KindSolana, ConstantProduct, "amm"},
	{"uniswap-v2", KindEVM, ConstantProduct, "2"},
	{"uniswap-v3", KindEVM, Concentrated, "3"},
}

// VenuesOf are the names of the contract's venues on a chain family with a pool model.
func VenuesOf(family Kind, kind string) []string {
	var out []string
	for _, v := range VenueSpecs {
		if v.Family == family && v.Kind == kind {
			out = append(out, v.Name)
		}
	}
	return out
}

// Venues lists the `amm` values of the contract, in its order (VenueSpecs' names).
var Venues = func() []string {
	out := make([]string, len(VenueSpecs))
	for i, v := range VenueSpecs {
		out[i] = v.Name
	}
	return out
}()

// LookupVenue returns the contract's venue called name.
func LookupVenue(name string) (VenueSpec, bool) {
	for _, v := range VenueSpecs {
		if v.Name == name {
			return v, true
		}
	}
	return VenueSpec{}, false
}

// Network says what a configured chain connects to.
type Network string

// Networks.
const (
	Mainnet Network = "mainnet"
	Devnet  Network = "devnet"
)

// Served is how this deployment serves an enabled chain.
type Served struct {
	Network Network
	ChainID int64         // the chain id the RPC answers with (a devnet's differs from the mainnet's)
	Venues  []VenueStatus // the venues configured on it (VenueSet.Configured)
}

// Status is a supported chain and whether this deployment serves it.
type Status struct {
	Info
	Enabled bool
	Network Network       // empty while not enabled
	Venues  []VenueStatus // the venues configured on an enabled chain
}

// Errors returned by the registry.
var (
	ErrUnknownChain    = errors.New("unknown chain")
	ErrChainNotEnabled = errors.New("chain not enabled")
)

// Registry knows which supported chains this deployment serves. A chain is enabled only when an
// adapter for it is configured and answers; nothing is served for a chain that is not.
type Registry struct {
	enabled map[string]Served
}

// NewRegistry returns a registry serving the given chains.
func NewRegistry(enabled map[string]Served) (*Registry, error) {
	r := &Registry{enabled: map[string]Served{}}
	for name, s := range enabled {
		if _, ok := Lookup(name); !ok {
			return nil, fmt.Errorf("new chain registry: %w: %q", ErrUnknownChain, name)
		}
		r.enabled[name] = s
	}
	return r, nil
}

// Lookup returns the supported chain called name.
func Lookup(name string) (Info, bool) {
	for _, c := range Supported {
		if c.Name == name {
			return c, true
		}
	}
	return Info{}, false
}

// List returns every supported chain in the contract's order with its status.
func (r *Registry) List() []Status {
	out := make([]Status, len(Supported))
	for i, c := range Supported {
		s, ok := r.enabled[c.Name]
		if ok && s.ChainID != 0 {
			c.ChainID = s.ChainID
		}
		out[i] = Status{Info: c, Enabled: ok, Network: s.Network, Venues: s.Venues}
	}
	return out
}

// Require returns the named chain if it is supported and enabled: ErrUnknownChain or ErrChainNotEnabled otherwise.
func (r *Registry) Require(name string) (Info, error) {
	c, ok := Lookup(name)
	if !ok {
		return Info{}, fmt.Errorf("%w: %q", ErrUnknownChain, name)
	}
	if _, ok := r.enabled[name]; !ok {
		return Info{}, fmt.Errorf("%w: %s", ErrChainNotEnabled, name)
	}
	return c, nil
}

// Enabled returns the enabled chains in the contract's order.
func (r *Registry) Enabled() []Info {
	var out []Info
	for _, c := range Supported {
		if _, ok := r.enabled[c.Name]; ok {
			out = append(out, c)
		}
	}
	return out
}

// Venues returns the venues configured on the named chain (none when it is not enabled).
func (r *Registry) Venues(name string) []VenueStatus { return r.enabled[name].Venues }

// Capable reports whether a venue of the named chain serves c; when none does, why says what the
// chain's venues lack, preferring a venue that serves something else (its configuration lacks a
// setting) to one this version does not serve yet; empty when the chain has no venue.
func (r *Registry) Capable(name string, c Capability) (ok bool, why string) {
	for _, v := range r.enabled[name].Venues {
		switch {
		case v.Has(c):
			return true, ""
		case why == "" || len(v.Serves) > 0:
			why = v.Missing[c]
		}
	}
	return false, why
}
