package svm

// The ids of the programs, sysvars and mints the venues' instructions name.
var (
	SystemProgram          = MustAddress("11111111111111111111111111111111")
	TokenProgram           = MustAddress("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	Token2022Program       = MustAddress("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	AssociatedTokenProgram = MustAddress("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
	// MemoProgram is SPL Memo v2.
	MemoProgram          = MustAddress("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
	ComputeBudgetProgram = MustAddress("ComputeBudget111111111111111111111111111111")
	// RentSysvar is the Rent sysvar's address.
	RentSysvar = MustAddress("SysvarRent111111111111111111111111111111111")
	// NativeMint is wrapped SOL's mint (SPL Token).
	NativeMint = MustAddress("So11111111111111111111111111111111111111112")
)
