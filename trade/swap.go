package trade

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// ReviewThresholdPpm is the value loss above which a swap build needs a reviewed maxValueLossPpm:
// 3 %, measured as the execution price against the route's mid price (so the venue's fee counts).
// A swap of about 2.7 % of a 0.3 %-fee pool's depth crosses it.
const ReviewThresholdPpm = 30_000

// SwapRequest is an EVM swap build: sell Amount (base units) of InputMint for OutputMint.
type SwapRequest struct {
	Chain, User           string
	InputMint, OutputMint string // 0x addresses or Native
	Amount                string // base units, already checked
	SlippageBps           int
	MaxValueLossPpm       *int // the caller's reviewed bound; never set for it
	// Quote is a Solana swap's quote, sent back unchanged (the other fields but Chain and User are
	// the EVM build's).
	Quote *SolanaQuote
}

// BuildSwap requotes and builds the swap: an exact approve of the router when the allowance falls
// short, then the router's exact-input swap (its ETH variants for a native side) paying the user,
// with minOut from slippageBps. Errors: ErrInvalid, ErrNoRoute, ErrPrerequisite (balance),
// *ReviewError, *SimulationError, and the adapter's and the store's. On a Solana chain it builds
// r.Quote (buildSolanaSwap).
func (s *Service) BuildSwap(ctx context.Context, consumerID int, r SwapRequest) (Build, error) {
	c, err := s.swapChainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.buildSwap(ctx, s, consumerID, r)
}

// buildSwap builds a swap on an EVM chain (BuildSwap): the call of the router that executes the
// best route (executor).
func (c *EVMChain) buildSwap(ctx context.Context, s *Service, consumerID int, r SwapRequest) (Build, error) {
	user := strings.ToLower(r.User)
	in, nativeIn := c.token(r.InputMint)
	extra := chain.EVMTradeRead{Owner: user}
	routers := c.routers()
	if !nativeIn {
		extra.Balances = []string{in}
		for _, router := range routers {
			extra.Allowances = append(extra.Allowances, chain.EVMAllowance{Token: in, Spender: router})
		}
	}
	amount := bigOf(r.Amount)
	q, err := s.quote(ctx, c, r.InputMint, r.OutputMint, amount, r.SlippageBps, extra)
	if err != nil {
		return Build{}, err
	}
	loss := valueLossPpm(priceImpact(amount, q.best.delivered, q.best.hops))
	if loss > ReviewThresholdPpm && (r.MaxValueLossPpm == nil || *r.MaxValueLossPpm < loss) {
		return Build{}, &ReviewError{ValueLossPpm: loss}
	}
	st := q.state
	venue, ok := c.executor(q.best.legs, q.quote.FeeOnTransfer)
	if !ok { // the quote only takes routes a router executes
		return Build{}, fmt.Errorf("%w: no router of %s executes the route", ErrNoRoute, c.Info.Name)
	}
	route := chain.EVMSwapRoute{Path: []string{q.in}, AmountIn: amount, MinOut: bigOf(q.quote.MinOutAmount), Recipient: user,
		NativeIn: q.nativeIn, NativeOut: q.nativeOut, FeeOnTransfer: q.quote.FeeOnTransfer, Deadline: s.now().Add(RouterDeadline).Unix()}
	for _, l := range q.best.legs {
		route.Pools = append(route.Pools, l.pool)
		route.Path = append(route.Path, l.tokenOut)
	}
	call := venue.SwapCall(venue.cfg, route)
	var steps []step
	if nativeIn {
		if st.Native.Cmp(amount) < 0 {
			return Build{}, insufficient(c.Info.NativeToken, st.Native, amount, nativeDecimals)
		}
	} else {
		if st.Balances[0] == nil || st.Balances[0].Cmp(amount) < 0 {
			return Build{}, insufficient(in, st.Balances[0], amount, st.Decimals[0])
		}
		allowance := st.Allowances[slices.Index(routers, call.To)]
		if a := approval(in, user, call.To, allowance, amount); a != nil {
			steps = append(steps, *a)
		}
	}
	steps = append(steps, callStep("swap", call))

	var venueFees []Fee
	for i, h := range q.quote.Route {
		pips := big.NewInt(int64(q.best.legs[i].pool.FeePips))
		fee := newFee("venue", h.TokenIn, new(big.Int).Div(new(big.Int).Mul(bigOf(h.AmountIn), pips), bigPips), q.decimalsOf(c, h.TokenIn))
		fee.Venue, fee.Pool, fee.FeeBps = h.Venue, h.Pool, h.FeeBps
		venueFees = append(venueFees, fee)
	}
	quote := q.quote
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: q.nativeUSD, venueFees: venueFees, quote: &quote,
		metadata: map[string]any{"venue": venue.Spec().Name, "router": call.To, "deadline": route.Deadline, "valueLossPpm": loss,
			"minOutAmount": q.quote.MinOutAmount}}, steps)
}

// bigPips is the denominator of fees in pips.
var bigPips = big.NewInt(1_000_000)

// routers are the routers of the chain's swap venues, each once.
func (c *EVMChain) routers() []string {
	var out []string
	for _, v := range c.Swaps {
		if !slices.Contains(out, v.cfg.Router) {
			out = append(out, v.cfg.Router)
		}
	}
	return out
}

// valueLossPpm is a loss fraction in parts per million, rounded up.
func valueLossPpm(loss *big.Rat) int {
	if loss.Sign() <= 0 {
		return 0
	}
	ppm := new(big.Rat).Mul(loss, big.NewRat(1_000_000, 1))
	q, m := new(big.Int).QuoRem(ppm.Num(), ppm.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > 1_000_000 {
		return 1_000_000
	}
	return int(q.Int64())
}
