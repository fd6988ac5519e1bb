package raydium

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// Raydium CPMM's liquidity builds as the trade service runs them (chain.SVMLiquidityVenue): create
// a pool funded in the same instruction (initialize), add liquidity (deposit) and remove it
// (withdraw), each one transaction of the user's, with CPMM's exact math at the state read: with
// nothing traded in between, the wallet and the vaults move by exactly the metadata's amounts.
//
// A pool's accounts all derive from its address and its two mints (PlanLiquidity). Amounts in
// metadata are integer base-unit strings; the LP mint has LPMintDecimals. Metadata always names
// poolId, token0, token1 (CPMM's order: the lower key first), lpMint and lpDecimals. Fee rows:
// transfer_fee of a Token-2022 side (in the token), and on create a venue row for the config's
// pool creation fee (SOL, paid to CreatePoolFeeReceiver). A wrapped SOL side is paid and received
// in SOL as the swap builds do. Errors wrap the chain package's errors.

var _ chain.SVMLiquidityVenue = Venue{}

// bpsDenominator is 100 %, in basis points.
const bpsDenominator = 10_000

// solDecimals are SOL's decimals (lamports).
const solDecimals = 9

// PoolMints implements chain.SVMLiquidityVenue: a CPMM PoolState's mints. Errors wrap
// chain.ErrNotFound (an account that is not a CPMM pool).
func (Venue) PoolMints(chainName string, pool chain.SVMAccount) (string, string, error) {
	if !pool.Exists || pool.Owner != cpmmOwner {
		return "", "", notAPool(pool.Address, chainName)
	}
	st, err := DecodePoolState(pool.Data)
	if err != nil {
		return "", "", notAPool(pool.Address, chainName)
	}
	return st.Token0Mint.String(), st.Token1Mint.String(), nil
}

// notAPool is the error of an address that holds no CPMM pool.
func notAPool(pool, chainName string) error {
	return fmt.Errorf("%w: pool %s is not a Raydium CPMM pool on %s", chain.ErrNotFound, pool, chainName)
}

// PlanLiquidity implements chain.SVMLiquidityVenue: it checks r as its operation reads it and
// plans the build (planDeposit, planWithdraw, planCreate).
func (Venue) PlanLiquidity(r chain.SVMLiquidityRequest) (chain.SVMLiquidityPlan, error) {
	switch r.Op {
	case chain.LiquidityAdd:
		return planDeposit(r)
	case chain.LiquidityRemove:
		return planWithdraw(r)
	case chain.LiquidityCreate:
		return planCreate(r)
	}
	return nil, fmt.Errorf("%w: no liquidity operation %q on raydium (create, add, remove)", chain.ErrInvalidRequest, r.Op)
}

// lpSetup checks what every build takes: the slippage and the user.
func lpSetup(r chain.SVMLiquidityRequest) (Pubkey, error) {
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return Pubkey{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", chain.ErrInvalidRequest)
	}
	user, err := ParsePubkey(r.User)
	if err != nil {
		return Pubkey{}, fmt.Errorf("%w: user: %w", chain.ErrInvalidRequest, err)
	}
	return user, nil
}

// mintParam parses a mint parameter called name.
func mintParam(name, s string) (Pubkey, error) {
	k, err := ParsePubkey(s)
	if err != nil {
		return Pubkey{}, fmt.Errorf("%w: %s: %w", chain.ErrInvalidRequest, name, err)
	}
	return k, nil
}

// requestMints are the request's TokenA and TokenB, both given and distinct.
func requestMints(r chain.SVMLiquidityRequest) (Pubkey, Pubkey, error) {
	a, err := mintParam("tokenA", r.TokenA)
	if err != nil {
		return a, a, err
	}
	b, err := mintParam("tokenB", r.TokenB)
	if err != nil {
		return a, b, err
	}
	if a == b {
		return a, b, fmt.Errorf("%w: tokenA and tokenB must be two different tokens", chain.ErrInvalidRequest)
	}
	return a, b, nil
}

