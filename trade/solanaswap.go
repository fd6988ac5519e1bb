package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/venue/raydium"
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
	payer, err := raydium.ParsePubkey(user)
	if err != nil {
		return Build{}, fmt.Errorf("%w: user: %w", ErrInvalid, err)
	}
	in, out := raydium.MustPubkey(q.InputMint), raydium.MustPubkey(q.OutputMint) // sealed: ours
	amountIn, _ := strconv.ParseUint(q.InAmount, 10, 64)
	threshold, _ := strconv.ParseUint(q.OtherAmountThreshold, 10, 64)
	plan, err := sc.quoter.plan(in, out)
	if err != nil {
		return Build{}, err
	}
	// The user's possible token accounts of the route's mints (both token programs): read to know
	// which exist, and observed after the simulation for the rent of those it creates.
	var wallet []string
	for _, m := range plan.Mints {
		for _, p := range []raydium.Pubkey{raydium.TokenProgram, raydium.Token2022Program} {
			wallet = append(wallet, raydium.AssociatedTokenAccount(payer, m, p).String())
		}
	}
	reads := append(append([]string{user}, plan.Addresses...), wallet...)
	now := s.now()

	var route raydium.Route // the quote's route, fresh, as the read state prices it
	var swap raydium.SwapBuild
	decimals := map[raydium.Pubkey]uint8{}
	build := func(state map[string]chain.SVMAccount, slot uint64) ([]chain.SVMCall, error) {
		accounts := make([]chain.SVMAccount, len(plan.Addresses))
		for i, a := range plan.Addresses {
			accounts[i] = state[a]
		}
		pools, err := plan.Snapshots(accounts)
		if err != nil {
			return nil, err
		}
		fresh := func(reason string) error {
			r, err := raydium.BestRoute(pools, in, out, amountIn, sc.quoter.mids)
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
		if route, err = quotedRoute(q, pools, amountIn); err != nil {
			return nil, fresh(err.Error())
		}
		if got := route.Received(); got < threshold {
			return nil, fresh(fmt.Sprintf("the pools moved: the route now delivers %d, below the quote's otherAmountThreshold %d", got, threshold))
		}
		states := map[raydium.Pubkey]raydium.PoolState{}
		for _, p := range pools {
			states[p.Address] = p.Pool
			decimals[p.Pool.Token0Mint], decimals[p.Pool.Token1Mint] = p.Pool.Mint0Decimals, p.Pool.Mint1Decimals
		}
		swap, err = raydium.BuildSwap(quotedAmounts(route, q), states, payer, threshold, func(k raydium.Pubkey) bool { return state[k.String()].Exists })
		if err != nil {
			return nil, err
		}
		if in == raydium.NativeMint && state[user].Lamports < amountIn {
			return nil, fmt.Errorf("%w: the user holds %s SOL, less than the %s SOL the swap sells", ErrPrerequisite,
				market.Units(new(big.Int).SetUint64(state[user].Lamports), solana.SOLDecimals), market.Units(new(big.Int).SetUint64(amountIn), solana.SOLDecimals))
		}
		calls := make([]chain.SVMCall, len(swap.Instructions))
		for i, ix := range swap.Instructions {
			calls[i] = ix.Call()
		}
		return calls, nil
	}
	writable := []string{user}
	for _, st := range q.RoutePlan {
		writable = append(writable, st.SwapInfo.AmmKey)
	}
	built, err := sc.Client.Build(ctx, solana.BuildRequest{Op: "build swap", Payer: user, Reads: reads, Writable: writable, Observe: wallet, Make: build})
	if review, ok := errors.AsType[*QuoteReviewError](err); ok {
		return Build{}, review
	}
	if err != nil {
		return Build{}, solanaError("swap", err)
	}

	b := Build{
		Transactions: []Tx{{ID: solanaSwapTxID, From: user, Encoding: "base64", Payload: &Payload{Transaction: built.Transaction}}},
		Fees:         []Fee{txFee(solanaSwapTxID, "network", Native, built.NetworkFee-built.PriorityFee, solana.SOLDecimals), txFee(solanaSwapTxID, FeePriority, Native, built.PriorityFee, solana.SOLDecimals)},
		SolanaQuote:  &q,
	}
	for _, a := range swap.Creates {
		if a != wsolAccount(payer) { // the wrapped SOL account is closed at the end: its deposit comes back
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeRent, Native, built.After[a.String()], solana.SOLDecimals))
		}
	}
	for _, h := range route.Hops {
		p := h.Pool.String()
		fee := txFee(solanaSwapTxID, "venue", h.InputMint.String(), h.Quote.TradeFee, int(decimals[h.InputMint]))
		fee.Venue, fee.Pool = raydium.VenueName, p
		b.Fees = append(b.Fees, fee)
		if h.Quote.InputTransferFee > 0 {
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeTransferFee, h.InputMint.String(), h.Quote.InputTransferFee, int(decimals[h.InputMint])))
		}
		if h.Quote.OutputTransferFee > 0 {
			b.Fees = append(b.Fees, txFee(solanaSwapTxID, FeeTransferFee, h.OutputMint.String(), h.Quote.OutputTransferFee, int(decimals[h.OutputMint])))
		}
	}
	b.Metadata = map[string]any{"venue": raydium.VenueName, "inputMint": q.InputMint, "outputMint": q.OutputMint, "inAmount": q.InAmount,
		"outAmount": strconv.FormatUint(route.Received(), 10), "otherAmountThreshold": q.OtherAmountThreshold,
		"blockhash": built.Blockhash, "lastValidBlockHeight": built.LastValidBlockHeight, "simulatedAtSlot": built.SimulatedSlot,
		"computeUnitLimit": built.ComputeUnitLimit, "computeUnitPrice": strconv.FormatUint(built.ComputeUnitPrice, 10)}
	if err := s.tokens.issue(consumerID, sc.Name, &b, now); err != nil {
		return Build{}, err
	}
	return b, nil
}

