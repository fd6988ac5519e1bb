package market

import (
	"context"

	"fmt"
	"github.com/partner-platform/partnerd/chain"
	"math/big"
)

// Finding is one result of an audit.
type Finding struct {
	Code    string
	Level   string // info, warning or danger
	Message string
}

// Audit is a pool token's risk audit.
type Audit struct {
	Pool     string
	Token    string
	Score    int // 100 minus 40 per danger and 15 per warning, at least 0
	Findings []Finding
}

// burnAddresses hold LP and tokens no one can move.
var burnAddresses = map[string]bool{
	"0x0000000000000000000000000000000000000000": true,
	"0x000000000000000000000000000000000000dead": true,
}

// Audit audits the token of a pool (its base, or `token` when given). On a chain whose Source is a
// chain.Auditor (EVM): code, owner, mint capability, a simulated buy and sell (transfer taxes, honeypots), the
// top-10 holders' share of the supply (the pool and burn addresses left out) and the share of LP
// tokens burned; for a pool whose liquidity is in NFT positions (Uniswap V3), who holds it, from the
// indexed positions (positionFindings).
//
// Otherwise (Solana), the mint's facts as TokenAudit reads them, then the pool's liquidity
// (lpFindings): its LP supply, the LP locked for good, the 10 largest LP holders' share and
// whether one owner can withdraw most of it. What is read, live:
//
//  1. at once: the mint with its 10 largest holders (as TokenAudit), and the pool's state through
//     Source.PairStates (one round trip; two the first time the Source meets the pool): its LP
//     supply (PairState.TotalSupply, a Raydium CPMM pool's lp_supply) and LP mint
//     (PairState.LPToken);
//  2. the LP mint with its 11 largest holders, owners with their token accounts summed (readHolders);
//  3. only when the pool's state was read at an earlier slot than the LP mint: the pool's state
//     again (one round trip), at most twice. The LP that the pool counts and no one holds (locked
//     at creation, as Raydium CPMM's initialize locks 100 units, or burned) is its LP supply less
//     the LP mint's supply read at one slot; read at different slots, that part is not reported.
//
// A mint and its holders take one round trip when the RPC lets every token account be scanned
// (two or three on its largest accounts otherwise). So two round trips in a row for a pool the
// Source has read before (the mint's facts and the pool's state in parallel, then its LP holders),
// three the first time, and up to two more when the slots differ.
func (s *Service) Audit(ctx context.Context, chainName, pool, token string) (Audit, error) {
	p, err := s.indexedPool(ctx, chainName, pool)
	if err != nil {
		return Audit{}, err
	}
	subject := p.Base()
	if token != "" {
		if subject = canonical(chainName, token); subject != p.Token0 && subject != p.Token1 {
			return Audit{}, fmt.Errorf("token %s is not one of the pool's: %w", token, ErrInvalid)
		}
	}
	c, _ := s.chain(chainName)
	auditor, ok := c.Source.(chain.Auditor)
	if !ok { // the mint's facts and the pool's liquidity (Solana)
		f, err := s.solanaPoolAudit(ctx, c, p.Address, subject)
		if err != nil {
			return Audit{}, err
		}
		return Audit{Pool: display(chainName, p.Address), Token: display(chainName, subject), Score: auditScore(f), Findings: f}, nil
	}
	facts, err := auditor.Audit(ctx, p.Address, subject)
	if err != nil {
		return Audit{}, err
	}
	metas, err := c.Source.TokenMetadata(ctx, []string{subject})
	if err != nil {
		return Audit{}, err
	}
	holders, err := s.index.TopHolders(ctx, chainName, subject, 10+3)
	if err != nil {
		return Audit{}, err
	}
	var f []Finding
	add := func(level, code, format string, args ...any) {
		f = append(f, Finding{Code: code, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	if !facts.HasCode {
		add("danger", "no_code", "the token address has no contract code")
	}
	switch {
	case !facts.HasOwner:
		add("info", "no_owner", "the token has no owner() getter")
	case facts.OwnerRenounced:
		add("info", "owner_renounced", "ownership is renounced")
	default:
		add("warning", "owner_not_renounced", "the token has an owner (%s) who may still change it", display(chainName, facts.Owner))
	}
	if facts.MintSelector {
		if facts.HasOwner && !facts.OwnerRenounced {
			add("danger", "mintable", "the owner can mint new tokens")
		} else {
			add("info", "mint_function", "the code has a mint function, but no owner can call it")
		}
	}
	sim := facts.Sim
	switch {
	case !sim.Ran:
		add("info", "simulation_not_run", "the buy-and-sell simulation could not run: %s", sim.Reason)
	case sim.Honeypot:
		add("danger", "honeypot", "a simulated buy works but the sell fails or returns almost nothing")
	case !sim.BuyOK:
		add("danger", "buy_fails", "a simulated buy fails: %s", sim.Reason)
	default:
		for _, t := range []struct {
			code string
			bps  int
		}{{"buy_tax", sim.BuyTaxBps}, {"sell_tax", sim.SellTaxBps}} {
			switch {
			case t.bps >= 1000:
				add("danger", t.code, "transfers on %s are taxed %s%%", t.code[:len(t.code)-4], Decimal(float64(t.bps)/100))
			case t.bps > 0:
				add("warning", t.code, "transfers on %s are taxed %s%%", t.code[:len(t.code)-4], Decimal(float64(t.bps)/100))
			}
		}
		if sim.BuyTaxBps == 0 && sim.SellTaxBps == 0 {
			add("info", "no_transfer_tax", "a simulated buy and sell show no transfer tax")
		}
	}
	if m := metas[0]; m.OK && m.TotalSupply != nil && m.TotalSupply.Sign() > 0 {
		top, n := new(big.Int), 0
		for _, h := range holders {
			if h.Holder == p.Address || burnAddresses[h.Holder] || n == 10 {
				continue
			}
			n++
			top.Add(top, parse(h.Balance))
		}
		pct := Ratio(top, m.TotalSupply) * 100
		level := "info"
		if pct > 50 {
			level = "warning"
		}
		add(level, "top10_holders", "the 10 largest holders (the pool and burn addresses left out) hold %s%% of the supply", Decimal(pct))
	}
	if facts.LPTotalSupply != nil && facts.LPTotalSupply.Sign() > 0 && facts.LPBurned != nil {
		pct := Ratio(facts.LPBurned, facts.LPTotalSupply) * 100
		level := "info"
		if pct < 50 {
			level = "warning"
		}
		add(level, "lp_burned", "%s%% of the pool's LP tokens are burned", Decimal(pct))
	}
	positions, err := s.index.PoolPositions(ctx, chainName, p.Address)
	if err != nil {
		return Audit{}, err
	}
	f = append(f, positionFindings(chainName, positions)...)
	return Audit{Pool: display(chainName, p.Address), Token: display(chainName, subject), Score: auditScore(f), Findings: f}, nil
}

func parse(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return new(big.Int)
	}
	return n
}
