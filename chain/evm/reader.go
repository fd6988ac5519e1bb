// Package evm is the adapter for Ethereum-compatible chains: the only importer of go-ethereum
// outside chain/devnet. It speaks standard JSON-RPC (eth_blockNumber, eth_call) and standard ABIs
// (ERC-20, Uniswap V2 pair, Multicall3 aggregate3) only, so it works against any EVM RPC endpoint.
package evm

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// Multicall3Address is where Multicall3 lives on most EVM chains (deployed with the same keyless
// transaction everywhere). Chains without it get another address from configuration.
var Multicall3Address = common.HexToAddress("0xcA11bde05977b3631167028862bE2a173976CA11")

// MaxCalldataPerCall is the size budget of one aggregate3 eth_call's calldata. Larger reads are
// split into chunks of at most this size, all sent in ONE JSON-RPC batch (so still one round
// trip) and all pinned to the same block. 96 KiB keeps well under common provider request limits
// and, at about 224 bytes per balanceOf, is ~430 simple reads: a few million gas, far below the
// usual eth_call gas caps (geth's default is 50M). A read of 24 owners x 16 tokens is ~90 KiB.
const MaxCalldataPerCall = 96 << 10

//go:embed abi/*.json
var abiFiles embed.FS

var (
	erc20ABI      = mustABI("abi/erc20.json")
	pairABI       = mustABI("abi/uniswap_v2_pair.json")
	multicall3ABI = mustABI("abi/multicall3.json")
)

func mustABI(name string) abi.ABI {
	raw, err := abiFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	parsed, err := abi.JSON(bytes.NewReader(raw))
	if err != nil {
		panic(fmt.Sprintf("evm: parse %s: %v", name, err))
	}
	return parsed
}

// RPC is the part of *rpc.Client the Reader uses: single calls and JSON-RPC batches.
type RPC interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
	BatchCallContext(ctx context.Context, b []rpc.BatchElem) error
}

// Reader reads chain state in as few round trips as possible, through Multicall3 aggregate3.
// It is safe for concurrent use.
type Reader struct {
	rpc       RPC
	multicall common.Address
	// ticks is each V3 pool's last known tick and tick spacing (common.Address → knownTick), from
	// its last read, the follower's events and the index (RememberTicks): the guess of a V3PoolRead
	// without one, so that a known pool is read in one round trip.
	ticks sync.Map
}

// NewReader returns a Reader over an ethclient connection and the chain's Multicall3 address.
func NewReader(client *ethclient.Client, multicall common.Address) (*Reader, error) {
	return New(client.Client(), multicall)
}

// New returns a Reader over a raw RPC client (an *rpc.Client, dialled with whatever transport the
// caller wants). It returns a KindInvalidInput *Error for a zero Multicall3 address.
func New(c RPC, multicall common.Address) (*Reader, error) {
	if c == nil || multicall == (common.Address{}) {
		return nil, newError("new reader", KindInvalidInput, fmt.Errorf("rpc client and Multicall3 address are required"))
	}
	return &Reader{rpc: c, multicall: multicall}, nil
}

// call is one call inside aggregate3.
type call struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

// result is one aggregate3 result.
type result struct {
	Success    bool
	ReturnData []byte
}

// calldataSize is the ABI-encoded size of one Call3 inside aggregate3's calldata: its offset
// word, address, bool, bytes offset, bytes length and the data padded to 32 bytes.
func calldataSize(c call) int { return 5*32 + (len(c.CallData)+31)/32*32 }

// chunk splits calls so each chunk's encoded calldata stays within MaxCalldataPerCall.
func chunk(calls []call) [][]call {
	var out [][]call
	start, size := 0, 0
	for i, c := range calls {
		s := calldataSize(c)
		if i > start && size+s > MaxCalldataPerCall {
			out = append(out, calls[start:i])
			start, size = i, 0
		}
		size += s
	}
	return append(out, calls[start:])
}

type callArgs struct {
	To   common.Address `json:"to"`
	Data hexutil.Bytes  `json:"data"`
}

