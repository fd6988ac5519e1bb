package portfolio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// Wallet reads: the chains whose source lists whole wallets (chain.WalletSource; Solana's, which
// asks the RPC for every token account an owner has under SPL Token and Token-2022 with
// getTokenAccountsByOwner). Discovery is then complete and the chain's source says so: no index is
// involved in holdings. An owner's holdings are its native coin and its balance of every token it
// holds an account of, whether or not anything indexes the token; several accounts of one token (an
// associated account and others) are summed into one row. Symbol, name and decimals come from the
// tokens themselves (on Solana the Token-2022 metadata extension or the Metaplex metadata account),
// read in the same call. Amounts are the accounts' base-unit balances in token units (a Token-2022
// interest-bearing mint's accrued interest, a UI-amount figure rather than a balance, is not added).

// walletRead is one WalletSource read for owners, as asked: wallets[i] is owners[i]'s wallet, with
// Err set when it could not be read.
type walletRead struct {
	wallets []chain.Wallet
	tokens  map[string]chain.TokenMeta
}

// ok reports whether some owner was read.
func (r walletRead) ok() bool {
	return slices.ContainsFunc(r.wallets, func(w chain.Wallet) bool { return w.Err == nil })
}

// readWallets reads the wallets of owners, each distinct owner once, in one source call (on Solana,
// two JSON-RPC round trips whatever their number; none when no owner is an address of the chain).
// An owner that is not an address of the chain has Err wrapping chain.ErrInvalidOwner and
// chain.ErrInvalidAddress, saying what it is instead; an owner whose own reads failed has the
// source's error as Err (matching chain.ErrUpstreamUnavailable, chain.ErrUpstreamTimeout or
// chain.ErrUpstreamBadResponse). The read fails as a whole only when a whole round trip does.
func readWallets(ctx context.Context, c *Chain, ws chain.WalletSource, owners []string, what string) (walletRead, error) {
	var asked []string     // the distinct owners, in first-seen order
	at := map[string]int{} // owner -> index in asked
	for _, o := range owners {
		if _, ok := at[o]; !ok {
			at[o] = len(asked)
			asked = append(asked, o)
		}
	}
	out := walletRead{wallets: make([]chain.Wallet, len(owners)), tokens: map[string]chain.TokenMeta{}}
	if len(asked) == 0 {
		return out, nil
	}
	res, err := ws.Wallets(ctx, asked)
	if err != nil {
		return walletRead{}, fmt.Errorf("portfolio: %s on %s: %w", what, c.Name, err)
	}
	if len(res.Owners) != len(asked) {
		return walletRead{}, fmt.Errorf("portfolio: %s on %s: %d answers for %d owners: %w", what, c.Name, len(res.Owners), len(asked), chain.ErrUpstreamBadResponse)
	}
	for i, o := range owners {
		w := res.Owners[at[o]]
		switch {
		case w.Err == nil:
		case errors.Is(w.Err, chain.ErrInvalidAddress):
			w = chain.Wallet{Owner: o, Err: fmt.Errorf("portfolio: %w on %s: %w", chain.ErrInvalidOwner, c.Name, w.Err)}
		default:
			w = chain.Wallet{Owner: o, Err: fmt.Errorf("portfolio: %s of %s on %s: %w", what, o, c.Name, w.Err)}
		}
		out.wallets[i] = w
	}
	if res.Tokens != nil {
		out.tokens = res.Tokens
	}
	return out, nil
}

// balance is an owner's whole balance of a token: base units, and the token's decimals.
type balance struct {
	amount   *big.Int
	decimals int
}

// held sums the wallet's positive balances by token. complete is false when a token it holds could
// not be described (its units are unknown): that token is left out.
func held(w chain.Wallet) (sums map[string]balance, complete bool) {
	sums, complete = map[string]balance{}, true
	for _, t := range w.Tokens {
		if t.Amount == nil || t.Amount.Sign() <= 0 {
			continue
		}
		if t.Decimals < 0 {
			complete = false
			continue
		}
		b, ok := sums[t.Token]
		if !ok {
			b = balance{amount: new(big.Int), decimals: t.Decimals}
			sums[t.Token] = b
		}
		b.amount.Add(b.amount, t.Amount)
	}
	return sums, complete
}

// walletHoldings reads the holdings of owners on a chain whose source lists wallets, in the order
// asked (readWallets says which owners fail, and how). USD prices come from the chain's pricer
// (Service.pricer); a holding nobody prices has PriceUSD and ValueUSD empty (the API omits priceUsd
// and valueUsd) and adds nothing to ValueUSD. Holding rows are the native coin first (priced by the
// wrapped native token), then one row per token held, by address. The call fails as a whole when
// the wallet read does, or when the prices cannot be read.
func (s *Service) walletHoldings(ctx context.Context, c *Chain, ws chain.WalletSource, owners []string) ([]Holdings, error) {
	read, err := readWallets(ctx, c, ws, owners, "holdings")
	if err != nil {
		return nil, err
	}
	out := make([]Holdings, len(owners))
	for i, o := range owners {
		out[i] = Holdings{Owner: o, Chain: c.Name, Err: read.wallets[i].Err}
	}
	if !read.ok() {
		return out, nil
	}
	list := slices.Sorted(maps.Keys(read.tokens))
	if c.Pricing.WrappedNative != "" {
		list = append(list, c.Pricing.WrappedNative)
	}
	prices, err := s.pricer(c).PricesUSD(ctx, c.Name, list)
	if err != nil {
		return nil, fmt.Errorf("portfolio: prices on %s: %w", c.Name, err)
	}
	for i, w := range read.wallets {
		if w.Err == nil {
			out[i] = c.walletOwner(w, read.tokens, prices)
		}
	}
	return out, nil
}

// walletOwner is one owner's holdings: the native coin first, then one row per token with a
// positive balance (summed over the owner's accounts of it), by address. A held token the source
// could not describe is left out, and the source then says discovery was partial.
func (c *Chain) walletOwner(w chain.Wallet, tokens map[string]chain.TokenMeta, prices map[string]float64) Holdings {
	out := Holdings{Owner: chain.DisplayAddress(c.Name, w.Owner), Chain: c.Name}
	var rows holdingRows
	if w.Native != nil && w.Native.Sign() > 0 {
		p, ok := prices[c.Pricing.WrappedNative]
		rows.add(c.native(), w.Native, p, ok, true)
	}
	sums, complete := held(w)
	for _, addr := range slices.Sorted(maps.Keys(sums)) {
		b := sums[addr]
		m := tokens[addr]
		t := market.Token{Chain: c.Name, Address: chain.DisplayAddress(c.Name, addr), Symbol: m.Symbol, Name: m.Name, Decimals: b.decimals}
		p, ok := prices[addr]
		rows.add(t, b.amount, p, ok, false)
	}
	rows.finish(&out)
	out.Sources = []Source{rpcSource(c.Name, complete)}
	return out
}
