package trade

import (
	"context"
	"fmt"
	"strings"
)

// Transaction statuses.
const (
	StatusUnknown   = "unknown"   // the node does not know the hash
	StatusPending   = "pending"   // known, not mined
	StatusConfirmed = "confirmed" // mined and succeeded, within the chain's confirmation depth
	StatusFinalized = "finalized" // mined and succeeded, at or past the confirmation depth
	StatusFailed    = "failed"    // mined and reverted
)

// TxStatus is a submitted transaction's status on its origin chain.
type TxStatus struct {
	Status        string
	Block         uint64 // mined: its block
	Confirmations int    // mined: blocks on top of it, its own included
	Error         string // failed: the revert reason, when it decodes
}

// Status reads a transaction's status (one round trip, two for a revert's reason). Errors: the
// adapter's. On a Solana chain hash is a base58 signature (ErrInvalid otherwise): unknown, pending
// (processed), confirmed, finalized, or failed with the cluster's error (see solanaStatus).
func (s *Service) Status(ctx context.Context, chainName, hash string) (TxStatus, error) {
	c, err := s.chainOf(chainName)
	if err != nil {
		return TxStatus{}, err
	}
	return c.status(ctx, hash)
}

// status reads a transaction's status on an EVM chain (Status).
func (c *EVMChain) status(ctx context.Context, hash string) (TxStatus, error) {
	txs, err := c.Source.Transactions(ctx, []string{strings.ToLower(hash)})
	if err != nil {
		return TxStatus{}, fmt.Errorf("status: %w", err)
	}
	t := txs[0]
	switch {
	case !t.Found:
		return TxStatus{Status: StatusUnknown}, nil
	case !t.Mined:
		return TxStatus{Status: StatusPending}, nil
	}
	st := TxStatus{Block: t.Block, Confirmations: int(t.Head - t.Block + 1)}
	switch {
	case !t.Succeeded:
		st.Status, st.Error = StatusFailed, t.RevertReason
	case st.Confirmations >= c.Confirmations:
		st.Status = StatusFinalized
	default:
		st.Status = StatusConfirmed
	}
	return st, nil
}
