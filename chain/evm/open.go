package evm

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// Adapter is one configured EVM chain: its live source and its indexer.
type Adapter struct {
	Source   *Source
	Follower *Follower
	client   *rpc.Client
}

// dialTimeout bounds the check that a configured chain answers.
const dialTimeout = 10 * time.Second

// Open connects to a configured EVM chain (its first RPC URL) and checks that it answers with the
// configured chain id; the adapter then reads it and indexes its uniswap-v2 factory into sink.
// Errors never contain the URL (it may carry credentials).
func Open(ctx context.Context, name string, cfg chain.ChainConfig, sink chain.Sink, log *slog.Logger) (*Adapter, error) {
	client, err := rpc.DialOptions(ctx, cfg.RPCURLs[0])
	if err != nil {
		return nil, fmt.Errorf("open %s: dial %s: %w", name, chain.RedactURL(cfg.RPCURLs[0]), classify(ctx, "dial", err))
	}
	cctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	var id hexutil.Big
	if err := client.CallContext(cctx, &id, "eth_chainId"); err != nil {
		client.Close()
		return nil, fmt.Errorf("open %s: %s does not answer: %s", name, chain.RedactURL(cfg.RPCURLs[0]), classify(cctx, "chain id", err))
	}
	if got := (*hexutil.Big)(&id).ToInt().Int64(); got != cfg.ChainID {
		client.Close()
		return nil, fmt.Errorf("open %s: the RPC serves chain id %d, configured %d", name, got, cfg.ChainID)
	}
	reader, err := New(client, common.HexToAddress(cfg.Multicall3))
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	v2 := cfg.Venues["uniswap-v2"]
	var factories []Factory
	if v2.Factory != "" {
		factories = append(factories, Factory{Venue: "uniswap-v2", Address: common.HexToAddress(v2.Factory), FeeBps: v2.FeeBps})
	}
	interval := 2 * time.Second
	if cfg.Network == chain.Devnet { // a devnet seals blocks on demand: follow it closely
		interval = 250 * time.Millisecond
	}
	return &Adapter{
		Source: NewSource(reader, cfg.WrappedNative, v2.Factory),
		Follower: NewFollower(FollowerConfig{Chain: name, Reader: reader, Sink: sink, Factories: factories,
			StartBlock: cfg.StartBlock, Confirmations: uint64(cfg.Confirmations), Interval: interval, Logger: log}),
		client: client,
	}, nil
}

// Close closes the RPC connection.
func (a *Adapter) Close() { a.client.Close() }