// lpPoolPlan checks an add or remove's user, pool and tokens and plans its reads. The pool's mints
// are TokenA and TokenB when the request names them (checked against the pool by the build's
// read), else Mint0 and Mint1 as the caller resolved them.
func lpPoolPlan(r chain.SVMLiquidityRequest) (*LiquidityPlan, error) {
	user, err := lpSetup(r)
	if err != nil {
		return nil, err
	}
	if r.Pool == "" {
		return nil, fmt.Errorf("%w: raydium LP operations take pool: the pool's address", chain.ErrInvalidRequest)
	}
	pool, err := ParsePubkey(r.Pool)
	if err != nil {
		return nil, fmt.Errorf("%w: pool: %w", chain.ErrInvalidRequest, err)
	}
	var a, b Pubkey
	switch {
	case r.TokenA != "" || r.TokenB != "":
		if r.TokenA == "" || r.TokenB == "" {
			return nil, fmt.Errorf("%w: give both tokenA and tokenB, or neither (then amountA is of the pool's token0 and amountB of its token1)", chain.ErrInvalidRequest)
		}
		if a, b, err = requestMints(r); err != nil {
			return nil, err
		}
	case r.Mint0 == "" || r.Mint1 == "":
		return nil, fmt.Errorf("%w: name the pool's tokens (tokenA and tokenB)", chain.ErrInvalidRequest)
	default:
		if a, err = mintParam("the pool's token0", r.Mint0); err != nil {
			return nil, err
		}
		if b, err = mintParam("the pool's token1", r.Mint1); err != nil {
			return nil, err
		}
	}
	plan, err := PlanLiquidity(pool, a, b, user)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", chain.ErrInvalidRequest, err)
	}
	return plan, nil
}

// poolPlan is an add or remove's reads: the user (its lamports), then the LiquidityPlan's.
type poolPlan struct {
	plan *LiquidityPlan
	// chain is the chain's name, for errors.
	chain string
}

func (p poolPlan) Reads() []string {
	return append([]string{p.plan.Owner.String()}, p.plan.Addresses...)
}

func (p poolPlan) Writable() []string { return []string{p.plan.Owner.String(), p.plan.Pool.String()} }

// Observe are the accounts a liquidity build may create: the user's LP account and its associated
// accounts of the pool's mints (both token programs).
func (p poolPlan) Observe() []string { return p.plan.Addresses[6:] }

// decode decodes the plan's read, as the chain package's errors.
func (p poolPlan) decode(state map[string]chain.SVMAccount) (LiquidityState, error) {
	st, err := p.plan.Decode(state)
	switch {
	case errors.Is(err, ErrNoPool):
		return st, notAPool(p.plan.Pool.String(), p.chain)
	case errors.Is(err, ErrPoolMints):
		return st, fmt.Errorf("%w: pool %s is not a pool of %s and %s (%v)", chain.ErrInvalidRequest, p.plan.Pool, p.plan.Mint0, p.plan.Mint1, err)
	}
	return st, err
}

// poolMetadata are the figures every build names: the pool, its mints, its LP mint and decimals.
func poolMetadata(md map[string]any, pool Pubkey, p PoolState) map[string]any {
	md["poolId"], md["token0"], md["token1"], md["lpMint"] = pool.String(), p.Token0Mint.String(), p.Token1Mint.String(), p.LPMint.String()
	md["lpDecimals"] = LPMintDecimals
	return md
}

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

// createPlan plans a pool's creation (planCreate).
type createPlan struct {
	chain          string
	user, config   Pubkey
	mint0, mint1   Pubkey
	feeTier        int
	human          [2]string
	keys           PoolKeys
	reads, observe []string
}

