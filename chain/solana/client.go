// Package solana is the adapter for Solana: the only importer of solana-go. It speaks Solana's
// standard JSON-RPC (getMultipleAccounts, getTokenAccountsByOwner, getProgramAccounts,
// getSignatureStatuses, getTransaction, simulateTransaction, ...) and the documented account
// layouts and instruction encodings of the System, SPL Token, Token-2022, Associated Token
// Account, Compute Budget and Metaplex Token Metadata programs only, so it works against any
// Solana RPC endpoint: a mainnet provider or a local validator alike. Nothing in it knows which.
//
// Its API takes and returns strings (base58 addresses and signatures, base64 transactions) and
// math/big amounts, so that the services above it never import solana-go.
//
// Reads go out as JSON-RPC 2.0 batches: one HTTP round trip for many calls. Every read states
// its round trips in its doc; the figures are counted by the tests.
package solana

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"

	"github.com/partner-platform/partnerd/chain"
)

// Options tunes a Client. Zero values take the defaults.
type Options struct {
	// CallTimeout bounds one read (all its round trips' attempts) when the caller's context has
	// no earlier deadline. Default 10 s.
	CallTimeout time.Duration
	// AttemptTimeout bounds one URL's attempt at a request while another URL is left to try; the
	// last URL gets what remains of the deadline. Default 4 s.
	AttemptTimeout time.Duration
	// MaxResponseBytes bounds one HTTP answer; a larger one is a KindBadResponse error wrapping
	// ErrResponseTooLarge. Default 32 MiB.
	MaxResponseBytes int64
	// MaxBatch is the most calls one JSON-RPC batch carries (providers cap batches, commonly at
	// 100 or more), and MaxRequestBytes the most bytes of calls one batch's body carries (Agave's
	// RPC server refuses bodies over 50 KiB). A larger batch is split and the parts are sent
	// concurrently: more HTTP requests, the latency of one round trip. Defaults 100 and 48 KiB.
	MaxBatch        int
	MaxRequestBytes int
	// Commitment of every read: "processed", "confirmed" or "finalized". Default "confirmed".
	Commitment string
	// MaxUnitPrice caps the priority fee a build sets, in micro-lamports per compute unit.
	// Default 2,000,000 (2 lamports per unit: 0.0004 SOL for a 200,000-unit transaction).
	MaxUnitPrice uint64
	// MinUnitPrice is the least priority fee a build sets, micro-lamports per compute unit, for
	// operators who want every transaction to bid (the estimate is often 0 on a quiet cluster).
	// Default 0; at most MaxUnitPrice.
	MinUnitPrice uint64
	// Transport is the HTTP transport under failover. Default: a clone of http.DefaultTransport.
	Transport http.RoundTripper
}

