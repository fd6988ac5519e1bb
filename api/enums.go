package api

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
)

// The contract's enumerations, each one Go type whose schema is generated from the chain package's
// list, so the document cannot drift from what the service knows.

// ChainName is a chain parameter's value: one of the contract's chains (chain.Supported), in its order.
type ChainName string

// Schema is the enum of chain.Supported.
func (ChainName) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeString, Enum: chainEnum(), Examples: []any{"base"}}
}

// ChainOrAll is a chain parameter that also takes all, every enabled chain.
type ChainOrAll string

// Schema is the enum of chain.Supported and all.
func (ChainOrAll) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeString, Enum: append(chainEnum(), "all"), Examples: []any{"all"}}
}

// VenueName is an amm value: one of the contract's venues (chain.Venues), in its order.
type VenueName string

// Schema is the enum of chain.Venues.
func (VenueName) Schema(huma.Registry) *huma.Schema {
	enum := make([]any, len(chain.Venues))
	for i, v := range chain.Venues {
		enum[i] = v
	}
	return &huma.Schema{Type: huma.TypeString, Enum: enum, Examples: []any{"uniswap-v2"}}
}

// SolanaChainName is a chain of the Solana family (chain.Supported of kind solana): the chain of a
// Solana quote.
type SolanaChainName string

// Schema is the enum of chain.Supported's Solana chains.
func (SolanaChainName) Schema(huma.Registry) *huma.Schema {
	var enum []any
	for _, c := range chain.Supported {
		if c.Kind == chain.KindSolana {
			enum = append(enum, c.Name)
		}
	}
	return &huma.Schema{Type: huma.TypeString, Enum: enum, Examples: []any{"solana"}}
}

// SolanaVenueName is a venue of the Solana family (chain.VenueSpecs of family solana): a Solana
// route step's label.
type SolanaVenueName string

// Schema is the enum of chain.Venues' Solana venues.
func (SolanaVenueName) Schema(huma.Registry) *huma.Schema {
	var enum []any
	for _, v := range chain.VenueSpecs {
		if v.Family == chain.KindSolana {
			enum = append(enum, v.Name)
		}
	}
	return &huma.Schema{Type: huma.TypeString, Enum: enum, Examples: []any{"raydium"}}
}

func chainEnum() []any {
	enum := make([]any, len(chain.Supported))
	for i, c := range chain.Supported {
		enum[i] = c.Name
	}
	return enum
}