// planCreate plans the creation of a CPMM pool of TokenA and TokenB (mints; wrapped SOL is paid in
// SOL), funded in the same instruction (initialize) with AmountA of TokenA and AmountB of TokenB
// (human units, Token-2022 transfer fees included), under the fee tier FeeTier (the AmmConfig
// index; 0, the default, is CPMM's 0.25 % tier), at the address CPMM's SDK and UI use
// (PoolAddress), open for swaps at once. The user pays the config's pool creation fee (a venue fee
// row) and the rent of the pool's accounts and of its LP associated account (Creates), and
// receives the initial liquidity less the LockedLP.
//
// Metadata: seeded true, ammConfig, feeTier, tradeFeeRate (millionths), lpAmount (the creator's
// LP), lpSupply (the initial liquidity), lockedLp, amount0/amount1 (sent), vaultAmount0/
// vaultAmount1 (in the vaults after), transferFee0/transferFee1, createPoolFee (lamports),
// vault0, vault1, observation, wrappedSOL.
//
// Errors: ErrInvalidRequest (the same token twice, a bad address, not a mint, no such fee tier or
// one that disables creation, or a pool that already exists at the derived address: build lp/add),
// ErrInvalidAmount (malformed, too precise, or too little liquidity: under LockedLP or an empty
// vault), ErrPrerequisite (balances).
func planCreate(r chain.SVMLiquidityRequest) (chain.SVMLiquidityPlan, error) {
	user, err := lpSetup(r)
	if err != nil {
		return nil, err
	}
	if r.TokenA == "" || r.TokenB == "" {
		return nil, fmt.Errorf("%w: creating a pool takes tokenA and tokenB", chain.ErrInvalidRequest)
	}
	a, b, err := requestMints(r)
	if err != nil {
		return nil, err
	}
	if r.FeeTier < 0 || r.FeeTier > 0xffff {
		return nil, fmt.Errorf("%w: feeTier is an AmmConfig index, 0 to 65535", chain.ErrInvalidRequest)
	}
	human := [2]string{r.AmountA, r.AmountB}
	if b.Less(a) {
		a, b = b, a
		human = [2]string{r.AmountB, r.AmountA}
	}
	if human[0] == "" || human[1] == "" {
		return nil, fmt.Errorf("%w: creating a pool on raydium funds it: give amountA and amountB, in human token units", chain.ErrInvalidAmount)
	}
	c := createPlan{chain: r.Chain, user: user, config: AmmConfigAddress(uint16(r.FeeTier)), mint0: a, mint1: b, feeTier: r.FeeTier, human: human}
	c.keys = DerivePoolKeys(c.config, a, b, Pubkey{})
	c.reads = []string{user.String(), ClockSysvar.String(), c.config.String(), a.String(), b.String(), c.keys.Pool.String()}
	for _, m := range []Pubkey{a, b} {
		c.reads = append(c.reads, AssociatedTokenAccount(user, m, TokenProgram).String(), AssociatedTokenAccount(user, m, Token2022Program).String())
	}
	creatorLP := AssociatedTokenAccount(user, c.keys.LPMint, TokenProgram)
	c.observe = []string{c.keys.Pool.String(), c.keys.LPMint.String(), c.keys.Vault0.String(), c.keys.Vault1.String(), c.keys.Observation.String(), creatorLP.String()}
	return c, nil
}

func (c createPlan) Reads() []string { return c.reads }
func (c createPlan) Writable() []string {
	return []string{c.user.String(), CreatePoolFeeReceiver.String()}
}
func (c createPlan) Observe() []string { return c.observe }

