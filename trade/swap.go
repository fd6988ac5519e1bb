package trade

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
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

// buildSwap builds a swap on an EVM chain (BuildSwap).
func (c *EVMChain) buildSwap(ctx context.Context, s *Service, consumerID int, r SwapRequest) (Build, error) {
	user := strings.ToLower(r.User)
	in, nativeIn := c.token(r.InputMint)
	extra := evm.TradeRead{Owner: user}
	if !nativeIn {
		extra.Balances = []string{in}
		for _, v := range c.Venues {
			extra.Allowances = append(extra.Allowances, evm.Allowance{Token: in, Spender: v.Router})
		}
	}
	amount := bigOf(r.Amount)
	q, err := s.quote(ctx, c, r.InputMint, r.OutputMint, amount, r.SlippageBps, extra)
	if err != nil {
		return Build{}, err
	}
	loss := valueLossPpm(uniswapv2.PriceImpact(amount, q.best.delivered, q.best.hops))
	if loss > ReviewThresholdPpm && (r.MaxValueLossPpm == nil || *r.MaxValueLossPpm < loss) {
		return Build{}, &ReviewError{ValueLossPpm: loss}
	}
	st := q.state
	venue := q.best.legs[0].venue
	var steps []step
	if nativeIn {
		if st.Native.Cmp(amount) < 0 {
			return Build{}, insufficient(c.Info.NativeToken, st.Native, amount, nativeDecimals)
		}
	} else {
		if st.Balances[0] == nil || st.Balances[0].Cmp(amount) < 0 {
			return Build{}, insufficient(in, st.Balances[0], amount, st.Decimals[0])
		}
		allowance := st.Allowances[indexOfVenue(c, venue.Name)]
		if a := approval(in, user, venue.Router, allowance, amount); a != nil {
			steps = append(steps, *a)
		}
	}
	path := []string{q.in}
	for _, l := range q.best.legs {
		path = append(path, l.tokenOut)
	}
	kind, value := evm.TokensForTokens, (*big.Int)(nil)
	switch {
	case q.nativeIn:
		kind, value = evm.NativeForTokens, amount
	case q.nativeOut:
		kind = evm.TokensForNative
	}
	minOut := bigOf(q.quote.MinOutAmount)
	deadline := s.now().Add(RouterDeadline).Unix()
	steps = append(steps, step{id: "swap", to: venue.Router, value: value,
		data: evm.SwapData(kind, amount, minOut, path, user, deadline, q.quote.FeeOnTransfer)})

	var venueFees []Fee
	for _, h := range q.quote.Route {
		fee := newFee("venue", h.TokenIn, new(big.Int).Div(new(big.Int).Mul(bigOf(h.AmountIn), big.NewInt(int64(h.FeeBps))), bigBps),
			q.decimalsOf(c, h.TokenIn))
		fee.Venue, fee.Pool, fee.FeeBps = h.Venue, h.Pool, h.FeeBps
		venueFees = append(venueFees, fee)
	}
	quote := q.quote
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: q.nativeUSD, venueFees: venueFees, quote: &quote,
		metadata: map[string]any{"venue": venue.Name, "router": venue.Router, "deadline": deadline, "valueLossPpm": loss,
			"minOutAmount": q.quote.MinOutAmount}}, steps)
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

func indexOfVenue(c *EVMChain, name string) int {
	for i, v := range c.Venues {
		if v.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("trade: venue %s not on %s", name, c.Info.Name))
}
