package api

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// tradeEnv is a devnet-backed env with a consumer that may build, and a wallet for a seeded user.
type tradeEnv struct {
	*env
	d      *devnetChain
	key    string
	wallet *wallet
	market devnet.Market
	builds int // builds posted, for fresh idempotency keys
}

func newTradeEnv(t *testing.T, account int) *tradeEnv {
	t.Helper()
	d := &devnetChain{}
	e := newEnv(t, withDevnet(d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	acct := d.local.Accounts()[account]
	return &tradeEnv{env: e, d: d, key: key, wallet: newWallet(t, d.local.RPCURL(), acct.PrivateKeyHex), market: d.local.Market()}
}

// token returns a seeded token's address by symbol.
func (te *tradeEnv) token(symbol string) common.Address {
	switch symbol {
	case "USDD":
		return te.market.Core.USD
	case "WETH":
		return te.market.Core.WrappedNative
	}
	for _, t := range te.market.Tokens {
		if t.Symbol == symbol {
			return t.Address
		}
	}
	te.t.Fatalf("no seeded token %s", symbol)
	return common.Address{}
}

// balance is who's balance of a token (zero address: native).
func (te *tradeEnv) balance(token, who common.Address) *big.Int {
	te.t.Helper()
	ctx := te.t.Context()
	if token == (common.Address{}) {
		b, err := te.wallet.client.BalanceAt(ctx, who, nil)
		if err != nil {
			te.t.Fatal(err)
		}
		return b
	}
	out, err := te.wallet.client.CallContract(ctx, ethereum.CallMsg{To: &token, Data: bindings.NewToken().PackBalanceOf(who)}, nil)
	if err != nil {
		te.t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

// build posts a builder body with a fresh idempotency key.
func (te *tradeEnv) build(path string, body any) response {
	te.t.Helper()
	te.builds++
	raw, _ := json.Marshal(body)
	return te.do(request{method: http.MethodPost, path: path, key: te.key, body: string(raw),
		headers: map[string]string{"Idempotency-Key": fmt.Sprintf("build-%d", te.builds)}})
}

// confirm posts a confirm of a build response's token with hashes.
func (te *tradeEnv) confirm(buildBody string, hashes []common.Hash) response {
	te.t.Helper()
	var b BuildResponse
	if err := json.Unmarshal([]byte(buildBody), &b); err != nil {
		te.t.Fatal(err)
	}
	sigs := make([]string, len(hashes))
	for i, h := range hashes {
		sigs[i] = h.Hex()
	}
	return te.build("/v1/build/confirm", map[string]any{"confirmationToken": b.ConfirmationToken, "signatures": sigs})
}

// finalize mines the devnet's confirmation depth of empty blocks.
func (te *tradeEnv) finalize() {
	for range devnet.Confirmations {
		te.d.local.Commit()
	}
}

func quoteOf(t testing.TB, body string) SwapQuoteResponse {
	t.Helper()
	var q SwapQuoteResponse
	if err := json.Unmarshal([]byte(body), &q); err != nil {
		t.Fatal(err)
	}
	return q
}

func bigOf(t testing.TB, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not an integer", s)
	}
	return n
}

// TestSwapOnDevnet quotes and builds swaps through the pipeline, signs and sends them with a test
// wallet, and checks the chain: the swap receives exactly the quoted amount (nothing trades in
// between), the approve is exact and only there when needed, and confirm answers pending until
// the chain's confirmation depth, then confirmed.
func TestSwapOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user := te.wallet.addr
	cases := []struct {
		name    string
		in, out string // "native" or a symbol
		amount  string
		approve bool
		hops    int
	}{
		{"token to token, direct", "USDD", "WETH", "100000000", true, 1},
		{"token to token, through WETH", "QRTZ", "USDD", "100000000000", true, 2},
		{"native in", "native", "AUR", "10000000000000000", false, 1},
		{"native in, through USDD", "native", "EMB", "10000000000000000", false, 2},
		{"native out", "AUR", "native", "5000000000000000000", true, 1},
	}
	addrOf := func(sym string) (string, common.Address) {
		if sym == "native" {
			return "native", common.Address{}
		}
		a := te.token(sym)
		return a.Hex(), a
	}
	for _, tc := range cases {
		in, inAddr := addrOf(tc.in)
		out, outAddr := addrOf(tc.out)
		before := te.d.rpc.RoundTrips()
		r := te.do(request{path: "/v1/quotes/swap?chain=base&inputMint=" + in + "&outputMint=" + out + "&amount=" + tc.amount + "&slippageBps=50", key: te.key})
		if trips := te.d.rpc.RoundTrips() - before; r.status == http.StatusOK && trips != 1 {
			t.Errorf("%s: the quote took %d RPC round trips, want 1", tc.name, trips)
		}
		if r.status != http.StatusOK {
			t.Fatalf("%s: quote: %d %s", tc.name, r.status, r.rawBody)
		}
		q := quoteOf(t, r.rawBody)
		if len(q.Route) != tc.hops || q.Raw["outAmount"] != q.OutAmount {
			t.Errorf("%s: route %+v, want %d hops; raw %v", tc.name, q.Route, tc.hops, q.Raw)
		}
		balIn, balOut := te.balance(inAddr, user), te.balance(outAddr, user)

		before = te.d.rpc.RoundTrips()
		b := te.build("/v1/build/swap", map[string]any{"chain": "base", "user": user.Hex(), "inputMint": in, "outputMint": out,
			"amount": tc.amount, "slippageBps": 50})
		if trips := te.d.rpc.RoundTrips() - before; trips > 3 {
			t.Errorf("%s: the build took %d RPC round trips, want at most 3", tc.name, trips)
		}
		if b.status != http.StatusOK {
			t.Fatalf("%s: build: %d %s", tc.name, b.status, b.rawBody)
		}
		var built BuildResponse
		if err := json.Unmarshal([]byte(b.rawBody), &built); err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, tx := range built.Transactions {
			ids = append(ids, tx.ID)
		}
		want := []string{"swap"}
		if tc.approve {
			want = []string{"approve", "swap"}
			exp := built.Transactions[0].Payload.Expect.Allowance
			if exp.Amount != tc.amount || !strings.EqualFold(exp.Token, inAddr.Hex()) {
				t.Errorf("%s: approve expects %+v, want exactly %s of %s", tc.name, exp, tc.amount, inAddr)
			}
		}
		if fmt.Sprint(ids) != fmt.Sprint(want) || built.Signing.Mode != "sequential" || built.ConfirmationToken == "" {
			t.Fatalf("%s: build %v (signing %q), want %v", tc.name, ids, built.Signing.Mode, want)
		}
		fresh := built.Quote["outAmount"].(string)

		hashes, receipts := te.wallet.sendBuild(b.rawBody)
		for i, rc := range receipts {
			if rc.Status != 1 {
				t.Fatalf("%s: %s reverted", tc.name, built.Transactions[i].ID)
			}
		}
		gotOut := new(big.Int).Sub(te.balance(outAddr, user), balOut)
		spent := new(big.Int).Sub(balIn, te.balance(inAddr, user))
		if outAddr == (common.Address{}) { // native out: the gas paid comes off what arrived
			gotOut.Add(gotOut, gasPaid(receipts))
		}
		if inAddr == (common.Address{}) {
			spent.Sub(spent, gasPaid(receipts))
		}
		if gotOut.String() != fresh || spent.String() != tc.amount {
			t.Errorf("%s: received %s for %s, want exactly the quoted %s for %s", tc.name, gotOut, spent, fresh, tc.amount)
		}
		c := te.confirm(b.rawBody, hashes)
		if c.status != http.StatusOK || c.body["confirmed"] != false || c.body["pendingReason"] != "finality_pending" {
			t.Errorf("%s: early confirm: %d %s", tc.name, c.status, c.rawBody)
		}
		te.finalize()
		c = te.confirm(b.rawBody, hashes)
		if c.status != http.StatusOK || c.body["confirmed"] != true || c.body["updated"] != true {
			t.Errorf("%s: confirm: %d %s", tc.name, c.status, c.rawBody)
		}
		s := te.do(request{path: "/v1/transactions/" + hashes[len(hashes)-1].Hex() + "/status?chain=base", key: te.key})
		if s.status != http.StatusOK || s.body["status"] != "finalized" {
			t.Errorf("%s: status: %d %s", tc.name, s.status, s.rawBody)
		}
	}
}

// gasPaid is the native coin the receipts' transactions paid for gas.
func gasPaid(receipts []*types.Receipt) *big.Int {
	sum := new(big.Int)
	for _, rc := range receipts {
		sum.Add(sum, new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice))
	}
	return sum
}
