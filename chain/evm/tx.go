package evm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// txJSON is the part of eth_getTransactionByHash's answer Transactions uses. types.Transaction
// does not carry the sender, so the RPC's own "from" is read here.
type txJSON struct {
	Hash     common.Hash     `json:"hash"`
	From     common.Address  `json:"from"`
	To       *common.Address `json:"to"`
	Input    hexutil.Bytes   `json:"input"`
	Value    *hexutil.Big    `json:"value"`
	Nonce    hexutil.Uint64  `json:"nonce"`
	Gas      hexutil.Uint64  `json:"gas"`
	GasPrice *hexutil.Big    `json:"gasPrice"`
}

// receiptJSON is the part of eth_getTransactionReceipt's answer Transactions uses.
type receiptJSON struct {
	TxHash            common.Hash     `json:"transactionHash"`
	BlockNumber       *hexutil.Big    `json:"blockNumber"`
	Status            *hexutil.Uint64 `json:"status"`
	GasUsed           hexutil.Uint64  `json:"gasUsed"`
	EffectiveGasPrice *hexutil.Big    `json:"effectiveGasPrice"`
	From              common.Address  `json:"from"`
	To                *common.Address `json:"to"`
	Logs              []struct {
		Address common.Address `json:"address"`
		Topics  []common.Hash  `json:"topics"`
		Data    hexutil.Bytes  `json:"data"`
	} `json:"logs"`
}

// replayArgs is a mined transaction replayed as an eth_call.
type replayArgs struct {
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to,omitempty"`
	Gas   hexutil.Uint64  `json:"gas"`
	Value *hexutil.Big    `json:"value,omitempty"`
	Data  hexutil.Bytes   `json:"data"`
}

// Transactions reads what the chain says about submitted transactions: one entry per hash, in
// order; a hash the node does not know (never sent, dropped, or not yet propagated) gives an entry
// with Found false, not an error.
//
// It costs one round trip: ONE JSON-RPC batch of eth_getTransactionByHash and
// eth_getTransactionReceipt for every hash, then eth_blockNumber (last, so Head is at least the
// block of every receipt read: geth answers a batch in order). Beyond rpcBatchSize calls (49
// hashes) the batch is split into several, sent one after the other. Only when some of the
// transactions were mined and failed does it make a second round trip: one batch replaying each
// failed transaction as an eth_call (its from, to, data, value and gas) at the block before its
// own, to recover the revert reason.
//
// The revert reason is best effort. The replay runs on the state at the end of the parent block,
// not the state the transaction met mid-block (transactions before it in its block are not
// applied), so it can succeed or fail differently; a node that has pruned the parent block's state
// (a non-archive node, for transactions older than about 128 blocks) cannot replay at all. In every
// such case RevertReason is empty rather than an error. Reasons decode as Error(string) (its
// message), Panic(uint256) ("panic 0x11") or a custom error (its 4-byte selector, "0x1234abcd").
//
// Errors are *Error: KindUnavailable, KindTimeout, KindCanceled or KindBadResponse (a JSON-RPC
// error for one of the reads, or an answer about another transaction than the one asked for).
func (r *Reader) Transactions(ctx context.Context, hashes []common.Hash) ([]chain.EVMTx, error) {
	const op = "transactions"
	if len(hashes) == 0 {
		return nil, nil
	}
	txs := make([]*txJSON, len(hashes))
	receipts := make([]*receiptJSON, len(hashes))
	var head hexutil.Uint64
	elems := make([]rpc.BatchElem, 0, 2*len(hashes)+1)
	for i, h := range hashes {
		elems = append(elems,
			rpc.BatchElem{Method: "eth_getTransactionByHash", Args: []any{h}, Result: &txs[i]},
			rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &receipts[i]})
	}
	elems = append(elems, rpc.BatchElem{Method: "eth_blockNumber", Result: &head})
	if err := r.sendBatch(ctx, op, elems); err != nil {
		return nil, err
	}
	for _, e := range elems {
		if e.Error != nil {
			return nil, classify(ctx, op, e.Error)
		}
	}

	out := make([]chain.EVMTx, len(hashes))
	var replays []rpc.BatchElem
	var replayed []int // the entry of each replay
	for i, h := range hashes {
		tx, rc := txs[i], receipts[i]
		e := chain.EVMTx{Hash: h.Hex(), Head: uint64(head)}
		if tx != nil {
			if tx.Hash != h || tx.Value == nil {
				return nil, badResponse(op, "eth_getTransactionByHash(%s) answered about %s (value %v)", h, tx.Hash, tx.Value)
			}
			e.Found = true
			e.From, e.Data, e.Value, e.Nonce = canonical(tx.From), tx.Input, tx.Value.ToInt(), uint64(tx.Nonce)
			if tx.To != nil {
				e.To = canonical(*tx.To)
			}
		}
		if rc != nil {
			if rc.TxHash != h || rc.BlockNumber == nil || !rc.BlockNumber.ToInt().IsUint64() || rc.Status == nil {
				return nil, badResponse(op, "eth_getTransactionReceipt(%s): receipt of %s, block %v, status %v", h, rc.TxHash, rc.BlockNumber, rc.Status)
			}
			e.Found, e.Mined = true, true
			e.Block = rc.BlockNumber.ToInt().Uint64()
			e.Head = max(e.Head, e.Block) // a load-balanced RPC may answer from nodes a block apart
			e.Succeeded = uint64(*rc.Status) == 1
			e.GasUsed = uint64(rc.GasUsed)
			switch {
			case rc.EffectiveGasPrice != nil:
				e.EffectiveGasPrice = rc.EffectiveGasPrice.ToInt()
			case tx != nil && tx.GasPrice != nil: // nodes from before EIP-1559 have no effectiveGasPrice
				e.EffectiveGasPrice = tx.GasPrice.ToInt()
			}
			for _, l := range rc.Logs {
				topics := make([]string, len(l.Topics))
				for j, t := range l.Topics {
					topics[j] = t.Hex()
				}
				e.Logs = append(e.Logs, chain.EVMLog{Address: canonical(l.Address), Topics: topics, Data: l.Data})
			}
			if tx == nil { // a node a block behind another: the receipt still names the parties
				e.From = canonical(rc.From)
				if rc.To != nil {
					e.To = canonical(*rc.To)
				}
			}
			if !e.Succeeded && tx != nil && e.Block > 0 {
				replays = append(replays, rpc.BatchElem{
					Method: "eth_call",
					Args: []any{replayArgs{From: tx.From, To: tx.To, Gas: tx.Gas, Value: tx.Value, Data: tx.Input},
						hexutil.EncodeUint64(e.Block - 1)},
					Result: new(hexutil.Bytes),
				})
				replayed = append(replayed, i)
			}
		}
		out[i] = e
	}
	if len(replays) == 0 {
		return out, nil
	}
	// Each replay's own failure (a revert, pruned state, an RPC without the method) only leaves
	// that reason empty; a failure of the round trip itself is an error like any other read's.
	if err := r.sendBatch(ctx, op, replays); err != nil {
		return nil, err
	}
	for k, e := range replays {
		out[replayed[k]].RevertReason = revertReason(e.Error)
	}
	return out, nil
}

