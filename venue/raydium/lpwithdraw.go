package raydium

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
)

// A withdrawal from a CPMM pool (remove).

// withdrawPlan plans a withdrawal (planWithdraw).
type withdrawPlan struct {
	poolPlan
	bps, slippageBps int
}

// planWithdraw plans a withdrawal from a CPMM pool (remove): Bps (1..10000: the share of the
// user's LP balance, read in the same read as the pool, to burn, rounded down) and SlippageBps
// (TokenA and TokenB, when given, only name the pool's mints). The user receives each side's share
// of the reserves rounded down, less a Token-2022 transfer fee, with withdraw's minimums
// SlippageBps below; the receiving associated accounts are created if missing, and a wrapped SOL
// side is received in SOL when the build creates the wrapped SOL account (WithdrawBuild).
//
// Metadata: lpAmount (burned), lpBalance (before), bps, amount0/amount1 (what the wallet
// receives), vaultAmount0/vaultAmount1 (what leaves the vaults), transferFee0/transferFee1,
// minAmount0/minAmount1, reserve0/reserve1 and lpSupply before, slippageBps.
//
// Errors: ErrInvalidRequest (bps outside 1..10000, a bad address, tokens that are not the pool's),
// ErrNotFound (no CPMM pool), ErrNotSupported (withdrawals disabled), ErrPrerequisite (no LP of
// the pool held, or too little to receive any of a token).
func planWithdraw(r chain.SVMLiquidityRequest) (chain.SVMLiquidityPlan, error) {
	if r.Bps < 1 || r.Bps > bpsDenominator {
		return nil, fmt.Errorf("%w: bps must be 1 to 10000 (10000 removes everything)", chain.ErrInvalidRequest)
	}
	plan, err := lpPoolPlan(r)
	if err != nil {
		return nil, err
	}
	return withdrawPlan{poolPlan: poolPlan{plan: plan, chain: r.Chain}, bps: r.Bps, slippageBps: r.SlippageBps}, nil
}

func (w withdrawPlan) Build(state map[string]chain.SVMAccount, _ uint64) (chain.SVMLiquidityBuild, error) {
	st, err := w.decode(state)
	if err != nil {
		return chain.SVMLiquidityBuild{}, err
	}
	pool, user := w.plan.Pool, w.plan.Owner
	lp := new(big.Int).Mul(new(big.Int).SetUint64(st.LPBalance), big.NewInt(int64(w.bps)))
	lp.Quo(lp, big.NewInt(bpsDenominator))
	if lp.Sign() == 0 {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: nothing to remove: %s holds %s LP of pool %s (%d bps of it is none)", chain.ErrPrerequisite,
			user, units(st.LPBalance, LPMintDecimals), pool, w.bps)
	}
	q, err := st.Snapshot.Withdraw(lp.Uint64())
	switch {
	case errors.Is(err, ErrNotApproved):
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: pool %s has withdrawals disabled", chain.ErrNotSupported, pool)
	case errors.Is(err, ErrZeroTradingTokens):
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %s LP is too little to receive any of both tokens", chain.ErrPrerequisite, lp)
	case err != nil:
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %w", chain.ErrInvalidRequest, err)
	}
	min0, min1 := withSlippageDown(q.Receive0, w.slippageBps), withSlippageDown(q.Receive1, w.slippageBps)
	exists := func(k Pubkey) bool { return state[k.String()].Exists }
	p := st.Snapshot.Pool
	lb := WithdrawBuild(p, pool, user, q.LP, min0, min1, exists)
	md := map[string]any{"lpAmount": u64s(q.LP), "lpBalance": u64s(st.LPBalance), "bps": w.bps, "amount0": u64s(q.Receive0), "amount1": u64s(q.Receive1),
		"vaultAmount0": u64s(q.Amount0), "vaultAmount1": u64s(q.Amount1), "transferFee0": u64s(q.TransferFee0), "transferFee1": u64s(q.TransferFee1),
		"minAmount0": u64s(min0), "minAmount1": u64s(min1), "reserve0": u64s(q.Reserve0), "reserve1": u64s(q.Reserve1), "lpSupply": u64s(q.LPSupply),
		"slippageBps": w.slippageBps}
	return liquidityBuild(lb, transferFeeRows(p, st.Snapshot, q.TransferFee0, q.TransferFee1), poolMetadata(md, pool, p)), nil
}
