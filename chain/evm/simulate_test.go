package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"github.com/partner-platform/partnerd/chain"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/anvil"
)

// blockProbe is the init code of a contract whose every call returns the block it runs in:
// block.number, block.timestamp and block.basefee, three words. Its runtime is
// NUMBER PUSH1 0 MSTORE TIMESTAMP PUSH1 32 MSTORE BASEFEE PUSH1 64 MSTORE PUSH1 96 PUSH1 0 RETURN,
// which the init code (PUSH17 runtime, PUSH1 0 MSTORE, PUSH1 17 PUSH1 15 RETURN) returns.
var blockProbe = common.FromHex("0x70" + "4360005242602052486040526060" + "6000f3" + "600052" + "6011600ff3")

// TestSimulateNextBlock simulates calls on go-ethereum's simulated chain (the devnet's) and on anvil
// and checks that both run them where Simulate asks: the first in the block after the state's, with
// its number, timestamp and base fee, and each later one a block and a second later; and that the
// base fee ReadTrade gave for the next block is the one the next mined block has.
func TestSimulateNextBlock(t *testing.T) {
	t.Parallel()
	t.Run("devnet", func(t *testing.T) {
		t.Parallel()
		k := key(t)
		port := freePort(t)
		sim := devnet.NewBackend(types.GenesisAlloc{crypto.PubkeyToAddress(k.PublicKey): {Balance: units(1_000, 18)}},
			func(nc *node.Config, _ *ethconfig.Config) {
				nc.HTTPHost, nc.HTTPPort, nc.HTTPModules, nc.AuthPort = "127.0.0.1", port, []string{"eth"}, freePort(t)
			})
		t.Cleanup(func() { _ = sim.Close() })
		checkNextBlock(t, sim, "http://127.0.0.1:"+strconv.Itoa(port), k, true)
	})
	t.Run("anvil", func(t *testing.T) {
		t.Parallel()
		n := anvil.Start(t, anvil.Accounts(1))
		// anvil (1.7.1) stamps the simulated header with the base fee asked for, but with
		// validation off its EVM reads BASEFEE as 0.
		checkNextBlock(t, n.Backend(t), n.URL, n.Keys[0], false)
	})
}

