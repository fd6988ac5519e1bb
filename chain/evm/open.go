package evm

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
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

// Open connects to a configured EVM chain; the adapter then reads it (LP positions included: those
// staked in the farms of uniswap-v2's stakingRewardsFactory too) and indexes into sink the pools of
// its configured venues that venues implements as chain.EVMVenue (VenueSet.EVM), through their
// indexers. Every RPC URL must serve the configured chain id: one that serves another chain is a
// configuration error, and one that does not answer is kept for failover (with a warning) as long
// as another answers. With several URLs, reads fail over between them (see failover). Errors never
// contain a URL's credentials.
func Open(ctx context.Context, name string, cfg chain.ChainConfig, venues chain.VenueSet, sink chain.Sink, log *slog.Logger) (*Adapter, error) {
	first, err := checkChainID(ctx, name, cfg, log)
	if err != nil {
		return nil, err
	}
	client, err := dial(ctx, cfg.RPCURLs, first)
	if err != nil {
		return nil, fmt.Errorf("open %s: dial: %w", name, classify(ctx, "dial", err))
	}
	reader, err := New(client, common.HexToAddress(cfg.Multicall3))
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	var v2 chain.VenueConfig // the first venue of pairs: the audit's simulated trades go through its factory; its farms
	if _, pairs := venues.PairLiquidity(cfg); len(pairs) > 0 {
		v2 = pairs[0]
	}
	var indexers []chain.EVMIndexer
	evmVenues, configs := venues.EVM(cfg)
	for i, v := range evmVenues {
		if ix, ok := v.Indexer(configs[i]); ok {
			indexers = append(indexers, ix)
		}
	}
	interval := 2 * time.Second
	if cfg.Network == chain.Devnet { // a devnet seals blocks on demand: follow it closely
		interval = 250 * time.Millisecond
	}
	return &Adapter{
		Source: NewSource(reader, cfg.WrappedNative, v2.Factory).withFarms(v2.StakingRewardsFactory),
		Follower: NewFollower(FollowerConfig{Chain: name, Reader: reader, Sink: sink, Indexers: indexers,
			WrappedNative: common.HexToAddress(cfg.WrappedNative), StartBlock: cfg.StartBlock, Confirmations: uint64(cfg.Confirmations), Interval: interval, Logger: log}),
		client: client,
	}, nil
}

// checkChainID asks every RPC URL of cfg for its chain id at once, and returns the index of the
// first that serves cfg.ChainID.
func checkChainID(ctx context.Context, name string, cfg chain.ChainConfig, log *slog.Logger) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	ids := make([]int64, len(cfg.RPCURLs))
	errs := make([]error, len(cfg.RPCURLs))
	var wg sync.WaitGroup
	for i, u := range cfg.RPCURLs {
		wg.Go(func() { ids[i], errs[i] = chainID(ctx, u) })
	}
	wg.Wait()
	first := -1
	var down []string
	for i, err := range errs {
		where := fmt.Sprintf("rpcUrls[%d] (%s)", i, chain.RedactURL(cfg.RPCURLs[i]))
		switch {
		case err != nil:
			down = append(down, where+" does not answer: "+err.Error())
		case ids[i] != cfg.ChainID:
			return 0, fmt.Errorf("open %s: %s serves chain id %d, configured %d", name, where, ids[i], cfg.ChainID)
		case first < 0:
			first = i
		}
	}
	if first < 0 {
		return 0, fmt.Errorf("open %s: %s", name, strings.Join(down, "; "))
	}
	for _, d := range down {
		log.Warn("chain RPC URL kept for failover", "chain", name, "problem", d)
	}
	return first, nil
}

// chainID asks one RPC URL for its chain id.
func chainID(ctx context.Context, rawURL string) (int64, error) {
	client, err := rpc.DialOptions(ctx, rawURL)
	if err != nil {
		return 0, classify(ctx, "dial", err)
	}
	defer client.Close()
	var id hexutil.Big
	if err := client.CallContext(ctx, &id, "eth_chainId"); err != nil {
		return 0, classify(ctx, "chain id", err)
	}
	return (*big.Int)(&id).Int64(), nil
}

// dial returns the client reads go through: straight to the one URL (any scheme the configuration
// allows), or through failover across several (http or https, as the configuration requires),
// starting with urls[first].
func dial(ctx context.Context, urls []string, first int) (*rpc.Client, error) {
	if len(urls) == 1 {
		return rpc.DialOptions(ctx, urls[0])
	}
	parsed := make([]*url.URL, len(urls))
	for i, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, err
		}
		parsed[i] = u
	}
	f := newFailover(http.DefaultTransport, parsed, first)
	return rpc.DialOptions(ctx, f.targets[first].url.String(), rpc.WithHTTPClient(&http.Client{Transport: f}))
}

// Close closes the RPC connection.
func (a *Adapter) Close() { a.client.Close() }
