package evm

import (
	"context"
	"fmt"
	"github.com/partner-platform/partnerd/chain"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

type simCall struct {
	From  string        `json:"from"`
	To    string        `json:"to"`
	Input hexutil.Bytes `json:"input"`
	Value *hexutil.Big  `json:"value,omitempty"`
}

type simOverrides struct {
	Number  hexutil.Uint64 `json:"number"`
	Time    hexutil.Uint64 `json:"time"`
	BaseFee *hexutil.Big   `json:"baseFeePerGas,omitempty"`
}

type simBlock struct {
	BlockOverrides simOverrides `json:"blockOverrides"`
	Calls          []simCall    `json:"calls"`
}

type simRequest struct {
	BlockStateCalls []simBlock `json:"blockStateCalls"`
	Validation      bool       `json:"validation"`
}

type simCallResult struct {
	Status     hexutil.Uint64  `json:"status"`
	ReturnData hexutil.Bytes   `json:"returnData"`
	GasUsed    hexutil.Uint64  `json:"gasUsed"`
	MaxUsedGas *hexutil.Uint64 `json:"maxUsedGas"` // go-ethereum's gas consumed before refunds
	Error      *struct {
		Message string        `json:"message"`
		Data    hexutil.Bytes `json:"data"`
	} `json:"error"`
}

type simBlockResult struct {
	Number hexutil.Uint64  `json:"number"`
	Time   hexutil.Uint64  `json:"timestamp"`
	Calls  []simCallResult `json:"calls"`
}

// Simulate runs calls in order with eth_simulateV1, in one round trip, as a wallet will send them:
// on top of block next.Number-1 (the block the build's state was read at), call i alone in block
// next.Number+i, stamped next.Time+i, with base fee next.BaseFee, each call seeing the earlier ones'
// effects (an approval before the swap that needs it) and paying what a later block costs (a pair
// traded by an earlier call writes its price accumulators again). Validation is off, as in
// eth_call: the fee market and nonces are not checked, the calls' effects are. A reverting call is
// a result with OK false, not an error. Errors are *Error: KindUnavailable (also when the node
// lacks eth_simulateV1), KindTimeout, KindCanceled or KindBadResponse (also when the node did not
// simulate the blocks asked for).
func (r *Reader) Simulate(ctx context.Context, next chain.EVMNextBlock, from string, calls []chain.EVMCall) ([]chain.EVMSimResult, error) {
	const op = "simulate"
	if len(calls) == 0 {
		return nil, nil
	}
	if next.Number == 0 {
		return nil, newError(op, KindInvalidInput, fmt.Errorf("no block to simulate on top of"))
	}
	req := simRequest{BlockStateCalls: make([]simBlock, len(calls))}
	for i, c := range calls {
		sc := simCall{From: from, To: c.To, Input: c.Data}
		if c.Value != nil && c.Value.Sign() > 0 {
			sc.Value = (*hexutil.Big)(c.Value)
		}
		o := simOverrides{Number: hexutil.Uint64(next.Number + uint64(i)), Time: hexutil.Uint64(next.Time + uint64(i))}
		if next.BaseFee != nil {
			o.BaseFee = (*hexutil.Big)(next.BaseFee)
		}
		req.BlockStateCalls[i] = simBlock{BlockOverrides: o, Calls: []simCall{sc}}
	}
	var out []simBlockResult
	if err := r.rpc.CallContext(ctx, &out, "eth_simulateV1", req, hexutil.EncodeUint64(next.Number-1)); err != nil {
		return nil, classify(ctx, op, err)
	}
	if len(out) != len(calls) {
		return nil, badResponse(op, "eth_simulateV1 answered %d blocks for %d", len(out), len(calls))
	}
	res := make([]chain.EVMSimResult, len(calls))
	for i, b := range out {
		want := req.BlockStateCalls[i].BlockOverrides
		if b.Number != want.Number || b.Time != want.Time {
			return nil, badResponse(op, "eth_simulateV1 simulated block %d at %d for block %d at %d: the node ignores block overrides",
				uint64(b.Number), uint64(b.Time), uint64(want.Number), uint64(want.Time))
		}
		if len(b.Calls) != 1 {
			return nil, badResponse(op, "eth_simulateV1 answered %d calls in block %d for 1", len(b.Calls), uint64(b.Number))
		}
		res[i] = simResult(b.Calls[0])
	}
	return res, nil
}

// simResult reads one call's outcome.
func simResult(c simCallResult) chain.EVMSimResult {
	res := chain.EVMSimResult{OK: c.Status == 1, GasUsed: uint64(c.GasUsed), Return: c.ReturnData}
	res.PeakGas = res.GasUsed + res.GasUsed/4
	if c.MaxUsedGas != nil && uint64(*c.MaxUsedGas) >= res.GasUsed {
		res.PeakGas = uint64(*c.MaxUsedGas)
	}
	if res.OK {
		return res
	}
	data := []byte(c.ReturnData)
	msg := "execution reverted"
	if c.Error != nil {
		if len(data) == 0 {
			data = c.Error.Data
		}
		msg = c.Error.Message
	}
	res.Return = data
	if res.Revert = decodeRevert(data); res.Revert == "" {
		res.Revert = msg
	}
	return res
}
