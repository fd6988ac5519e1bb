package chain

import (
	"context"
	"errors"
	"math/big"
)

// Live reads of a chain, as the market and portfolio services use them. Addresses are canonical
// (CanonicalAddress: lower-case 0x hex on EVM chains, base58 as the chain spells it on Solana);
// amounts are base units. chain/evm's Source and chain/solana's Source implement Source.

// Errors a source's errors match with errors.Is, so callers choose a status without knowing the
// adapter: 503, 504, 502 and 499.
var (
	ErrUpstreamUnavailable = errors.New("chain RPC unavailable")
	ErrUpstreamTimeout     = errors.New("chain RPC timed out")
	ErrUpstreamBadResponse = errors.New("chain RPC returned an unusable response")
	ErrCanceled            = errors.New("request canceled")
)

// TokenMeta is a token's ERC-20 metadata; OK is false when a getter failed (not an ERC-20).
type TokenMeta struct {
	Address     string
	Name        string
	Symbol      string
	Decimals    int
	TotalSupply *big.Int
	OK          bool
}

// PairState is a constant-product pool's live state (a Uniswap V2 pair, a Solana venue's pool); OK
// is false when the address is not such a pool. On Solana, Block is the slot.
type PairState struct {
	Address            string
	Token0, Token1     string
	Reserve0, Reserve1 *big.Int
	// TotalSupply is the pool's LP supply, which deposits and withdrawals divide by: a pair's
	// totalSupply; a Raydium CPMM pool's lp_supply (its LP mint's supply plus the LP locked at
	// creation, which were never minted).
	TotalSupply *big.Int
	// LPToken is the pool's fungible LP token: a Uniswap V2 pair's own address, a Raydium CPMM
	// pool's LP mint; empty when OK is false.
	LPToken string
	OK      bool
	Block   uint64 // the block the state was read at
}

// AuditFacts is what an EVM chain says about a pool's token for an audit.
type AuditFacts struct {
	HasCode        bool
	HasOwner       bool   // the token has an owner() getter
	Owner          string // canonical; empty without an owner() getter
	OwnerRenounced bool
	MintSelector   bool     // its code has a mint(address,uint256) entry point
	LPTotalSupply  *big.Int // nil when unknown
	LPBurned       *big.Int // LP tokens held by 0x0 and 0x…dEaD; nil when unknown
	Sim            Simulation
	Block          uint64
}

// Simulation is the outcome of a simulated buy and sell of a token on its pool.
type Simulation struct {
	Ran           bool
	Reason        string
	BuyOK, SellOK bool
	BuyTaxBps     int
	SellTaxBps    int
	Honeypot      bool
}

// Source reads a chain live.
type Source interface {
	// TokenMetadata reads the metadata of tokens (ERC-20 getters; a Solana mint and its metadata),
	// one entry per token.
	TokenMetadata(ctx context.Context, tokens []string) ([]TokenMeta, error)
	// Balances reads, at one block, the native balance of each owner and owners[i]'s balance of
	// each of tokens[i] (a token list per owner); erc20[i][j] is nil when tokens[i][j] did not
	// answer balanceOf.
	Balances(ctx context.Context, owners []string, tokens [][]string) (native []*big.Int, erc20 [][]*big.Int, block uint64, err error)
	// PairStates reads constant-product pools (Uniswap V2 pairs; a Solana venue's pools), all at
	// one block (slot).
	PairStates(ctx context.Context, pairs []string) ([]PairState, error)
}

// Auditor reads what an EVM chain says about a pool's token for an audit (chain/evm's Source).
type Auditor interface {
	// Audit reads a pool token's audit facts.
	Audit(ctx context.Context, pair, token string) (AuditFacts, error)
}
