package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/partner-platform/partnerd/chain"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// abi/audit_probe.json is a byte-for-byte copy of the devnet's compiled AuditProbe artifact (ABI and runtime
// bytecode; the Solidity is chain/devnet/contracts/AuditProbe.sol). `make contracts` refreshes it after
// recompiling, `make check-generated` fails when it differs from the committed artifact, and
// TestProbeArtifactIsCurrent compares the two in every test run. Copying a file keeps this package free of
// any import of chain/devnet.
//go:generate cp ../devnet/artifacts/AuditProbe.json abi/audit_probe.json

var (
	ownableABI          = mustABI("abi/ownable.json")
	probeABI, probeCode = mustProbe("abi/audit_probe.json")
	mintSelector        = crypto.Keccak256([]byte("mint(address,uint256)"))[:4]
	deadAddress         = common.HexToAddress("0x000000000000000000000000000000000000dEaD")
)

// probeAddress is where Audit places the AuditProbe's runtime code with an eth_call state override: the
// last 20 bytes of keccak256("partnerd/chain/evm: AuditProbe"), an address nobody holds a key or code for.
var probeAddress = common.BytesToAddress(crypto.Keccak256([]byte("partnerd/chain/evm: AuditProbe"))[12:])

// probeAmountWei is the native amount the probe wraps and trades, credited to it by the same override:
// 0.01 of the native coin. Large enough that token amounts are exact to far below a basis point, small
// enough not to empty a thin pool; taxes are measured against the amounts the pair computes from its
// reserves, so price impact does not distort them.
var probeAmountWei = big.NewInt(1e16)

// honeypotReturnBps: a round trip (buy, then sell everything back) that returns less than this share of
// the quote token paid is a honeypot even though the sell did not revert. An untaxed round trip returns
// about 99.4% (two 0.3% fees); a 50% buy tax plus a 50% sell tax still returns about 25%.
const honeypotReturnBps = 1000

func mustProbe(name string) (abi.ABI, []byte) {
	raw, err := abiFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	var artifact struct {
		Contracts map[string]struct {
			ABI        json.RawMessage `json:"abi"`
			BinRuntime string          `json:"bin-runtime"`
		} `json:"contracts"`
	}
	if err := json.Unmarshal(raw, &artifact); err != nil {
		panic(fmt.Sprintf("evm: parse %s: %v", name, err))
	}
	c, ok := artifact.Contracts["AuditProbe.sol:AuditProbe"]
	if !ok {
		panic(fmt.Sprintf("evm: %s holds no AuditProbe.sol:AuditProbe", name))
	}
	parsed, err := abi.JSON(bytes.NewReader(c.ABI))
	if err != nil {
		panic(fmt.Sprintf("evm: parse %s ABI: %v", name, err))
	}
	code, err := hexutil.Decode("0x" + c.BinRuntime)
	if err != nil || len(code) == 0 {
		panic(fmt.Sprintf("evm: %s runtime bytecode: %v", name, err))
	}
	return parsed, code
}

// AuditFacts is what the chain says about a pool's token for an audit.
type AuditFacts struct {
	Token          common.Address
	HasCode        bool            // eth_getCode non-empty
	Owner          *common.Address // nil when the token has no owner() getter
	OwnerRenounced bool            // owner() is the zero or 0x…dEaD address
	MintSelector   bool            // the runtime code contains the mint(address,uint256) selector as a PUSH4
	LPTotalSupply  *big.Int        // the pair's totalSupply; nil when the pair does not answer it
	LPBurned       *big.Int        // pair LP balance of 0x0 plus 0x000000000000000000000000000000000000dEaD; nil likewise
	Sim            chain.Simulation
	Block          uint64
}

// probeResult is AuditProbe.Result (chain/devnet/contracts/AuditProbe.sol).
type probeResult struct {
	Ran              bool
	Reason           string
	BuyOk            bool
	SellOk           bool
	QuoteIn          *big.Int
	ExpectedBuy      *big.Int
	ReceivedBuy      *big.Int
	SellTransferOk   bool
	SentSell         *big.Int
	PairReceivedSell *big.Int
	QuoteOut         *big.Int
	BlockNumber      *big.Int
}

// overrideAccount is one entry of eth_call's state override: the third eth_call parameter, as geth
// defines it (and most other clients and providers accept).
type overrideAccount struct {
	Code    hexutil.Bytes `json:"code"`
	Balance *hexutil.Big  `json:"balance"`
}

