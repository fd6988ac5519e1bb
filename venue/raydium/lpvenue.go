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
