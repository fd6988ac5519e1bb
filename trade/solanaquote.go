package trade

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/chain"
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

// solanaQuoteOf is the quote of route r for slippageBps, read at slot, computed in took:
// outAmount is what the payer receives (Token-2022 transfer fees withheld), otherAmountThreshold
// that less slippageBps, rounded down; priceImpactPct is a fraction, as Jupiter writes it.
func solanaQuoteOf(chainName string, r chain.SVMRoute, slippageBps int, slot uint64, took time.Duration, now time.Time) SolanaQuote {
	out := r.Received()
	q := SolanaQuote{
		Chain: chainName, InputMint: r.Hops[0].InputMint, InAmount: strconv.FormatUint(r.AmountIn(), 10),
		OutputMint: r.Hops[len(r.Hops)-1].OutputMint, OutAmount: strconv.FormatUint(out, 10),
		OtherAmountThreshold: chain.MinOut(new(big.Int).SetUint64(out), slippageBps).String(),
		SwapMode:             SwapModeExactIn, SlippageBps: slippageBps, PriceImpactPct: "0",
		ContextSlot: slot, TimeTaken: took.Seconds(), ExpiresAt: now.Add(QuoteTTL).Unix(),
	}
	if r.PriceImpact != nil {
		q.PriceImpactPct = chain.FormatPercent(new(big.Rat).Quo(r.PriceImpact, big.NewRat(100, 1)), 8)
	}
	for _, h := range r.Hops {
		q.RoutePlan = append(q.RoutePlan, SolanaRouteStep{Percent: 100, SwapInfo: SolanaSwapInfo{
			AmmKey: h.Pool, Label: h.Venue, InputMint: h.InputMint, OutputMint: h.OutputMint,
			InAmount: strconv.FormatUint(h.AmountIn, 10), OutAmount: strconv.FormatUint(h.Received, 10),
			FeeAmount: strconv.FormatUint(h.Fee, 10), FeeMint: h.FeeMint,
		}})
	}
	return q
}

// SolanaAccounts reads raw accounts at one slot in one JSON-RPC round trip (chain/solana's
// Source).
type SolanaAccounts interface {
	Accounts(ctx context.Context, keys []string) ([]chain.SVMAccount, uint64, error)
}

// solanaQuoter quotes swaps on a Solana chain: each swap venue's best route (its pools of the
// pair and two-hop routes through wrapped SOL and the chain's USD stablecoins), every venue's
// accounts read in one getMultipleAccounts, the best route of all quoted.
type solanaQuoter struct {
	accounts SolanaAccounts
	mids     []string // wrapped SOL, then the USD stablecoins
	venues   []chain.SVMSwapVenue

	mu    sync.Mutex
	plans map[[2]string]*swapPlans // by input and output: a plan never changes
}

// swapPlans are the plans of a pair, one per venue, and the accounts they read, concatenated.
type swapPlans struct {
	plans []chain.SVMSwapPlan
	// at[i] is where plans[i]'s addresses start in addresses.
	at        []int
	addresses []string
}

// maxPlans bounds the plans a quoter keeps (each about 70 addresses); past it, it starts over.
const maxPlans = 4096

// plan is the pair's read plans, derived once (for raydium about 60 program addresses, 0.75 ms of
// CPU) and kept. Errors: the venues' (ErrInvalid).
func (q *solanaQuoter) plan(in, out string) (*swapPlans, error) {
	key := [2]string{in, out}
	q.mu.Lock()
	p := q.plans[key]
	q.mu.Unlock()
	if p != nil {
		return p, nil
	}
	p = &swapPlans{}
	for _, v := range q.venues {
		vp, err := v.PlanSwap(in, out, q.mids)
		if err != nil {
			return nil, err
		}
		p.plans = append(p.plans, vp)
		p.at = append(p.at, len(p.addresses))
		p.addresses = append(p.addresses, vp.Addresses()...)
	}
	q.mu.Lock()
	if q.plans == nil || len(q.plans) >= maxPlans {
		q.plans = map[[2]string]*swapPlans{}
	}
	q.plans[key] = p
	q.mu.Unlock()
	return p, nil
}

// accountsOf are plan i's accounts among the plans' accounts read.
func (p *swapPlans) accountsOf(i int, accounts []chain.SVMAccount) []chain.SVMAccount {
	return accounts[p.at[i] : p.at[i]+len(p.plans[i].Addresses())]
}

// best is the route that delivers the most among every venue's best; the error of the first venue
// when none has one.
func (p *swapPlans) best(accounts []chain.SVMAccount, amountIn uint64) (chain.SVMRoute, error) {
	var best chain.SVMRoute
	var firstErr error
	for i, vp := range p.plans {
		r, err := vp.Best(p.accountsOf(i, accounts), amountIn)
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case best.Hops == nil || r.Received() > best.Received():
			best = r
		}
	}
	if best.Hops == nil {
		if firstErr == nil {
			firstErr = fmt.Errorf("%w: no venue serves swaps", ErrNoRoute)
		}
		return best, firstErr
	}
	return best, nil
}

// venuePlan is the plan of the venue called name, with its index.
func (p *swapPlans) venuePlan(name string, venues []chain.SVMSwapVenue) (int, chain.SVMSwapPlan, bool) {
	for i, v := range venues {
		if v.Spec().Name == name {
			return i, p.plans[i], true
		}
	}
	return 0, nil, false
}

// newSolanaQuoter is the quoter of a Solana chain with a pool reader; nil when none of its venues
// serves swaps.
func newSolanaQuoter(c *SolanaChain) *solanaQuoter {
	q := &solanaQuoter{accounts: c.Accounts, mids: append([]string{chain.WrappedSOL}, c.Stablecoins...)}
	for _, v := range c.Venues {
		if sv, ok := v.(chain.SVMSwapVenue); ok {
			q.venues = append(q.venues, sv)
		}
	}
	if len(q.venues) == 0 {
		return nil
	}
	return q
}

// quote is the best exact-input route for amount (base units) of input into output; input and
// output are mint addresses (wrapped SOL's for SOL). Errors: ErrInvalid (an address that is not a
// Solana address, also matching chain.ErrInvalidAddress; the same mint twice), ErrInvalidAmount
// (beyond a u64), ErrNoRoute (no pool of a venue trades the pair, directly or through a middle
// mint, for this amount), and the adapter's.
func (q *solanaQuoter) quote(ctx context.Context, chainName, input, output string, amount *big.Int, slippageBps int, now time.Time) (SolanaQuote, error) {
	began := time.Now()
	plans, err := q.plan(input, output)
	if err != nil {
		return SolanaQuote{}, err
	}
	if !amount.IsUint64() {
		return SolanaQuote{}, fmt.Errorf("%w: amount %s exceeds a Solana token amount (a u64)", ErrInvalidAmount, amount)
	}
	accounts, slot, err := q.accounts.Accounts(ctx, plans.addresses)
	if err != nil {
		return SolanaQuote{}, err
	}
	route, err := plans.best(accounts, amount.Uint64())
	if err != nil {
		return SolanaQuote{}, err
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
