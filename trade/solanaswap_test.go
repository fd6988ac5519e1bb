package trade

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// Solana swaps through the trade service against the local validator's CPMM pools (no background
// trader, so nothing trades between a quote and its transaction unless a test does): each quote is
// built, signed by a seeded keypair, sent, and the balances after must equal the quote exactly.

// quote quotes a swap for the consumer in one round trip.
func (e *solEnv) quote(t *testing.T, in, out string, amount uint64) SolanaQuote {
	t.Helper()
	before := e.rt.n.Load()
	q, err := e.svc.QuoteSwap(t.Context(), consumer, "solana", in, out, strconv.FormatUint(amount, 10), 100)
	if err != nil {
		t.Fatalf("quote %s -> %s: %v", in, out, err)
	}
	if n := e.rt.n.Load() - before; n != 1 {
		t.Errorf("a quote took %d round trips, want 1", n)
	}
	return *q.Solana
}

// TestSolanaSwaps builds, signs and sends swaps of every kind the venue serves: a direct pool,
// SOL in (wrapped and the account closed), SOL out through two pools, a Token-2022 mint with a
// transfer fee out and in. The wallet's balances after equal the quote exactly: the input less,
// the output more, and SOL less the build's fee rows.
func TestSolanaSwaps(t *testing.T) {
	e := newSolEnv(t)
	holder := e.keypair(t, "holder-0")
	usdc, aur, emb := e.mint(t, "USDC").Address, e.mint(t, "AUR").Address, e.mint(t, "EMB").Address
	for _, tc := range []struct {
		name    string
		in, out string
		amount  uint64
		hops    int
	}{
		{"USDC to AUR", usdc, aur, 1_000_000_000, 1},
		{"SOL to USDC", Native, usdc, 500_000_000, 1},
		{"AUR to SOL through USDC", aur, Native, 2_000_000_000_000, 2},
		{"USDC to EMB", usdc, emb, 50_000_000, 1},
		{"EMB to USDC", emb, usdc, 3_000_000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := e.quote(t, tc.in, tc.out, tc.amount)
			if len(q.RoutePlan) != tc.hops || q.Seal == "" {
				t.Fatalf("quote %+v: want %d hops, sealed", q, tc.hops)
			}
			before := e.balancesOf(t, holder.Address)[0]
			rt := e.rt.n.Load()
			b, err := e.svc.BuildSwap(t.Context(), consumer, SwapRequest{Chain: "solana", User: holder.Address, Quote: &q})
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			if n := e.rt.n.Load() - rt; n != 2 {
				t.Errorf("the build took %d round trips, want 2", n)
			}
			if b.ConfirmationToken == "" || b.Metadata["lastValidBlockHeight"] == nil || b.SolanaQuote == nil {
				t.Errorf("build %+v", b)
			}
			if err := b.Keep(t.Context(), e.db); err != nil {
				t.Fatal(err)
			}
			sig := e.send(t, b, holder)
			e.waitStatus(t, sig, "confirmed")
			e.confirmFinal(t, b, sig)
			after := e.balancesOf(t, holder.Address)[0]
			in, _ := strconv.ParseUint(q.InAmount, 10, 64)
			out, _ := strconv.ParseUint(q.OutAmount, 10, 64)
			sol := int64(after.lamports) - int64(before.lamports)
			fees := int64(feeSum(t, b, "network", 9) + feeSum(t, b, FeePriority, 9) + feeSum(t, b, FeeRent, 9))
			wantSOL := -fees
			// holder-0 has a wrapped SOL account (5 WSOL): SOL in is wrapped into it and spent, its
			// balance unchanged; SOL out lands in it as wrapped SOL.
			wsol := raydium.NativeMint.String()
			switch {
			case tc.in == Native:
				wantSOL -= int64(in)
				if after.tokens[wsol] != before.tokens[wsol] {
					t.Errorf("wrapped SOL %d, had %d", after.tokens[wsol], before.tokens[wsol])
				}
			case tc.out == Native:
				if got := after.tokens[wsol] - before.tokens[wsol]; got != out {
					t.Errorf("received %d wrapped SOL, the quote says %d", got, out)
				}
			}
			if sol != wantSOL {
				t.Errorf("SOL moved %d lamports, want %d (fees %d)", sol, wantSOL, fees)
			}
			if tc.in != Native {
				if got := before.tokens[tc.in] - after.tokens[tc.in]; got != in {
					t.Errorf("sent %d of %s, the quote says %d", got, tc.in, in)
				}
			}
			if tc.out != Native {
				if got := after.tokens[tc.out] - before.tokens[tc.out]; got != out {
					t.Errorf("received %d of %s, the quote says %d", got, tc.out, out)
				}
			}
		})
	}
}

