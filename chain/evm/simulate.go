package evm

import (
	"context"
	"fmt"
	"math/big"
	"time"

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
	GasUsed uint64 // net of refunds, as a receipt reports it
	// PeakGas is the most gas the call had consumed at any point of its execution, before refunds:
	// the node's maxUsedGas when it reports one (go-ethereum does), otherwise the largest the London
	// refund cap allows, GasUsed plus a quarter (a refund is at most a fifth of the gas consumed).
	PeakGas uint64
	Return  []byte // the return data (a revert's data when !OK)
	Revert  string // !OK: the decoded revert reason, or the node's message when nothing decodes
}

// NextBlock is where a build's transactions are expected to run: the block after the one its state
// was read at. Simulate runs the first call in it and each later call one block (and one second)
// after the previous one, since a wallet sends each transaction once the previous one is mined.
//
// go-ethereum and anvil both run the calls at the number and time asked for. The base fee goes into
// the simulated header on both, but anvil's EVM reads BASEFEE as 0 with validation off (as Simulate
// runs), where go-ethereum reads the base fee asked for; no call a build makes reads it.
type NextBlock struct {
	Number  uint64   // the first call's block: the state's block + 1
	Time    uint64   // the first call's block timestamp, Unix seconds
	BaseFee *big.Int // each block's base fee per gas; nil on a chain without one (pre-London)
}

// Next is the block after st's as it can be mined at the earliest: number st.Block+1, timestamp the
// later of st.Time+1 (a block is stamped after its parent) and now (the chain will not mine it
// before this answer is out), base fee st.NextBaseFee.
//
// Gas depends on the timestamp: a Uniswap V2 pair writes its price accumulators only when time has
// passed since its last update, two storage writes (about 22,100 gas each while still zero, 5,000
// after) that a simulation at the latest block's time skips for every pair traded in that block,
// and that the mined transaction pays. Any time after the latest block costs the same; the earliest
// plausible one keeps time-dependent amounts (farm rewards) at the least the transaction sees.
func (st TradeState) Next(now time.Time) NextBlock {
	t := st.Time + 1
	if u := now.Unix(); u > 0 && uint64(u) > t {
		t = uint64(u)
	}
	var fee *big.Int
	if st.NextBaseFee != nil {
		fee = new(big.Int).Set(st.NextBaseFee)
	}
	return NextBlock{Number: st.Block + 1, Time: t, BaseFee: fee}
}

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
func (r *Reader) Simulate(ctx context.Context, next NextBlock, calls []Call) ([]SimResult, error) {
	const op = "simulate"
	if len(calls) == 0 {
		return nil, nil
	}
	if next.Number == 0 {
		return nil, newError(op, KindInvalidInput, fmt.Errorf("no block to simulate on top of"))
	}
	req := simRequest{BlockStateCalls: make([]simBlock, len(calls))}
	for i, c := range calls {
		sc := simCall{From: c.From, To: c.To, Input: c.Data}
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
	res := make([]SimResult, len(calls))
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
func simResult(c simCallResult) SimResult {
	res := SimResult{OK: c.Status == 1, GasUsed: uint64(c.GasUsed), Return: c.ReturnData}
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

// callStipend is the gas a value-carrying CALL gives its callee for free (go-ethereum's
// eth_estimateGas adds it to its first guess, as GasNeed does).
const callStipend = 2_300

// GasNeed is the least gas limit with which a simulated call is expected to succeed in the block it
// was simulated in, as eth_estimateGas would search for it: the gas it consumed at its peak, before
// refunds (PeakGas: gasUsed alone falls short by the refund, up to a quarter of it), plus a CALL's
// stipend, times 64/63 for the sixty-fourth of the gas left that every nested call withholds from
// its callee (EIP-150). Measured on the official Uniswap V2 router, pairs and farms it is at most 2 %
// above the least gas that succeeded (an LP removal: peak 146,726, needed 149,715, GasNeed 151,392).
func GasNeed(r SimResult) uint64 {
	peak := max(r.PeakGas, r.GasUsed)
	return (peak + callStipend) * 64 / 63
}

// GasLimit is the gas limit a build sets for a simulated call: GasNeed plus a tenth and 20,000 for
// the state changing before the transaction is mined (a storage slot it writes becoming zero or
// non-zero costs up to about 20,000 more). Unused gas is not charged.
func GasLimit(r SimResult) uint64 {
	need := GasNeed(r)
	return need + need/10 + 20_000
}
