package trade

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/ent/marketpool"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/venue/raydium"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
)

// LP builders on Raydium CPMM (Solana): create a pool funded in the same instruction (initialize),
// add liquidity (deposit) and remove it (withdraw). Each build is one v0 transaction for User, who
// signs and pays, built by the adapter's generic builder in two round trips (the pool, its vaults
// and mints, the Clock and the user's accounts in one read with the blockhash and recent fees; the
// simulation) and simulated before it is returned, with CPMM's exact math at the state read: with
// nothing traded in between, the wallet and the vaults move by exactly the metadata's amounts.
//
// A pool's accounts all derive from its address and its two mints. Add and remove know the mints
// from tokenA and tokenB when the request names them, else from the market index; a pool the index
// does not know yet costs one more round trip (a read of the pool) first.
//
// Amounts in metadata are integer base-unit strings; the LP mint has 9 decimals
// (raydium.LPMintDecimals). Metadata always names venue, poolId, token0, token1 (CPMM's order: the
// lower key first) and lpMint, and the transaction's blockhash, lastValidBlockHeight,
// simulatedAtSlot, computeUnitLimit and computeUnitPrice. Fee rows: network and priority (SOL),
// rent of each account the transaction creates and keeps (SOL), transfer_fee of a Token-2022 side
// (in the token), and on create a venue row for CPMM's pool creation fee (SOL, paid to Raydium's
// fee receiver). A wrapped SOL side is paid and received in SOL as the swap builds do.

// Transaction ids of the Solana LP builds.
const (
	solanaLPCreateTxID = "createPool"
	solanaLPAddTxID    = "addLiquidity"
	solanaLPRemoveTxID = "removeLiquidity"
)

