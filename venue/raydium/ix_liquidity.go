package raydium

// LiquidityAccounts are a deposit's or withdraw's accounts.
type LiquidityAccounts struct {
	Owner Pubkey // signs; owns the token accounts
	Pool  Pubkey
	// OwnerLP, Token0Account and Token1Account are the owner's token accounts of the LP mint and
	// the pool's two mints.
	OwnerLP, Token0Account, Token1Account Pubkey
	// Vault0, Vault1, Mint0, Mint1 and LPMint are the pool's.
	Vault0, Vault1, Mint0, Mint1, LPMint Pubkey
}

// LiquidityAccounts are the accounts of a deposit or withdraw on pool (at address) by owner.
func (p *PoolState) LiquidityAccounts(pool, owner, ownerLP, token0Account, token1Account Pubkey) LiquidityAccounts {
	return LiquidityAccounts{Owner: owner, Pool: pool, OwnerLP: ownerLP, Token0Account: token0Account, Token1Account: token1Account,
		Vault0: p.Token0Vault, Vault1: p.Token1Vault, Mint0: p.Token0Mint, Mint1: p.Token1Mint, LPMint: p.LPMint}
}

func (a LiquidityAccounts) metas() []AccountMeta {
	return []AccountMeta{
		signer(a.Owner), readonly(Authority()), writable(a.Pool), writable(a.OwnerLP),
		writable(a.Token0Account), writable(a.Token1Account), writable(a.Vault0), writable(a.Vault1),
		readonly(TokenProgram), readonly(Token2022Program), readonly(a.Mint0), readonly(a.Mint1), writable(a.LPMint),
	}
}

// Deposit is deposit: lp LP tokens are minted to the owner, who sends at most maximum0 and
// maximum1 (transfer fees included), else ExceededSlippage.
func Deposit(a LiquidityAccounts, lp, maximum0, maximum1 uint64) Instruction {
	return Instruction{ProgramID: ProgramID, Accounts: a.metas(), Data: data(ixDeposit, lp, maximum0, maximum1)}
}

// Withdraw is withdraw: lp LP tokens are burned from the owner, who receives at least minimum0 and
// minimum1 (after transfer fees), else ExceededSlippage.
func Withdraw(a LiquidityAccounts, lp, minimum0, minimum1 uint64) Instruction {
	return Instruction{ProgramID: ProgramID, Accounts: append(a.metas(), readonly(MemoProgram)), Data: data(ixWithdraw, lp, minimum0, minimum1)}
}