// TestSolanaSwapRefused: a quote altered, another consumer's, expired, or one the pools moved past
// beyond its slippage builds nothing; a build a trade front-runs fails on the chain, and its status
// says so.
func TestSolanaSwapRefused(t *testing.T) {
	e := newSolEnv(t)
	holder, other := e.keypair(t, "holder-0"), e.keypair(t, "holder-1")
	usdc, aur := e.mint(t, "USDC").Address, e.mint(t, "AUR").Address
	q := e.quote(t, usdc, aur, 1_000_000_000)
	build := func(consumerID int, q SolanaQuote) (Build, error) {
		return e.svc.BuildSwap(t.Context(), consumerID, SwapRequest{Chain: "solana", User: holder.Address, Quote: &q})
	}

	altered := q
	altered.OtherAmountThreshold = "1"
	if _, err := build(consumer, altered); !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrQuoteAltered) {
		t.Errorf("an altered quote: %v", err)
	}
	if _, err := build(consumer+1, q); !errors.Is(err, ErrQuoteAltered) {
		t.Errorf("another consumer's quote: %v", err)
	}

	later := time.Now().Add(QuoteTTL + time.Second)
	e.svc.now = func() time.Time { return later }
	_, err := build(consumer, q)
	var review *QuoteReviewError
	if !errors.As(err, &review) || review.Fresh == nil || review.Fresh.Seal == "" {
		t.Fatalf("an expired quote: %v", err)
	}
	e.svc.now = time.Now
	if _, err := build(consumer, *review.Fresh); err != nil {
		t.Errorf("the fresh quote of a review: %v", err)
	}

	// The pool moves past the quote's slippage before the build: 409 with a fresh quote.
	b, err := build(consumer, q)
	if err != nil {
		t.Fatal(err)
	}
	big := e.quote(t, usdc, aur, 100_000_000_000) // 100,000 USDC: moves AUR/USDC well past 1 %
	bigBuild, err := e.svc.BuildSwap(t.Context(), consumer, SwapRequest{Chain: "solana", User: other.Address, Quote: &big})
	if err != nil {
		t.Fatal(err)
	}
	e.waitStatus(t, e.send(t, bigBuild, other), "confirmed")
	if _, err := build(consumer, q); !errors.As(err, &review) || review.Fresh == nil {
		t.Errorf("a quote the pool moved past: %v", err)
	}
	// The build made before the move fails on the chain: the swap would deliver less than its
	// otherAmountThreshold.
	signed, err := solana.SignTransaction(b.Transactions[0].Payload.Transaction, holder.SecretKey)
	if err != nil {
		t.Fatal(err)
	}
	var sig string
	if err := rpcCall(t.Context(), e.n.URL, "sendTransaction", []any{signed, map[string]any{"encoding": "base64", "skipPreflight": true}}, &sig); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := e.svc.Status(t.Context(), "solana", sig)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status == "failed" {
			if !strings.Contains(st.Error, "6005") { // CPMM's ExceededSlippage
				t.Errorf("failed with %q, want the program's ExceededSlippage (6005)", st.Error)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the front-run swap's status stayed %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
