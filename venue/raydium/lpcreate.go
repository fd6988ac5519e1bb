package raydium

import (
	"fmt"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// A CPMM pool's creation, funded in the same instruction (create).

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
