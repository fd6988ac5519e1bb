package chain

import (
	"context"
	"math/big"
)

// EVMTx is what the chain says about one submitted transaction, as transaction status and build
// confirmation read it. Addresses are canonical (lower-case 0x hex); amounts are wei.
type EVMTx struct {
	// Hash is the transaction hash asked about: 0x and 64 lower-case hex digits.
	Hash string
	// Found reports whether the node knows the transaction, pending or mined. When false, every
	// other field but Hash and Head is zero.
	Found bool
	// Mined reports whether the transaction has a receipt.
	Mined bool
	// Block is the block the transaction was mined in; zero when not mined.
	Block uint64
	// Head is the chain's head block when read; never below Block.
	Head uint64
	// From is the sender.
	From string
	// To is the recipient; empty for a contract creation.
	To string
	// Data is the transaction's calldata (the init code for a contract creation).
	Data []byte
	// Value is the wei sent with the transaction; nil when not Found (and in the rare answer of a
	// load-balanced RPC that has the receipt but not yet the transaction, which leaves Data, Nonce
	// and Value zero).
	Value *big.Int
	// Nonce is the sender's nonce the transaction used.
	Nonce uint64
	// Succeeded reports whether the transaction was mined with receipt status 1.
	Succeeded bool
	// RevertReason says why a mined transaction failed, when the failure can be recovered: the
	// message of an Error(string) revert, "panic 0x11" style for a Panic(uint256), the 4-byte
	// selector as 0x and 8 hex digits for a custom error, and empty when nothing decodes (a bare
	// revert, out of gas, or a replay that did not fail the same way). It is best effort: see the
	// adapter's documentation.
	RevertReason string
	// GasUsed is the gas the mined transaction used; zero when not mined.
	GasUsed uint64
	// EffectiveGasPrice is the wei per gas the mined transaction paid; nil when not mined.
	EffectiveGasPrice *big.Int
	// Logs are the mined transaction's receipt logs, in order; none when it failed.
	Logs []EVMLog
}

// EVMLog is one log of a transaction receipt.
type EVMLog struct {
	// Address is the emitting contract, canonical.
	Address string
	// Topics are the log's topics, each 0x and 64 lower-case hex digits.
	Topics []string
	// Data is the log's non-indexed data.
	Data []byte
}

// EVMTxReader reads submitted EVM transactions. Errors match ErrUpstreamUnavailable,
// ErrUpstreamTimeout, ErrUpstreamBadResponse and ErrCanceled with errors.Is.
type EVMTxReader interface {
	// Transactions returns one entry per hash (0x and 64 hex digits), in order. A hash the chain
	// does not know gives an entry with Found false, not an error; a string that is not a hash is
	// an error.
	Transactions(ctx context.Context, hashes []string) ([]EVMTx, error)
}
