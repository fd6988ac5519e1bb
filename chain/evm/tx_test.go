package evm

import (
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/anvil"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/rpcproxy"
)

// signer signs transactions with a fixed gas limit (no estimate, so a transaction that will revert
// is still sent and mined) and an explicit nonce it tracks itself.
type signer struct {
	t     *testing.T
	b     devnet.Backend
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newSigner(t *testing.T, b devnet.Backend, k *ecdsa.PrivateKey) *signer {
	t.Helper()
	addr := crypto.PubkeyToAddress(k.PublicKey)
	n, err := b.Client().PendingNonceAt(t.Context(), addr)
	if err != nil {
		t.Fatal(err)
	}
	return &signer{t: t, b: b, key: k, addr: addr, nonce: n}
}

// send signs and sends one transaction and waits until the pool holds it. It does not seal a block.
func (s *signer) send(to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	s.t.Helper()
	ctx, client := s.t.Context(), s.b.Client()
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(big.NewInt(devnet.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(devnet.ChainID), Nonce: s.nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip),
		Gas:       gas, To: to, Value: value, Data: data,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		s.t.Fatal(err)
	}
	s.nonce++
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := client.PendingNonceAt(ctx, s.addr)
		if err != nil {
			s.t.Fatal(err)
		}
		if n >= s.nonce {
			return tx
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("transaction %s never reached the pool", tx.Hash())
		}
		time.Sleep(time.Millisecond)
	}
}

// mined sends one transaction, seals it and returns its receipt, whatever its status.
func (s *signer) mined(to *common.Address, value *big.Int, gas uint64, data []byte) (*types.Transaction, *types.Receipt) {
	s.t.Helper()
	tx := s.send(to, value, gas, data)
	s.b.Commit()
	rc, err := s.b.Client().TransactionReceipt(s.t.Context(), tx.Hash())
	if err != nil {
		s.t.Fatalf("receipt of %s: %v", tx.Hash(), err)
	}
	return tx, rc
}

// txScenario is a chain with a Token, and transactions of every kind Transactions reports on.
type txScenario struct {
	b        devnet.Backend
	proxy    *rpcproxy.Proxy
	reader   *Reader
	token    common.Address
	user     *signer
	to       common.Address // receives the transfers
	native   *types.Transaction
	transfer *types.Transaction // a successful Token transfer
	create   *types.Transaction // a contract creation
	short    *types.Transaction // a reverted Token transfer: "Token: insufficient balance"
	overflow *types.Transaction // a reverted mint: Panic(0x11)
	receipts map[common.Hash]*types.Receipt
}