// Audit reads what the chain says about token, one side of the Uniswap V2 pair (any V2 fork), for a pool
// audit: whether it has code, its owner and whether ownership is renounced, whether its code has a
// mint(address,uint256) entry point, how much of the pair's LP supply is burned, and a simulated buy and
// sell with the native coin (AuditProbe, run in eth_call with a state override; it trades on pair
// directly, and when the pair's other token is not wrappedNative it first buys that token on
// factory.getPair(wrappedNative, quote)).
//
// It costs one round trip: a JSON-RPC batch of an aggregate3 eth_call (owner, LP figures, block number),
// eth_getCode and the probe's eth_call, all at "latest". The probe reports the block it ran at; if a block
// landed between the batch's calls (the probe's block differs from aggregate3's), the batch is sent once
// more pinned to aggregate3's block, so every fact comes from one block: two round trips, rarely.
//
// An RPC that rejects or ignores state overrides yields Sim.Ran false with a Reason, not an error; so does
// a pool the simulation cannot trade (no route, not a pair). Errors are *Error: KindInvalidInput for a zero
// address, KindUnavailable, KindTimeout, KindCanceled, or KindBadResponse (which includes a missing
// Multicall3).
func (r *Reader) Audit(ctx context.Context, pair, token, wrappedNative, factory common.Address) (AuditFacts, error) {
	const op = "audit"
	for _, a := range []common.Address{pair, token, wrappedNative, factory} {
		if a == (common.Address{}) {
			return AuditFacts{}, newError(op, KindInvalidInput, fmt.Errorf("pair, token, wrapped native and factory addresses are required"))
		}
	}
	facts, probeBlock, err := r.audit(ctx, op, "latest", pair, token, wrappedNative, factory)
	if err != nil || probeBlock == nil || *probeBlock == facts.Block {
		return facts, err
	}
	facts, _, err = r.audit(ctx, op, hexutil.EncodeUint64(facts.Block), pair, token, wrappedNative, factory)
	return facts, err
}

// audit is one batch at block tag. probeBlock is the block the probe ran at, nil when it did not answer.
func (r *Reader) audit(ctx context.Context, op, tag string, pair, token, wrappedNative, factory common.Address) (AuditFacts, *uint64, error) {
	calls := []call{
		{Target: token, AllowFailure: true, CallData: pack(ownableABI, "owner")},
		{Target: pair, AllowFailure: true, CallData: pack(erc20ABI, "totalSupply")},
		{Target: pair, AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", common.Address{})},
		{Target: pair, AllowFailure: true, CallData: pack(erc20ABI, "balanceOf", deadAddress)},
		{Target: r.multicall, AllowFailure: true, CallData: pack(multicall3ABI, "getBlockNumber")},
	}
	aggData, err := multicall3ABI.Pack("aggregate3", calls)
	if err != nil {
		return AuditFacts{}, nil, newError(op, KindInvalidInput, fmt.Errorf("pack aggregate3: %w", err))
	}
	probeData, err := probeABI.Pack("audit", pair, token, wrappedNative, factory, probeAmountWei)
	if err != nil {
		return AuditFacts{}, nil, newError(op, KindInvalidInput, fmt.Errorf("pack probe: %w", err))
	}
	override := map[common.Address]overrideAccount{probeAddress: {Code: probeCode, Balance: (*hexutil.Big)(probeAmountWei)}}

	// getCode sits between the two eth_calls: when their blocks agree, it ran at that block too (geth
	// answers a batch in order).
	var aggRaw, code, probeRaw hexutil.Bytes
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: []any{callArgs{To: r.multicall, Data: aggData}, tag}, Result: &aggRaw},
		{Method: "eth_getCode", Args: []any{token, tag}, Result: &code},
		{Method: "eth_call", Args: []any{callArgs{To: probeAddress, Data: probeData}, tag, override}, Result: &probeRaw},
	}
	if err := r.rpc.BatchCallContext(ctx, batch); err != nil {
		return AuditFacts{}, nil, classify(ctx, op, err)
	}
	for _, b := range batch[:2] {
		if b.Error != nil {
			return AuditFacts{}, nil, classify(ctx, op, b.Error)
		}
	}

	res, err := decodeAggregate(op, aggRaw, len(calls))
	if err != nil {
		return AuditFacts{}, nil, err
	}
	block, ok := word(res[4])
	if !ok || !block.IsUint64() {
		return AuditFacts{}, nil, badResponse(op, "getBlockNumber failed at %s: is Multicall3 deployed there?", r.multicall)
	}
	facts := AuditFacts{
		Token:        token,
		HasCode:      len(code) > 0,
		MintSelector: hasPush4(code, mintSelector),
		Block:        block.Uint64(),
	}
	if owner, ok := address(res[0]); ok {
		facts.Owner = &owner
		facts.OwnerRenounced = owner == (common.Address{}) || owner == deadAddress
	}
	supply, ok1 := word(res[1])
	burned0, ok2 := word(res[2])
	burnedDead, ok3 := word(res[3])
	if ok1 && ok2 && ok3 {
		facts.LPTotalSupply = supply
		facts.LPBurned = burned0.Add(burned0, burnedDead)
	}

	p, reason := decodeProbe(batch[2].Error, probeRaw)
	if p == nil {
		facts.Sim = chain.Simulation{Reason: reason}
		return facts, nil, nil
	}
	facts.Sim = simulation(p)
	var probeBlock *uint64
	if p.BlockNumber != nil && p.BlockNumber.IsUint64() {
		n := p.BlockNumber.Uint64()
		probeBlock = &n
	}
	return facts, probeBlock, nil
}

