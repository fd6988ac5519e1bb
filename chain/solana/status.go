package solana

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"

	bin "github.com/gagliardetto/binary"
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// maxStatusesPerCall is the most signatures one getSignatureStatuses takes.
const maxStatusesPerCall = 256

type statusesResult struct {
	Context rpcContext `json:"context"`
	Value   []*struct {
		Slot               uint64          `json:"slot"`
		Confirmations      *uint64         `json:"confirmations"`
		Err                json.RawMessage `json:"err"`
		ConfirmationStatus string          `json:"confirmationStatus"`
	} `json:"value"`
}

// statusRead prepares getSignatureStatuses calls for sigs (searching the transaction history, so
// that old signatures are found too).
type statusRead struct {
	sigs  []sol.Signature
	calls []*call
	outs  []*statusesResult
}

func newStatusRead(sigs []sol.Signature) *statusRead {
	sr := &statusRead{sigs: sigs}
	for i := 0; i < len(sigs); i += maxStatusesPerCall {
		part := sigs[i:min(i+maxStatusesPerCall, len(sigs))]
		strs := make([]string, len(part))
		for j, s := range part {
			strs[j] = s.String()
		}
		out := new(statusesResult)
		sr.outs = append(sr.outs, out)
		sr.calls = append(sr.calls, newCall("getSignatureStatuses", out, strs, map[string]any{"searchTransactionHistory": true}))
	}
	return sr
}

func (sr *statusRead) result(op string) ([]chain.SVMSigStatus, error) {
	if err := firstErr(sr.calls...); err != nil {
		return nil, err
	}
	out := make([]chain.SVMSigStatus, 0, len(sr.sigs))
	for i, o := range sr.outs {
		part := sr.sigs[i*maxStatusesPerCall : min((i+1)*maxStatusesPerCall, len(sr.sigs))]
		if len(o.Value) != len(part) {
			return nil, badResponse(op, "getSignatureStatuses answered %d statuses for %d signatures", len(o.Value), len(part))
		}
		for j, v := range o.Value {
			s := chain.SVMSigStatus{Signature: part[j].String()}
			if v != nil {
				s.Found, s.Slot, s.Status = true, v.Slot, v.ConfirmationStatus
				switch {
				case v.Confirmations == nil: // rooted
					s.Status = chain.SVMStatusFinalized
				case s.Status == "":
					s.Status = chain.SVMStatusConfirmed // nodes from before confirmationStatus
				default:
					s.Confirmations = *v.Confirmations
				}
				if !slices.Contains([]string{chain.SVMStatusProcessed, chain.SVMStatusConfirmed, chain.SVMStatusFinalized}, s.Status) {
					return nil, badResponse(op, "getSignatureStatuses: confirmation status %q", s.Status)
				}
				if e := bytes.TrimSpace(v.Err); len(e) > 0 && !bytes.Equal(e, []byte("null")) {
					s.Failed, s.Err = true, compactJSON(e)
				}
			}
			out = append(out, s)
		}
	}
	return out, nil
}

func compactJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func parseSignatures(sigs []string) ([]sol.Signature, error) {
	out := make([]sol.Signature, len(sigs))
	for i, s := range sigs {
		sig, err := signature(s)
		if err != nil {
			return nil, err
		}
		out[i] = sig
	}
	return out, nil
}