// newTxScenario deploys a Token from deployer (its owner), mints to user and mines the scenario's
// transactions, one block each. The Reader talks to rpcURL through a counting proxy.
func newTxScenario(t *testing.T, b devnet.Backend, rpcURL string, deployerKey, userKey *ecdsa.PrivateKey) *txScenario {
	t.Helper()
	ctx := t.Context()
	dep, err := devnet.NewAccount(ctx, b.Client(), deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	s := &txScenario{b: b, to: crypto.PubkeyToAddress(key(t).PublicKey), receipts: map[common.Hash]*types.Receipt{}}
	if s.token, err = dep.Deploy(ctx, b, &bindings.TokenMetaData, tokenB.PackConstructor("Tx Token", "TXT", 18)); err != nil {
		t.Fatal(err)
	}
	if _, err := dep.Transact(ctx, b, s.token, nil, tokenB.PackMint(crypto.PubkeyToAddress(userKey.PublicKey), units(100, 18))); err != nil {
		t.Fatal(err)
	}
	owner := newSigner(t, b, deployerKey) // dep is not used again: its nonce would be stale
	s.user = newSigner(t, b, userKey)

	keep := func(from *signer, wantStatus uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
		t.Helper()
		tx, rc := from.mined(to, value, gas, data)
		if rc.Status != wantStatus {
			t.Fatalf("transaction %s: status %d, want %d", tx.Hash(), rc.Status, wantStatus)
		}
		s.receipts[tx.Hash()] = rc
		return tx
	}
	s.native = keep(s.user, 1, &s.to, big.NewInt(1_500_000_000_000_000_000), 21_000, nil)
	s.transfer = keep(s.user, 1, &s.token, nil, 100_000, tokenB.PackTransfer(s.to, units(7, 18)))
	s.create = keep(s.user, 1, nil, nil, 3_000_000, append(common.FromHex(bindings.TokenMetaData.Bin), tokenB.PackConstructor("Made", "MADE", 6)...))
	s.short = keep(s.user, 0, &s.token, nil, 100_000, tokenB.PackTransfer(s.to, units(1_000, 18)))
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	s.overflow = keep(owner, 0, &s.token, nil, 100_000, tokenB.PackMint(s.to, maxUint))

	s.proxy = rpcproxy.Start(t, rpcURL)
	c, err := rpc.DialContext(ctx, s.proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if s.reader, err = New(c, Multicall3Address); err != nil { // Transactions makes no Multicall3 call
		t.Fatal(err)
	}
	return s
}

// read calls Transactions and checks the round trips it took.
func (s *txScenario) read(t *testing.T, wantTrips int64, hashes ...common.Hash) []chain.EVMTx {
	t.Helper()
	before := s.proxy.RoundTrips()
	got, err := s.reader.Transactions(t.Context(), hashes)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.proxy.RoundTrips() - before; trips != wantTrips {
		t.Fatalf("Transactions(%d hashes) took %d round trips, want %d", len(hashes), trips, wantTrips)
	}
	if len(got) != len(hashes) {
		t.Fatalf("%d entries for %d hashes", len(got), len(hashes))
	}
	for i, h := range hashes {
		if got[i].Hash != strings.ToLower(h.Hex()) {
			t.Fatalf("entry %d is %s, want %s", i, got[i].Hash, h.Hex())
		}
	}
	return got
}

// check compares an entry with the transaction sent and its receipt from the node's own client.
func (s *txScenario) check(t *testing.T, got chain.EVMTx, tx *types.Transaction, head uint64) {
	t.Helper()
	rc := s.receipts[tx.Hash()]
	from, err := types.Sender(types.LatestSignerForChainID(big.NewInt(devnet.ChainID)), tx)
	if err != nil {
		t.Fatal(err)
	}
	wantTo := ""
	if tx.To() != nil {
		wantTo = strings.ToLower(tx.To().Hex())
	}
	if !got.Found || !got.Mined || got.Block != rc.BlockNumber.Uint64() || got.Head != head ||
		got.From != strings.ToLower(from.Hex()) || got.To != wantTo || string(got.Data) != string(tx.Data()) ||
		got.Value.Cmp(tx.Value()) != 0 || got.Nonce != tx.Nonce() || got.Succeeded != (rc.Status == 1) ||
		got.GasUsed != rc.GasUsed || got.EffectiveGasPrice == nil || got.EffectiveGasPrice.Cmp(rc.EffectiveGasPrice) != 0 {
		t.Errorf("%s: got %+v\nwant block %d head %d from %s to %q value %s nonce %d status %d gas %d price %s",
			tx.Hash(), got, rc.BlockNumber, head, from, wantTo, tx.Value(), tx.Nonce(), rc.Status, rc.GasUsed, rc.EffectiveGasPrice)
	}
	if len(got.Logs) != len(rc.Logs) {
		t.Fatalf("%s: %d logs, want %d", tx.Hash(), len(got.Logs), len(rc.Logs))
	}
	for i, l := range rc.Logs {
		g := got.Logs[i]
		if g.Address != strings.ToLower(l.Address.Hex()) || string(g.Data) != string(l.Data) || len(g.Topics) != len(l.Topics) {
			t.Fatalf("%s log %d = %+v, want %+v", tx.Hash(), i, g, l)
		}
		for j, topic := range l.Topics {
			if g.Topics[j] != topic.Hex() {
				t.Fatalf("%s log %d topic %d = %s, want %s", tx.Hash(), i, j, g.Topics[j], topic.Hex())
			}
		}
	}
}

// run reads the scenario's transactions and checks them. Every read of successful and unknown
// hashes is one round trip; with reverted ones it is two.
func (s *txScenario) run(t *testing.T) {
	ctx := t.Context()
	head, err := s.b.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	unknown := crypto.Keccak256Hash([]byte("never sent"))

	got := s.read(t, 1, s.native.Hash(), unknown, s.transfer.Hash(), s.create.Hash())
	if u := got[1]; u.Found || u.Mined || u.Head != head || u.From != "" || u.Value != nil || u.Logs != nil {
		t.Errorf("unknown hash: %+v, want Found false and Head %d only", u, head)
	}
	s.check(t, got[0], s.native, head)
	s.check(t, got[2], s.transfer, head)
	s.check(t, got[3], s.create, head)
	if got[0].Value.String() != "1500000000000000000" || got[0].To != strings.ToLower(s.to.Hex()) || len(got[0].Logs) != 0 {
		t.Errorf("native transfer: %+v", got[0])
	}
	// The Token transfer's one log is Transfer(user, to, 7e18), as emitted.
	transfer := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)")).Hex()
	if l := got[2].Logs; len(l) != 1 || l[0].Address != strings.ToLower(s.token.Hex()) || len(l[0].Topics) != 3 ||
		l[0].Topics[0] != transfer || l[0].Topics[1] != common.BytesToHash(s.user.addr.Bytes()).Hex() ||
		l[0].Topics[2] != common.BytesToHash(s.to.Bytes()).Hex() || new(big.Int).SetBytes(l[0].Data).Cmp(units(7, 18)) != 0 {
		t.Errorf("transfer logs = %+v", l)
	}
	if got[3].To != "" || !got[3].Succeeded || got[3].RevertReason != "" {
		t.Errorf("contract creation: To %q, Succeeded %v", got[3].To, got[3].Succeeded)
	}
	for _, g := range got {
		if g.RevertReason != "" {
			t.Errorf("%s: reason %q on a transaction that did not fail", g.Hash, g.RevertReason)
		}
	}

	got = s.read(t, 2, s.short.Hash(), s.native.Hash(), s.overflow.Hash(), unknown)
	s.check(t, got[0], s.short, head)
	s.check(t, got[1], s.native, head)
	s.check(t, got[2], s.overflow, head)
	if got[0].Succeeded || got[0].RevertReason != "Token: insufficient balance" || got[0].Logs != nil {
		t.Errorf("short transfer: Succeeded %v, reason %q, logs %v", got[0].Succeeded, got[0].RevertReason, got[0].Logs)
	}
	if got[2].Succeeded || got[2].RevertReason != "panic 0x11" {
		t.Errorf("overflowing mint: Succeeded %v, reason %q", got[2].Succeeded, got[2].RevertReason)
	}
	if got[1].RevertReason != "" || got[3].Found {
		t.Errorf("native %+v / unknown %+v", got[1], got[3])
	}

	// The Source takes and gives strings: a mixed-case hash is read as its lower-case self.
	src := NewSource(s.reader, "", "")
	mixed := "0x" + strings.ToUpper(s.short.Hash().Hex()[2:])
	out, err := src.Transactions(ctx, []string{mixed, unknown.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Hash != s.short.Hash().Hex() || out[0].RevertReason != "Token: insufficient balance" || out[1].Found {
		t.Errorf("Source: %+v", out)
	}
	for _, bad := range []string{"", "0x12", s.short.Hash().Hex()[2:], s.short.Hash().Hex() + "00", "0x" + strings.Repeat("zz", 32)} {
		if _, err := src.Transactions(ctx, []string{bad}); KindOf(err) != KindInvalidInput {
			t.Errorf("Source.Transactions(%q): %v, want invalid input", bad, err)
		}
	}
	if out, err := s.reader.Transactions(ctx, nil); err != nil || len(out) != 0 {
		t.Errorf("no hashes: %v, %v", out, err)
	}

	// An RPC out of service is ErrUpstreamUnavailable, for the first round trip and the replay alike.
	s.proxy.Fail()
	if _, err := s.reader.Transactions(ctx, []common.Hash{s.short.Hash()}); !errors.Is(err, chain.ErrUpstreamUnavailable) {
		t.Errorf("RPC failing: %v, want ErrUpstreamUnavailable", err)
	}
	s.proxy.Release()
}

func TestTransactionsDevnet(t *testing.T) {
	deployerKey, userKey := key(t), key(t)
	port := freePort(t)
	sim := devnet.NewBackend(types.GenesisAlloc{
		crypto.PubkeyToAddress(deployerKey.PublicKey): {Balance: units(1_000, 18)},
		crypto.PubkeyToAddress(userKey.PublicKey):     {Balance: units(1_000, 18)},
	}, func(nc *node.Config, _ *ethconfig.Config) {
		nc.HTTPHost = "127.0.0.1"
		nc.HTTPPort = port
		nc.HTTPModules = []string{"eth"}
		nc.HTTPVirtualHosts = []string{"*"}
		nc.AuthPort = freePort(t)
	})
	t.Cleanup(func() { _ = sim.Close() })
	s := newTxScenario(t, sim, "http://127.0.0.1:"+strconv.Itoa(port), deployerKey, userKey)
	s.run(t)

	// A transaction in the pool but not in a block: found, not mined. Its block is still to come, so
	// it has no gas used, price or logs yet.
	head, err := sim.Client().BlockNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	pending := s.user.send(&s.to, big.NewInt(42), 21_000, nil)
	got := s.read(t, 1, pending.Hash())[0]
	if !got.Found || got.Mined || got.Block != 0 || got.Head != head || got.Succeeded || got.GasUsed != 0 ||
		got.EffectiveGasPrice != nil || got.Logs != nil || got.From != strings.ToLower(s.user.addr.Hex()) ||
		got.To != strings.ToLower(s.to.Hex()) || got.Value.Int64() != 42 || got.Nonce != pending.Nonce() {
		t.Errorf("pending: %+v", got)
	}
	sim.Commit()
	if got := s.read(t, 1, pending.Hash())[0]; !got.Mined || !got.Succeeded || got.Block != head+1 || got.Head != head+1 {
		t.Errorf("after its block: %+v", got)
	}
}

// On anvil (a different node implementation) everything is mined as it is sent, so there is no
// pending case.
func TestTransactionsAnvil(t *testing.T) {
	n := anvil.Start(t, anvil.Accounts(2))
	b := n.Backend(t)
	s := newTxScenario(t, b, n.URL, n.Keys[0], n.Keys[1])
	s.run(t)
}

func TestTransactionsRevertDecoding(t *testing.T) {
	custom := crypto.Keccak256([]byte("InsufficientBalance(uint256,uint256)"))[:4]
	errorData := append(append([]byte{}, errorSelector...), must(stringArgs.Pack("Token: insufficient balance"))...)
	panicData := append(append([]byte{}, panicSelector...), must(uint256Args.Pack(big.NewInt(0x32)))...)
	for _, c := range []struct {
		data []byte
		want string
	}{
		{errorData, "Token: insufficient balance"},
		{panicData, "panic 0x32"},
		{append(custom, make([]byte, 64)...), hexutil.Encode(custom)},
		{custom, hexutil.Encode(custom)},
		{nil, ""},
		{[]byte{1, 2, 3}, ""},
		{errorData[:40], "0x08c379a0"}, // truncated: reported by its selector
	} {
		if got := decodeRevert(c.data); got != c.want {
			t.Errorf("decodeRevert(%x) = %q, want %q", c.data, got, c.want)
		}
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{dataError{hexutil.Encode(errorData)}, "Token: insufficient balance"},
		{dataError{"Reverted " + hexutil.Encode(panicData)}, "panic 0x32"},
		{dataError{strings.TrimPrefix(hexutil.Encode(custom), "0x")}, hexutil.Encode(custom)},
		{dataError{"0x"}, ""},
		{dataError{map[string]any{"x": 1}}, ""},
		{dataError{"not hex"}, ""},
		{errors.New("execution reverted"), ""},
		{nil, ""},
	} {
		if got := revertReason(c.err); got != c.want {
			t.Errorf("revertReason(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

type dataError struct{ data any }

func (e dataError) Error() string  { return "execution reverted" }
func (e dataError) ErrorData() any { return e.data }

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