// blockNumber is eth_blockNumber.
func (r *Reader) blockNumber(ctx context.Context, op string) (uint64, error) {
	var n hexutil.Uint64
	if err := r.rpc.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, classify(ctx, op, err)
	}
	return uint64(n), nil
}

// aggregate runs calls through aggregate3 at block ("latest" when nil) and returns one result per
// call. One chunk is one eth_call; several chunks go out as one JSON-RPC batch. Every call is
// made with allowFailure, so a failing target shows up as an unsuccessful result.
func (r *Reader) aggregate(ctx context.Context, op string, block *uint64, calls []call) ([]result, error) {
	if len(calls) == 0 {
		return nil, nil
	}
	tag := "latest"
	if block != nil {
		tag = hexutil.EncodeUint64(*block)
	}
	chunks := chunk(calls)
	raw := make([]hexutil.Bytes, len(chunks))
	batch := make([]rpc.BatchElem, len(chunks))
	for i, c := range chunks {
		data, err := multicall3ABI.Pack("aggregate3", c)
		if err != nil {
			return nil, newError(op, KindInvalidInput, fmt.Errorf("pack aggregate3: %w", err))
		}
		batch[i] = rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: r.multicall, Data: data}, tag}, Result: &raw[i]}
	}
	if len(batch) == 1 {
		if err := r.rpc.CallContext(ctx, batch[0].Result, batch[0].Method, batch[0].Args...); err != nil {
			return nil, classify(ctx, op, err)
		}
	} else {
		if err := r.rpc.BatchCallContext(ctx, batch); err != nil {
			return nil, classify(ctx, op, err)
		}
		for _, b := range batch {
			if b.Error != nil {
				return nil, classify(ctx, op, b.Error)
			}
		}
	}
	out := make([]result, 0, len(calls))
	for i, data := range raw {
		res, err := decodeAggregate(op, data, len(chunks[i]))
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	return out, nil
}

// decodeAggregate decodes one aggregate3 return value holding n results.
func decodeAggregate(op string, data []byte, n int) ([]result, error) {
	vals, err := multicall3ABI.Unpack("aggregate3", data)
	if err != nil || len(vals) != 1 {
		return nil, badResponse(op, "aggregate3: undecodable return data (%d bytes): %v", len(data), err)
	}
	res, ok := abi.ConvertType(vals[0], new([]result)).(*[]result)
	if !ok || res == nil || len(*res) != n {
		return nil, badResponse(op, "aggregate3: unexpected result %T for %d calls", vals[0], n)
	}
	return *res, nil
}

func pack(a abi.ABI, method string, args ...any) []byte {
	data, err := a.Pack(method, args...)
	if err != nil {
		panic(fmt.Sprintf("evm: pack %s: %v", method, err)) // fixed fragments and typed arguments: a bug
	}
	return data
}

// word decodes a single uint256 return value; ok is false for a failed call or short data.
func word(r result) (*big.Int, bool) {
	if !r.Success || len(r.ReturnData) < 32 {
		return nil, false
	}
	return new(big.Int).SetBytes(r.ReturnData[:32]), true
}

// address decodes a single address return value, rejecting words with dirty high bytes.
func address(r result) (common.Address, bool) {
	v, ok := word(r)
	if !ok || v.BitLen() > 160 {
		return common.Address{}, false
	}
	return common.BigToAddress(v), true
}

// text decodes a string return value, or a bytes32 one (as some early tokens, such as MKR, return).
func text(r result, a abi.ABI, method string) (string, bool) {
	if !r.Success {
		return "", false
	}
	if vals, err := a.Unpack(method, r.ReturnData); err == nil && len(vals) == 1 {
		if s, ok := vals[0].(string); ok {
			return s, true
		}
	}
	if len(r.ReturnData) == 32 {
		return strings.TrimRight(string(r.ReturnData), "\x00"), true
	}
	return "", false
}

// TokenMeta is what TokenMetadata learned about one token.
type TokenMeta struct {
	Address     common.Address
	Name        string
	Symbol      string
	Decimals    uint8
	TotalSupply *big.Int
	// Failed lists the ERC-20 getters that reverted or returned undecodable data ("name",
	// "symbol", "decimals", "totalSupply"); their fields are zero. All four failing usually means
	// the address is not a token (or not a contract). Empty when everything decoded.
	Failed []string
}

