package uniswapv2_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
)

// blockLog is a receipt's log as the EVM follower hands it to an indexer.
func blockLog(l *types.Log) chain.EVMBlockLog {
	var topics []string
	for _, t := range l.Topics {
		topics = append(topics, strings.ToLower(t.Hex()))
	}
	return chain.EVMBlockLog{Address: strings.ToLower(l.Address.Hex()), Topics: topics, Data: l.Data, Block: l.BlockNumber,
		TxHash: strings.ToLower(l.TxHash.Hex()), Index: l.Index}
}

func lowerHex(a common.Address) string { return strings.ToLower(a.Hex()) }

func units(n int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// TestIndexerDecodesDevnetLogs: on a devnet running the official Uniswap V2 factory, pair and
// Router02, the logs of creating a pair with liquidity, swapping through it and removing liquidity
// decode as the go-ethereum ABI of the official contracts reads them: PairCreated into the pool
// (the venue's, with the configured fee), Sync, Swap, Mint and Burn into the pool's events; the
// pair's LP Transfers, and PairCreated of another factory, are not the indexer's.
func TestIndexerDecodesDevnetLogs(t *testing.T) {
	ctx := t.Context()
	deployerKey, _ := crypto.GenerateKey()
	traderKey, _ := crypto.GenerateKey()
	alloc := types.GenesisAlloc{
		crypto.PubkeyToAddress(deployerKey.PublicKey): {Balance: units(1_000_000, 18)},
		crypto.PubkeyToAddress(traderKey.PublicKey):   {Balance: units(1_000_000, 18)},
	}
	sim := devnet.NewBackend(alloc)
	t.Cleanup(func() { _ = sim.Close() })
	addrs, err := devnet.Deploy(ctx, sim, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	deployer, err := devnet.NewAccount(ctx, sim.Client(), deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	trader, err := devnet.NewAccount(ctx, sim.Client(), traderKey)
	if err != nil {
		t.Fatal(err)
	}
	tokenABI, routerABI, factoryABI, pairABI := bindings.NewToken(), bindings.NewUniswapV2Router02(), bindings.NewUniswapV2Factory(), bindings.NewUniswapV2Pair()
	deadline, maxUint := big.NewInt(math.MaxInt64), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	var logs []*types.Log
	tx := func(from *devnet.Account, to common.Address, value *big.Int, data []byte) {
		t.Helper()
		rc, err := from.Transact(ctx, sim, to, value, data)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, rc.Logs...)
	}
	tx(deployer, addrs.USD, nil, tokenABI.PackMint(deployer.Address, units(1_000_000, 6)))
	tx(deployer, addrs.USD, nil, tokenABI.PackApprove(addrs.Router, maxUint))
	logs = nil
	tx(deployer, addrs.Router, units(10, 18), routerABI.PackAddLiquidityETH(addrs.USD, units(30_000, 6), big.NewInt(0), big.NewInt(0), deployer.Address, deadline))
	tx(trader, addrs.Router, units(1, 18), routerABI.PackSwapExactETHForTokens(big.NewInt(0), []common.Address{addrs.WrappedNative, addrs.USD}, trader.Address, deadline))
	pairAddr, err := chain.UniswapV2PairAddress(addrs.Factory.Hex(), chain.UniswapV2InitCodeHash, addrs.USD.Hex(), addrs.WrappedNative.Hex())
	if err != nil {
		t.Fatal(err)
	}
	pair := common.HexToAddress(pairAddr)
	tx(deployer, pair, nil, pairABI.PackApprove(addrs.Router, maxUint))
	tx(deployer, addrs.Router, nil, routerABI.PackRemoveLiquidityETH(addrs.USD, units(1, 14), big.NewInt(0), big.NewInt(0), deployer.Address, deadline))

	for name, got := range map[string]string{"PairCreated": uniswapv2.TopicPairCreated, "Sync": uniswapv2.TopicSync,
		"Swap": uniswapv2.TopicSwap, "Mint": uniswapv2.TopicMint, "Burn": uniswapv2.TopicBurn} {
		id := pairABI.GetABI().Events[name].ID
		if name == "PairCreated" {
			id = factoryABI.GetABI().Events[name].ID
		}
		if got != strings.ToLower(id.Hex()) {
			t.Errorf("topic %s = %s, want %s", name, got, id.Hex())
		}
	}

	ix, ok := uniswapv2.Venue{}.Indexer(chain.VenueConfig{Factory: addrs.Factory.Hex(), FeeBps: 25})
	if !ok {
		t.Fatal("no indexer for a configured factory")
	}
	if c := ix.Creators(); len(c) != 1 || c[0] != lowerHex(addrs.Factory) {
		t.Errorf("creators %v, want the factory %s in lower case", c, lowerHex(addrs.Factory))
	}
	other, _ := uniswapv2.Venue{}.Indexer(chain.VenueConfig{Factory: addrs.Router.Hex(), FeeBps: 30})
	seen := map[chain.EventKind]int{}
	created := 0
	for _, l := range logs {
		bl := blockLog(l)
		switch {
		case l.Address == addrs.Factory:
			want, err := factoryABI.UnpackPairCreatedEvent(l)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := ix.DecodeCreated(bl)
			wantPool := chain.EVMPool{IndexedPool: chain.IndexedPool{Address: pairAddr, Venue: uniswapv2.Name, FeeBps: 25,
				Token0: lowerHex(want.Token0), Token1: lowerHex(want.Token1)}, LP: true}
			if !ok || p != wantPool {
				t.Errorf("PairCreated decodes as %+v, %v; want %+v", p, ok, wantPool)
			}
			if _, ok := other.DecodeCreated(bl); ok {
				t.Error("another factory's indexer decodes the PairCreated")
			}
			bl.Data = bl.Data[:31]
			if _, ok := ix.DecodeCreated(bl); ok {
				t.Error("a PairCreated without its pair decodes")
			}
			created++
		case l.Address == pair:
			e, ok := ix.DecodeEvent(bl)
			want := chain.PoolEvent{Pool: pairAddr, Block: l.BlockNumber, LogIndex: l.Index, TxHash: strings.ToLower(l.TxHash.Hex())}
			switch l.Topics[0] {
			case pairABI.GetABI().Events["Sync"].ID:
				s, err := pairABI.UnpackSyncEvent(l)
				if err != nil {
					t.Fatal(err)
				}
				want.Kind, want.Reserve0, want.Reserve1 = chain.EventSync, s.Reserve0, s.Reserve1
			case pairABI.GetABI().Events["Swap"].ID:
				s, err := pairABI.UnpackSwapEvent(l)
				if err != nil {
					t.Fatal(err)
				}
				want.Kind, want.Amount0In, want.Amount1In, want.Amount0Out, want.Amount1Out = chain.EventSwap, s.Amount0In, s.Amount1In, s.Amount0Out, s.Amount1Out
			case pairABI.GetABI().Events["Mint"].ID:
				s, err := pairABI.UnpackMintEvent(l)
				if err != nil {
					t.Fatal(err)
				}
				want.Kind, want.Amount0In, want.Amount1In = chain.EventMint, s.Amount0, s.Amount1
			case pairABI.GetABI().Events["Burn"].ID:
				s, err := pairABI.UnpackBurnEvent(l)
				if err != nil {
					t.Fatal(err)
				}
				want.Kind, want.Amount0Out, want.Amount1Out = chain.EventBurn, s.Amount0, s.Amount1
			default: // the LP token's Transfer and Approval
				if ok {
					t.Errorf("log %x of the pair decodes as %+v", l.Topics[0], e)
				}
				continue
			}
			if !ok || !sameEvent(e, want) {
				t.Errorf("%s decodes as %+v, %v; want %+v", want.Kind, e, ok, want)
			}
			seen[e.Kind]++
			bl.Data = append(bl.Data, 0)
			if _, ok := ix.DecodeEvent(bl); ok {
				t.Errorf("%s with a byte too many decodes", want.Kind)
			}
		}
	}
	// addLiquidityETH: Sync, Mint (first deposit: the minimum liquidity's Transfer too); swap: Sync,
	// Swap; removeLiquidityETH: Sync, Burn.
	if created != 1 || seen[chain.EventSync] != 3 || seen[chain.EventSwap] != 1 || seen[chain.EventMint] != 1 || seen[chain.EventBurn] != 1 {
		t.Errorf("decoded %d PairCreated and events %v", created, seen)
	}
	if _, ok := (uniswapv2.Venue{}).Indexer(chain.VenueConfig{}); ok {
		t.Error("an indexer without a factory")
	}
}

func sameEvent(a, b chain.PoolEvent) bool {
	eq := func(x, y *big.Int) bool { return (x == nil) == (y == nil) && (x == nil || x.Cmp(y) == 0) }
	return a.Pool == b.Pool && a.Kind == b.Kind && a.Block == b.Block && a.LogIndex == b.LogIndex && a.TxHash == b.TxHash &&
		a.Trader == "" && a.Time == 0 && eq(a.Amount0In, b.Amount0In) && eq(a.Amount1In, b.Amount1In) &&
		eq(a.Amount0Out, b.Amount0Out) && eq(a.Amount1Out, b.Amount1Out) && eq(a.Reserve0, b.Reserve0) && eq(a.Reserve1, b.Reserve1)
}