// checkNextBlock runs TestSimulateNextBlock's checks on b, served at url, with k's funds; readsBaseFee
// says whether the node's EVM reads the base fee override (BASEFEE) when validation is off.
func checkNextBlock(t *testing.T, b devnet.Backend, url string, k *ecdsa.PrivateKey, readsBaseFee bool) {
	ctx := t.Context()
	addrs, err := devnet.Deploy(ctx, b, k)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := devnet.NewAccount(ctx, b.Client(), k)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := acct.Send(ctx, b, nil, nil, blockProbe)
	if err != nil {
		t.Fatal(err)
	}
	probe := strings.ToLower(rc.ContractAddress.Hex())
	client, err := rpc.DialContext(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	r, err := New(client, addrs.Multicall3)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.ReadTrade(ctx, chain.EVMTradeRead{Owner: acct.Address.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	head, err := b.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Block != head.Number.Uint64() || st.Time != head.Time || st.NextBaseFee == nil {
		t.Fatalf("read block %d at %d (next base fee %v), the head is block %d at %d", st.Block, st.Time, st.NextBaseFee, head.Number, head.Time)
	}

	// Later than now as well as than the head: the chain's clock may run either side of ours.
	for _, now := range []time.Time{time.Unix(int64(st.Time)-100, 0), time.Unix(int64(st.Time)+100, 0)} {
		next := st.Next(now)
		if want := max(st.Time+1, uint64(now.Unix())); next.Number != st.Block+1 || next.Time != want || next.BaseFee.Cmp(st.NextBaseFee) != 0 {
			t.Fatalf("Next(%d) = %+v, want block %d at %d with base fee %s", now.Unix(), next, st.Block+1, want, st.NextBaseFee)
		}
		from := acct.Address.Hex()
		res, err := r.Simulate(ctx, next, from, []chain.EVMCall{{To: probe}, {To: probe}, {To: probe}})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range res {
			if !c.OK || len(c.Return) != 96 {
				t.Fatalf("call %d: %+v", i, c)
			}
			number, stamp, fee := new(big.Int).SetBytes(c.Return[:32]), new(big.Int).SetBytes(c.Return[32:64]), new(big.Int).SetBytes(c.Return[64:])
			wantFee := next.BaseFee
			if !readsBaseFee {
				wantFee = new(big.Int)
			}
			if number.Uint64() != next.Number+uint64(i) || stamp.Uint64() != next.Time+uint64(i) || fee.Cmp(wantFee) != 0 {
				t.Errorf("call %d ran in block %s at %s with base fee %s, want block %d at %d with %s", i, number, stamp, fee,
					next.Number+uint64(i), next.Time+uint64(i), wantFee)
			}
			if c.PeakGas < c.GasUsed {
				t.Errorf("call %d: peak %d below the gas used %d", i, c.PeakGas, c.GasUsed)
			}
		}
	}

	// The next block mined has the base fee read for it.
	if _, err := acct.Send(ctx, b, &rc.ContractAddress, nil, nil); err != nil {
		t.Fatal(err)
	}
	mined, err := b.Client().HeaderByNumber(ctx, new(big.Int).SetUint64(st.Block+1))
	if err != nil {
		t.Fatal(err)
	}
	if mined.BaseFee.Cmp(st.NextBaseFee) != 0 {
		t.Errorf("block %d has base fee %s, read as %s", st.Block+1, mined.BaseFee, st.NextBaseFee)
	}
}

// TestSimulateRejectsIgnoredOverrides: a node that simulates elsewhere than asked (here: a block
// that is not the one after the state's, as a node ignoring blockOverrides answers) is a bad
// response, not figures for the wrong block.
func TestSimulateRejectsIgnoredOverrides(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	st, err := w.reader.ReadTrade(w.ctx, chain.EVMTradeRead{})
	if err != nil {
		t.Fatal(err)
	}
	next := st.Next(time.Unix(int64(st.Time)+5, 0)) // go-ethereum's own default is 12 s after the parent
	if _, err := w.reader.Simulate(w.ctx, next, w.deployer.Address.Hex(), []chain.EVMCall{{To: w.addrs.Multicall3.Hex()}}); err != nil {
		t.Fatalf("simulate: %v", err)
	}
	ignoring := &ignoreOverrides{RPC: w.reader.rpc}
	r := &Reader{rpc: ignoring, multicall: w.reader.multicall}
	_, err = r.Simulate(w.ctx, next, w.deployer.Address.Hex(), []chain.EVMCall{{To: w.addrs.Multicall3.Hex()}})
	if KindOf(err) != KindBadResponse || !strings.Contains(errors.Unwrap(err).Error(), "ignores block overrides") {
		t.Fatalf("a node ignoring the overrides: %v, want a bad response", err)
	}
}

// ignoreOverrides passes eth_simulateV1 on without its blockOverrides (the node's defaults apply).
type ignoreOverrides struct{ RPC }

func (i *ignoreOverrides) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_simulateV1" {
		req := args[0].(simRequest)
		plain := map[string]any{"validation": req.Validation}
		var blocks []map[string]any
		for _, b := range req.BlockStateCalls {
			blocks = append(blocks, map[string]any{"calls": b.Calls})
		}
		plain["blockStateCalls"] = blocks
		args = append([]any{plain}, args[1:]...)
	}
	return i.RPC.CallContext(ctx, result, method, args...)
}

// TestNextBaseFee: the fallback for a node without eth_feeHistory is EIP-1559 as go-ethereum
// computes it for Ethereum.
func TestNextBaseFee(t *testing.T) {
	t.Parallel()
	cfg := params.MainnetChainConfig
	london := cfg.LondonBlock.Uint64() + 10
	for _, c := range []struct{ base, used, limit uint64 }{
		{7, 15_000_000, 30_000_000}, {7, 30_000_000, 30_000_000}, {7, 0, 30_000_000}, {1_000_000_000, 29_999_999, 30_000_000},
		{1_000_000_000, 15_000_001, 30_000_000}, {12_345_678_901, 1, 36_000_000}, {0, 20_000_000, 30_000_000},
	} {
		h := &types.Header{Number: new(big.Int).SetUint64(london), GasUsed: c.used, GasLimit: c.limit, BaseFee: new(big.Int).SetUint64(c.base)}
		want := eip1559.CalcBaseFee(cfg, h)
		got := nextBaseFee(feeHeader{BaseFee: (*hexutil.Big)(h.BaseFee), GasUsed: hexutil.Uint64(c.used), GasLimit: hexutil.Uint64(c.limit)})
		if got.Cmp(want) != 0 {
			t.Errorf("base fee %d, %d of %d gas used: next %s, want %s", c.base, c.used, c.limit, got, want)
		}
	}
}

// TestGasLimitRule: the limit is the gas needed (the peak before refunds, a CALL's stipend, 64/63)
// plus a tenth and 20,000; without the node's peak, the refund cap bounds it.
func TestGasLimitRule(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		res  chain.EVMSimResult
		need uint64
	}{
		// An LP removal on go-ethereum (maxUsedGas reported): needs 149,715 when mined.
		{chain.EVMSimResult{GasUsed: 117_381, PeakGas: 146_726}, (146_726 + 2_300) * 64 / 63},
		// The same on anvil (no maxUsedGas): the peak is bounded by gasUsed + gasUsed/4.
		{simResult(simCallResult{Status: 1, GasUsed: 117_381}), (117_381 + 29_345 + 2_300) * 64 / 63},
		// A node reporting a peak below the gas used is not believed.
		{simResult(simCallResult{Status: 1, GasUsed: 50_000, MaxUsedGas: ptr(hexutil.Uint64(40_000))}), (50_000 + 12_500 + 2_300) * 64 / 63},
		{simResult(simCallResult{Status: 1, GasUsed: 21_000, MaxUsedGas: ptr(hexutil.Uint64(21_000))}), (21_000 + 2_300) * 64 / 63},
	} {
		need := chain.EVMGasNeed(c.res)
		if need != c.need {
			t.Errorf("%+v: need %d, want %d", c.res, need, c.need)
		}
		if limit := chain.EVMGasLimit(c.res); limit != need+need/10+20_000 {
			t.Errorf("%+v: limit %d, want %d", c.res, limit, need+need/10+20_000)
		}
	}
}

func ptr[T any](v T) *T { return &v }
