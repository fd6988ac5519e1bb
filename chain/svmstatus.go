package chain

import (
	"errors"
	"fmt"
	"strings"

	"github.com/partner-platform/partnerd/chain/svm"
)

// What a Solana (SVM) adapter reads of a sent transaction, by its signature, for the trade
// service's status and confirm: the cluster's status of the signature and, once the node serves
// it, the transaction's message, as plain values (no Solana SDK here). chain/solana reads them.

// Commitment levels a signature's status reports (SVMSigStatus.Status), weakest first.
const (
	SVMStatusProcessed = "processed" // in a block the node has seen; may still be dropped with a fork
	SVMStatusConfirmed = "confirmed" // voted on by a supermajority: optimistically confirmed
	SVMStatusFinalized = "finalized" // rooted: final
)

// ErrInvalidSolanaSignature: a transaction signature that is not the base58 encoding of 64 bytes
// (400 invalid_request). It is wrapped with a message that is safe to show.
var ErrInvalidSolanaSignature = errors.New("invalid transaction signature")

// solanaSigChars is the most characters a Solana signature has: base58 of 64 bytes.
const solanaSigChars = 88

// ParseSolanaSignature checks that s is a Solana transaction signature, the canonical base58
// encoding of 64 bytes, and returns the 64 bytes. Errors wrap ErrInvalidSolanaSignature and say
// what s is instead: empty, an EVM transaction hash, too long, not base58 (naming the first
// character that is not), or base58 of another length.
func ParseSolanaSignature(s string) ([64]byte, error) {
	switch {
	case s == "":
		return [64]byte{}, fmt.Errorf("%w: empty", ErrInvalidSolanaSignature)
	case IsTxID(Info{Kind: KindEVM}, strings.ToLower(s)):
		return [64]byte{}, fmt.Errorf("%w: %q is an EVM transaction hash; want a Solana base58 signature", ErrInvalidSolanaSignature, s)
	case len(s) > solanaSigChars:
		return [64]byte{}, fmt.Errorf("%w: %d characters; a Solana signature has at most 88", ErrInvalidSolanaSignature, len(s))
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(base58Alphabet, r) }); i >= 0 {
		return [64]byte{}, fmt.Errorf("%w: not base58 (character %q at %d)", ErrInvalidSolanaSignature, s[i], i)
	}
	b, err := svm.DecodeBase58(s)
	if err != nil {
		return [64]byte{}, fmt.Errorf("%w: not base58", ErrInvalidSolanaSignature)
	}
	if len(b) != 64 {
		return [64]byte{}, fmt.Errorf("%w: decodes to %d bytes; a Solana signature is 64", ErrInvalidSolanaSignature, len(b))
	}
	if svm.EncodeBase58(b) != s {
		return [64]byte{}, fmt.Errorf("%w: not in canonical base58 form", ErrInvalidSolanaSignature)
	}
	return [64]byte(b), nil
}

// SVMSigStatus is what the cluster says about one transaction signature.
type SVMSigStatus struct {
	Signature string
	// Found reports whether the node knows the signature. When false every other field but
	// Signature is zero: not sent, dropped, expired, or not propagated yet.
	Found bool
	// Status is SVMStatusProcessed, SVMStatusConfirmed or SVMStatusFinalized.
	Status string
	Slot   uint64
	// Confirmations is the number of confirmed blocks since Slot; 0 once finalized.
	Confirmations uint64
	// Failed reports that the transaction executed and failed (its fee was still charged).
	Failed bool
	// Err is the transaction error as the RPC reported it, compact JSON such as
	// {"InstructionError":[2,{"Custom":1}]}; empty unless Failed.
	Err string
}

// SVMSentTx is a sent transaction as the cluster has it, read by its signature: its status and,
// once the node serves it at the adapter's commitment, its message, so that a confirm can compare
// it with what was built (chain/solana's Diff).
type SVMSentTx struct {
	SVMSigStatus
	// HasMessage reports that getTransaction answered: the fields below are set. A signature
	// found only at "processed" has a status but no message yet.
	HasMessage bool
	// Version is "legacy" or "0".
	Version string
	// Payer is the fee payer: the first account key.
	Payer string
	// Signers are the accounts that signed, the payer first.
	Signers []string
	// AccountKeys are the message's static keys, then the keys loaded from address lookup
	// tables (writable, then read-only), as instruction account indexes count them.
	AccountKeys []string
	// Instructions are the message's (top-level) instructions, their accounts resolved; LogData
	// is not read.
	Instructions    []SVMInstruction
	RecentBlockhash string
	// Message is the serialized message the signatures sign.
	Message      []byte
	Fee          uint64 // lamports charged
	ComputeUnits uint64 // consumed; 0 when the node does not report it
	BlockTime    int64  // unix seconds; 0 when unknown
	Logs         []string
}

// Differences between a built transaction and a sent one that chain/solana's Diff reports.
const (
	SVMDiffPayer         = "payer"         // another fee payer
	SVMDiffInstructions  = "instructions"  // the instructions other than Compute Budget ones differ (program, accounts or data)
	SVMDiffComputeBudget = "computeBudget" // the Compute Budget instructions differ (a wallet may re-price the priority fee)
	SVMDiffBlockhash     = "blockhash"     // another recent blockhash: the transaction was rebuilt
)