// OK reports whether all four getters answered.
func (m TokenMeta) OK() bool { return len(m.Failed) == 0 }

// TokenMetadata reads name, symbol, decimals and totalSupply of many tokens in one aggregate3
// eth_call (more only beyond MaxCalldataPerCall). A token whose calls fail is reported in its
// entry's Failed list, not as an error. Errors are *Error: KindUnavailable, KindTimeout,
// KindCanceled or KindBadResponse.
func (r *Reader) TokenMetadata(ctx context.Context, tokens []common.Address) ([]TokenMeta, error) {
	const op = "token metadata"
	getters := []string{"name", "symbol", "decimals", "totalSupply"}
	calls := make([]call, 0, len(tokens)*len(getters))
	for _, t := range tokens {
		for _, g := range getters {
			calls = append(calls, call{Target: t, AllowFailure: true, CallData: pack(erc20ABI, g)})
		}
	}
	res, err := r.aggregate(ctx, op, nil, calls)
	if err != nil {
		return nil, err
	}
	out := make([]TokenMeta, len(tokens))
	for i, t := range tokens {
		rs := res[i*len(getters):]
		m := TokenMeta{Address: t}
		var ok bool
		if m.Name, ok = text(rs[0], erc20ABI, "name"); !ok {
			m.Failed = append(m.Failed, "name")
		}
		if m.Symbol, ok = text(rs[1], erc20ABI, "symbol"); !ok {
			m.Failed = append(m.Failed, "symbol")
		}
		if d, ok := word(rs[2]); ok && d.IsUint64() && d.Uint64() <= 255 {
			m.Decimals = uint8(d.Uint64())
		} else {
			m.Failed = append(m.Failed, "decimals")
		}
		if m.TotalSupply, ok = word(rs[3]); !ok {
			m.Failed = append(m.Failed, "totalSupply")
		}
		out[i] = m
	}
	return out, nil
}

