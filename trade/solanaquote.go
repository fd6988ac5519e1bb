package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/venue/raydium"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
)

// SolanaQuote is an exact-input swap quote on a Solana chain in the shape of Jupiter's v6
// QuoteResponse, so that Solana tooling reads it as is, plus the chain, when it expires and its
// seal: a swap build takes it back unchanged (see sealer). Amounts are integer base-unit strings.
type SolanaQuote struct {
	Chain                string            `json:"chain"`
	InputMint            string            `json:"inputMint"`
	InAmount             string            `json:"inAmount"`
	OutputMint           string            `json:"outputMint"`
	OutAmount            string            `json:"outAmount"`
	OtherAmountThreshold string            `json:"otherAmountThreshold"`
	SwapMode             string            `json:"swapMode"`
	SlippageBps          int               `json:"slippageBps"`
	PlatformFee          *PlatformFee      `json:"platformFee"`
	PriceImpactPct       string            `json:"priceImpactPct"`
	RoutePlan            []SolanaRouteStep `json:"routePlan"`
	ContextSlot          uint64            `json:"contextSlot"`
	TimeTaken            float64           `json:"timeTaken"`
	ExpiresAt            int64             `json:"expiresAt"`
	Seal                 string            `json:"seal"`
}

// PlatformFee is Jupiter's platform fee of a quote: none is charged here, so quotes carry null.
type PlatformFee struct {
	Amount string `json:"amount"`
	FeeBps int    `json:"feeBps"`
}

// SolanaRouteStep is one pool of a Solana quote's route (Jupiter's routePlan entry).
type SolanaRouteStep struct {
	SwapInfo SolanaSwapInfo `json:"swapInfo"`
	Percent  int            `json:"percent"`
}

// SolanaSwapInfo is what one pool of a route swaps: Jupiter's swapInfo. FeeAmount is the pool's
// trade fee (and creator fee, where the pool charges one on the same side) in FeeMint.
type SolanaSwapInfo struct {
	AmmKey     string `json:"ammKey"`
	Label      string `json:"label"`
	InputMint  string `json:"inputMint"`
	OutputMint string `json:"outputMint"`
	InAmount   string `json:"inAmount"`
	OutAmount  string `json:"outAmount"`
	FeeAmount  string `json:"feeAmount"`
	FeeMint    string `json:"feeMint"`
}

// SwapModeExactIn is the only swap mode quoted: inAmount is sold exactly.
const SwapModeExactIn = "ExactIn"

// solanaQuoteOf is the quote of a raydium route for slippageBps, read at slot, computed in took:
// outAmount is what the payer receives (Token-2022 transfer fees withheld), otherAmountThreshold
// that less slippageBps, rounded down; priceImpactPct is a fraction, as Jupiter writes it.
func solanaQuoteOf(chainName string, r raydium.Route, slippageBps int, slot uint64, took time.Duration, now time.Time) SolanaQuote {
	out := r.Received()
	q := SolanaQuote{
		Chain: chainName, InputMint: r.Hops[0].InputMint.String(), InAmount: strconv.FormatUint(r.AmountIn(), 10),
		OutputMint: r.Hops[len(r.Hops)-1].OutputMint.String(), OutAmount: strconv.FormatUint(out, 10),
		OtherAmountThreshold: uniswapv2.MinOut(new(big.Int).SetUint64(out), slippageBps).String(),
		SwapMode:             SwapModeExactIn, SlippageBps: slippageBps, PriceImpactPct: "0",
		ContextSlot: slot, TimeTaken: took.Seconds(), ExpiresAt: now.Add(QuoteTTL).Unix(),
	}
	if imp := r.PriceImpact(); imp != nil {
		q.PriceImpactPct = uniswapv2.FormatPercent(new(big.Rat).Quo(imp, big.NewRat(100, 1)), 8)
	}
	for _, h := range r.Hops {
		fee, feeMint := h.Quote.TradeFee, h.InputMint
		if h.Quote.CreatorFeeOnInput {
			fee += h.Quote.CreatorFee
		}
		q.RoutePlan = append(q.RoutePlan, SolanaRouteStep{Percent: 100, SwapInfo: SolanaSwapInfo{
			AmmKey: h.Pool.String(), Label: raydium.VenueName, InputMint: h.InputMint.String(), OutputMint: h.OutputMint.String(),
			InAmount: strconv.FormatUint(h.Quote.AmountIn, 10), OutAmount: strconv.FormatUint(h.Quote.Received, 10),
			FeeAmount: strconv.FormatUint(fee, 10), FeeMint: feeMint.String(),
		}})
	}
	return q
}

// SolanaAccounts reads raw accounts at one slot in one JSON-RPC round trip (chain/solana's
// Source).
type SolanaAccounts interface {
	Accounts(ctx context.Context, keys []string) ([]chain.SVMAccount, uint64, error)
}

// DefaultAmmConfigs are the CPMM fee tiers a Solana quote considers when a chain names none: the
// configs at CPMM's indexes 0 to 3 (the tiers the local validator seeds, at their mainnet
// addresses).
var DefaultAmmConfigs = func() []string {
	out := make([]string, 4)
	for i := range out {
		out[i] = raydium.AmmConfigAddress(uint16(i)).String()
	}
	return out
}()