func (c createPlan) Build(state map[string]chain.SVMAccount, _ uint64) (chain.SVMLiquidityBuild, error) {
	clock, err := DecodeClock(state[ClockSysvar.String()].Data)
	if err != nil {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("lp create: %w: Clock: %w", chain.ErrUpstreamBadResponse, err)
	}
	ca := state[c.config.String()]
	if !ca.Exists || ca.Owner != cpmmOwner {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: raydium has no fee tier %d on %s (no AmmConfig at %s)", chain.ErrInvalidRequest, c.feeTier, c.chain, c.config)
	}
	cfg, err := DecodeAmmConfig(ca.Data)
	if err != nil {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: fee tier %d: %w", chain.ErrInvalidRequest, c.feeTier, err)
	}
	if cfg.DisableCreatePool {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: raydium's fee tier %d does not allow creating pools", chain.ErrInvalidRequest, c.feeTier)
	}
	if state[c.keys.Pool.String()].Exists {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: pool already exists: %s (%s and %s at fee tier %d); build lp/add to add liquidity to it",
			chain.ErrInvalidRequest, c.keys.Pool, c.mint0, c.mint1, c.feeTier)
	}
	var amounts [2]uint64
	var decimals [2]uint8
	var fees [2]*svm.FeeSchedule
	var programs [2]Pubkey
	mints := []Pubkey{c.mint0, c.mint1}
	for i, m := range mints {
		ma := state[m.String()]
		d, err := MintDecimals(ma)
		if err != nil {
			return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %s is not a token mint on %s", chain.ErrInvalidRequest, m, c.chain)
		}
		decimals[i], programs[i] = d, MustPubkey(ma.Owner)
		if fees[i], err = MintTransferFee(programs[i], ma.Data, clock.Epoch); err != nil {
			return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: mint %s: %w", chain.ErrInvalidRequest, m, err)
		}
		if amounts[i], err = u64Amount(m.String(), c.human[i], int(d)); err != nil {
			return chain.SVMLiquidityBuild{}, err
		}
	}
	iq, err := InitialLiquidity(amounts[0], amounts[1], fees[0], fees[1])
	if err != nil {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %w", chain.ErrInvalidAmount, err)
	}
	accts := InitializeAccounts{Creator: c.user, Config: c.config, Mint0: c.mint0, Mint1: c.mint1, Token0Program: programs[0], Token1Program: programs[1],
		Creator0: AssociatedTokenAccount(c.user, c.mint0, programs[0]), Creator1: AssociatedTokenAccount(c.user, c.mint1, programs[1])}
	exists := func(k Pubkey) bool { return state[k.String()].Exists }
	_, lb, err := InitializeBuild(accts, amounts[0], amounts[1], exists)
	if err != nil {
		return chain.SVMLiquidityBuild{}, fmt.Errorf("%w: %w", chain.ErrInvalidRequest, err)
	}
	sol := lb.WrapLamports + cfg.CreatePoolFee
	if have := state[c.user.String()].Lamports; have < sol {
		return chain.SVMLiquidityBuild{}, insufficientSOL(have, sol)
	}
	for i, m := range mints {
		if m == NativeMint {
			continue
		}
		have, _ := TokenBalance(state[[]Pubkey{accts.Creator0, accts.Creator1}[i].String()])
		if have < amounts[i] {
			return chain.SVMLiquidityBuild{}, insufficientToken(m, have, amounts[i], decimals[i])
		}
	}
	p := PoolState{Token0Mint: c.mint0, Token1Mint: c.mint1, LPMint: c.keys.LPMint, Mint0Decimals: decimals[0], Mint1Decimals: decimals[1]}
	rows := transferFeeRows(p, Snapshot{TransferFee0: fees[0], TransferFee1: fees[1]}, iq.TransferFee0, iq.TransferFee1)
	if cfg.CreatePoolFee > 0 {
		rows = append(rows, chain.SVMFee{Kind: chain.SVMFeeVenue, Token: chain.Native, Amount: cfg.CreatePoolFee, Decimals: solDecimals,
			Venue: VenueName, Pool: c.keys.Pool.String()})
	}
	md := map[string]any{"seeded": true, "ammConfig": c.config.String(), "feeTier": c.feeTier, "tradeFeeRate": cfg.TradeFeeRate,
		"lpAmount": u64s(iq.CreatorLP), "lpSupply": u64s(iq.Liquidity), "lockedLp": u64s(LockedLP),
		"amount0": u64s(amounts[0]), "amount1": u64s(amounts[1]), "vaultAmount0": u64s(iq.Vault0), "vaultAmount1": u64s(iq.Vault1),
		"transferFee0": u64s(iq.TransferFee0), "transferFee1": u64s(iq.TransferFee1), "createPoolFee": u64s(cfg.CreatePoolFee),
		"vault0": c.keys.Vault0.String(), "vault1": c.keys.Vault1.String(), "observation": c.keys.Observation.String(), "wrappedSOL": u64s(lb.WrapLamports)}
	return liquidityBuild(lb, rows, poolMetadata(md, c.keys.Pool, p)), nil
}