func (o Options) withDefaults() Options {
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.AttemptTimeout <= 0 {
		o.AttemptTimeout = 4 * time.Second
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = 32 << 20
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 100
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = 48 << 10
	}
	if o.Commitment == "" {
		o.Commitment = "confirmed"
	}
	if o.MaxUnitPrice == 0 {
		o.MaxUnitPrice = 2_000_000
	}
	o.MinUnitPrice = min(o.MinUnitPrice, o.MaxUnitPrice)
	if o.Transport == nil {
		o.Transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	return o
}

// Client reads a Solana cluster and builds unsigned transactions for it, through one or more RPC
// URLs with failover. It is safe for concurrent use.
type Client struct {
	rpc  *rpc.Client       // solana-go's typed client, over json
	json jsonrpc.RPCClient // single calls and JSON-RPC batches
	http *http.Client
	opts Options
}

// New returns a client of the RPC URLs (http or https, tried in order, with failover). It does not
// connect: Open also checks that every URL serves the same cluster. An invalid URL or option is an
// error wrapping chain.ErrInvalidConfig; no error contains a URL.
func New(urls []string, opts Options) (*Client, error) {
	opts = opts.withDefaults()
	switch opts.Commitment {
	case "processed", "confirmed", "finalized":
	default:
		return nil, fmt.Errorf("solana client: %w: commitment %q (want processed, confirmed or finalized)", chain.ErrInvalidConfig, opts.Commitment)
	}
	if len(urls) == 0 {
		return nil, fmt.Errorf("solana client: %w: no RPC URL", chain.ErrInvalidConfig)
	}
	parsed := make([]*url.URL, len(urls))
	for i, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("solana client: %w: rpcUrls[%d] is not an absolute http(s) URL (Solana's JSON-RPC is served over HTTP; its websocket serves subscriptions only)",
				chain.ErrInvalidConfig, i)
		}
		parsed[i] = u
	}
	hc := &http.Client{Transport: newFailover(opts.Transport, parsed, opts.AttemptTimeout, opts.MaxResponseBytes)}
	jc := jsonrpc.NewClientWithOpts(placeholderEndpoint, &jsonrpc.RPCClientOpts{HTTPClient: hc})
	return &Client{rpc: rpc.NewWithCustomRPCClient(jc), json: jc, http: hc, opts: opts}, nil
}

// MainnetGenesisHash is the genesis hash of Solana's mainnet-beta cluster.
const MainnetGenesisHash = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d"

// Open returns a client of a configured Solana chain after asking every RPC URL for its genesis
// hash, concurrently: the URLs that answer must agree, and on mainnet (cfg.Network) the hash must
// be mainnet-beta's. A URL that does not answer is kept for failover, with a warning, as long as
// another answers. It returns the genesis hash too (an indexer keys its cursor with it). Errors
// never contain a URL's credentials.
func Open(ctx context.Context, name string, cfg chain.ChainConfig, opts Options, log *slog.Logger) (*Client, string, error) {
	c, err := New(cfg.RPCURLs, opts)
	if err != nil {
		return nil, "", fmt.Errorf("open %s: %w", name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.CallTimeout)
	defer cancel()
	hashes := make([]string, len(cfg.RPCURLs))
	errs := make([]error, len(cfg.RPCURLs))
	var wg sync.WaitGroup
	for i, u := range cfg.RPCURLs {
		wg.Go(func() {
			one, err := New([]string{u}, opts)
			if err != nil {
				errs[i] = err
				return
			}
			hashes[i], errs[i] = one.GenesisHash(ctx)
		})
	}
	wg.Wait()
	genesis := ""
	var down []string
	for i, err := range errs {
		where := fmt.Sprintf("rpcUrls[%d] (%s)", i, chain.RedactURL(cfg.RPCURLs[i]))
		switch {
		case err != nil:
			down = append(down, where+" does not answer: "+err.Error())
		case genesis == "":
			genesis = hashes[i]
		case hashes[i] != genesis:
			return nil, "", fmt.Errorf("open %s: %s serves the cluster with genesis hash %s, another URL %s", name, where, hashes[i], genesis)
		}
	}
	if genesis == "" {
		return nil, "", fmt.Errorf("open %s: %s", name, strings.Join(down, "; "))
	}
	if cfg.Network == chain.Mainnet && genesis != MainnetGenesisHash {
		return nil, "", fmt.Errorf("open %s: the RPC serves the cluster with genesis hash %s, not mainnet-beta (%s): set network to devnet for another cluster",
			name, genesis, MainnetGenesisHash)
	}
	for _, d := range down {
		log.Warn("chain RPC URL kept for failover", "chain", name, "problem", d)
	}
	return c, genesis, nil
}

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// GenesisHash returns the cluster's genesis hash (getGenesisHash): one round trip.
func (c *Client) GenesisHash(ctx context.Context) (string, error) {
	const op = "genesis hash"
	ctx, cancel := c.bound(ctx)
	defer cancel()
	h, err := c.rpc.GetGenesisHash(ctx)
	if err != nil {
		return "", classify(ctx, op, err)
	}
	return h.String(), nil
}

// bound applies CallTimeout unless ctx already ends sooner.
func (c *Client) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= c.opts.CallTimeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, c.opts.CallTimeout)
}

