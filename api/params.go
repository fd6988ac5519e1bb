package api

import (
	"cmp"
	"context"
	"errors"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/trade"
)

// ChainParam is `chain` on single-object reads: one chain, default solana.
type ChainParam struct {
	Chain ChainName `query:"chain" default:"solana" doc:"Chain to read; must be enabled (GET /v1/chains)."`
}

// ChainOrAllParam is `chain` on search, trending, hot and new: one chain or all enabled chains.
type ChainOrAllParam struct {
	Chain ChainOrAll `query:"chain" doc:"A chain, or all to cover every enabled chain."`
}

// requireChain resolves an enabled chain: 400 chain_not_enabled otherwise.
func (s *Server) requireChain(name string) (chain.Info, *Error) {
	c, err := s.deps.Chains.Require(name)
	switch {
	case errors.Is(err, chain.ErrUnknownChain):
		return chain.Info{}, Errorf(CodeInvalidChain, "unknown chain %q", name)
	case err != nil:
		return chain.Info{}, Errorf(CodeChainNotEnabled, "chain %s is not enabled on this service (see GET /v1/chains)", name)
	}
	return c, nil
}

// chainsFor resolves `chain` with `all`: empty or all means every enabled chain that serves the
// call's operation; a named chain must be enabled and serve it.
func (s *Server) chainsFor(ctx context.Context, name string) ([]chain.Info, *Error) {
	if name == "" || name == "all" {
		noteChain(ctx, "all")
		var out []chain.Info
		for _, c := range s.deps.Chains.Enabled() {
			if s.serving(ctx, c) == nil {
				out = append(out, c)
			}
		}
		return out, nil
	}
	c, e := s.requireChain(name)
	noteChain(ctx, cmp.Or(c.Name, name))
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	return []chain.Info{c}, nil
}

// requireAddress checks that addr is an address of the chain's family, and an EVM address in
// mixed case its EIP-55 checksum: 400 invalid_address otherwise, naming the field.
func requireAddress(c chain.Info, what, addr string) *Error {
	if c.Kind == chain.KindSolana {
		switch {
		case chain.IsSolanaAddress(addr):
			return nil
		case chain.IsEVMAddress(addr):
			return Errorf(CodeInvalidAddress, "%s %s is an EVM address, but chain is solana (the chain when none is given): "+
				"name its EVM chain, e.g. chain=base", what, addr)
		}
		return Errorf(CodeInvalidAddress, "%s must be a Solana base58 address", what)
	}
	switch err := chain.CheckEVMAddress(addr); {
	case errors.Is(err, chain.ErrChecksumMismatch):
		return Errorf(CodeInvalidAddress, "%s %s: checksum mismatch: %s", what, addr, chain.ChecksumAdvice)
	case err != nil:
		return Errorf(CodeInvalidAddress, "%s must be an EVM address (0x followed by 40 hex digits)", what)
	}
	return nil
}

// noteChain records the chain a call names, for its usage record; the first chain named wins
// (a bridge records its origin). Callers pass a supported chain as the registry spells it
// (chain.Info.Name), one string for every call: the usage log numbers a page's chains by their
// address (metering).
func noteChain(ctx context.Context, name string) {
	if c := callOf(ctx); c != nil && c.chain == "" {
		c.chain = name
	}
}

// lookupChain returns the supported chain called name and notes it for usage; Huma has already
// checked the enum.
func lookupChain(ctx context.Context, name string) (chain.Info, *Error) {
	c, ok := chain.Lookup(name)
	noteChain(ctx, cmp.Or(c.Name, name))
	if !ok {
		return chain.Info{}, Errorf(CodeInvalidChain, "unknown chain %q", name)
	}
	return c, nil
}

// field is a named address parameter.
type field struct {
	name, value string
	optional    bool // an empty value is not checked
	native      bool // "native" (the chain's gas token) is allowed
}

// addr names a required address parameter.
func addr(name, value string) field { return field{name: name, value: value} }

// mint names a token parameter that may also be "native", the chain's gas token.
func mint(name, value string) field { return field{name: name, value: value, native: true} }

// opt names an optional address parameter.
func opt(name, value string) field { return field{name: name, value: value, optional: true} }

// resolve checks each address against the named chain's family, then that the chain is enabled.
// Address syntax is checked first: a Solana mint on an EVM chain is wrong whether or not the chain is served.
func (s *Server) resolve(ctx context.Context, chainName string, addrs ...field) (chain.Info, *Error) {
	c, e := lookupChain(ctx, chainName)
	if e != nil {
		return chain.Info{}, e
	}
	for _, a := range addrs {
		if (a.optional && a.value == "") || (a.native && a.value == trade.Native) {
			continue
		}
		if e := requireAddress(c, a.name, a.value); e != nil {
			return chain.Info{}, e
		}
	}
	return s.requireChain(chainName)
}

// ownersCost is the cost of a batch portfolio call: 10 per distinct owner. Invalid owners refuse the
// call before admission, at no cost.
func ownersCost(ctx huma.Context) (int, *Error) {
	refs, e := parseOwners(ctx.Query("owners"))
	if e != nil {
		return 0, e
	}
	return 10 * len(refs), nil
}

func parseOwners(list string) ([]chain.OwnerRef, *Error) {
	if strings.TrimSpace(list) == "" {
		return nil, Errorf(CodeInvalidRequest, "owners is required: comma-separated owner refs")
	}
	refs, err := chain.ParseOwnerRefs(list)
	switch {
	case errors.Is(err, chain.ErrTooManyOwners):
		return nil, Errorf(CodeTooManyOwners, "at most %d distinct owners per call", chain.MaxBatchOwners)
	case err != nil:
		return nil, Errorf(CodeInvalidAddress, "%s", err.Error())
	}
	return refs, nil
}
