package solana

import (
	"fmt"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
)

// Program ids the adapter reads and builds for, base58.
const (
	SystemProgram          = "11111111111111111111111111111111"
	TokenProgram           = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
	Token2022Program       = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
	AssociatedTokenProgram = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
	ComputeBudgetProgram   = "ComputeBudget111111111111111111111111111111"
	MetadataProgram        = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s" // Metaplex Token Metadata
	// NativeMint is wrapped SOL's mint (SPL Token).
	NativeMint = "So11111111111111111111111111111111111111112"
)

// LamportsPerSOL: SOL has 9 decimals (chain.SOLDecimals).
const LamportsPerSOL = 1_000_000_000

var (
	tokenProgramID    = sol.TokenProgramID
	token2022ID       = sol.Token2022ProgramID
	metadataProgramID = sol.TokenMetadataProgramID
)

// pubkey parses a Solana address named what (for the error message), as chain.ParseSolanaAddress.
func pubkey(what, s string) (sol.PublicKey, error) {
	k, err := chain.ParseSolanaAddress(what, s)
	if err != nil {
		return sol.PublicKey{}, err
	}
	return sol.PublicKey(k), nil
}

// signature parses a Solana transaction signature, as chain.ParseSolanaSignature. Errors wrap
// chain.ErrInvalidSolanaSignature (400 invalid_request).
func signature(s string) (sol.Signature, error) {
	b, err := chain.ParseSolanaSignature(s)
	if err != nil {
		return sol.Signature{}, err
	}
	return sol.Signature(b), nil
}

// AssociatedTokenAddress returns the associated token account of owner for mint under the token
// program (TokenProgram or Token2022Program). Errors wrap chain.ErrInvalidAddress.
func AssociatedTokenAddress(owner, mint, program string) (string, error) {
	o, err := pubkey("owner", owner)
	if err != nil {
		return "", err
	}
	m, err := pubkey("mint", mint)
	if err != nil {
		return "", err
	}
	p, err := pubkey("token program", program)
	if err != nil {
		return "", err
	}
	if p != tokenProgramID && p != token2022ID {
		return "", fmt.Errorf("%w: %s is not a token program", chain.ErrInvalidAddress, program)
	}
	return ata(o, m, p).String(), nil
}

// ata derives an associated token account address.
func ata(owner, mint, program sol.PublicKey) sol.PublicKey {
	a, _, err := sol.FindAssociatedTokenAddressWithProgram(owner, mint, program)
	if err != nil { // no bump makes an off-curve address: 2^-255 odds
		panic(fmt.Sprintf("solana: associated token address: %v", err))
	}
	return a
}

// metadataPDA derives the Metaplex Token Metadata account of a mint: seeds "metadata", the
// metadata program id and the mint, under the metadata program.
func metadataPDA(mint sol.PublicKey) sol.PublicKey {
	a, _, err := sol.FindProgramAddress([][]byte{[]byte("metadata"), metadataProgramID[:], mint[:]}, metadataProgramID)
	if err != nil {
		panic(fmt.Sprintf("solana: metadata address: %v", err))
	}
	return a
}

// isTokenProgram reports whether p is SPL Token or Token-2022.
func isTokenProgram(p sol.PublicKey) bool { return p == tokenProgramID || p == token2022ID }
