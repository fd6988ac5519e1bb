package solana

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// Build builds a transaction in two round trips: one JSON-RPC batch of getMultipleAccounts of
// Reads, getLatestBlockhash and getRecentPrioritizationFees; then, with Make's instructions, one of
// simulateTransaction (unit limit at the maximum, price zero; signatures not verified) and
// getFeeForMessage. The compute unit limit is what the simulation used plus 10 % and 1,000
// (UnitLimit), the unit price the 75th percentile of the recent fees on Writable (bounded by the
// client's options).
//
// Errors: chain.ErrInvalidAddress (an address that is not base58 of 32 bytes), Make's,
// *chain.SVMSimulationError (the transaction fails), chain.ErrPrerequisite (the payer cannot pay
// the fee), and the RPC's.
func (c *Client) Build(ctx context.Context, r chain.SVMBuildRequest) (chain.SVMBuilt, error) {
	op := r.Op
	payer, err := pubkey("payer", r.Payer)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	keys := make([]sol.PublicKey, len(r.Reads))
	for i, a := range r.Reads {
		if keys[i], err = pubkey("account", a); err != nil {
			return chain.SVMBuilt{}, err
		}
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()

	// Round trip 1: the state.
	accRead := c.accounts(keys, nil)
	var latest latestBlockhash
	var prio []prioritizationFee
	bhCall := newCall("getLatestBlockhash", &latest, c.config())
	prioCall := newCall("getRecentPrioritizationFees", &prio, r.Writable)
	calls := append(append([]*call{}, accRead.calls...), bhCall, prioCall)
	if err := c.batch(ctx, op, calls); err != nil {
		return chain.SVMBuilt{}, err
	}
	if err := firstErr(calls...); err != nil {
		return chain.SVMBuilt{}, err
	}
	accs, slot, err := accRead.result(op)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	blockhash, err := sol.HashFromBase58(latest.Value.Blockhash)
	if err != nil {
		return chain.SVMBuilt{}, badResponse(op, "getLatestBlockhash: blockhash %q", latest.Value.Blockhash)
	}
	state := make(map[string]chain.SVMAccount, len(keys))
	for _, k := range keys {
		a := chain.SVMAccount{Address: k.String()}
		if acc := accs[k]; acc != nil {
			data, err := acc.bytes()
			if err != nil {
				return chain.SVMBuilt{}, badResponse(op, "getMultipleAccounts: %s: %v", k, err)
			}
			a.Exists, a.Owner, a.Lamports, a.Data = true, acc.Owner, acc.Lamports, data
		}
		state[a.Address] = a
	}
	calls2, err := r.Make(state, slot)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	body, err := instructions(calls2)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	b := chain.SVMBuilt{Blockhash: blockhash.String(), LastValidBlockHeight: latest.Value.LastValidBlockHeight, Slot: slot,
		ComputeUnitPrice: max(unitPrice(prio, c.opts.MaxUnitPrice), c.opts.MinUnitPrice)}

	// Round trip 2: simulate and price the signature.
	simTx, err := transactionV0(blockhash, payer, maxComputeUnits, 0, body)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	simBytes, err := simTx.MarshalBinary()
	if err != nil {
		return chain.SVMBuilt{}, fmt.Errorf("%s: encode: %w", op, err)
	}
	msgBytes, err := simTx.Message.MarshalBinary()
	if err != nil {
		return chain.SVMBuilt{}, fmt.Errorf("%s: encode: %w", op, err)
	}
	var sim rpc.SimulateTransactionResponse
	var fee feeForMessage
	simCfg := c.config("encoding", "base64", "sigVerify", false, "replaceRecentBlockhash", false)
	if len(r.Observe) > 0 {
		simCfg["accounts"] = map[string]any{"encoding": "base64", "addresses": r.Observe}
	}
	simCall := newCall("simulateTransaction", &sim, base64.StdEncoding.EncodeToString(simBytes), simCfg)
	feeCall := newCall("getFeeForMessage", &fee, base64.StdEncoding.EncodeToString(msgBytes), c.config())
	if err := c.batch(ctx, op, []*call{simCall, feeCall}); err != nil {
		return chain.SVMBuilt{}, err
	}
	if err := firstErr(simCall, feeCall); err != nil {
		return chain.SVMBuilt{}, err
	}
	if sim.Value == nil {
		return chain.SVMBuilt{}, badResponse(op, "simulateTransaction: no value")
	}
	if sim.Value.Err != nil {
		return chain.SVMBuilt{}, simulationError(op, sim.Value.Err, sim.Value.Logs)
	}
	if fee.Value == nil { // the blockhash is unknown to the node: it lags the one that gave it
		return chain.SVMBuilt{}, newError(op, KindUnavailable, errors.New("getFeeForMessage: blockhash not found"))
	}
	if sim.Value.UnitsConsumed == nil || *sim.Value.UnitsConsumed == 0 {
		return chain.SVMBuilt{}, badResponse(op, "simulateTransaction: no unitsConsumed")
	}
	b.SimulatedSlot, b.Logs = sim.Context.Slot, sim.Value.Logs
	if len(r.Observe) > 0 {
		if len(sim.Value.Accounts) != len(r.Observe) {
			return chain.SVMBuilt{}, badResponse(op, "simulateTransaction: %d accounts for %d addresses", len(sim.Value.Accounts), len(r.Observe))
		}
		b.After = make(map[string]uint64, len(r.Observe))
		for i, a := range sim.Value.Accounts {
			if a != nil {
				b.After[r.Observe[i]] = a.Lamports
			}
		}
	}
	b.UnitsConsumed = *sim.Value.UnitsConsumed
	b.ComputeUnitLimit = UnitLimit(b.UnitsConsumed)
	b.PriorityFee = priorityFee(b.ComputeUnitPrice, b.ComputeUnitLimit)
	b.NetworkFee = *fee.Value + b.PriorityFee
	tx, err := transactionV0(blockhash, payer, b.ComputeUnitLimit, b.ComputeUnitPrice, body)
	if err != nil {
		return chain.SVMBuilt{}, err
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return chain.SVMBuilt{}, fmt.Errorf("%s: encode: %w", op, err)
	}
	b.Transaction = base64.StdEncoding.EncodeToString(raw)
	return b, nil
}

// instructions converts plain calls into solana-go instructions.
func instructions(calls []chain.SVMCall) ([]sol.Instruction, error) {
	out := make([]sol.Instruction, len(calls))
	for i, c := range calls {
		program, err := pubkey("program", c.Program)
		if err != nil {
			return nil, err
		}
		metas := make(sol.AccountMetaSlice, len(c.Accounts))
		for j, m := range c.Accounts {
			k, err := pubkey("account", m.Address)
			if err != nil {
				return nil, err
			}
			metas[j] = &sol.AccountMeta{PublicKey: k, IsSigner: m.Signer, IsWritable: m.Writable}
		}
		out[i] = sol.NewInstruction(program, metas, c.Data)
	}
	return out, nil
}

// transactionV0 assembles an unsigned v0 transaction (no address lookup table) paid by payer: the
// Compute Budget instructions, then body; its signatures are left zero.
func transactionV0(blockhash sol.Hash, payer sol.PublicKey, limit uint32, price uint64, body []sol.Instruction) (*sol.Transaction, error) {
	tx, err := transaction(blockhash, payer, limit, price, body)
	if err != nil {
		return nil, err
	}
	tx.Message.SetVersion(sol.MessageVersionV0)
	return tx, nil
}