// call is one JSON-RPC call of a batch.
type call struct {
	method string
	params []any
	out    any   // decoded into on success (a pointer)
	err    error // after the batch: the call's own failure, an *Error; nil on success
}

func newCall(method string, out any, params ...any) *call {
	if params == nil {
		params = []any{}
	}
	return &call{method: method, params: params, out: out}
}

// batch sends calls as one JSON-RPC batch (one HTTP round trip; beyond MaxBatch calls or
// MaxRequestBytes, several batches at once). It fails only when a whole batch fails; each call's
// own JSON-RPC error or undecodable result is left in its err. ctx must already be bounded.
func (c *Client) batch(ctx context.Context, op string, calls []*call) error {
	if len(calls) == 0 {
		return nil
	}
	var chunks [][]*call
	start, size := 0, 0
	for i, cl := range calls {
		n := 64 + len(cl.method) // the envelope: jsonrpc, id, method
		if b, err := json.Marshal(cl.params); err == nil {
			n += len(b)
		}
		if i > start && (i-start == c.opts.MaxBatch || size+n > c.opts.MaxRequestBytes) {
			chunks = append(chunks, calls[start:i])
			start, size = i, 0
		}
		size += n
	}
	chunks = append(chunks, calls[start:])
	errs := make([]error, len(chunks))
	if len(chunks) == 1 {
		errs[0] = c.sendBatch(ctx, op, chunks[0])
	} else {
		var wg sync.WaitGroup
		for i, ch := range chunks {
			wg.Go(func() { errs[i] = c.sendBatch(ctx, op, ch) })
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) sendBatch(ctx context.Context, op string, calls []*call) error {
	reqs := make(jsonrpc.RPCRequests, len(calls))
	for i, cl := range calls {
		reqs[i] = &jsonrpc.RPCRequest{Method: cl.method, Params: cl.params}
	}
	resps, err := c.json.CallBatch(ctx, reqs) // ids are the indexes
	if err != nil {
		return classify(ctx, op, err)
	}
	got := make([]*jsonrpc.RPCResponse, len(calls))
	for _, r := range resps {
		if r == nil {
			continue
		}
		id, ok := responseID(r.ID)
		if !ok || id < 0 || id >= len(calls) || got[id] != nil {
			return badResponse(op, "JSON-RPC batch answer with id %v for %d calls", r.ID, len(calls))
		}
		got[id] = r
	}
	for i, cl := range calls {
		r := got[i]
		switch {
		case r == nil:
			cl.err = badResponse(op, "%s: no answer in the JSON-RPC batch", cl.method)
		case r.Error != nil:
			cl.err = classify(ctx, op, r.Error)
		default:
			cl.err = decode(op, cl.method, r.Result, cl.out)
		}
	}
	return nil
}

func decode(op, method string, raw json.RawMessage, out any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return badResponse(op, "%s: undecodable result: %v", method, err)
	}
	return nil
}

func responseID(id any) (int, bool) {
	switch v := id.(type) {
	case json.Number:
		n, err := strconv.Atoi(string(v))
		return n, err == nil
	case float64:
		return int(v), v == float64(int(v))
	case int:
		return v, true
	case string:
		n, err := strconv.Atoi(v)
		return n, err == nil
	}
	return 0, false
}

// firstErr returns the first call error, if any.
func firstErr(calls ...*call) error {
	for _, cl := range calls {
		if cl.err != nil {
			return cl.err
		}
	}
	return nil
}

// config is a JSON-RPC config object with the client's commitment.
func (c *Client) config(kv ...any) map[string]any {
	m := map[string]any{"commitment": c.opts.Commitment}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