// liquidityBuild is lb as the chain package's build, with its fee rows and metadata.
func liquidityBuild(lb LiquidityBuild, fees []chain.SVMFee, md map[string]any) chain.SVMLiquidityBuild {
	out := chain.SVMLiquidityBuild{Calls: make([]chain.SVMCall, len(lb.Instructions)), Creates: addresses(lb.Creates), Fees: fees, Metadata: md}
	for i, ix := range lb.Instructions {
		out.Calls[i] = ix.Call()
	}
	return out
}

// transferFeeRows are the transfer_fee rows of the two sides of a pool (none for a side without a
// transfer fee, or a zero one).
func transferFeeRows(p PoolState, s Snapshot, fee0, fee1 uint64) []chain.SVMFee {
	var out []chain.SVMFee
	for _, f := range []struct {
		mint     Pubkey
		decimals uint8
		sched    *svm.FeeSchedule
		n        uint64
	}{{p.Token0Mint, p.Mint0Decimals, s.TransferFee0, fee0}, {p.Token1Mint, p.Mint1Decimals, s.TransferFee1, fee1}} {
		if f.sched == nil || f.n == 0 {
			continue
		}
		out = append(out, chain.SVMFee{Kind: chain.SVMFeeTransfer, Token: f.mint.String(), Amount: f.n, Decimals: int(f.decimals), Bps: int(f.sched.BasisPoints)})
	}
	return out
}

// u64Amount converts a human amount of a token with decimals into base units that fit a u64.
// Errors wrap chain.ErrInvalidAmount.
func u64Amount(what, human string, decimals int) (uint64, error) {
	n, err := chain.HumanToBaseUnits(human, decimals)
	if err != nil {
		return 0, fmt.Errorf("amount of %s: %w", what, err)
	}
	if !n.IsUint64() {
		return 0, fmt.Errorf("%w: amount of %s exceeds a Solana token amount (a u64)", chain.ErrInvalidAmount, what)
	}
	return n.Uint64(), nil
}

func u64s(n uint64) string { return strconv.FormatUint(n, 10) }

// units is n base units of a token with decimals, in token units ("1.5"; trailing zeros cut).
func units(n uint64, decimals int) string {
	s := strconv.FormatUint(n, 10)
	if decimals <= 0 {
		return s
	}
	if len(s) <= decimals {
		s = strings.Repeat("0", decimals-len(s)+1) + s
	}
	s = strings.TrimRight(s[:len(s)-decimals]+"."+s[len(s)-decimals:], "0")
	return strings.TrimSuffix(s, ".")
}

// withSlippageUp is n plus slippageBps of it, rounded up (a deposit's maximum), capped at u64.
func withSlippageUp(n uint64, slippageBps int) uint64 {
	v := new(big.Int).Mul(new(big.Int).SetUint64(n), big.NewInt(int64(bpsDenominator+slippageBps)))
	v.Add(v, big.NewInt(bpsDenominator-1)).Quo(v, big.NewInt(bpsDenominator))
	if !v.IsUint64() {
		return ^uint64(0)
	}
	return v.Uint64()
}

// withSlippageDown is n less slippageBps of it, rounded down (a withdraw's minimum); 0 at 100 %.
func withSlippageDown(n uint64, slippageBps int) uint64 {
	if slippageBps >= bpsDenominator {
		return 0
	}
	v := new(big.Int).Mul(new(big.Int).SetUint64(n), big.NewInt(int64(bpsDenominator-max(slippageBps, 0))))
	return v.Quo(v, big.NewInt(bpsDenominator)).Uint64()
}

// insufficientToken is the prerequisite error of a token balance below what a build sends.
func insufficientToken(mint Pubkey, have, need uint64, decimals uint8) error {
	return fmt.Errorf("%w: insufficient balance: %s of %s held (in the associated token account), %s needed", chain.ErrPrerequisite,
		units(have, int(decimals)), mint, units(need, int(decimals)))
}

// insufficientSOL is the prerequisite error of SOL below what a build wraps or pays.
func insufficientSOL(have, need uint64) error {
	return fmt.Errorf("%w: insufficient balance: %s SOL held, %s SOL needed (before fees)", chain.ErrPrerequisite,
		units(have, solDecimals), units(need, solDecimals))
}
