package api

import (
	"github.com/danielgtaylor/huma/v2"

	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/partner-platform/partnerd/chain"
)

// ChainInfo is one chain of GET /v1/chains.
type ChainInfo struct {
	ID          string      `json:"id" doc:"The chain parameter value." example:"base"`
	Kind        string      `json:"kind" enum:"evm,solana" doc:"The chain's family: evm (addresses 0x and 40 hex digits, EIP-55 checksummed) or solana (base58 addresses)." example:"evm"`
	ChainID     int64       `json:"chainId,omitempty" doc:"EVM chain id." example:"8453"`
	NativeToken string      `json:"nativeToken" doc:"The symbol of the chain's gas coin, which the token parameters name native." example:"ETH"`
	Enabled     bool        `json:"enabled" doc:"Whether this service serves the chain." example:"true"`
	Network     string      `json:"network,omitempty" enum:"mainnet,devnet" doc:"What an enabled chain is connected to." example:"mainnet"`
	Note        string      `json:"note,omitempty" doc:"Said of a chain served from a devnet: its data is not the real chain's." example:"DEVNET: base is served from a local test chain, not the real network; its tokens, prices and trades are simulated"`
	Operations  []string    `json:"operations" doc:"The operationIds served on this chain, each answering with data there (empty while it is not enabled); any other operation naming it answers 400 operation_not_supported." example:"searchTokens,getTokenPrice,getHoldings"`
	Venues      []VenueInfo `json:"venues" doc:"The venues configured on this chain (amm values) and what each serves; empty while it is not enabled."`
}

// TransformSchema describes ChainInfo in the OpenAPI document.
func (ChainInfo) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One chain of the contract: its identifiers, whether this service serves it and what it is connected to, and the operations and venues it serves.")
}

// VenueInfo is one venue of a chain in GET /v1/chains.
type VenueInfo struct {
	Name       VenueName `json:"name" doc:"The venue, as the amm parameter and the LP builders' venue name it." example:"uniswap-v2"`
	Kind       string    `json:"kind" enum:"constant-product,concentrated,bins" doc:"The venue's pool model: constant-product (fungible LP tokens), concentrated (ranged, NFT-style positions) or bins." example:"constant-product"`
	Serves     []string  `json:"serves" doc:"What the venue serves on this chain: pools (its pools are indexed: prices, trades, charts, pool reads, LP positions), swaps (quotes and swap builds), liquidity (create, add, remove), farms (stake, harvest, compound)." example:"pools,swaps,liquidity,farms"`
	Operations []string  `json:"operations" doc:"The operationIds that this venue serves on this chain." example:"getPool,getSwapQuote,buildSwap,buildLPAdd"`
	Notes      []string  `json:"notes,omitempty" doc:"Why the venue does not serve the rest here: a setting its configuration lacks, or that this version does not serve it yet." example:"the uniswap-v2 venue of base is configured without stakingRewardsFactory (chains.base.venues.uniswap-v2.stakingRewardsFactory)"`
}

// TransformSchema describes VenueInfo in the OpenAPI document.
func (VenueInfo) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "One venue (DEX) configured on a chain, its pool model, and what it serves there.")
}

// ChainsListResponse lists every supported chain in the contract's order.
type ChainsListResponse struct {
	OK     bool        `json:"ok" doc:"Always true: the call succeeded (a failure answers the error envelope, with ok false)." example:"true"`
	Chains []ChainInfo `json:"chains" doc:"The chains, in the contract's order: solana, ethereum, base, bsc, robinhood, arc."`
}

// TransformSchema describes ChainsListResponse in the OpenAPI document.
func (ChainsListResponse) TransformSchema(_ huma.Registry, s *huma.Schema) *huma.Schema {
	return described(s, "Every chain of the contract, in its order (GET /v1/chains), enabled or not.")
}

type chainsOutput struct{ Body ChainsListResponse }

type openAPIOutput struct {
	Body map[string]any `doc:"The OpenAPI 3.1 document." example:"{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"Partner Market, Portfolio, Quote and Unsigned-Transaction API\",\"version\":\"1.0.0\"}}"`
}

