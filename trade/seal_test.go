package trade

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestSeal: a sealed quote verifies after a JSON round trip, and fails with ErrQuoteAltered when
// any field changes, for another consumer, another chain, another key, or without a seal.
func TestSeal(t *testing.T) {
	s := newSealer([]byte("0123456789abcdef0123456789abcdef"))
	q := SolanaQuote{Chain: "solana", InputMint: "So11111111111111111111111111111111111111112", InAmount: "1000000000",
		OutputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", OutAmount: "149000000", OtherAmountThreshold: "148255000",
		SwapMode: SwapModeExactIn, SlippageBps: 50, PriceImpactPct: "0.00312", ContextSlot: 301234567, TimeTaken: 0.000734219,
		ExpiresAt: 1763798460, RoutePlan: []SolanaRouteStep{{Percent: 100, SwapInfo: SolanaSwapInfo{AmmKey: "pool", Label: "raydium",
			InputMint: "So11111111111111111111111111111111111111112", OutputMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
			InAmount: "1000000000", OutAmount: "149000000", FeeAmount: "2500000", FeeMint: "So11111111111111111111111111111111111111112"}}}}
	if err := s.seal(7, "solana", &q); err != nil || q.Seal == "" {
		t.Fatalf("seal: %q %v", q.Seal, err)
	}
	wire, _ := json.Marshal(q)
	var back SolanaQuote
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	if err := s.verify(7, "solana", back); err != nil {
		t.Fatalf("the quote as sent: %v", err)
	}
	altered := map[string]func(*SolanaQuote){
		"outAmount":            func(q *SolanaQuote) { q.OutAmount = "149000001" },
		"otherAmountThreshold": func(q *SolanaQuote) { q.OtherAmountThreshold = "1" },
		"slippageBps":          func(q *SolanaQuote) { q.SlippageBps = 5000 },
		"expiresAt":            func(q *SolanaQuote) { q.ExpiresAt++ },
		"timeTaken":            func(q *SolanaQuote) { q.TimeTaken = 0.5 },
		"route pool":           func(q *SolanaQuote) { q.RoutePlan[0].SwapInfo.AmmKey = "other" },
		"platformFee":          func(q *SolanaQuote) { q.PlatformFee = &PlatformFee{Amount: "1", FeeBps: 1} },
		"seal":                 func(q *SolanaQuote) { q.Seal = q.Seal[1:] },
		"no seal":              func(q *SolanaQuote) { q.Seal = "" },
	}
	for name, alter := range altered {
		c := back
		c.RoutePlan = append([]SolanaRouteStep(nil), back.RoutePlan...)
		alter(&c)
		if err := s.verify(7, "solana", c); !errors.Is(err, ErrQuoteAltered) {
			t.Errorf("%s altered: %v, want ErrQuoteAltered", name, err)
		}
	}
	if err := s.verify(8, "solana", back); !errors.Is(err, ErrQuoteAltered) {
		t.Errorf("another consumer's quote: %v", err)
	}
	if err := s.verify(7, "base", back); !errors.Is(err, ErrQuoteAltered) {
		t.Errorf("another chain's quote: %v", err)
	}
	if err := newSealer([]byte("another key")).verify(7, "solana", back); !errors.Is(err, ErrQuoteAltered) {
		t.Errorf("another deployment's quote: %v", err)
	}
}
