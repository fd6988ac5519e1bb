package api

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/partner-platform/partnerd/chain"
)

// ChainInfo is one chain of GET /v1/chains.
type ChainInfo struct {
	ID          string   `json:"id" doc:"The chain parameter value." example:"base"`
	Kind        string   `json:"kind" enum:"evm,solana"`
	ChainID     int64    `json:"chainId,omitempty" doc:"EVM chain id." example:"8453"`
	NativeToken string   `json:"nativeToken" example:"ETH"`
	Enabled     bool     `json:"enabled" doc:"Whether this service serves the chain."`
	Network     string   `json:"network,omitempty" enum:"mainnet,devnet" doc:"What an enabled chain is connected to."`
	Note        string   `json:"note,omitempty" doc:"Said of a chain served from a devnet: its data is not the real chain's."`
	Operations  []string `json:"operations" doc:"The operationIds served on this chain (empty while it is not enabled); any other operation naming it answers 400 operation_not_supported." example:"searchTokens,getTokenPrice,getHoldings"`
}

// ChainsListResponse lists every supported chain in the contract's order.
type ChainsListResponse struct {
	OK     bool        `json:"ok"`
	Chains []ChainInfo `json:"chains"`
}

type chainsOutput struct{ Body ChainsListResponse }

type openAPIOutput struct {
	Body map[string]any
}

func (s *Server) registerMeta() {
	register(s, opSpec{ID: "getOpenAPI", Method: http.MethodGet, Path: "/v1/openapi.json", Tag: "Meta", Class: ClassNone,
		Summary: "The machine-readable contract (OpenAPI 3.1)"}, s.getOpenAPI())
	register(s, opSpec{ID: "listChains", Method: http.MethodGet, Path: "/v1/chains", Tag: "Meta", Class: ClassNone,
		Summary: "Supported chains and which are enabled"}, s.listChains)
	s.router.Get("/v1/docs", serveDocs)
}

// getOpenAPI serves the document, rendered once on first use (every operation is registered by then).
func (s *Server) getOpenAPI() func(context.Context, *struct{}) (*openAPIOutput, error) {
	var once sync.Once
	var doc map[string]any
	var err error
	return func(context.Context, *struct{}) (*openAPIOutput, error) {
		once.Do(func() {
			var b []byte
			if b, err = json.Marshal(s.api.OpenAPI()); err == nil {
				err = json.Unmarshal(b, &doc)
			}
		})
		if err != nil {
			return nil, internalError(err)
		}
		return &openAPIOutput{Body: doc}, nil
	}
}

func (s *Server) listChains(context.Context, *struct{}) (*chainsOutput, error) {
	out := &chainsOutput{Body: ChainsListResponse{OK: true}}
	for _, c := range s.deps.Chains.List() {
		ops := []string{}
		if c.Enabled {
			ops = s.operationsOn(c.Info)
		}
		out.Body.Chains = append(out.Body.Chains, ChainInfo{
			ID: c.Name, Kind: string(c.Kind), ChainID: c.ChainID, NativeToken: c.NativeToken,
			Enabled: c.Enabled, Network: string(c.Network), Note: note(c), Operations: ops,
		})
	}
	return out, nil
}

func note(c chain.Status) string {
	if c.Network != chain.Devnet {
		return ""
	}
	return "DEVNET: " + c.Name + " is served from a local test chain, not the real network; its tokens, prices and trades are simulated"
}
