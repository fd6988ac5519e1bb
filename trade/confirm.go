package trade

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// Why a confirm is not complete yet (pendingReason).
const (
	PendingNotFound = "transaction_not_found" // the node does not know a hash yet: not broadcast, or not propagated
	PendingReceipt  = "receipt_pending"       // known, not mined
	PendingFinality = "finality_pending"      // mined, fewer confirmations than the chain's finality depth
)

// ConfirmResult is a confirm's answer.
type ConfirmResult struct {
	Confirmed     bool
	Updated       bool
	PendingIDs    []string // the build's transaction ids still pending
	PendingReason string
}

// VerificationError is a confirm that found a transaction that is not what was built, or that
// failed (422): per transaction hash or signature, what was found.
type VerificationError struct {
	Verification map[string]TxCheck
}

// TxCheck is what confirming found wrong with one transaction of a build.
type TxCheck struct {
	ID     string   // the build's transaction id
	Result string   // mismatch (not the call that was built), reverted (EVM) or failed (Solana)
	Fields []string // mismatch: what differs (from, to, data, value; instructions, signer ... on Solana)
	Block  uint64   // reverted: the block it was mined in
	Slot   uint64   // failed: the slot it landed in
	Reason string   // reverted or failed: the revert reason or the program error, when known
}

func (e *VerificationError) Error() string {
	return fmt.Sprintf("verification failed for %d transaction(s)", len(e.Verification))
}

// Confirm checks the hashes (signatures, in the build's order) against the chain: each must be
// mined, succeeded, and be the built call (from, to, data, value). All final (past the chain's
// confirmation depth): Confirmed and, the first time, Updated. Not yet mined or final: Confirmed
// false with the pending ids and reason; the caller retries. Errors: ErrNotFound (unknown, expired
// or another consumer's token), ErrInvalid (wrong count, a null hash: EVM builds have no optional
// steps, a hash given twice), *VerificationError, and the adapter's and the store's. A Solana
// build's token takes signatures: the mined transaction must have the built payer and
// instructions (a re-priced compute budget and a newer blockhash are accepted), have succeeded,
// and reach the chain's Finality (see confirmSolana).
func (s *Service) Confirm(ctx context.Context, consumerID int, token string, signatures []*string) (ConfirmResult, error) {
	tok, err := s.tokens.find(ctx, consumerID, token, s.now())
	if err != nil {
		return ConfirmResult{}, err
	}
	c, err := s.chainOf(tok.chain)
	if err != nil {
		return ConfirmResult{}, err
	}
	return c.confirm(ctx, s, tok, signatures)
}

// confirm checks an EVM build's hashes (Confirm).
func (c *EVMChain) confirm(ctx context.Context, s *Service, tok issued, signatures []*string) (ConfirmResult, error) {
	txs := tok.binding.Transactions
	if len(signatures) != len(txs) {
		return ConfirmResult{}, fmt.Errorf("%w: the build has %d transactions; give %d signatures, in its order", ErrInvalid, len(txs), len(txs))
	}
	hashes := make([]string, len(txs))
	seen := map[string]bool{}
	for i, sig := range signatures {
		if sig == nil {
			return ConfirmResult{}, fmt.Errorf("%w: transaction %s is not optional: give its hash", ErrInvalid, txs[i].ID)
		}
		h := strings.ToLower(*sig)
		if seen[h] {
			return ConfirmResult{}, fmt.Errorf("%w: hash %s is given twice", ErrInvalid, *sig)
		}
		seen[h], hashes[i] = true, h
	}
	found, err := c.Source.Transactions(ctx, hashes)
	if err != nil {
		return ConfirmResult{}, fmt.Errorf("confirm: %w", err)
	}
	var res ConfirmResult
	bad := map[string]TxCheck{}
	for i, f := range found {
		want := txs[i]
		switch {
		case !f.Found || f.Value == nil: // nil Value: a load-balanced node has the receipt but not the transaction yet
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, PendingNotFound)
			continue
		case len(mismatch(f, want)) > 0:
			bad[hashes[i]] = TxCheck{ID: want.ID, Result: "mismatch", Fields: mismatch(f, want)}
			continue
		case !f.Mined:
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, PendingReceipt)
		case !f.Succeeded:
			bad[hashes[i]] = TxCheck{ID: want.ID, Result: "reverted", Block: f.Block, Reason: f.RevertReason}
		case int(f.Head-f.Block+1) < c.Confirmations:
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, PendingFinality)
		}
	}
	return s.settleConfirm(ctx, tok.id, res, bad)
}

// settleConfirm ends a confirm once every transaction was checked: a *VerificationError when any
// is in bad, res as it is while any is pending, else the token is marked confirmed.
func (s *Service) settleConfirm(ctx context.Context, tokenID int, res ConfirmResult, bad map[string]TxCheck) (ConfirmResult, error) {
	if len(bad) > 0 {
		return ConfirmResult{}, &VerificationError{Verification: bad}
	}
	if len(res.PendingIDs) > 0 {
		return res, nil
	}
	res.Confirmed = true
	var err error
	if res.Updated, err = s.tokens.confirm(ctx, tokenID, s.now()); err != nil {
		return ConfirmResult{}, err
	}
	return res, nil
}

// worse keeps the earliest stage any transaction is at: not found, then receipt, then finality.
func worse(cur, next string) string {
	rank := map[string]int{"": 3, PendingFinality: 2, PendingReceipt: 1, PendingNotFound: 0}
	if rank[next] < rank[cur] {
		return next
	}
	return cur
}

// mismatch names the fields of a transaction that differ from the built call.
func mismatch(f chain.EVMTx, want boundTx) []string {
	var diff []string
	if f.From != want.From {
		diff = append(diff, "from")
	}
	if f.To != want.To {
		diff = append(diff, "to")
	}
	if "0x"+hex.EncodeToString(f.Data) != want.Data {
		diff = append(diff, "data")
	}
	if f.Value.String() != want.Value {
		diff = append(diff, "value")
	}
	return diff
}