// solanaQuoter quotes swaps on a Solana chain: Raydium CPMM pools of the pair and two-hop routes
// through wrapped SOL and the chain's USD stablecoin, each at every configured fee tier, read in
// one getMultipleAccounts and quoted with CPMM's exact math.
type solanaQuoter struct {
	accounts SolanaAccounts
	mids     []raydium.Pubkey // wrapped SOL, then the USD stablecoins
	configs  []raydium.Pubkey

	mu    sync.Mutex
	plans map[[2]raydium.Pubkey]*raydium.QuotePlan // by input and output: a plan never changes
}

// maxPlans bounds the plans a quoter keeps (each about 70 addresses); past it, it starts over.
const maxPlans = 4096

// plan is the read plan of a pair's quotes, derived once (about 60 program addresses, 0.75 ms of
// CPU) and kept. Errors: raydium.ErrSameMint.
func (q *solanaQuoter) plan(in, out raydium.Pubkey) (*raydium.QuotePlan, error) {
	key := [2]raydium.Pubkey{in, out}
	q.mu.Lock()
	p := q.plans[key]
	q.mu.Unlock()
	if p != nil {
		return p, nil
	}
	p, err := raydium.PlanQuote(in, out, q.mids, q.configs)
	if err != nil {
		return nil, err
	}
	q.mu.Lock()
	if q.plans == nil || len(q.plans) >= maxPlans {
		q.plans = map[[2]raydium.Pubkey]*raydium.QuotePlan{}
	}
	q.plans[key] = p
	q.mu.Unlock()
	return p, nil
}

// newSolanaQuoter is the quoter of a Solana chain with a pool reader.
func newSolanaQuoter(c *SolanaChain) *solanaQuoter {
	q := &solanaQuoter{accounts: c.Accounts, mids: []raydium.Pubkey{raydium.MustPubkey(chain.WrappedSOL)}}
	for _, m := range c.Stablecoins {
		if k, err := raydium.ParsePubkey(m); err == nil {
			q.mids = append(q.mids, k)
		}
	}
	configs := c.AmmConfigs
	if len(configs) == 0 {
		configs = DefaultAmmConfigs
	}
	for _, a := range configs {
		if k, err := raydium.ParsePubkey(a); err == nil {
			q.configs = append(q.configs, k)
		}
	}
	return q
}

// quote is the best exact-input route for amount (base units) of input into output; input and
// output are mint addresses (wrapped SOL's for SOL). Errors: ErrInvalid (an address that is not a
// Solana address, also matching chain.ErrInvalidAddress; the same mint twice), ErrInvalidAmount
// (beyond a u64), ErrNoRoute (no pool of the venue trades the pair, directly or through a middle
// mint, for this amount), and the adapter's.
func (q *solanaQuoter) quote(ctx context.Context, chainName, input, output string, amount *big.Int, slippageBps int, now time.Time) (SolanaQuote, error) {
	began := time.Now()
	in, err := raydium.ParsePubkey(input)
	if err != nil {
		return SolanaQuote{}, fmt.Errorf("%w: inputMint: %w", ErrInvalid, err)
	}
	out, err := raydium.ParsePubkey(output)
	if err != nil {
		return SolanaQuote{}, fmt.Errorf("%w: outputMint: %w", ErrInvalid, err)
	}
	if !amount.IsUint64() {
		return SolanaQuote{}, fmt.Errorf("%w: amount %s exceeds a Solana token amount (a u64)", ErrInvalidAmount, amount)
	}
	plan, err := q.plan(in, out)
	if errors.Is(err, raydium.ErrSameMint) {
		return SolanaQuote{}, fmt.Errorf("%w: inputMint and outputMint are the same", ErrInvalid)
	}
	if err != nil {
		return SolanaQuote{}, err
	}
	accounts, slot, err := q.accounts.Accounts(ctx, plan.Addresses)
	if err != nil {
		return SolanaQuote{}, err
	}
	pools, err := plan.Snapshots(accounts)
	if err != nil {
		return SolanaQuote{}, err
	}
	route, err := raydium.BestRoute(pools, in, out, amount.Uint64(), q.mids)
	if err != nil {
		return SolanaQuote{}, fmt.Errorf("%w: %w", ErrNoRoute, err)
	}
	return solanaQuoteOf(chainName, route, slippageBps, slot, time.Since(began), now), nil
}

// quoteSolana quotes a swap on a Solana chain (Native is SOL, quoted as wrapped SOL) and seals the
// quote for consumerID: one JSON-RPC round trip.
func (s *Service) quoteSolana(ctx context.Context, consumerID int, sc *SolanaChain, inputMint, outputMint string, amount *big.Int, slippageBps int) (Quote, error) {
	if inputMint == Native {
		inputMint = chain.WrappedSOL
	}
	if outputMint == Native {
		outputMint = chain.WrappedSOL
	}
	q, err := sc.quoter.quote(ctx, sc.Name, inputMint, outputMint, amount, slippageBps, s.now())
	if err != nil {
		return Quote{}, solanaError("quote", err)
	}
	if err := s.sealer.seal(consumerID, sc.Name, &q); err != nil {
		return Quote{}, err
	}
	return Quote{Solana: &q}, nil
}