// quotedRoute is the quote's route priced on the pools read: the same pools in the same order,
// the first sending the quote's inAmount and each next one what the one before delivers.
func quotedRoute(q SolanaQuote, pools []raydium.PoolSnapshot, amountIn uint64) (raydium.Route, error) {
	var r raydium.Route
	amount := amountIn
	for _, st := range q.RoutePlan {
		i := -1
		for j := range pools {
			if pools[j].Address.String() == st.SwapInfo.AmmKey {
				i = j
			}
		}
		if i < 0 {
			return raydium.Route{}, fmt.Errorf("pool %s of the quote's route is gone", st.SwapInfo.AmmKey)
		}
		p := &pools[i]
		zeroForOne := p.Pool.Token0Mint.String() == st.SwapInfo.InputMint
		sq, err := p.SwapBaseInput(zeroForOne, amount)
		if err != nil {
			return raydium.Route{}, fmt.Errorf("pool %s no longer trades the amount: %w", st.SwapInfo.AmmKey, err)
		}
		r.Hops = append(r.Hops, raydium.Hop{Pool: p.Address, ZeroForOne: zeroForOne, InputMint: raydium.MustPubkey(st.SwapInfo.InputMint),
			OutputMint: raydium.MustPubkey(st.SwapInfo.OutputMint), Quote: sq})
		amount = sq.Received
	}
	return r, nil
}

// quotedAmounts is route with each hop sending what the quote said it sends (a later hop sends
// exactly what the hop before was quoted to deliver), which the build's instructions carry.
func quotedAmounts(r raydium.Route, q SolanaQuote) raydium.Route {
	out := raydium.Route{Hops: append([]raydium.Hop(nil), r.Hops...)}
	for i, st := range q.RoutePlan {
		in, _ := strconv.ParseUint(st.SwapInfo.InAmount, 10, 64)
		got, _ := strconv.ParseUint(st.SwapInfo.OutAmount, 10, 64)
		out.Hops[i].Quote.AmountIn, out.Hops[i].Quote.Received = in, got
	}
	return out
}

// wsolAccount is owner's wrapped SOL account, which a build closes at its end.
func wsolAccount(owner raydium.Pubkey) raydium.Pubkey {
	return raydium.AssociatedTokenAccount(owner, raydium.NativeMint, raydium.TokenProgram)
}