// sendBatch sends elems in JSON-RPC batches of at most rpcBatchSize calls, in order. Only a failure
// of a whole batch is an error; each element's own error is left in its Error field.
func (r *Reader) sendBatch(ctx context.Context, op string, elems []rpc.BatchElem) error {
	for i := 0; i < len(elems); i += rpcBatchSize {
		if err := r.rpc.BatchCallContext(ctx, elems[i:min(i+rpcBatchSize, len(elems))]); err != nil {
			return classify(ctx, op, err)
		}
	}
	return nil
}

// revertReason decodes the revert data a replay's JSON-RPC error carries (geth, anvil, Erigon and
// most providers: code 3 and the data as a hex string; OpenEthereum and Nethermind prefix it with
// "Reverted "). It is empty when there is no data.
func revertReason(err error) string {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return ""
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return ""
	}
	s = strings.TrimPrefix(strings.TrimSpace(s), "Reverted ")
	if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		s = "0x" + s
	}
	data, err := hexutil.Decode(s)
	if err != nil {
		return ""
	}
	return decodeRevert(data)
}

var (
	errorSelector = []byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	panicSelector = []byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
	stringArgs    = abi.Arguments{{Type: mustType("string")}}
	uint256Args   = abi.Arguments{{Type: mustType("uint256")}}
)

func mustType(name string) abi.Type {
	t, err := abi.NewType(name, "", nil)
	if err != nil {
		panic(err)
	}
	return t
}

// decodeRevert turns revert data into a reason: Error(string)'s message, "panic 0x11" for
// Panic(uint256), a custom error's selector as 0x and 8 hex digits, or empty for data shorter than
// a selector. Error or Panic data that does not decode is reported by its selector too.
func decodeRevert(data []byte) string {
	if len(data) < 4 {
		return ""
	}
	switch sel := data[:4]; {
	case bytes.Equal(sel, errorSelector):
		if v, err := stringArgs.Unpack(data[4:]); err == nil && len(v) == 1 {
			if s, ok := v[0].(string); ok {
				return s
			}
		}
	case bytes.Equal(sel, panicSelector):
		if v, err := uint256Args.Unpack(data[4:]); err == nil && len(v) == 1 {
			if n, ok := v[0].(*big.Int); ok {
				return fmt.Sprintf("panic %#x", n)
			}
		}
	}
	return hexutil.Encode(data[:4])
}

// Transactions implements chain.EVMTxReader. A hash that is not 0x and 64 hex digits is a
// KindInvalidInput *Error.
func (s *Source) Transactions(ctx context.Context, hashes []string) ([]chain.EVMTx, error) {
	hs := make([]common.Hash, len(hashes))
	for i, h := range hashes {
		if len(h) != 66 || !strings.HasPrefix(h, "0x") {
			return nil, newError("transactions", KindInvalidInput, fmt.Errorf("%q is not a transaction hash", h))
		}
		b, err := hexutil.Decode(h)
		if err != nil {
			return nil, newError("transactions", KindInvalidInput, fmt.Errorf("%q is not a transaction hash", h))
		}
		hs[i] = common.BytesToHash(b)
	}
	return s.reader.Transactions(ctx, hs)
}

var _ chain.EVMTxReader = (*Source)(nil)
