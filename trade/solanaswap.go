package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/market"
)

// QuoteReviewError: a Solana swap build's quote has expired, or the pools have moved so that the
// route no longer delivers the quote's otherAmountThreshold (409 review_required). Fresh is a new
// quote of the same swap, sealed for the consumer, to build from after review.
type QuoteReviewError struct {
	Reason string
	Fresh  *SolanaQuote // nil when no route trades the swap any more
}

func (e *QuoteReviewError) Error() string {
	return e.Reason + ": review the fresh quote, then build again with it as quoteResponse"
}

// solanaSwapTxID is the id of a Solana swap build's one transaction.
const solanaSwapTxID = "swap"

// buildSolanaSwap builds the swap a sealed quote describes, for user, who signs and pays the fees:
// one v0 transaction with the Compute Budget instructions (the limit from a simulation, a priority
// fee from recent fees), the user's token accounts created where missing (idempotently), SOL
// wrapped into and unwrapped out of wrapped SOL where the route starts or ends there, and one
// swap_base_input per hop, the last with the quote's otherAmountThreshold as its minimum. Two round
// trips: the pools, the user's accounts, the blockhash and the recent fees in one batch; the
// simulation. Simulated before it is returned.
//
// Errors: ErrInvalid wrapping ErrQuoteAltered (a quote this service did not make for this consumer
// and chain, or altered), ErrInvalid (a user that is not a Solana address); *QuoteReviewError (the
// quote expired, or the pools moved beyond its slippage: 409 with a fresh quote);
// ErrPrerequisite (the user cannot pay); *SimulationError; and the adapter's and the store's.
func (s *Service) buildSolanaSwap(ctx context.Context, consumerID int, sc *SolanaChain, user string, q SolanaQuote) (Build, error) {
	if err := s.sealer.verify(consumerID, sc.Name, q); err != nil {
		return Build{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	payer, err := svm.DecodeAddress(user)
	if err != nil {
		return Build{}, fmt.Errorf("%w: user: %w: %w", ErrInvalid, chain.ErrInvalidAddress, err)
	}
	amountIn, _ := strconv.ParseUint(q.InAmount, 10, 64) // sealed: ours
	threshold, _ := strconv.ParseUint(q.OtherAmountThreshold, 10, 64)
	quoted := quotedRoute(q)
	plans, err := sc.quoter.plan(q.InputMint, q.OutputMint)
	if err != nil {
		return Build{}, err
	}
	at, plan, ok := plans.venuePlan(quoted.Hops[0].Venue, sc.quoter.venues)
	if !ok {
		return Build{}, fmt.Errorf("%w: the quote's venue %s does not serve swaps on %s", ErrNotSupported, quoted.Hops[0].Venue, sc.Name)
	}
	// The user's possible token accounts of the route's mints (both token programs): read to know
	// which exist, and observed after the simulation for the rent of those it creates.
	var wallet []string
	for _, m := range plan.Mints() {
		mint := svm.MustAddress(m)
		for _, p := range [][32]byte{svm.TokenProgram, svm.Token2022Program} {
			wallet = append(wallet, svm.EncodeAddress(svm.AssociatedTokenAccount(payer, mint, p)))
		}
	}
	reads := append(append([]string{user}, plans.addresses...), wallet...)
	now := s.now()

	var route chain.SVMRoute // the quote's route, fresh, as the read state prices it
	var creates []string
	build := func(state map[string]chain.SVMAccount, slot uint64) ([]chain.SVMCall, error) {
		all := make([]chain.SVMAccount, len(plans.addresses))
		for i, a := range plans.addresses {
			all[i] = state[a]
		}
		accounts := plans.accountsOf(at, all)
		fresh := func(reason string) error {
			r, err := plans.best(all, amountIn)
			if err != nil {
				return &QuoteReviewError{Reason: reason + "; no route trades it now"}
			}
			fq := solanaQuoteOf(sc.Name, r, q.SlippageBps, slot, 0, now)
			if err := s.sealer.seal(consumerID, sc.Name, &fq); err != nil {
				return err
			}
			return &QuoteReviewError{Reason: reason, Fresh: &fq}
		}
		if now.Unix() > q.ExpiresAt {
			return nil, fresh(fmt.Sprintf("the quote expired at %s (quotes are good for %s)", time.Unix(q.ExpiresAt, 0).UTC().Format(time.RFC3339), QuoteTTL))
		}
		var err error
		if route, err = plan.Reprice(accounts, quoted, amountIn); err != nil {
			return nil, fresh(err.Error())
		}
		if got := route.Received(); got < threshold {
			return nil, fresh(fmt.Sprintf("the pools moved: the route now delivers %d, below the quote's otherAmountThreshold %d", got, threshold))
		}
		var calls []chain.SVMCall
		calls, creates, err = plan.Build(accounts, quoted, user, threshold, func(a string) bool { return state[a].Exists })
		if err != nil {
			return nil, err
		}
		if q.InputMint == chain.WrappedSOL && state[user].Lamports < amountIn {
			return nil, fmt.Errorf("%w: the user holds %s SOL, less than the %s SOL the swap sells", ErrPrerequisite,
				market.Units(new(big.Int).SetUint64(state[user].Lamports), chain.SOLDecimals), market.Units(new(big.Int).SetUint64(amountIn), chain.SOLDecimals))
		}
		return calls, nil
	}
	writable := []string{user}
	for _, st := range q.RoutePlan {
		writable = append(writable, st.SwapInfo.AmmKey)
	}
	var buildErr error
	built, err := sc.Client.Build(ctx, chain.SVMBuildRequest{Op: "build swap", Payer: user, Reads: reads, Writable: writable, Observe: wallet,
		Make: func(state map[string]chain.SVMAccount, slot uint64) ([]chain.SVMCall, error) {
			calls, err := build(state, slot)
			buildErr = err
			return calls, err
		}})
	if review, ok := errors.AsType[*QuoteReviewError](err); ok {
		return Build{}, review
	}
	// The venue's and the service's own errors are not the adapter's: they keep the operation's
	// prefix (only amount and address errors are classified by solanaError).
	if buildErr != nil && !errors.Is(buildErr, chain.ErrInvalidAmount) && !errors.Is(buildErr, chain.ErrInvalidAddress) {
		return Build{}, fmt.Errorf("swap: %w", buildErr)
	}
	if err != nil {
		return Build{}, solanaError("swap", err)
	}

	b := Build{
		Transactions: []Tx{{ID: solanaSwapTxID, From: user, Encoding: "base64", Payload: &Payload{Transaction: built.Transaction}}},
		Fees:         []Fee{txFee(solanaSwapTxID, "network", Native, built.NetworkFee-built.PriorityFee, chain.SOLDecimals), txFee(solanaSwapTxID, FeePriority, Native, built.PriorityFee, chain.SOLDecimals)},
		SolanaQuote:  &q,
	}
	wsol := svm.EncodeAddress(svm.AssociatedTokenAccount(payer, svm.NativeMint, svm.TokenProgram))
	for _, a := range creates {
		if a != wsol { // the wrapped SOL account is closed at the end: its deposit comes back
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeRent, Native, built.After[a], chain.SOLDecimals))
		}
	}
	for _, h := range route.Hops {
		fee := txFee(solanaSwapTxID, "venue", h.InputMint, h.TradeFee, h.InputDecimals)
		fee.Venue, fee.Pool = h.Venue, h.Pool
		b.Fees = append(b.Fees, fee)
		if h.InputTransferFee > 0 {
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeTransferFee, h.InputMint, h.InputTransferFee, h.InputDecimals))
		}
		if h.OutputTransferFee > 0 {
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeTransferFee, h.OutputMint, h.OutputTransferFee, h.OutputDecimals))
		}
	}
	b.Metadata = map[string]any{"venue": quoted.Hops[0].Venue, "inputMint": q.InputMint, "outputMint": q.OutputMint, "inAmount": q.InAmount,
		"outAmount": strconv.FormatUint(route.Received(), 10), "otherAmountThreshold": q.OtherAmountThreshold,
		"blockhash": built.Blockhash, "lastValidBlockHeight": built.LastValidBlockHeight, "simulatedAtSlot": built.SimulatedSlot,
		"computeUnitLimit": built.ComputeUnitLimit, "computeUnitPrice": strconv.FormatUint(built.ComputeUnitPrice, 10)}
	if err := s.tokens.issue(consumerID, sc.Name, &b, now); err != nil {
		return Build{}, err
	}
	return b, nil
}

// quotedRoute is the route a quote describes: its pools and mints in order, each hop sending and
// receiving what the quote says (a later hop sends exactly what the hop before was quoted to
// deliver), which the build's instructions carry.
func quotedRoute(q SolanaQuote) chain.SVMRoute {
	var r chain.SVMRoute
	for _, st := range q.RoutePlan {
		in, _ := strconv.ParseUint(st.SwapInfo.InAmount, 10, 64)
		got, _ := strconv.ParseUint(st.SwapInfo.OutAmount, 10, 64)
		r.Hops = append(r.Hops, chain.SVMHop{Venue: st.SwapInfo.Label, Pool: st.SwapInfo.AmmKey, InputMint: st.SwapInfo.InputMint,
			OutputMint: st.SwapInfo.OutputMint, AmountIn: in, Received: got})
	}
	return r
}
