package meteringtest

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// Traffic makes the calls of one consumer as the API records them: Poisson arrivals, request ids
// made from their millisecond as the API makes them, a mix of operations with their methods, paths
// (over 24 tokens), costs and chains, 7 % errors with the API's error envelope, 1 % replays and 3 %
// refused before the limiter (no RateRemaining); the last of the keys does most calls. Times and
// latencies are to the microsecond, as a page keeps them. The same seed makes the same calls.
type Traffic struct {
	consumerID int
	keyIDs     []int
	gap        time.Duration
	rng        *rand.Rand
	at         time.Time
	rate       int
}

// NewTraffic starts a consumer's traffic after start, calls gap apart on average.
func NewTraffic(seed uint64, consumerID int, keyIDs []int, start time.Time, gap time.Duration) *Traffic {
	return &Traffic{consumerID: consumerID, keyIDs: keyIDs, gap: gap, rng: rand.New(rand.NewPCG(seed, 1)), at: start.UTC(), rate: 600}
}

// Calls returns the next n calls.
func (t *Traffic) Calls(n int) []metering.Call {
	out := make([]metering.Call, n)
	for i := range out {
		out[i] = t.Next()
	}
	return out
}

// Next returns the next call.
func (t *Traffic) Next() metering.Call {
	rng := t.rng
	t.at = t.at.Add(time.Duration(rng.ExpFloat64() * float64(t.gap)).Truncate(time.Microsecond))
	op := trafficOps[rng.IntN(len(trafficOps))]
	path := op.path
	if op.token {
		path = fmt.Sprintf(op.path, trafficTokens[rng.IntN(len(trafficTokens))])
	}
	var raw [16]byte
	ms := uint64(t.at.UnixMilli()) - uint64(rng.IntN(2)) // the id is made as the call arrives
	for i := range 6 {
		raw[i] = byte(ms >> (8 * (5 - i)))
	}
	for i := 6; i < len(raw); i++ {
		raw[i] = byte(rng.Uint32())
	}
	id := "req_" + hex.EncodeToString(raw[:])
	key := t.keyIDs[min(rng.IntN(2*len(t.keyIDs)), len(t.keyIDs)-1)]
	c := metering.Call{ConsumerID: t.consumerID, KeyID: key, Operation: op.name, Status: 200, Cost: op.cost,
		Latency: time.Duration(rng.ExpFloat64()*float64(40*time.Millisecond)).Truncate(time.Microsecond) + 300*time.Microsecond,
		Chain:   trafficChains[rng.IntN(len(trafficChains))], RequestID: id, At: t.at, Method: op.method, Path: path,
		Source: trafficAddrs[min(rng.IntN(10), len(trafficAddrs)-1)]}
	t.rate = min(600, t.rate+rng.IntN(4)) - c.Cost
	if rng.IntN(100) < 3 {
		c.Cost = 0
	} else {
		r := max(t.rate, 0)
		c.RateRemaining = &r
	}
	if rng.IntN(100) < 7 {
		e := trafficErrors[rng.IntN(len(trafficErrors))]
		c.Status, c.ErrorCode, c.Cost = e.status, e.code, 0
		c.ErrorBody = fmt.Appendf(nil, `{"ok":false,"error":%q,"code":%q,"requestId":%q}`, e.message, e.code, id)
	}
	c.Replayed = rng.IntN(100) == 0
	return c
}

// TrafficErrorCodes are the error codes Traffic answers with.
func TrafficErrorCodes() []string {
	var out []string
	for _, e := range trafficErrors {
		out = append(out, e.code)
	}
	return out
}

// TrafficOperations are the operations Traffic calls.
func TrafficOperations() []string {
	var out []string
	for _, o := range trafficOps {
		out = append(out, o.name)
	}
	return out
}

var trafficOps = []struct {
	name, method, path string
	cost               int
	token              bool
}{
	{"getTokenPrice", "GET", "/v1/tokens/%s/price", 1, true},
	{"getTrending", "GET", "/v1/trending", 1, false},
	{"getPoolChart", "GET", "/v1/pools/%s/chart", 5, true},
	{"getQuote", "POST", "/v1/quotes", 2, false},
	{"buildSwap", "POST", "/v1/swaps/build", 10, false},
	{"getBalances", "GET", "/v1/wallets/%s/balances", 3, true},
	{"getToken", "GET", "/v1/tokens/%s", 1, true},
}

var trafficErrors = []struct {
	status        int
	code, message string
}{
	{400, "invalid_address", "mint must be an EVM address (0x followed by 40 hex digits)"},
	{404, "not_found", "no such token on this chain"},
	{429, "rate_limited", "rate limit exceeded: retry after the Retry-After seconds"},
	{502, "upstream_unavailable", "the price source did not answer in time"},
	{499, "client_closed_request", "the caller went away before the answer"},
	{422, "chain_not_enabled", "chain solana is not enabled for this consumer"},
}

var trafficChains = []string{"base", "ethereum", "ethereum", "arbitrum", ""}

var trafficAddrs = []netip.Addr{netip.MustParseAddr("203.0.113.7"), netip.MustParseAddr("203.0.113.8"),
	netip.MustParseAddr("2001:db8::15")}

var trafficTokens = func() []string {
	rng := rand.New(rand.NewPCG(7, 7))
	var out []string
	for range 24 {
		out = append(out, fmt.Sprintf("0x%040x", rng.Uint64()<<32|rng.Uint64()))
	}
	return out
}()