// SignatureStatuses reads the status of transaction signatures: one round trip (getSignatureStatuses
// with searchTransactionHistory, 256 signatures per call, in one batch). An unknown signature gives
// an entry with Found false. Errors: chain.ErrInvalidSolanaSignature for a malformed signature,
// else *Error.
func (c *Client) SignatureStatuses(ctx context.Context, sigs []string) ([]chain.SVMSigStatus, error) {
	const op = "signature statuses"
	parsed, err := parseSignatures(sigs)
	if err != nil {
		return nil, err
	}
	if len(parsed) == 0 {
		return nil, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	sr := newStatusRead(parsed)
	if err := c.batch(ctx, op, sr.calls); err != nil {
		return nil, err
	}
	return sr.result(op)
}

// Transactions reads transactions by signature for confirmation: statuses and messages in one
// round trip (one JSON-RPC batch of getSignatureStatuses and a getTransaction per signature, with
// maxSupportedTransactionVersion 0 and base64 encoding; lookup-table accounts come from the
// transaction's loadedAddresses). Entries follow sigs. Errors: chain.ErrInvalidSolanaSignature,
// else *Error.
func (c *Client) Transactions(ctx context.Context, sigs []string) ([]chain.SVMSentTx, error) {
	const op = "transactions"
	parsed, err := parseSignatures(sigs)
	if err != nil {
		return nil, err
	}
	if len(parsed) == 0 {
		return nil, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	sr := newStatusRead(parsed)
	calls := append([]*call{}, sr.calls...)
	txs := make([]*rpc.GetTransactionResult, len(parsed))
	txCalls := make([]*call, len(parsed))
	for i, s := range parsed {
		txCalls[i] = newCall("getTransaction", &txs[i], s.String(),
			map[string]any{"encoding": "base64", "maxSupportedTransactionVersion": 0, "commitment": c.txCommitment()})
	}
	calls = append(calls, txCalls...)
	if err := c.batch(ctx, op, calls); err != nil {
		return nil, err
	}
	statuses, err := sr.result(op)
	if err != nil {
		return nil, err
	}
	out := make([]chain.SVMSentTx, len(parsed))
	for i, st := range statuses {
		out[i] = chain.SVMSentTx{SVMSigStatus: st}
		if txCalls[i].err != nil {
			return nil, txCalls[i].err
		}
		if txs[i] == nil {
			continue
		}
		if err := fillTx(&out[i], parsed[i], txs[i]); err != nil {
			return nil, badResponse(op, "getTransaction(%s): %v", parsed[i], err)
		}
	}
	return out, nil
}

// txCommitment is the commitment getTransaction is read at: it does not accept "processed".
func (c *Client) txCommitment() string {
	if c.opts.Commitment == "processed" {
		return "confirmed"
	}
	return c.opts.Commitment
}

// fillTx sets t's message fields from a getTransaction answer about sig.
func fillTx(t *chain.SVMSentTx, sig sol.Signature, r *rpc.GetTransactionResult) error {
	if r.Transaction == nil {
		return fmt.Errorf("no transaction")
	}
	tx, err := decodeTx(r.Transaction.GetBinary())
	if err != nil {
		return err
	}
	if len(tx.Signatures) == 0 || tx.Signatures[0] != sig {
		return fmt.Errorf("answered about another transaction")
	}
	msg, err := tx.Message.MarshalBinary()
	if err != nil {
		return err
	}
	keys := slices.Clone(tx.Message.AccountKeys)
	if r.Meta != nil {
		keys = append(keys, r.Meta.LoadedAddresses.Writable...)
		keys = append(keys, r.Meta.LoadedAddresses.ReadOnly...)
	}
	if want := len(tx.Message.AccountKeys) + tx.Message.NumLookups(); len(keys) != want {
		return fmt.Errorf("%d loaded addresses for %d lookups", len(keys)-len(tx.Message.AccountKeys), tx.Message.NumLookups())
	}
	instrs, err := resolveInstructions(tx.Message.Instructions, keys)
	if err != nil {
		return err
	}
	t.HasMessage = true
	t.Version = "legacy"
	if tx.Message.IsVersioned() {
		t.Version = "0"
	}
	t.AccountKeys = keyStrings(keys)
	t.Payer = t.AccountKeys[0]
	t.Signers = t.AccountKeys[:tx.Message.Header.NumRequiredSignatures]
	t.Instructions = instrs
	t.RecentBlockhash = tx.Message.RecentBlockhash.String()
	t.Message = msg
	if r.BlockTime != nil {
		t.BlockTime = int64(*r.BlockTime)
	}
	if m := r.Meta; m != nil {
		t.Fee, t.Logs = m.Fee, m.LogMessages
		if m.ComputeUnitsConsumed != nil {
			t.ComputeUnits = *m.ComputeUnitsConsumed
		}
		// The status may lag the transaction on a load-balanced RPC: the meta says the outcome too.
		if !t.Found {
			t.Found, t.Status, t.Slot = true, chain.SVMStatusConfirmed, r.Slot
		}
		if m.Err != nil && !t.Failed {
			if b, err := json.Marshal(m.Err); err == nil {
				t.Failed, t.Err = true, string(b)
			}
		}
	}
	return nil
}

// decodeTx decodes a wire transaction (legacy or v0). The decoder is solana-go's; a panic in it
// on hostile bytes is turned into an error.
func decodeTx(b []byte) (tx *sol.Transaction, err error) {
	defer func() {
		if r := recover(); r != nil {
			tx, err = nil, fmt.Errorf("undecodable transaction: %v", r)
		}
	}()
	if len(b) == 0 {
		return nil, fmt.Errorf("empty transaction")
	}
	tx = new(sol.Transaction)
	if err := tx.UnmarshalWithDecoder(bin.NewBinDecoder(b)); err != nil {
		return nil, fmt.Errorf("undecodable transaction: %w", err)
	}
	if len(tx.Message.AccountKeys) == 0 || int(tx.Message.Header.NumRequiredSignatures) > len(tx.Message.AccountKeys) ||
		len(tx.Signatures) != int(tx.Message.Header.NumRequiredSignatures) {
		return nil, fmt.Errorf("malformed transaction: %d keys, %d signatures, %d required",
			len(tx.Message.AccountKeys), len(tx.Signatures), tx.Message.Header.NumRequiredSignatures)
	}
	return tx, nil
}

// resolveInstructions resolves compiled instructions' indexes against keys.
func resolveInstructions(compiled []sol.CompiledInstruction, keys sol.PublicKeySlice) ([]chain.SVMInstruction, error) {
	out := make([]chain.SVMInstruction, len(compiled))
	for i, ci := range compiled {
		if int(ci.ProgramIDIndex) >= len(keys) {
			return nil, fmt.Errorf("instruction %d: program index %d of %d keys", i, ci.ProgramIDIndex, len(keys))
		}
		in := chain.SVMInstruction{Program: keys[ci.ProgramIDIndex].String(), Data: slices.Clone([]byte(ci.Data)), Outer: i, Depth: 1}
		for _, a := range ci.Accounts {
			if int(a) >= len(keys) {
				return nil, fmt.Errorf("instruction %d: account index %d of %d keys", i, a, len(keys))
			}
			in.Accounts = append(in.Accounts, keys[a].String())
		}
		out[i] = in
	}
	return out, nil
}

func keyStrings(keys []sol.PublicKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// Diff compares a mined transaction's message with a built one (the base64 payload a build
// returned): the names of the differences, empty when the mined transaction is exactly the built
// one. A confirm should accept only a transaction whose payer and instructions are the built
// ones; Compute Budget and blockhash differences are reported for the caller to judge. Errors:
// mined has no message, or payload is not a transaction.
func (c *Client) Diff(payload string, mined chain.SVMSentTx) ([]string, error) {
	return diff(payload, mined)
}

// diff is Client.Diff, which reads nothing.
func diff(payload string, mined chain.SVMSentTx) ([]string, error) {
	if !mined.HasMessage {
		return nil, fmt.Errorf("diff: the mined transaction's message is not known yet")
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("diff: payload is not base64: %w", err)
	}
	built, err := decodeTx(raw)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	keys := slices.Clone(built.Message.AccountKeys)
	if built.Message.NumLookups() > 0 {
		return nil, fmt.Errorf("diff: built transactions with address lookup tables are not compared")
	}
	want, err := resolveInstructions(built.Message.Instructions, keys)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	var diff []string
	if keys[0].String() != mined.Payer {
		diff = append(diff, chain.SVMDiffPayer)
	}
	split := func(in []chain.SVMInstruction) (budget, rest []chain.SVMInstruction) {
		for _, x := range in {
			if x.Program == ComputeBudgetProgram {
				budget = append(budget, x)
			} else {
				rest = append(rest, x)
			}
		}
		return budget, rest
	}
	wb, wr := split(want)
	gb, gr := split(mined.Instructions)
	if !slices.EqualFunc(wr, gr, sameInstruction) {
		diff = append(diff, chain.SVMDiffInstructions)
	}
	if !slices.EqualFunc(wb, gb, sameInstruction) {
		diff = append(diff, chain.SVMDiffComputeBudget)
	}
	if built.Message.RecentBlockhash.String() != mined.RecentBlockhash {
		diff = append(diff, chain.SVMDiffBlockhash)
	}
	return diff, nil
}

func sameInstruction(a, b chain.SVMInstruction) bool {
	return a.Program == b.Program && slices.Equal(a.Accounts, b.Accounts) && bytes.Equal(a.Data, b.Data)
}
