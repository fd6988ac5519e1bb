package raydium

import "fmt"

// InitializeAccounts are what initialize needs named; it derives the rest.
type InitializeAccounts struct {
	Creator Pubkey // signs, pays, receives the LP
	Config  Pubkey // the AmmConfig the pool is created under
	// Mint0 must sort before Mint1; Token0Program and Token1Program are their token programs.
	Mint0, Mint1, Token0Program, Token1Program Pubkey
	// Creator0 and Creator1 are the creator's token accounts of the mints.
	Creator0, Creator1 Pubkey
	// Pool is the pool state address: zero for PoolAddress (as Raydium's SDK and UI create
	// pools), else a fresh keypair's address that then signs too.
	Pool Pubkey
}

// Initialize is initialize: a pool of Mint0 and Mint1 under Config, funded with amount0 and
// amount1 (transfer fees included), open for swaps from openTime (unix seconds; at most "now"
// means one second after the block). It returns the pool's keys and the instruction; the
// creator's LP goes to its associated token account, which initialize creates. The creator is
// writable, as CPMM's Initialize requires (it pays for the new accounts and the pool creation
// fee). Errors: ErrUnsortedMints.
func Initialize(a InitializeAccounts, amount0, amount1, openTime uint64) (PoolKeys, Instruction, error) {
	if !a.Mint0.Less(a.Mint1) {
		return PoolKeys{}, Instruction{}, fmt.Errorf("initialize: %w", ErrUnsortedMints)
	}
	k := DerivePoolKeys(a.Config, a.Mint0, a.Mint1, a.Pool)
	pool := writable(k.Pool)
	pool.IsSigner = k.Pool != PoolAddress(a.Config, a.Mint0, a.Mint1)
	creator := signer(a.Creator)
	creator.IsWritable = true
	return k, Instruction{ProgramID: ProgramID, Accounts: []AccountMeta{
		creator, readonly(a.Config), readonly(k.Authority), pool, readonly(a.Mint0), readonly(a.Mint1), writable(k.LPMint),
		writable(a.Creator0), writable(a.Creator1), writable(AssociatedTokenAccount(a.Creator, k.LPMint, TokenProgram)),
		writable(k.Vault0), writable(k.Vault1), writable(CreatePoolFeeReceiver), writable(k.Observation),
		readonly(TokenProgram), readonly(a.Token0Program), readonly(a.Token1Program), readonly(AssociatedTokenProgram),
		readonly(SystemProgram), readonly(RentSysvar),
	}, Data: data(ixInitialize, amount0, amount1, openTime)}, nil
}
