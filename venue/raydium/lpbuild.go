package raydium

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// Liquidity builds: what a wallet's transaction reads and does to deposit into, withdraw from and
// create a CPMM pool. Every account a build needs derives from the pool's address and its two
// mints (the vaults at VaultAddress(pool, mint), the LP mint at LPMintAddress(pool), for pools at
// PoolAddress and at a keypair's address alike), so one getMultipleAccounts reads all of it.

var (
	// ErrNoPool: the address holds no CPMM pool (a missing account, another program's, or not a
	// PoolState).
	ErrNoPool = errors.New("raydium: no CPMM pool at the address")
	// ErrPoolMints: the pool is not of the mints the build was planned with.
	ErrPoolMints = errors.New("raydium: the pool is not of these mints")
	// ErrTooLittle: the amounts afford no LP at the pool's reserves (or, at initialize, fewer than
	// the 100 LP that stay locked).
	ErrTooLittle = errors.New("raydium: the amounts are too small for any LP")
)

// LiquidityPlan lists the accounts a deposit or withdraw build of Owner on Pool reads, Keys in this
// order: ClockSysvar, Pool, Mint0, Mint1, Vault0, Vault1, OwnerLP (the owner's LP associated
// account), then the owner's associated accounts of Mint0 and of Mint1, each under SPL Token and
// under Token-2022 (the mint's owner, read with it, says which is the pool's).
type LiquidityPlan struct {
	Pool, Mint0, Mint1, Vault0, Vault1, LPMint, Owner, OwnerLP Pubkey
	Keys                                                       []Pubkey
	Addresses                                                  []string
}

// PlanLiquidity plans the reads of a liquidity build on pool, whose mints are mintA and mintB in
// either order. Errors: ErrSameMint.
func PlanLiquidity(pool, mintA, mintB, owner Pubkey) (*LiquidityPlan, error) {
	if mintA == mintB {
		return nil, fmt.Errorf("plan liquidity: %w: %s", ErrSameMint, mintA)
	}
	if mintB.Less(mintA) {
		mintA, mintB = mintB, mintA
	}
	lp := LPMintAddress(pool)
	p := &LiquidityPlan{Pool: pool, Mint0: mintA, Mint1: mintB, Vault0: VaultAddress(pool, mintA), Vault1: VaultAddress(pool, mintB),
		LPMint: lp, Owner: owner, OwnerLP: AssociatedTokenAccount(owner, lp, TokenProgram)}
	p.Keys = []Pubkey{ClockSysvar, pool, p.Mint0, p.Mint1, p.Vault0, p.Vault1, p.OwnerLP}
	for _, m := range []Pubkey{p.Mint0, p.Mint1} {
		p.Keys = append(p.Keys, AssociatedTokenAccount(owner, m, TokenProgram), AssociatedTokenAccount(owner, m, Token2022Program))
	}
	p.Addresses = addresses(p.Keys)
	return p, nil
}

