package raydium

import (
	"errors"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
)

// A deposit into a CPMM pool (add).

// depositPlan plans a deposit (planDeposit).
type depositPlan struct {
	poolPlan
	human       [2]string // the most to send of token 0 and of token 1, human units
	slippageBps int
}

// planDeposit plans a deposit into a CPMM pool (add). AmountA and AmountB (human units; of TokenA
// and TokenB when given, which must be the pool's two mints in either order; else of the pool's
// token0 and token1) are the most the wallet sends of each token (Token-2022 transfer fees
// included): the build deposits the largest LP amount both afford at the pool's reserves read (the
// vaults less the fees owed), as CPMM computes a deposit (each side's share rounded up, then
// grossed up by Token-2022's inverse transfer fee), with deposit's maximums SlippageBps above what
// it takes. The user's LP associated account is created if missing; a wrapped SOL side is paid in
// SOL (DepositBuild).
//
// Metadata: lpAmount (minted), amount0/amount1 (what the wallet sends), vaultAmount0/vaultAmount1
// (what reaches the vaults), transferFee0/transferFee1, maxAmount0/maxAmount1 (deposit's
// maximums), unused0/unused1 (what the request allowed beyond what is sent), reserve0/reserve1
// and lpSupply before, wrappedSOL (lamports wrapped, "0" without a SOL side), seeded false,
// slippageBps.
//
// Errors: ErrInvalidRequest (a bad address, tokens that are not the pool's), ErrNotFound (no CPMM
// pool at the address), ErrInvalidAmount (malformed, too precise, or too small to mint any LP),
// ErrNotSupported (the pool has deposits disabled), ErrPrerequisite (balances).
func planDeposit(r chain.SVMLiquidityRequest) (chain.SVMLiquidityPlan, error) {
	plan, err := lpPoolPlan(r)
	if err != nil {
		return nil, err
	}
	human := [2]string{r.AmountA, r.AmountB}
	if r.TokenA != "" {
		if a, _ := ParsePubkey(r.TokenA); a != plan.Mint0 {
			human = [2]string{r.AmountB, r.AmountA}
		}
	}
	if human[0] == "" || human[1] == "" {
		return nil, fmt.Errorf("%w: adding liquidity takes amountA and amountB, in human token units", chain.ErrInvalidAmount)
	}
	return depositPlan{poolPlan: poolPlan{plan: plan, chain: r.Chain}, human: human, slippageBps: r.SlippageBps}, nil
}

func (d depositPlan) Build(state map[string]chain.SVMAccount, _ uint64) (chain.SVMLiquidityBuild, error) {
	st, err := d.decode(state)
	if err != nil {
		return chain.SVMLiquidityBuild{}, err
	}
	p, pool, user := &st.Snapshot.Pool, d.plan.Pool, d.plan.Owner
	var desired [2]uint64
	for i, dec := range []uint8{p.Mint0Decimals, p.Mint1Decimals} {
		mint := []Pubkey{p.Token0Mint, p.Token1Mint}[i]
		if desired[i], err = u64Amount(mint.String(), d.human[i], int(dec)); err != nil {
			return chain.SVMLiquidityBuild{}, err
		}
	}
	q, err := st.Snapshot.DepositFor(desired[0], desired[1])
	switch {
	case errors.Is(err, ErrNotApproved):
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: pool %s has deposits disabled", chain.ErrNotSupported, pool)
	case errors.Is(err, ErrTooLittle), errors.Is(err, ErrZeroTradingTokens):
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: amounts %s and %s of the pool's tokens mint no LP at its reserves", chain.ErrInvalidAmount, d.human[0], d.human[1])
	case err != nil:
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %w", chain.ErrInvalidRequest, err)
	}
	max0, max1 := withSlippageUp(q.Pay0, d.slippageBps), withSlippageUp(q.Pay1, d.slippageBps)
	exists := func(k Pubkey) bool { return state[k.String()].Exists }
	lb := DepositBuild(*p, pool, user, q, max0, max1, exists)
	for _, side := range []struct {
		mint         Pubkey
		balance, pay uint64
		decimals     uint8
	}{{p.Token0Mint, st.Balance0, q.Pay0, p.Mint0Decimals}, {p.Token1Mint, st.Balance1, q.Pay1, p.Mint1Decimals}} {
		if side.mint == NativeMint {
			if have := state[user.String()].Lamports; have < lb.WrapLamports {
				return chain.SVMLiquidityBuild{}, insufficientSOL(have, lb.WrapLamports)
			}
			continue
		}
		if side.balance < side.pay {
			return chain.SVMLiquidityBuild{}, insufficientToken(side.mint, side.balance, side.pay, side.decimals)
		}
	}
	md := map[string]any{"lpAmount": u64s(q.LP), "amount0": u64s(q.Pay0), "amount1": u64s(q.Pay1),
		"vaultAmount0": u64s(q.Amount0), "vaultAmount1": u64s(q.Amount1), "transferFee0": u64s(q.TransferFee0), "transferFee1": u64s(q.TransferFee1),
		"maxAmount0": u64s(max0), "maxAmount1": u64s(max1), "unused0": u64s(desired[0] - q.Pay0), "unused1": u64s(desired[1] - q.Pay1),
		"reserve0": u64s(q.Reserve0), "reserve1": u64s(q.Reserve1), "lpSupply": u64s(q.LPSupply), "wrappedSOL": u64s(lb.WrapLamports),
		"seeded": false, "slippageBps": d.slippageBps}
	return liquidityBuild(lb, transferFeeRows(*p, st.Snapshot, q.TransferFee0, q.TransferFee1), poolMetadata(md, pool, *p)), nil
}
