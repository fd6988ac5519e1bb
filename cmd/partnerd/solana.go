package main

import (
	"context"
	"errors"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// solanaChain is the solana chain as serve runs it: the adapter's client, its configuration and,
// in local mode, the local validator behind it.
type solanaChain struct {
	client *solana.Client
	config chain.ChainConfig
	node   *localnet.Node // local mode only
}

// openSolana opens the solana chain: its configured RPC (PARTNER_CHAINS' solana entry), or in local
// mode the local validator (chain/solana/localnet: LiteSVM behind standard Solana JSON-RPC). It
// returns nil, said loudly in the log, when the configured RPC does not answer as Solana's cluster
// should or the validator cannot run on this machine (no node or npm): the other chains are served.
func (m *Main) openSolana(ctx context.Context, cfg chain.Config, localMode bool) *solanaChain {
	cc, configured := cfg.Chains["solana"]
	var node *localnet.Node
	if !configured {
		if !localMode {
			return nil
		}
		var err error
		node, err = localnet.Start(ctx, localnet.Options{Activity: 3 * time.Second})
		if err != nil {
			level := m.Log.Error
			if errors.Is(err, localnet.ErrUnavailable) {
				level = m.Log.Warn
			}
			level("local mode: solana disabled: the local Solana validator cannot run", "err", err)
			return nil
		}
		cc = chain.ChainConfig{RPCURLs: []string{node.URL}, Network: chain.Devnet, WrappedNative: chain.WrappedSOL,
			Venues: map[string]chain.VenueConfig{raydium.VenueName: {Factory: raydium.ProgramID.String()}}}
		if usdc, ok := node.Mint("USDC"); ok {
			cc.USDStablecoins = []chain.Stablecoin{{Address: usdc.Address, Decimals: int(usdc.Decimals)}}
		}
	}
	client, genesis, err := solana.Open(ctx, "solana", cc, solana.Options{}, m.Log)
	if err != nil {
		m.Log.Error("chain disabled: its RPC does not answer as configured", "chain", "solana", "err", err)
		if node != nil {
			node.Close()
		}
		return nil
	}
	if node != nil {
		m.logLocalSolana(node, genesis)
	}
	return &solanaChain{client: client, config: cc, node: node}
}

// logLocalSolana says, once, what the local validator serves: its RPC and PubSub (WebSocket) URLs,
// mints, CPMM pools and funded test keypairs (faucet, the mints' authority, holder-0..7,
// trader-0..2, pool-creator, lp-provider) with their secret keys.
func (m *Main) logLocalSolana(node *localnet.Node, genesis string) {
	mints := map[string]string{}
	for _, mt := range node.Mints {
		mints[mt.Symbol] = mt.Address
	}
	keys := map[string]string{}
	for _, k := range node.Keypairs {
		keys[k.Name] = k.Address + " secret " + k.SecretKey
	}
	pools := map[string]string{}
	for _, p := range node.Pools {
		pools[p.Name] = p.Address
	}
	m.Log.Warn("LOCAL MODE: no Solana RPC is configured (PARTNER_CHAINS), so solana is served from a local VALIDATOR (LiteSVM), "+
		"not the real chain; its keypairs are test keys, never use them on a real cluster; its pools are on our own program with "+
		"Raydium CPMM's interface at CPMM's program id, not Raydium's binary",
		"chain", "solana", "rpc", node.URL, "ws", node.WSURL, "genesis", genesis, "mints", mints, "pools", pools, "keypairs", keys)
}

// tokens are the mints the market's search knows on the chain besides the index: the local
// validator's seeded mints.
func (s *solanaChain) tokens() []string {
	if s.node == nil {
		return nil
	}
	out := make([]string, len(s.node.Mints))
	for i, mt := range s.node.Mints {
		out[i] = mt.Address
	}
	return out
}

// close closes the client and stops the local validator.
func (s *solanaChain) close() {
	s.client.Close()
	if s.node != nil {
		s.node.Close()
	}
}