func addresses(keys []Pubkey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// LiquidityState is a liquidity plan's accounts decoded.
type LiquidityState struct {
	// Snapshot is the pool, its vaults and the mints' transfer fees at the Clock's epoch (Config
	// is left zero: deposit and withdraw do not use it).
	Snapshot Snapshot
	Clock    Clock
	// Account0 and Account1 are the owner's associated accounts of the pool's mints under the
	// pool's token programs; Balance0 and Balance1 their amounts (0 when missing), Has0 and Has1
	// whether they exist.
	Account0, Account1 Pubkey
	Balance0, Balance1 uint64
	Has0, Has1         bool
	// LPBalance is the owner's LP associated account's amount (0 when missing); HasLP whether it
	// exists.
	LPBalance uint64
	HasLP     bool
}

// Decode decodes the plan's accounts (by base58 address, as chain/solana's Build hands them).
// Errors: ErrNoPool; ErrPoolMints (the pool's mints, vaults or LP mint are not the plan's);
// errors wrapping chain.ErrUpstreamBadResponse (the Clock, a mint or a vault does not decode).
func (p *LiquidityPlan) Decode(state map[string]chain.SVMAccount) (LiquidityState, error) {
	get := func(k Pubkey) chain.SVMAccount { return state[k.String()] }
	var st LiquidityState
	clock := get(ClockSysvar)
	c, err := DecodeClock(clock.Data)
	if !clock.Exists || err != nil {
		return st, fmt.Errorf("raydium: liquidity accounts: %w: no Clock sysvar (%v)", chain.ErrUpstreamBadResponse, err)
	}
	st.Clock = c
	pa := get(p.Pool)
	if !pa.Exists || pa.Owner != cpmmOwner {
		return st, ErrNoPool
	}
	pool, err := DecodePoolState(pa.Data)
	if err != nil {
		return st, fmt.Errorf("%w: %w", ErrNoPool, err)
	}
	if pool.Token0Mint != p.Mint0 || pool.Token1Mint != p.Mint1 {
		return st, fmt.Errorf("%w: its mints are %s and %s", ErrPoolMints, pool.Token0Mint, pool.Token1Mint)
	}
	if pool.Token0Vault != p.Vault0 || pool.Token1Vault != p.Vault1 || pool.LPMint != p.LPMint {
		return st, fmt.Errorf("%w: its vaults or LP mint are not at the addresses CPMM derives", ErrPoolMints)
	}
	s := Snapshot{Pool: pool, Now: uint64(c.UnixTimestamp)}
	for i, m := range []struct {
		mint, program, vault Pubkey
		fee                  **svm.FeeSchedule
		amount               *uint64
	}{{p.Mint0, pool.Token0Program, p.Vault0, &s.TransferFee0, &s.Vault0}, {p.Mint1, pool.Token1Program, p.Vault1, &s.TransferFee1, &s.Vault1}} {
		ma := get(m.mint)
		if !ma.Exists || ma.Owner != m.program.String() {
			return st, fmt.Errorf("raydium: liquidity accounts: %w: mint %d %s is not owned by the pool's token program", chain.ErrUpstreamBadResponse, i, m.mint)
		}
		if *m.fee, err = MintTransferFee(m.program, ma.Data, c.Epoch); err != nil {
			return st, fmt.Errorf("raydium: liquidity accounts: %w: mint %s: %w", chain.ErrUpstreamBadResponse, m.mint, err)
		}
		var ok bool
		if *m.amount, ok = vaultAmount(get(m.vault), m.mint, m.program.String()); !ok {
			return st, fmt.Errorf("raydium: liquidity accounts: %w: vault %s is not a token account of %s", chain.ErrUpstreamBadResponse, m.vault, m.mint)
		}
	}
	st.Snapshot = s
	st.Account0 = AssociatedTokenAccount(p.Owner, p.Mint0, pool.Token0Program)
	st.Account1 = AssociatedTokenAccount(p.Owner, p.Mint1, pool.Token1Program)
	st.Balance0, st.Has0 = TokenBalance(get(st.Account0))
	st.Balance1, st.Has1 = TokenBalance(get(st.Account1))
	st.LPBalance, st.HasLP = TokenBalance(get(p.OwnerLP))
	return st, nil
}

// TokenBalance is a token account's amount (SPL Token or Token-2022; at offset 64), and whether
// the account exists as one.
func TokenBalance(a chain.SVMAccount) (uint64, bool) {
	if !a.Exists || (a.Owner != tokenOwner && a.Owner != token2022Owner) || len(a.Data) < tokenAccountSize {
		return 0, false
	}
	return binary.LittleEndian.Uint64(a.Data[64:72]), true
}

// MintDecimals is a mint account's decimals (SPL Token or Token-2022). Errors wrap ErrLayout.
func MintDecimals(a chain.SVMAccount) (uint8, error) {
	if !a.Exists || (a.Owner != tokenOwner && a.Owner != token2022Owner) || len(a.Data) < mintSize || a.Data[45] != 1 {
		return 0, fmt.Errorf("%w: not a mint", ErrLayout)
	}
	return a.Data[44], nil
}

// DepositFor quotes the deposit of the most LP that at most max0 and max1 pay for (the owner's
// sends, Token-2022's inverse transfer fees included: Pay0 ≤ max0 and Pay1 ≤ max1), as CPMM
// computes a deposit: the LP's share of each reserve rounded up, then grossed up by the transfer
// fee. Errors: ErrNotApproved (deposits disabled), ErrTooLittle (no LP affordable), and Deposit's.
func (s *Snapshot) DepositFor(max0, max1 uint64) (DepositQuote, error) {
	if !s.Pool.DepositEnabled() {
		return DepositQuote{}, fmt.Errorf("deposit: %w", ErrNotApproved)
	}
	r0, r1, err := s.Reserves()
	if err != nil {
		return DepositQuote{}, fmt.Errorf("deposit: %w", err)
	}
	supply := s.Pool.LPSupply
	if r0 == 0 || r1 == 0 || supply == 0 {
		return DepositQuote{}, fmt.Errorf("deposit: %w", ErrZeroTradingTokens)
	}
	// amount_i = ceil(lp × r_i / supply) ≤ max_i bounds lp by floor(max_i × supply / r_i).
	hi := new(big.Int).Quo(new(big.Int).Mul(big64(max0), big64(supply)), big64(r0))
	if h1 := new(big.Int).Quo(new(big.Int).Mul(big64(max1), big64(supply)), big64(r1)); h1.Cmp(hi) < 0 {
		hi = h1
	}
	if !hi.IsUint64() {
		hi.SetUint64(^uint64(0))
	}
	// tooBig: the deposit of lp costs more than the maximums, or leaves the program's bounds.
	tooBig := func(lp uint64) bool {
		q, err := s.deposit(lp)
		if errors.Is(err, ErrZeroTradingTokens) {
			return false
		}
		return err != nil || q.Pay0 > max0 || q.Pay1 > max1
	}
	lo, up := uint64(0), hi.Uint64() // the answer is in [lo, up]: lo fits (0 trivially)
	for lo < up {
		mid := lo + (up-lo+1)/2
		if tooBig(mid) {
			up = mid - 1
		} else {
			lo = mid
		}
	}
	for lp := lo; lp > 0 && lo-lp < 64; lp-- { // a transfer fee that does not invert at lo: the next below
		q, err := s.deposit(lp)
		switch {
		case errors.Is(err, ErrTransferFeeMismatch):
			continue
		case errors.Is(err, ErrZeroTradingTokens):
			return DepositQuote{}, fmt.Errorf("deposit: %w", ErrTooLittle)
		case err != nil:
			return DepositQuote{}, fmt.Errorf("deposit: %w", err)
		}
		return q, nil
	}
	return DepositQuote{}, fmt.Errorf("deposit: %w", ErrTooLittle)
}

// LiquidityBuild is what a wallet's transaction does to deposit, withdraw or create: its
// instructions and the accounts it creates and keeps (each holds a rent-exempt deposit of SOL; a
// wrapped SOL account the build creates and closes is not among them).
type LiquidityBuild struct {
	Instructions []Instruction
	Creates      []Pubkey
	// WrapLamports is the SOL the build wraps into the owner's wrapped SOL account (0: none).
	WrapLamports uint64
}

// wsol is the wrapped SOL handling of a build: the owner's wrapped SOL account created
// idempotently and funded before the program's instruction, closed after it when the build
// created it (its SOL, and what the instruction left of the wrapped amount, back to the owner).
type wsol struct {
	owner   Pubkey
	exists  func(Pubkey) bool
	account Pubkey
}

func (w wsol) created() bool { return !w.exists(w.account) }

// DepositBuild is the deposit of q's LP by owner on pool (at address), paying at most max0 and
// max1 (transfer fees included):
//
//   - the owner's LP associated account is created if it does not exist (create_idempotent);
//   - a wrapped SOL side is paid in SOL: the owner's wrapped SOL account is created if missing and
//     funded with the side's exact payment (Pay0/Pay1) when it exists (what it held before covers
//     a move of the pool up to the maximum), or with the maximum when the build creates it, which
//     it then closes at the end (what deposit did not take comes back as SOL);
//   - deposit(q.LP, max0, max1).
//
// exists says which accounts exist.
func DepositBuild(p PoolState, pool, owner Pubkey, q DepositQuote, max0, max1 uint64, exists func(Pubkey) bool) LiquidityBuild {
	var b LiquidityBuild
	lp := AssociatedTokenAccount(owner, p.LPMint, TokenProgram)
	b.Instructions = append(b.Instructions, createIdempotent(owner, lp, p.LPMint, TokenProgram))
	if !exists(lp) {
		b.Creates = append(b.Creates, lp)
	}
	a0, a1 := AssociatedTokenAccount(owner, p.Token0Mint, p.Token0Program), AssociatedTokenAccount(owner, p.Token1Mint, p.Token1Program)
	w := wsol{owner: owner, exists: exists, account: AssociatedTokenAccount(owner, NativeMint, TokenProgram)}
	for _, side := range []struct {
		mint         Pubkey
		pay, maximum uint64
	}{{p.Token0Mint, q.Pay0, max0}, {p.Token1Mint, q.Pay1, max1}} {
		if side.mint != NativeMint {
			continue
		}
		b.WrapLamports = side.pay
		if w.created() {
			b.WrapLamports = side.maximum
		}
		b.Instructions = append(b.Instructions, createIdempotent(owner, w.account, NativeMint, TokenProgram),
			transferSOL(owner, w.account, b.WrapLamports), syncNative(w.account))
	}
	b.Instructions = append(b.Instructions, Deposit(p.LiquidityAccounts(pool, owner, lp, a0, a1), q.LP, max0, max1))
	if b.WrapLamports > 0 && w.created() {
		b.Instructions = append(b.Instructions, closeAccount(w.account, owner))
	}
	return b
}

// WithdrawBuild is the withdraw of lp LP by owner from pool (at address), receiving at least min0
// and min1 (after transfer fees): the owner's associated accounts of both mints are created if
// missing (create_idempotent), then withdraw; a wrapped SOL side lands in the owner's wrapped SOL
// account, which the build closes at the end when it created it (the owner receives SOL), and
// leaves holding it as wrapped SOL otherwise.
func WithdrawBuild(p PoolState, pool, owner Pubkey, lp, min0, min1 uint64, exists func(Pubkey) bool) LiquidityBuild {
	var b LiquidityBuild
	a0, a1 := AssociatedTokenAccount(owner, p.Token0Mint, p.Token0Program), AssociatedTokenAccount(owner, p.Token1Mint, p.Token1Program)
	closeWSOL := false
	for _, s := range []struct{ mint, program, account Pubkey }{{p.Token0Mint, p.Token0Program, a0}, {p.Token1Mint, p.Token1Program, a1}} {
		b.Instructions = append(b.Instructions, createIdempotent(owner, s.account, s.mint, s.program))
		switch {
		case exists(s.account):
		case s.mint == NativeMint:
			closeWSOL = true
		default:
			b.Creates = append(b.Creates, s.account)
		}
	}
	ownerLP := AssociatedTokenAccount(owner, p.LPMint, TokenProgram)
	b.Instructions = append(b.Instructions, Withdraw(p.LiquidityAccounts(pool, owner, ownerLP, a0, a1), lp, min0, min1))
	if closeWSOL {
		b.Instructions = append(b.Instructions, closeAccount(AssociatedTokenAccount(owner, NativeMint, TokenProgram), owner))
	}
	return b
}

// InitializeBuild is the creation of a pool of a.Mint0 and a.Mint1 under a.Config by a.Creator,
// funded with amount0 and amount1 (transfer fees included) in one initialize, open for swaps at
// once (open_time 0: a second after the block). A wrapped SOL side is paid in SOL: the creator's
// wrapped SOL account is created if missing and funded with the side's amount, and closed at the
// end when the build created it. a.Creator0 and a.Creator1 are left as given (the creator's
// accounts of the mints; the wrapped SOL one is the associated account). Creates are the pool's
// new accounts (pool state, LP mint, vaults, observation) and the creator's LP associated account.
// Errors: ErrUnsortedMints.
func InitializeBuild(a InitializeAccounts, amount0, amount1 uint64, exists func(Pubkey) bool) (PoolKeys, LiquidityBuild, error) {
	var b LiquidityBuild
	w := wsol{owner: a.Creator, exists: exists, account: AssociatedTokenAccount(a.Creator, NativeMint, TokenProgram)}
	for _, s := range []struct {
		mint   Pubkey
		amount uint64
	}{{a.Mint0, amount0}, {a.Mint1, amount1}} {
		if s.mint == NativeMint {
			b.WrapLamports = s.amount
			b.Instructions = append(b.Instructions, createIdempotent(a.Creator, w.account, NativeMint, TokenProgram),
				transferSOL(a.Creator, w.account, s.amount), syncNative(w.account))
		}
	}
	k, ix, err := Initialize(a, amount0, amount1, 0)
	if err != nil {
		return PoolKeys{}, LiquidityBuild{}, err
	}
	b.Instructions = append(b.Instructions, ix)
	if b.WrapLamports > 0 && w.created() {
		b.Instructions = append(b.Instructions, closeAccount(w.account, a.Creator))
	}
	b.Creates = []Pubkey{k.Pool, k.LPMint, k.Vault0, k.Vault1, k.Observation, AssociatedTokenAccount(a.Creator, k.LPMint, TokenProgram)}
	return k, b, nil
}