// solanaLPSetup checks what every Solana LP build takes: the venue (raydium; "" means it), the
// slippage and the user.
func solanaLPSetup(sc *SolanaChain, r LPRequest) (raydium.Pubkey, error) {
	if r.Venue != "" && r.Venue != raydium.VenueName {
		return raydium.Pubkey{}, fmt.Errorf("%w: %s LP builds are not served on %s; raydium is", ErrNotSupported, r.Venue, sc.Name)
	}
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return raydium.Pubkey{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	user, err := raydium.ParsePubkey(r.User)
	if err != nil {
		return raydium.Pubkey{}, fmt.Errorf("%w: user: %w", ErrInvalid, err)
	}
	return user, nil
}

// solanaMint parses a mint parameter: Native is wrapped SOL's mint.
func solanaMint(name, s string) (raydium.Pubkey, error) {
	if s == Native {
		return raydium.NativeMint, nil
	}
	k, err := raydium.ParsePubkey(s)
	if err != nil {
		return raydium.Pubkey{}, fmt.Errorf("%w: %s: %w", ErrInvalid, name, err)
	}
	return k, nil
}

// solanaPoolMints resolves a pool's two mints without reading the chain where it can: tokenA and
// tokenB when the request names them (checked against the pool by the build's read), else the
// market index's record of the pool, else one read of the pool account. Errors: ErrInvalid,
// ErrNotFound (no CPMM pool at the address), and the adapter's.
func (s *Service) solanaPoolMints(ctx context.Context, sc *SolanaChain, r LPRequest, pool raydium.Pubkey) (raydium.Pubkey, raydium.Pubkey, error) {
	if r.TokenA != "" || r.TokenB != "" {
		if r.TokenA == "" || r.TokenB == "" {
			return raydium.Pubkey{}, raydium.Pubkey{}, fmt.Errorf("%w: give both tokenA and tokenB, or neither (then amountA is of the pool's token0 and amountB of its token1)", ErrInvalid)
		}
		a, err := solanaMint("tokenA", r.TokenA)
		if err != nil {
			return a, a, err
		}
		b, err := solanaMint("tokenB", r.TokenB)
		if err != nil {
			return a, b, err
		}
		if a == b {
			return a, b, fmt.Errorf("%w: tokenA and tokenB must be two different tokens", ErrInvalid)
		}
		return a, b, nil
	}
	if s.tokens != nil && s.tokens.db != nil {
		p, err := s.tokens.db.MarketPool.Query().Where(marketpool.Chain(sc.Name), marketpool.Address(pool.String()), marketpool.Venue(raydium.VenueName)).Only(ctx)
		if err == nil {
			a, errA := raydium.ParsePubkey(p.Token0)
			b, errB := raydium.ParsePubkey(p.Token1)
			if errA == nil && errB == nil && a != b {
				return a, b, nil
			}
		}
	}
	if sc.Accounts == nil {
		return raydium.Pubkey{}, raydium.Pubkey{}, fmt.Errorf("%w: name the pool's tokens (tokenA and tokenB)", ErrInvalid)
	}
	accs, _, err := sc.Accounts.Accounts(ctx, []string{pool.String()})
	if err != nil {
		return raydium.Pubkey{}, raydium.Pubkey{}, solanaError("pool", err)
	}
	if len(accs) != 1 || !accs[0].Exists || accs[0].Owner != raydium.ProgramID.String() {
		return raydium.Pubkey{}, raydium.Pubkey{}, fmt.Errorf("%w: pool %s is not a Raydium CPMM pool on %s", ErrNotFound, pool, sc.Name)
	}
	st, err := raydium.DecodePoolState(accs[0].Data)
	if err != nil {
		return raydium.Pubkey{}, raydium.Pubkey{}, fmt.Errorf("%w: pool %s is not a Raydium CPMM pool on %s", ErrNotFound, pool, sc.Name)
	}
	return st.Token0Mint, st.Token1Mint, nil
}

// lpPlan plans an add or remove: the pool, its mints and the user's accounts.
func (s *Service) lpPlan(ctx context.Context, sc *SolanaChain, r LPRequest) (raydium.Pubkey, *raydium.LiquidityPlan, error) {
	user, err := solanaLPSetup(sc, r)
	if err != nil {
		return user, nil, err
	}
	if r.Pool == "" {
		return user, nil, fmt.Errorf("%w: raydium LP operations take pool: the pool's address", ErrInvalid)
	}
	pool, err := raydium.ParsePubkey(r.Pool)
	if err != nil {
		return user, nil, fmt.Errorf("%w: pool: %w", ErrInvalid, err)
	}
	a, b, err := s.solanaPoolMints(ctx, sc, r, pool)
	if err != nil {
		return user, nil, err
	}
	plan, err := raydium.PlanLiquidity(pool, a, b, user)
	if err != nil {
		return user, nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return user, plan, nil
}

// decodeLP decodes a plan's read, as the service's errors.
func decodeLP(sc *SolanaChain, plan *raydium.LiquidityPlan, state map[string]chain.SVMAccount) (raydium.LiquidityState, error) {
	st, err := plan.Decode(state)
	switch {
	case errors.Is(err, raydium.ErrNoPool):
		return st, fmt.Errorf("%w: pool %s is not a Raydium CPMM pool on %s", ErrNotFound, plan.Pool, sc.Name)
	case errors.Is(err, raydium.ErrPoolMints):
		return st, fmt.Errorf("%w: pool %s is not a pool of %s and %s (%v)", ErrInvalid, plan.Pool, plan.Mint0, plan.Mint1, err)
	}
	return st, err
}

// u64Amount converts a human amount of a token with decimals into base units that fit a u64.
func u64Amount(what, human string, decimals int) (uint64, error) {
	n, err := chain.HumanToBaseUnits(human, decimals)
	if err != nil {
		return 0, fmt.Errorf("amount of %s: %w", what, err)
	}
	if !n.IsUint64() {
		return 0, fmt.Errorf("%w: amount of %s exceeds a Solana token amount (a u64)", ErrInvalidAmount, what)
	}
	return n.Uint64(), nil
}

// lpBuildRequest is what runLP needs to build and assemble a Solana LP transaction.
type lpBuildRequest struct {
	op, txID string
	user     raydium.Pubkey
	reads    []string
	writable []string
	observe  []string
	// make returns the build from the state read (its error is the build's).
	make func(state map[string]chain.SVMAccount, slot uint64) (raydium.LiquidityBuild, error)
}

// runLP builds the transaction through the adapter and returns it with its network, priority and
// rent fee rows (rent: each account the build creates and keeps, what it holds after the
// simulation), and the liquidity build it made.
func (s *Service) runLP(ctx context.Context, sc *SolanaChain, r lpBuildRequest) (Build, solana.Built, raydium.LiquidityBuild, error) {
	var makeErr error
	var lb raydium.LiquidityBuild
	built, err := sc.Client.Build(ctx, solana.BuildRequest{Op: r.op, Payer: r.user.String(), Reads: r.reads, Writable: r.writable, Observe: r.observe,
		Make: func(state map[string]chain.SVMAccount, slot uint64) ([]chain.SVMCall, error) {
			b, err := r.make(state, slot)
			if err != nil {
				makeErr = err
				return nil, err
			}
			lb = b
			calls := make([]chain.SVMCall, len(b.Instructions))
			for i, ix := range b.Instructions {
				calls[i] = ix.Call()
			}
			return calls, nil
		}})
	if makeErr != nil {
		return Build{}, built, lb, makeErr
	}
	if err != nil {
		err = solanaError(strings.TrimPrefix(r.op, "build "), err)
		if sim, ok := errors.AsType[*SimulationError](err); ok {
			for i, reason := range sim.Reasons {
				sim.Reasons[i] = r.txID + strings.TrimPrefix(reason, solanaTxID)
			}
		}
		return Build{}, built, lb, err
	}
	b := Build{
		Transactions: []Tx{{ID: r.txID, From: r.user.String(), Encoding: "base64", Payload: &Payload{Transaction: built.Transaction}}},
		Fees: []Fee{txFee(r.txID, "network", Native, built.NetworkFee-built.PriorityFee, solana.SOLDecimals),
			txFee(r.txID, FeePriority, Native, built.PriorityFee, solana.SOLDecimals)},
	}
	for _, a := range lb.Creates {
		b.Fees = append(b.Fees, txFee(r.txID, FeeRent, Native, built.After[a.String()], solana.SOLDecimals))
	}
	return b, built, lb, nil
}

// transferFeeRows are the transfer_fee rows of the two sides of a pool (none for a side without one).
func transferFeeRows(txID string, p raydium.PoolState, s raydium.Snapshot, fee0, fee1 uint64) []Fee {
	var out []Fee
	for _, f := range []struct {
		mint     raydium.Pubkey
		decimals uint8
		sched    bool
		bps      uint16
		n        uint64
	}{{p.Token0Mint, p.Mint0Decimals, s.TransferFee0 != nil, bpsOf(s.TransferFee0), fee0}, {p.Token1Mint, p.Mint1Decimals, s.TransferFee1 != nil, bpsOf(s.TransferFee1), fee1}} {
		if !f.sched || f.n == 0 {
			continue
		}
		row := txFee(txID, FeeTransferFee, f.mint.String(), f.n, int(f.decimals))
		row.FeeBps = int(f.bps)
		out = append(out, row)
	}
	return out
}

// finishLP adds the metadata every Solana LP build carries and issues the confirmation token.
func (s *Service) finishLP(consumerID int, sc *SolanaChain, b *Build, built solana.Built, p raydium.PoolState, pool raydium.Pubkey, md map[string]any) error {
	md["venue"], md["poolId"], md["token0"], md["token1"], md["lpMint"] = raydium.VenueName, pool.String(), p.Token0Mint.String(), p.Token1Mint.String(), p.LPMint.String()
	md["lpDecimals"] = raydium.LPMintDecimals
	md["blockhash"], md["lastValidBlockHeight"], md["simulatedAtSlot"] = built.Blockhash, built.LastValidBlockHeight, built.SimulatedSlot
	md["computeUnitLimit"], md["computeUnitPrice"] = built.ComputeUnitLimit, strconv.FormatUint(built.ComputeUnitPrice, 10)
	b.Metadata = md
	return s.tokens.issue(consumerID, sc.Name, b, s.now())
}

func u64s(n uint64) string { return strconv.FormatUint(n, 10) }

// withSlippageUp is n plus slippageBps of it, rounded up (a deposit's maximum), capped at u64.
func withSlippageUp(n uint64, slippageBps int) uint64 {
	v := new(big.Int).Mul(new(big.Int).SetUint64(n), big.NewInt(int64(bpsDenominator+slippageBps)))
	v.Add(v, big.NewInt(bpsDenominator-1)).Quo(v, bigBps)
	if !v.IsUint64() {
		return ^uint64(0)
	}
	return v.Uint64()
}

// withSlippageDown is n less slippageBps of it, rounded down (a withdraw's minimum).
func withSlippageDown(n uint64, slippageBps int) uint64 {
	return uniswapv2.MinOut(new(big.Int).SetUint64(n), slippageBps).Uint64()
}

// lpReads are the accounts an add or remove build reads: the user (its lamports), then its plan's.
func lpReads(user raydium.Pubkey, plan []string) []string {
	return append([]string{user.String()}, plan...)
}

// insufficientToken is the prerequisite error of a token balance below what a build sends.
func insufficientToken(mint raydium.Pubkey, have, need uint64, decimals uint8) error {
	return fmt.Errorf("%w: insufficient balance: %s of %s held (in the associated token account), %s needed", ErrPrerequisite,
		market.Units(new(big.Int).SetUint64(have), int(decimals)), mint, market.Units(new(big.Int).SetUint64(need), int(decimals)))
}

// insufficientSOL is the prerequisite error of SOL below what a build wraps or pays.
func insufficientSOL(have, need uint64) error {
	return fmt.Errorf("%w: insufficient balance: %s SOL held, %s SOL needed (before fees)", ErrPrerequisite,
		market.Units(new(big.Int).SetUint64(have), solana.SOLDecimals), market.Units(new(big.Int).SetUint64(need), solana.SOLDecimals))
}

// buildSolanaLPAdd builds a deposit into a Raydium CPMM pool (lp/add). It reads Pool, AmountA and
// AmountB (human units; of TokenA and TokenB when given, which must be the pool's two mints in
// either order, Native naming wrapped SOL; else of the pool's token0 and token1) and SlippageBps.
// The amounts are the most the wallet sends of each token (Token-2022 transfer fees included):
// the build deposits the largest LP amount both afford at the pool's reserves read (the vaults
// less the fees owed), as CPMM computes a deposit (each side's share rounded up, then grossed up by
// Token-2022's inverse transfer fee), with deposit's maximums slippageBps above what it takes. The
// user's LP associated account is created if missing; a wrapped SOL side is paid in SOL
// (raydium.DepositBuild).
//
// Metadata: lpAmount (minted), amount0/amount1 (what the wallet sends), vaultAmount0/vaultAmount1
// (what reaches the vaults), transferFee0/transferFee1, maxAmount0/maxAmount1 (deposit's
// maximums), unused0/unused1 (what the request allowed beyond what is sent), reserve0/reserve1
// and lpSupply before, wrappedSOL (lamports wrapped, "0" without a SOL side), seeded false.
//
// Errors: ErrInvalid (a bad address, tokens that are not the pool's), ErrNotFound (no CPMM pool at
// the address), ErrInvalidAmount (malformed, too precise, or too small to mint any LP),
// ErrNotSupported (the pool has deposits disabled), ErrPrerequisite (balances),
// *SimulationError, and the adapter's and the store's.
func (s *Service) buildSolanaLPAdd(ctx context.Context, consumerID int, sc *SolanaChain, r LPRequest) (Build, error) {
	user, plan, err := s.lpPlan(ctx, sc, r)
	if err != nil {
		return Build{}, err
	}
	human := [2]string{r.AmountA, r.AmountB}
	if r.TokenA != "" {
		if a, _ := solanaMint("tokenA", r.TokenA); a != plan.Mint0 {
			human = [2]string{r.AmountB, r.AmountA}
		}
	}
	if human[0] == "" || human[1] == "" {
		return Build{}, fmt.Errorf("%w: adding liquidity takes amountA and amountB, in human token units", ErrInvalidAmount)
	}
	var st raydium.LiquidityState
	var q raydium.DepositQuote
	var desired [2]uint64
	var max0, max1 uint64
	b, built, lb, err := s.runLP(ctx, sc, lpBuildRequest{op: "build lp add", txID: solanaLPAddTxID, user: user,
		reads: lpReads(user, plan.Addresses), writable: []string{user.String(), plan.Pool.String()},
		observe: observeOf(plan), make: func(state map[string]chain.SVMAccount, _ uint64) (raydium.LiquidityBuild, error) {
			if st, err = decodeLP(sc, plan, state); err != nil {
				return raydium.LiquidityBuild{}, err
			}
			p := &st.Snapshot.Pool
			for i, d := range []uint8{p.Mint0Decimals, p.Mint1Decimals} {
				mint := []raydium.Pubkey{p.Token0Mint, p.Token1Mint}[i]
				if desired[i], err = u64Amount(mint.String(), human[i], int(d)); err != nil {
					return raydium.LiquidityBuild{}, err
				}
			}
			q, err = st.Snapshot.DepositFor(desired[0], desired[1])
			switch {
			case errors.Is(err, raydium.ErrNotApproved):
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: pool %s has deposits disabled", ErrNotSupported, plan.Pool)
			case errors.Is(err, raydium.ErrTooLittle), errors.Is(err, raydium.ErrZeroTradingTokens):
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: amounts %s and %s of the pool's tokens mint no LP at its reserves", ErrInvalidAmount, human[0], human[1])
			case err != nil:
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
			max0, max1 = withSlippageUp(q.Pay0, r.SlippageBps), withSlippageUp(q.Pay1, r.SlippageBps)
			exists := func(k raydium.Pubkey) bool { return state[k.String()].Exists }
			lb := raydium.DepositBuild(*p, plan.Pool, user, q, max0, max1, exists)
			for _, side := range []struct {
				mint         raydium.Pubkey
				has          bool
				balance, pay uint64
				decimals     uint8
			}{{p.Token0Mint, st.Has0, st.Balance0, q.Pay0, p.Mint0Decimals}, {p.Token1Mint, st.Has1, st.Balance1, q.Pay1, p.Mint1Decimals}} {
				if side.mint == raydium.NativeMint {
					if have := state[user.String()].Lamports; have < lb.WrapLamports {
						return raydium.LiquidityBuild{}, insufficientSOL(have, lb.WrapLamports)
					}
					continue
				}
				if side.balance < side.pay {
					return raydium.LiquidityBuild{}, insufficientToken(side.mint, side.balance, side.pay, side.decimals)
				}
			}
			return lb, nil
		}})
	if err != nil {
		return Build{}, err
	}
	p := st.Snapshot.Pool
	b.Fees = append(b.Fees, transferFeeRows(solanaLPAddTxID, p, st.Snapshot, q.TransferFee0, q.TransferFee1)...)
	md := map[string]any{"lpAmount": u64s(q.LP), "amount0": u64s(q.Pay0), "amount1": u64s(q.Pay1),
		"vaultAmount0": u64s(q.Amount0), "vaultAmount1": u64s(q.Amount1), "transferFee0": u64s(q.TransferFee0), "transferFee1": u64s(q.TransferFee1),
		"maxAmount0": u64s(max0), "maxAmount1": u64s(max1), "unused0": u64s(desired[0] - q.Pay0), "unused1": u64s(desired[1] - q.Pay1),
		"reserve0": u64s(q.Reserve0), "reserve1": u64s(q.Reserve1), "lpSupply": u64s(q.LPSupply), "wrappedSOL": u64s(lb.WrapLamports),
		"seeded": false, "slippageBps": r.SlippageBps}
	if err := s.finishLP(consumerID, sc, &b, built, p, plan.Pool, md); err != nil {
		return Build{}, err
	}
	return b, nil
}

// observeOf are the accounts a liquidity build may create: the user's LP account and its
// associated accounts of the pool's mints (both token programs).
func observeOf(plan *raydium.LiquidityPlan) []string {
	return plan.Addresses[6:]
}

// buildSolanaLPRemove builds a withdraw from a Raydium CPMM pool (lp/remove). It reads Pool, Bps
// (1..10000: the share of the user's LP balance, read in the same read as the pool, to burn,
// rounded down) and SlippageBps (TokenA and TokenB, when given, only name the pool's mints). The
// user receives each side's share of the reserves rounded down, less a Token-2022 transfer fee,
// with withdraw's minimums slippageBps below; the receiving associated accounts are created if
// missing, and a wrapped SOL side is received in SOL when the build creates the wrapped SOL
// account (raydium.WithdrawBuild).
//
// Metadata: lpAmount (burned), lpBalance (before), bps, amount0/amount1 (what the wallet
// receives), vaultAmount0/vaultAmount1 (what leaves the vaults), transferFee0/transferFee1,
// minAmount0/minAmount1, reserve0/reserve1 and lpSupply before.
//
// Errors: ErrInvalid (bps outside 1..10000, a bad address, tokens that are not the pool's),
// ErrNotFound (no CPMM pool), ErrNotSupported (withdrawals disabled), ErrPrerequisite (no LP of
// the pool held, or too little to receive any of a token), *SimulationError, and the adapter's and
// the store's.
func (s *Service) buildSolanaLPRemove(ctx context.Context, consumerID int, sc *SolanaChain, r LPRequest) (Build, error) {
	if r.Bps < 1 || r.Bps > bpsDenominator {
		return Build{}, fmt.Errorf("%w: bps must be 1 to 10000 (10000 removes everything)", ErrInvalid)
	}
	user, plan, err := s.lpPlan(ctx, sc, r)
	if err != nil {
		return Build{}, err
	}
	var st raydium.LiquidityState
	var q raydium.WithdrawQuote
	var min0, min1 uint64
	b, built, _, err := s.runLP(ctx, sc, lpBuildRequest{op: "build lp remove", txID: solanaLPRemoveTxID, user: user,
		reads: lpReads(user, plan.Addresses), writable: []string{user.String(), plan.Pool.String()},
		observe: observeOf(plan), make: func(state map[string]chain.SVMAccount, _ uint64) (raydium.LiquidityBuild, error) {
			if st, err = decodeLP(sc, plan, state); err != nil {
				return raydium.LiquidityBuild{}, err
			}
			lp := new(big.Int).Mul(new(big.Int).SetUint64(st.LPBalance), big.NewInt(int64(r.Bps)))
			lp.Quo(lp, bigBps)
			if lp.Sign() == 0 {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: nothing to remove: %s holds %s LP of pool %s (%d bps of it is none)", ErrPrerequisite,
					user, market.Units(new(big.Int).SetUint64(st.LPBalance), raydium.LPMintDecimals), plan.Pool, r.Bps)
			}
			q, err = st.Snapshot.Withdraw(lp.Uint64())
			switch {
			case errors.Is(err, raydium.ErrNotApproved):
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: pool %s has withdrawals disabled", ErrNotSupported, plan.Pool)
			case errors.Is(err, raydium.ErrZeroTradingTokens):
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: %s LP is too little to receive any of both tokens", ErrPrerequisite, lp)
			case err != nil:
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
			min0, min1 = withSlippageDown(q.Receive0, r.SlippageBps), withSlippageDown(q.Receive1, r.SlippageBps)
			exists := func(k raydium.Pubkey) bool { return state[k.String()].Exists }
			return raydium.WithdrawBuild(st.Snapshot.Pool, plan.Pool, user, q.LP, min0, min1, exists), nil
		}})
	if err != nil {
		return Build{}, err
	}
	p := st.Snapshot.Pool
	b.Fees = append(b.Fees, transferFeeRows(solanaLPRemoveTxID, p, st.Snapshot, q.TransferFee0, q.TransferFee1)...)
	md := map[string]any{"lpAmount": u64s(q.LP), "lpBalance": u64s(st.LPBalance), "bps": r.Bps, "amount0": u64s(q.Receive0), "amount1": u64s(q.Receive1),
		"vaultAmount0": u64s(q.Amount0), "vaultAmount1": u64s(q.Amount1), "transferFee0": u64s(q.TransferFee0), "transferFee1": u64s(q.TransferFee1),
		"minAmount0": u64s(min0), "minAmount1": u64s(min1), "reserve0": u64s(q.Reserve0), "reserve1": u64s(q.Reserve1), "lpSupply": u64s(q.LPSupply),
		"slippageBps": r.SlippageBps}
	if err := s.finishLP(consumerID, sc, &b, built, p, plan.Pool, md); err != nil {
		return Build{}, err
	}
	return b, nil
}

// buildSolanaLPCreate builds the creation of a Raydium CPMM pool of TokenA and TokenB (mints;
// Native is wrapped SOL, paid in SOL), funded in the same instruction (CPMM's initialize) with
// AmountA of TokenA and AmountB of TokenB (human units, Token-2022 transfer fees included), under
// the fee tier FeeTier (the AmmConfig index; 0, the default, is CPMM's 0.25 % tier), at the
// address CPMM's SDK and UI use (raydium.PoolAddress), open for swaps at once. The user pays the
// config's pool creation fee (a venue fee row) and the rent of the pool's accounts and of its LP
// associated account (rent rows), and receives the initial liquidity less the 100 LP CPMM locks.
//
// Metadata: seeded true, ammConfig, feeTier, tradeFeeRate (millionths), lpAmount (the creator's
// LP), lpSupply (the initial liquidity), lockedLp, amount0/amount1 (sent), vaultAmount0/
// vaultAmount1 (in the vaults after), transferFee0/transferFee1, createPoolFee (lamports),
// vault0, vault1, observation, wrappedSOL.
//
// Errors: ErrInvalid (the same token twice, a bad address, not a mint, no such fee tier or one
// that disables creation, or a pool that already exists at the derived address: build lp/add),
// ErrInvalidAmount (malformed, too precise, or too little liquidity: under 100 LP or an empty
// vault), ErrPrerequisite (balances), *SimulationError (such as a Token-2022 mint with an extension
// CPMM refuses), and the adapter's and the store's.
func (s *Service) buildSolanaLPCreate(ctx context.Context, consumerID int, sc *SolanaChain, r LPRequest) (Build, error) {
	user, err := solanaLPSetup(sc, r)
	if err != nil {
		return Build{}, err
	}
	if r.TokenA == "" || r.TokenB == "" {
		return Build{}, fmt.Errorf("%w: creating a pool takes tokenA and tokenB", ErrInvalid)
	}
	a, err := solanaMint("tokenA", r.TokenA)
	if err != nil {
		return Build{}, err
	}
	bm, err := solanaMint("tokenB", r.TokenB)
	if err != nil {
		return Build{}, err
	}
	if a == bm {
		return Build{}, fmt.Errorf("%w: tokenA and tokenB must be two different tokens", ErrInvalid)
	}
	if r.FeeTier < 0 || r.FeeTier > 0xffff {
		return Build{}, fmt.Errorf("%w: feeTier is an AmmConfig index, 0 to 65535", ErrInvalid)
	}
	human := [2]string{r.AmountA, r.AmountB}
	if bm.Less(a) {
		a, bm = bm, a
		human = [2]string{r.AmountB, r.AmountA}
	}
	if human[0] == "" || human[1] == "" {
		return Build{}, fmt.Errorf("%w: creating a pool on raydium funds it: give amountA and amountB, in human token units", ErrInvalidAmount)
	}
	config := raydium.AmmConfigAddress(uint16(r.FeeTier))
	keys := raydium.DerivePoolKeys(config, a, bm, raydium.Pubkey{})
	creatorLP := raydium.AssociatedTokenAccount(user, keys.LPMint, raydium.TokenProgram)
	reads := []string{user.String(), raydium.ClockSysvar.String(), config.String(), a.String(), bm.String(), keys.Pool.String()}
	for _, m := range []raydium.Pubkey{a, bm} {
		reads = append(reads, raydium.AssociatedTokenAccount(user, m, raydium.TokenProgram).String(), raydium.AssociatedTokenAccount(user, m, raydium.Token2022Program).String())
	}
	observe := []string{keys.Pool.String(), keys.LPMint.String(), keys.Vault0.String(), keys.Vault1.String(), keys.Observation.String(), creatorLP.String()}

	var cfg raydium.AmmConfig
	var iq raydium.InitializeQuote
	var amounts [2]uint64
	var decimals [2]uint8
	var fees [2]*svm.FeeSchedule
	var programs [2]raydium.Pubkey
	b, built, lb, err := s.runLP(ctx, sc, lpBuildRequest{op: "build lp create", txID: solanaLPCreateTxID, user: user, reads: reads,
		writable: []string{user.String(), raydium.CreatePoolFeeReceiver.String()}, observe: observe,
		make: func(state map[string]chain.SVMAccount, _ uint64) (raydium.LiquidityBuild, error) {
			clock, err := raydium.DecodeClock(state[raydium.ClockSysvar.String()].Data)
			if err != nil {
				return raydium.LiquidityBuild{}, fmt.Errorf("lp create: %w: Clock: %w", chain.ErrUpstreamBadResponse, err)
			}
			ca := state[config.String()]
			if !ca.Exists || ca.Owner != raydium.ProgramID.String() {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: raydium has no fee tier %d on %s (no AmmConfig at %s)", ErrInvalid, r.FeeTier, sc.Name, config)
			}
			if cfg, err = raydium.DecodeAmmConfig(ca.Data); err != nil {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: fee tier %d: %w", ErrInvalid, r.FeeTier, err)
			}
			if cfg.DisableCreatePool {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: raydium's fee tier %d does not allow creating pools", ErrInvalid, r.FeeTier)
			}
			if state[keys.Pool.String()].Exists {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: pool already exists: %s (%s and %s at fee tier %d); build lp/add to add liquidity to it",
					ErrInvalid, keys.Pool, a, bm, r.FeeTier)
			}
			for i, m := range []raydium.Pubkey{a, bm} {
				ma := state[m.String()]
				d, err := raydium.MintDecimals(ma)
				if err != nil {
					return raydium.LiquidityBuild{}, fmt.Errorf("%w: %s is not a token mint on %s", ErrInvalid, m, sc.Name)
				}
				decimals[i], programs[i] = d, raydium.MustPubkey(ma.Owner)
				if fees[i], err = raydium.MintTransferFee(programs[i], ma.Data, clock.Epoch); err != nil {
					return raydium.LiquidityBuild{}, fmt.Errorf("%w: mint %s: %w", ErrInvalid, m, err)
				}
				if amounts[i], err = u64Amount(m.String(), human[i], int(d)); err != nil {
					return raydium.LiquidityBuild{}, err
				}
			}
			if iq, err = raydium.InitialLiquidity(amounts[0], amounts[1], fees[0], fees[1]); err != nil {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: %w", ErrInvalidAmount, err)
			}
			accts := raydium.InitializeAccounts{Creator: user, Config: config, Mint0: a, Mint1: bm, Token0Program: programs[0], Token1Program: programs[1],
				Creator0: raydium.AssociatedTokenAccount(user, a, programs[0]), Creator1: raydium.AssociatedTokenAccount(user, bm, programs[1])}
			exists := func(k raydium.Pubkey) bool { return state[k.String()].Exists }
			_, lb, err := raydium.InitializeBuild(accts, amounts[0], amounts[1], exists)
			if err != nil {
				return raydium.LiquidityBuild{}, fmt.Errorf("%w: %w", ErrInvalid, err)
			}
			sol := lb.WrapLamports + cfg.CreatePoolFee
			if have := state[user.String()].Lamports; have < sol {
				return raydium.LiquidityBuild{}, insufficientSOL(have, sol)
			}
			for i, m := range []raydium.Pubkey{a, bm} {
				if m == raydium.NativeMint {
					continue
				}
				have, _ := raydium.TokenBalance(state[[]raydium.Pubkey{accts.Creator0, accts.Creator1}[i].String()])
				if have < amounts[i] {
					return raydium.LiquidityBuild{}, insufficientToken(m, have, amounts[i], decimals[i])
				}
			}
			return lb, nil
		}})
	if err != nil {
		return Build{}, err
	}
	p := raydium.PoolState{Token0Mint: a, Token1Mint: bm, LPMint: keys.LPMint, Mint0Decimals: decimals[0], Mint1Decimals: decimals[1]}
	b.Fees = append(b.Fees, transferFeeRows(solanaLPCreateTxID, p, raydium.Snapshot{TransferFee0: fees[0], TransferFee1: fees[1]}, iq.TransferFee0, iq.TransferFee1)...)
	if cfg.CreatePoolFee > 0 {
		fee := txFee(solanaLPCreateTxID, "venue", Native, cfg.CreatePoolFee, solana.SOLDecimals)
		fee.Venue, fee.Pool = raydium.VenueName, keys.Pool.String()
		b.Fees = append(b.Fees, fee)
	}
	md := map[string]any{"seeded": true, "ammConfig": config.String(), "feeTier": r.FeeTier, "tradeFeeRate": cfg.TradeFeeRate,
		"lpAmount": u64s(iq.CreatorLP), "lpSupply": u64s(iq.Liquidity), "lockedLp": u64s(raydium.LockedLP),
		"amount0": u64s(amounts[0]), "amount1": u64s(amounts[1]), "vaultAmount0": u64s(iq.Vault0), "vaultAmount1": u64s(iq.Vault1),
		"transferFee0": u64s(iq.TransferFee0), "transferFee1": u64s(iq.TransferFee1), "createPoolFee": u64s(cfg.CreatePoolFee),
		"vault0": keys.Vault0.String(), "vault1": keys.Vault1.String(), "observation": keys.Observation.String(), "wrappedSOL": u64s(lb.WrapLamports)}
	if err := s.finishLP(consumerID, sc, &b, built, p, keys.Pool, md); err != nil {
		return Build{}, err
	}
	return b, nil
}

func bpsOf(f *svm.FeeSchedule) uint16 {
	if f == nil {
		return 0
	}
	return f.BasisPoints
}
