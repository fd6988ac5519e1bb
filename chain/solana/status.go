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
)

// Commitment levels a signature's status reports, weakest first.
const (
	StatusProcessed = "processed" // in a block the node has seen; may still be dropped with a fork
	StatusConfirmed = "confirmed" // voted on by a supermajority: optimistically confirmed
	StatusFinalized = "finalized" // rooted: final
)

// SigStatus is what the cluster says about one transaction signature.
type SigStatus struct {
	Signature string
	// Found reports whether the node knows the signature. When false every other field but
	// Signature is zero: not sent, dropped, expired, or not propagated yet.
	Found bool
	// Status is StatusProcessed, StatusConfirmed or StatusFinalized.
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

func (sr *statusRead) result(op string) ([]SigStatus, error) {
	if err := firstErr(sr.calls...); err != nil {
		return nil, err
	}
	out := make([]SigStatus, 0, len(sr.sigs))
	for i, o := range sr.outs {
		part := sr.sigs[i*maxStatusesPerCall : min((i+1)*maxStatusesPerCall, len(sr.sigs))]
		if len(o.Value) != len(part) {
			return nil, badResponse(op, "getSignatureStatuses answered %d statuses for %d signatures", len(o.Value), len(part))
		}
		for j, v := range o.Value {
			s := SigStatus{Signature: part[j].String()}
			if v != nil {
				s.Found, s.Slot, s.Status = true, v.Slot, v.ConfirmationStatus
				switch {
				case v.Confirmations == nil: // rooted
					s.Status = StatusFinalized
				case s.Status == "":
					s.Status = StatusConfirmed // nodes from before confirmationStatus
				default:
					s.Confirmations = *v.Confirmations
				}
				if !slices.Contains([]string{StatusProcessed, StatusConfirmed, StatusFinalized}, s.Status) {
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
// an entry with Found false. Errors: ErrInvalidSignature for a malformed signature, else *Error.
func (c *Client) SignatureStatuses(ctx context.Context, sigs []string) ([]SigStatus, error) {
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

// Instruction is one instruction of a transaction's message, its accounts resolved.
type Instruction struct {
	Program  string
	Accounts []string
	Data     []byte
}

// Tx is a transaction as the cluster has it: its status and, once the node serves it at the
// client's commitment, its message, so that a confirm can compare it with what was built (see
// Diff).
type Tx struct {
	SigStatus
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
	AccountKeys     []string
	Instructions    []Instruction
	RecentBlockhash string
	// Message is the serialized message the signatures sign.
	Message      []byte
	Fee          uint64 // lamports charged
	ComputeUnits uint64 // consumed; 0 when the node does not report it
	BlockTime    int64  // unix seconds; 0 when unknown
	Logs         []string
}

// Transactions reads transactions by signature for confirmation: statuses and messages in one
// round trip (one JSON-RPC batch of getSignatureStatuses and a getTransaction per signature, with
// maxSupportedTransactionVersion 0 and base64 encoding; lookup-table accounts come from the
// transaction's loadedAddresses). Entries follow sigs. Errors: ErrInvalidSignature, else *Error.
func (c *Client) Transactions(ctx context.Context, sigs []string) ([]Tx, error) {
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
	out := make([]Tx, len(parsed))
	for i, st := range statuses {
		out[i] = Tx{SigStatus: st}
		if txCalls[i].err != nil {
			return nil, txCalls[i].err
		}
		if txs[i] == nil {
			continue
		}
		if err := out[i].fill(parsed[i], txs[i]); err != nil {
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

// fill sets the message fields from a getTransaction answer about sig.
func (t *Tx) fill(sig sol.Signature, r *rpc.GetTransactionResult) error {
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
			t.Found, t.Status, t.Slot = true, StatusConfirmed, r.Slot
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
func resolveInstructions(compiled []sol.CompiledInstruction, keys sol.PublicKeySlice) ([]Instruction, error) {
	out := make([]Instruction, len(compiled))
	for i, ci := range compiled {
		if int(ci.ProgramIDIndex) >= len(keys) {
			return nil, fmt.Errorf("instruction %d: program index %d of %d keys", i, ci.ProgramIDIndex, len(keys))
		}
		in := Instruction{Program: keys[ci.ProgramIDIndex].String(), Data: slices.Clone([]byte(ci.Data))}
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

// Differences Diff reports.
const (
	DiffPayer         = "payer"         // another fee payer
	DiffInstructions  = "instructions"  // the instructions other than Compute Budget ones differ (program, accounts or data)
	DiffComputeBudget = "computeBudget" // the Compute Budget instructions differ (a wallet may re-price the priority fee)
	DiffBlockhash     = "blockhash"     // another recent blockhash: the transaction was rebuilt
)

// Diff compares a mined transaction's message with a built one (the base64 payload a build
// returned): the names of the differences, empty when the mined transaction is exactly the built
// one. A confirm should accept only a transaction whose payer and instructions are the built
// ones; Compute Budget and blockhash differences are reported for the caller to judge. Errors:
// mined has no message, or payload is not a transaction.
func Diff(payload string, mined Tx) ([]string, error) {
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
		diff = append(diff, DiffPayer)
	}
	split := func(in []Instruction) (budget, rest []Instruction) {
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
		diff = append(diff, DiffInstructions)
	}
	if !slices.EqualFunc(wb, gb, sameInstruction) {
		diff = append(diff, DiffComputeBudget)
	}
	if built.Message.RecentBlockhash.String() != mined.RecentBlockhash {
		diff = append(diff, DiffBlockhash)
	}
	return diff, nil
}

func sameInstruction(a, b Instruction) bool {
	return a.Program == b.Program && slices.Equal(a.Accounts, b.Accounts) && bytes.Equal(a.Data, b.Data)
}