// Balances reads the native balance of every owner (Multicall3 getEthBalance) and the ERC-20
// balanceOf of each owner for its own token list (owners[i] for tokens[i]), all at one block: it fetches the block number first
// (eth_blockNumber) and then makes one aggregate3 eth_call pinned to it, so it costs two round
// trips; reads beyond MaxCalldataPerCall are chunked into a single JSON-RPC batch, still two.
//
// native[i] is owners[i]'s balance in wei; erc20[i][j] is owners[i]'s balance of tokens[i][j] in
// base units, or nil when that balanceOf reverted or returned undecodable data (not an ERC-20).
// block is the block the balances are read at. Errors are *Error: KindUnavailable, KindTimeout,
// KindCanceled or KindBadResponse (which includes getEthBalance failing: no Multicall3 there).
func (r *Reader) Balances(ctx context.Context, owners []common.Address, tokens [][]common.Address) (native []*big.Int, erc20 [][]*big.Int, block uint64, err error) {
	const op = "balances"
	if len(owners) == 0 {
		return nil, nil, 0, nil
	}
	if len(tokens) != len(owners) {
		return nil, nil, 0, newError(op, KindInvalidInput, fmt.Errorf("%d token lists for %d owners", len(tokens), len(owners)))
	}
	block, err = r.blockNumber(ctx, op)
	if err != nil {
		return nil, nil, 0, err
	}
	var calls []call
	for i, o := range owners {
		calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getEthBalance", o)})
		for _, t := range tokens[i] {
			calls = append(calls, call{Target: t, AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", o)})
		}
	}
	res, err := r.aggregate(ctx, op, &block, calls)
	if err != nil {
		return nil, nil, 0, err
	}
	native = make([]*big.Int, len(owners))
	erc20 = make([][]*big.Int, len(owners))
	for i := range owners {
		rs := res[:1+len(tokens[i])]
		res = res[len(rs):]
		var ok bool
		if native[i], ok = word(rs[0]); !ok {
			return nil, nil, 0, badResponse(op, "getEthBalance failed at %s: is Multicall3 deployed there?", r.multicall)
		}
		erc20[i] = make([]*big.Int, len(tokens[i]))
		for j := range tokens[i] {
			erc20[i][j], _ = word(rs[1+j])
		}
	}
	return native, erc20, block, nil
}

// PairState is the state of one Uniswap V2 pair.
type PairState struct {
	Address            common.Address
	Token0, Token1     common.Address
	Reserve0, Reserve1 *big.Int
	BlockTimestampLast uint32
	TotalSupply        *big.Int // LP tokens
	Block              uint64   // the block the state was read at (the same for every pair of one read)
	// Failed lists the getters that reverted or returned undecodable data ("token0", "token1",
	// "getReserves", "totalSupply"); their fields are zero. Empty when everything decoded.
	Failed []string
}

// OK reports whether all four getters answered.
func (p PairState) OK() bool { return len(p.Failed) == 0 }

// PairStates reads token0, token1, getReserves and totalSupply of many Uniswap V2 pairs in one
// aggregate3 eth_call at the latest block, with Multicall3's getBlockNumber in the same call, so
// each state says the block it was read at. Beyond MaxCalldataPerCall it first pins the block
// number so every chunk reads the same block. An address that is not a pair is reported in its
// entry's Failed list. Errors are *Error: KindUnavailable, KindTimeout, KindCanceled or
// KindBadResponse (which includes getBlockNumber failing: no Multicall3 there).
func (r *Reader) PairStates(ctx context.Context, pairs []common.Address) ([]PairState, error) {
	const op = "pair states"
	if len(pairs) == 0 {
		return nil, nil
	}
	calls := make([]call, 0, len(pairs)*len(pairGetters)+1)
	for _, p := range pairs {
		calls = append(calls, pairCalls(p)...)
	}
	calls = append(calls, call{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")})
	var block *uint64
	if len(chunk(calls)) > 1 {
		n, err := r.blockNumber(ctx, op)
		if err != nil {
			return nil, err
		}
		block = &n
	}
	res, err := r.aggregate(ctx, op, block, calls)
	if err != nil {
		return nil, err
	}
	at, ok := word(res[len(res)-1])
	if !ok || !at.IsUint64() {
		return nil, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	out := make([]PairState, len(pairs))
	for i, p := range pairs {
		out[i] = decodePair(p, res[i*len(pairGetters):], at.Uint64())
	}
	return out, nil
}

// pairGetters are the calls pairCalls makes, in order.
var pairGetters = []string{"token0", "token1", "getReserves", "totalSupply"}

// pairCalls are the aggregate3 calls that read a pair's state (decodePair decodes their results).
func pairCalls(p common.Address) []call {
	calls := make([]call, len(pairGetters))
	for i, g := range pairGetters {
		calls[i] = call{Target: p, AllowFailure: true, CallData: pack(pairABI, g)}
	}
	return calls
}

// decodePair decodes the results of pairCalls(p), read at block.
func decodePair(p common.Address, rs []result, block uint64) PairState {
	s := PairState{Address: p, Block: block}
	var ok bool
	if s.Token0, ok = address(rs[0]); !ok {
		s.Failed = append(s.Failed, "token0")
	}
	if s.Token1, ok = address(rs[1]); !ok {
		s.Failed = append(s.Failed, "token1")
	}
	if vals, err := pairABI.Unpack("getReserves", rs[2].ReturnData); rs[2].Success && err == nil && len(vals) == 3 {
		s.Reserve0, _ = vals[0].(*big.Int)
		s.Reserve1, _ = vals[1].(*big.Int)
		s.BlockTimestampLast, _ = vals[2].(uint32)
	}
	if s.Reserve0 == nil || s.Reserve1 == nil {
		s.Reserve0, s.Reserve1, s.BlockTimestampLast = nil, nil, 0
		s.Failed = append(s.Failed, "getReserves")
	}
	if s.TotalSupply, ok = word(rs[3]); !ok {
		s.Failed = append(s.Failed, "totalSupply")
	}
	return s
}
