package evm

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Call is one call of a build, as the user would send it. Addresses are 0x hex.
type Call struct {
	From, To string
	Data     []byte
	Value    *big.Int // nil: zero
}

// SimResult is one simulated call's outcome.
type SimResult struct {
	OK      bool
	GasUsed uint64
	Return  []byte // the return data (a revert's data when !OK)
	Revert  string // !OK: the decoded revert reason, or the node's message when nothing decodes
}

type simCall struct {
	From  string        `json:"from"`
	To    string        `json:"to"`
	Input hexutil.Bytes `json:"input"`
	Value *hexutil.Big  `json:"value,omitempty"`
}

type simBlock struct {
	Calls []simCall `json:"calls"`
}

type simRequest struct {
	BlockStateCalls []simBlock `json:"blockStateCalls"`
	Validation      bool       `json:"validation"`
}

type simCallResult struct {
	Status     hexutil.Uint64 `json:"status"`
	ReturnData hexutil.Bytes  `json:"returnData"`
	GasUsed    hexutil.Uint64 `json:"gasUsed"`
	Error      *struct {
		Message string        `json:"message"`
		Data    hexutil.Bytes `json:"data"`
	} `json:"error"`
}

type simBlockResult struct {
	Calls []simCallResult `json:"calls"`
}

// Simulate runs calls in order in one simulated block on top of the latest one, each seeing the
// earlier calls' effects (an approval before the swap that needs it), with eth_simulateV1 in one
// round trip. Validation is off, as in eth_call: the fee market and nonces are not checked, the
// calls' effects are. A reverting call is a result with OK false, not an error. Errors are *Error:
// KindUnavailable (also when the node lacks eth_simulateV1), KindTimeout, KindCanceled or
// KindBadResponse.
func (r *Reader) Simulate(ctx context.Context, calls []Call) ([]SimResult, error) {
	const op = "simulate"
	req := simRequest{BlockStateCalls: []simBlock{{Calls: make([]simCall, len(calls))}}}
	for i, c := range calls {
		sc := simCall{From: c.From, To: c.To, Input: c.Data}
		if c.Value != nil && c.Value.Sign() > 0 {
			sc.Value = (*hexutil.Big)(c.Value)
		}
		req.BlockStateCalls[0].Calls[i] = sc
	}
	var out []simBlockResult
	if err := r.rpc.CallContext(ctx, &out, "eth_simulateV1", req, "latest"); err != nil {
		return nil, classify(ctx, op, err)
	}
	if len(out) != 1 || len(out[0].Calls) != len(calls) {
		return nil, badResponse(op, "eth_simulateV1 answered %d blocks for 1", len(out))
	}
	res := make([]SimResult, len(calls))
	for i, c := range out[0].Calls {
		res[i] = SimResult{OK: c.Status == 1, GasUsed: uint64(c.GasUsed), Return: c.ReturnData}
		if res[i].OK {
			continue
		}
		data := []byte(c.ReturnData)
		msg := "execution reverted"
		if c.Error != nil {
			if len(data) == 0 {
				data = c.Error.Data
			}
			msg = c.Error.Message
		}
		res[i].Return = data
		if res[i].Revert = decodeRevert(data); res[i].Revert == "" {
			res[i].Revert = msg
		}
	}
	return res, nil
}

// GasLimit is the gas limit a build sets for a call that used gasUsed in simulation: 30 % more plus
// 20,000, which covers the gas refunds a receipt nets out (at most a fifth of the gas spent) and
// the 63/64 rule for nested calls. Unused gas is not charged.
func GasLimit(gasUsed uint64) uint64 { return gasUsed + gasUsed*3/10 + 20_000 }
