package chain

import (
	"context"
	"math/big"
)

// Wallets as a chain adapter reads them for the portfolio service when it can list everything an
// owner holds: the native coin and every token account, found by asking the chain for the owner's
// accounts rather than by checking a list of followed tokens, so that discovery is complete.
// chain/solana's Source implements WalletSource (getTokenAccountsByOwner under SPL Token and
// Token-2022); an EVM chain cannot list an owner's tokens, and its Source does not.

// WalletSource lists owners' whole wallets. A Source that implements it is read through it for
// holdings and LP positions; one that does not is read for the tokens the index says an owner holds.
type WalletSource interface {
	// Wallets reads, for each owner in the order given, its native balance and every token
	// account it has, with the metadata of every token held. An owner that is not an address of the
	// chain is not read: its Wallet.Err wraps ErrInvalidAddress. An owner whose own reads failed
	// has Err set too (matching ErrUpstreamUnavailable, ErrUpstreamTimeout or
	// ErrUpstreamBadResponse); the others are unaffected. The call fails as a whole only when a
	// whole round trip does (with those errors, or ErrCanceled).
	Wallets(ctx context.Context, owners []string) (Wallets, error)
}

// Wallets is what one WalletSource read found.
type Wallets struct {
	Owners []Wallet // in the order asked
	// Tokens describes every token held by some owner, by address; a token whose metadata could
	// not be read has OK false (and its balances' Decimals are -1).
	Tokens map[string]TokenMeta
}

// Wallet is one owner's wallet.
type Wallet struct {
	Owner  string
	Native *big.Int // the native coin, base units (Info.NativeDecimals)
	// Tokens are every token account of the owner, zero balances included, ordered by token
	// program, token and account; several accounts may hold one token.
	Tokens []WalletToken
	// Block is the lowest block (on Solana, slot) the owner's reads were answered at.
	Block uint64
	// Err is this owner's own failure; the fields above but Owner are then zero.
	Err error
}

// WalletToken is one token account of an owner.
type WalletToken struct {
	Account string   // the account holding the balance
	Token   string   // the token (a mint)
	Amount  *big.Int // base units
	// Decimals is the token's; -1 when its metadata could not be read (its units are unknown).
	Decimals int
}
