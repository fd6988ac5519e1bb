package market

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// lpHolders is how many of an LP mint's largest holders a Solana pool audit reads: the 10 it
// reports, and one more in case the pool's authority is among them.
const lpHolders = 11

// solanaPoolAudit is a Solana pool's audit findings: the audited mint's (solanaFindings), then the
// pool's liquidity (lpFindings). The mint with its holders and the pool's state are read
// concurrently; then the pool's LP mint with its holders; then the pool's state again, at most
// twice, while it was read at an earlier slot than the LP mint (see Audit).
func (s *Service) solanaPoolAudit(ctx context.Context, c *Chain, pool, mint string) ([]Finding, error) {
	type pairRead struct {
		st  chain.PairState
		err error
	}
	read := make(chan pairRead, 1)
	go func() {
		st, err := s.pairState(ctx, c, pool)
		read <- pairRead{st, err}
	}()
	l, err := s.readHolders(ctx, c, mint, 10)
	r := <-read
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	f, st := solanaFindings(l), r.st
	notRead := Finding{Code: "lp_not_read", Level: "info",
		Message: "the pool's LP token could not be read (not a pool of the chain's venues with a fungible LP token): its liquidity is not audited"}
	if !st.OK || st.LPToken == "" {
		return append(f, notRead), nil
	}
	lp, err := s.readHolders(ctx, c, st.LPToken, lpHolders)
	if errors.Is(err, ErrNotFound) {
		return append(f, notRead), nil
	}
	if err != nil {
		return nil, err
	}
	// A deposit or withdrawal changes the pool's LP supply and its LP mint's supply alike: they
	// tell what is locked only when read at one slot.
	for try := 0; st.Block < lp.Mint.Slot && try < 2; try++ {
		again, err := s.pairState(ctx, c, pool)
		if err != nil {
			return nil, err
		}
		if !again.OK {
			break
		}
		st = again
	}
	return append(f, lpFindings(st, lp)...), nil
}

// pairState reads one pool's live state through the chain's Source.
func (s *Service) pairState(ctx context.Context, c *Chain, pool string) (chain.PairState, error) {
	states, err := c.Source.PairStates(ctx, []string{pool})
	if err != nil {
		return chain.PairState{}, fmt.Errorf("read pool %s on %s: %w", pool, c.Name, err)
	}
	return states[0], nil
}

// lpFindings are the findings of a pool's liquidity, from its state (pair: OK, with its LP supply
// as TotalSupply) and its LP mint read with its largest holders (l):
//
//   - lp_supply (info): the pool's LP supply and how much of it circulates (the LP mint's supply).
//   - lp_locked (info): the LP no one can withdraw: what the pool counts that no one holds (its LP
//     supply less the mint's, locked at creation or burned; only when both were read at one slot)
//     and what the pool's authority (the LP mint's mint authority) holds among the largest holders.
//     Left out when none of that could be read exactly.
//   - lp_top10_holders (info): the 10 largest holders' share of the LP supply (the authority left out).
//   - lp_concentrated (warning): one owner holds at least half of the LP supply, and so can withdraw
//     most of the liquidity; otherwise lp_spread (info), naming the largest.
func lpFindings(pair chain.PairState, l chain.SVMHolderList) []Finding {
	m, supply := l.Mint, pair.TotalSupply
	var f []Finding
	add := func(level, code, format string, args ...any) {
		f = append(f, Finding{Code: code, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	lp := func(n *big.Int) string { return Units(n, m.Decimals) + " LP" }
	share := func(n *big.Int) string { return Decimal(Ratio(n, supply)*100) + "%" }
	add("info", "lp_supply", "the pool's LP supply is %s (LP mint %s), %s of it in circulation", lp(supply), m.Address, lp(m.Supply))
	if supply == nil || supply.Sign() <= 0 || m.Supply == nil {
		return f
	}
	partial := ""
	if !l.Complete {
		partial = " (at least: only the largest token accounts could be read)"
	}

	locked, oneSlot := new(big.Int), pair.Block == m.Slot
	var parts []string
	if unheld := new(big.Int).Sub(supply, m.Supply); oneSlot && unheld.Sign() > 0 {
		locked.Add(locked, unheld)
		parts = append(parts, fmt.Sprintf("%s that the pool counts and no one holds (locked at its creation or burned)", lp(unheld)))
	}
	var owners []chain.SVMHolder // those who can withdraw
	authority := ""
	for _, h := range l.Holders {
		if h.Owner == m.MintAuthority {
			locked.Add(locked, h.Amount)
			authority = " (the pool's authority left out)"
			parts = append(parts, fmt.Sprintf("%s held by the pool's authority (%s), which mints the LP", lp(h.Amount), h.Owner))
			continue
		}
		owners = append(owners, h)
	}
	switch {
	case len(parts) > 0:
		add("info", "lp_locked", "%s (%s of the LP supply) can never be withdrawn: %s", lp(locked), share(locked), strings.Join(parts, "; "))
	case oneSlot:
		add("info", "lp_locked", "none of the pool's liquidity is locked: every LP token is held by someone who can withdraw it")
	}

	owners = owners[:min(10, len(owners))]
	top := new(big.Int)
	for _, h := range owners {
		top.Add(top, h.Amount)
	}
	add("info", "lp_top10_holders", "the 10 largest LP holders%s hold %s of the LP supply%s", authority, share(top), partial)
	switch {
	case len(owners) == 0:
		add("info", "lp_spread", "no one can withdraw the pool's liquidity: no wallet holds its LP tokens")
	case new(big.Int).Lsh(owners[0].Amount, 1).Cmp(supply) >= 0:
		add("warning", "lp_concentrated", "one owner, %s, holds %s of the LP supply (%s)%s: it can withdraw most of the pool's liquidity",
			owners[0].Owner, share(owners[0].Amount), lp(owners[0].Amount), partial)
	default:
		add("info", "lp_spread", "no owner holds half of the LP supply: the largest, %s, holds %s (%s)%s",
			owners[0].Owner, share(owners[0].Amount), lp(owners[0].Amount), partial)
	}
	return f
}