// decodeProbe decodes the probe's answer; on failure it returns nil and why the simulation did not run,
// in words of ours (never the RPC's text: a JSON-RPC error is named by its code only).
func decodeProbe(callErr error, data []byte) (*probeResult, string) {
	if callErr != nil {
		var rpcErr rpc.Error
		if errors.As(callErr, &rpcErr) && rpcErr.ErrorCode() == 3 { // geth's code for a reverted call
			return nil, "the simulation reverted (JSON-RPC error 3)"
		}
		if errors.As(callErr, &rpcErr) {
			return nil, fmt.Sprintf("the RPC rejected the simulation (JSON-RPC error %d): it may not support eth_call state overrides", rpcErr.ErrorCode())
		}
		return nil, "the RPC's answer to the simulation was unusable"
	}
	if len(data) == 0 {
		return nil, "the RPC ignored the eth_call state override (the simulation returned nothing)"
	}
	vals, err := probeABI.Unpack("audit", data)
	if err != nil || len(vals) != 1 {
		return nil, "the simulation returned undecodable data"
	}
	p, ok := abi.ConvertType(vals[0], new(probeResult)).(*probeResult)
	if !ok || p == nil || p.QuoteIn == nil || p.ExpectedBuy == nil || p.ReceivedBuy == nil || p.SentSell == nil ||
		p.PairReceivedSell == nil || p.QuoteOut == nil {
		return nil, "the simulation returned undecodable data"
	}
	return p, ""
}

// simulation turns the probe's measurements into the audit's figures.
func simulation(p *probeResult) chain.Simulation {
	s := chain.Simulation{Ran: p.Ran, Reason: p.Reason, BuyOK: p.BuyOk, SellOK: p.SellOk}
	if p.BuyOk {
		s.BuyTaxBps = lossBps(p.ExpectedBuy, p.ReceivedBuy)
	}
	if p.SellTransferOk {
		s.SellTaxBps = lossBps(p.SentSell, p.PairReceivedSell)
	}
	if p.BuyOk {
		back := new(big.Int).Mul(p.QuoteOut, big.NewInt(10_000))
		paid := new(big.Int).Mul(p.QuoteIn, big.NewInt(honeypotReturnBps))
		s.Honeypot = !p.SellOk || back.Cmp(paid) < 0
		if s.Honeypot && s.Reason == "" {
			s.Reason = "the sell returned almost nothing: under 10% of what the buy paid"
		}
	}
	return s
}

// lossBps is (want - got) / want in basis points, rounded half up and clamped to [0, 10000].
func lossBps(want, got *big.Int) int {
	if want.Sign() <= 0 || got.Cmp(want) >= 0 {
		return 0
	}
	if got.Sign() <= 0 {
		return 10_000
	}
	loss := new(big.Int).Sub(want, got)
	loss.Mul(loss, big.NewInt(10_000))
	loss.Add(loss, new(big.Int).Rsh(want, 1))
	return int(loss.Div(loss, want).Int64())
}

// hasPush4 reports whether code, walked as EVM instructions (skipping the data of every PUSH), contains
// PUSH4 selector: how a Solidity or Vyper dispatcher compares the calldata selector with an entry point's.
// The trailing metadata is walked as instructions too; a PUSH4 there would be a false positive, rare and
// harmless for a flag that only raises a question.
func hasPush4(code, selector []byte) bool {
	const push1, push4, push32 = 0x60, 0x63, 0x7f
	for i := 0; i < len(code); i++ {
		op := code[i]
		if op < push1 || op > push32 {
			continue
		}
		n := int(op-push1) + 1
		if op == push4 && i+5 <= len(code) && string(code[i+1:i+5]) == string(selector) {
			return true
		}
		i += n
	}
	return false
}
