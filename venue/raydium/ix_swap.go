package raydium

// SwapAccounts are a swap's accounts.
type SwapAccounts struct {
	Payer Pubkey // signs; owns InputAccount
	Pool  Pubkey // the pool state
	// Config is the pool's AmmConfig (PoolState.AmmConfig).
	Config Pubkey
	// InputAccount and OutputAccount are the payer's token accounts of the input and output
	// mints.
	InputAccount, OutputAccount Pubkey
	// InputVault, OutputVault, InputMint, OutputMint, InputTokenProgram, OutputTokenProgram are
	// the pool's, for the swap's direction.
	InputVault, OutputVault               Pubkey
	InputTokenProgram, OutputTokenProgram Pubkey
	InputMint, OutputMint                 Pubkey
	Observation                           Pubkey // PoolState.ObservationKey
}

// SwapAccounts are the accounts of a swap on pool (at address) in the direction zeroForOne,
// paid by payer from inputAccount into outputAccount.
func (p *PoolState) SwapAccounts(pool, payer Pubkey, zeroForOne bool, inputAccount, outputAccount Pubkey) SwapAccounts {
	a := SwapAccounts{Payer: payer, Pool: pool, Config: p.AmmConfig, InputAccount: inputAccount, OutputAccount: outputAccount,
		InputVault: p.Token0Vault, OutputVault: p.Token1Vault, InputTokenProgram: p.Token0Program, OutputTokenProgram: p.Token1Program,
		InputMint: p.Token0Mint, OutputMint: p.Token1Mint, Observation: p.ObservationKey}
	if !zeroForOne {
		a.InputVault, a.OutputVault = a.OutputVault, a.InputVault
		a.InputTokenProgram, a.OutputTokenProgram = a.OutputTokenProgram, a.InputTokenProgram
		a.InputMint, a.OutputMint = a.OutputMint, a.InputMint
	}
	return a
}

func (a SwapAccounts) metas() []AccountMeta {
	return []AccountMeta{
		signer(a.Payer), readonly(Authority()), readonly(a.Config), writable(a.Pool),
		writable(a.InputAccount), writable(a.OutputAccount), writable(a.InputVault), writable(a.OutputVault),
		readonly(a.InputTokenProgram), readonly(a.OutputTokenProgram), readonly(a.InputMint), readonly(a.OutputMint),
		writable(a.Observation),
	}
}

// SwapBaseInput is swap_base_input: the payer sends amountIn and receives at least
// minimumAmountOut (after the output's transfer fee), else the program fails with
// ExceededSlippage.
func SwapBaseInput(a SwapAccounts, amountIn, minimumAmountOut uint64) Instruction {
	return Instruction{ProgramID: ProgramID, Accounts: a.metas(), Data: data(ixSwapBaseInput, amountIn, minimumAmountOut)}
}

// SwapBaseOutput is swap_base_output: the payer receives exactly amountOut (after the output's
// transfer fee) and sends at most maxAmountIn (its transfer fee included), else ExceededSlippage.
func SwapBaseOutput(a SwapAccounts, maxAmountIn, amountOut uint64) Instruction {
	return Instruction{ProgramID: ProgramID, Accounts: a.metas(), Data: data(ixSwapBaseOutput, maxAmountIn, amountOut)}
}