func (s *Server) registerMeta() {
	register(s, opSpec{ID: "getOpenAPI", Method: http.MethodGet, Path: "/v1/openapi.json", Tag: "Meta", Class: ClassNone,
		Summary: "The machine-readable contract (OpenAPI 3.1)", Description: "This document. A human-readable rendering is served at /v1/docs.",
		Returns: "The OpenAPI 3.1 document of this API, as JSON."}, s.getOpenAPI())
	register(s, opSpec{ID: "listChains", Method: http.MethodGet, Path: "/v1/chains", Tag: "Meta", Class: ClassNone,
		Summary: "Supported chains and which are enabled", Description: "Every chain of the contract in its order, whether this service serves it, " +
			"what it is connected to (mainnet, or a devnet with a note saying so), and the operations it serves: any other operation naming " +
			"the chain answers 400 operation_not_supported.",
		Returns: "Every chain of the contract, with what this service serves on each."}, s.listChains)
	s.router.Get("/v1/docs", serveDocs)
}

// getOpenAPI serves the document, rendered once on first use (every operation is registered by then).
func (s *Server) getOpenAPI() func(context.Context, *struct{}) (*openAPIOutput, error) {
	var once sync.Once
	var doc map[string]any
	var err error
	return func(context.Context, *struct{}) (*openAPIOutput, error) {
		once.Do(func() { doc, err = s.document() })
		if err != nil {
			return nil, internalError(err)
		}
		return &openAPIOutput{Body: doc}, nil
	}
}

// document is the OpenAPI document as a JSON object.
func (s *Server) document() (map[string]any, error) {
	b, err := json.Marshal(s.api.OpenAPI())
	if err != nil {
		return nil, fmt.Errorf("render the OpenAPI document: %w", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("render the OpenAPI document: %w", err)
	}
	return doc, nil
}

// Document returns the OpenAPI document served at /v1/openapi.json, indented, keys sorted.
func Document() ([]byte, error) {
	doc, err := New(Deps{}).document()
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
}

func (s *Server) listChains(context.Context, *struct{}) (*chainsOutput, error) {
	out := &chainsOutput{Body: ChainsListResponse{OK: true}}
	for _, c := range s.deps.Chains.List() {
		ops, venues := []string{}, []VenueInfo{}
		if c.Enabled {
			ops = s.operationsOn(c.Info)
			for _, v := range c.Venues {
				venues = append(venues, s.venueInfo(c.Info, v))
			}
		}
		out.Body.Chains = append(out.Body.Chains, ChainInfo{
			ID: c.Name, Kind: string(c.Kind), ChainID: c.ChainID, NativeToken: c.NativeToken,
			Enabled: c.Enabled, Network: string(c.Network), Note: note(c), Operations: ops, Venues: venues,
		})
	}
	return out, nil
}

// venueInfo is what venue v serves on chain c: its capabilities, the operations needing one of them
// that are served there, and why it serves no more.
func (s *Server) venueInfo(c chain.Info, v chain.VenueStatus) VenueInfo {
	info := VenueInfo{Name: VenueName(v.Name), Kind: v.Kind, Serves: []string{}, Operations: []string{}}
	for _, cap := range v.Serves {
		info.Serves = append(info.Serves, string(cap))
	}
	for _, spec := range s.specs {
		if spec.Needs != "" && v.Has(spec.Needs) && s.servedOn(spec, c) {
			info.Operations = append(info.Operations, spec.ID)
		}
	}
	for _, cap := range chain.Capabilities {
		if why, ok := v.Missing[cap]; ok && !slices.Contains(info.Notes, why) {
			info.Notes = append(info.Notes, why)
		}
	}
	return info
}

func note(c chain.Status) string {
	if c.Network != chain.Devnet {
		return ""
	}
	n := "DEVNET: " + c.Name + " is served from a local test chain, not the real network; its tokens, prices and trades are simulated"
	if c.Kind == chain.KindSolana {
		n += "; its raydium pools run on this project's own program with Raydium CPMM's interface, deployed at CPMM's program id, not Raydium's binary"
	}
	return n
}
