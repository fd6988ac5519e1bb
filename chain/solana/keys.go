package solana

import (
	"fmt"
	"strings"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/base58"

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

// Lamports per SOL: SOL has 9 decimals.
const (
	SOLDecimals    = 9
	LamportsPerSOL = 1_000_000_000
	maxSigChars    = 88 // base58 of 64 bytes
)

var (
	tokenProgramID    = sol.TokenProgramID
	token2022ID       = sol.Token2022ProgramID
	metadataProgramID = sol.TokenMetadataProgramID
)

// ParseAddress checks that s is a Solana address (the base58 encoding of a 32-byte public key,
// on or off the ed25519 curve) and returns it. Errors wrap chain.ErrInvalidAddress (400
// invalid_address) and say what s is instead: an EVM address, not base58, or base58 of another
// length.
func ParseAddress(s string) (string, error) {
	if _, err := pubkey("address", s); err != nil {
		return "", err
	}
	return s, nil
}

// pubkey parses a Solana address named what (for the error message), as chain.ParseSolanaAddress.
func pubkey(what, s string) (sol.PublicKey, error) {
	k, err := chain.ParseSolanaAddress(what, s)
	if err != nil {
		return sol.PublicKey{}, err
	}
	return sol.PublicKey(k), nil
}

// ParseSignature checks that s is a Solana transaction signature (the base58 encoding of 64
// bytes) and returns it. Errors wrap ErrInvalidSignature (400 invalid_request).
func ParseSignature(s string) (string, error) {
	if _, err := signature(s); err != nil {
		return "", err
	}
	return s, nil
}

func signature(s string) (sol.Signature, error) {
	switch {
	case s == "":
		return sol.Signature{}, fmt.Errorf("%w: empty", ErrInvalidSignature)
	case chain.IsTxID(chain.Info{Kind: chain.KindEVM}, strings.ToLower(s)):
		return sol.Signature{}, fmt.Errorf("%w: %q is an EVM transaction hash; want a Solana base58 signature", ErrInvalidSignature, s)
	case len(s) > maxSigChars:
		return sol.Signature{}, fmt.Errorf("%w: %d characters; a Solana signature has at most 88", ErrInvalidSignature, len(s))
	}
	if i := strings.IndexFunc(s, notBase58); i >= 0 {
		return sol.Signature{}, fmt.Errorf("%w: not base58 (character %q at %d)", ErrInvalidSignature, s[i], i)
	}
	b, err := base58.Decode(s)
	if err != nil {
		return sol.Signature{}, fmt.Errorf("%w: not base58", ErrInvalidSignature)
	}
	if len(b) != sol.SignatureLength {
		return sol.Signature{}, fmt.Errorf("%w: decodes to %d bytes; a Solana signature is 64", ErrInvalidSignature, len(b))
	}
	sig := sol.SignatureFromBytes(b)
	if sig.String() != s {
		return sol.Signature{}, fmt.Errorf("%w: not in canonical base58 form", ErrInvalidSignature)
	}
	return sig, nil
}

func notBase58(r rune) bool {
	return !strings.ContainsRune("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", r)
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
