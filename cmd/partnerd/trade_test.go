package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// tradeWorld is the service on a freshly seeded EVM chain, called over HTTP like a partner, with a
// consumer that may quote and build, a second consumer (whose keys must not reach the first's
// confirmation tokens), and the keys of the chain's accounts for test wallets. Nothing has traded
// on the chain since seeding, and nothing trades in the background: every change is the test's.
type tradeWorld struct {
	t      *testing.T
	ctx    context.Context
	addr   string // the service, host:port
	rpcURL string
	market devnet.Market
	keys   []string // the accounts' private keys (0 deployer, 1..4 traders, 5..9 users), for wallets only: never logged
	depth  int      // the chain's confirmation depth, as the service is configured with it
	mine   func(n int)
	client *ethclient.Client
	key    string // quote:read and tx:build
	other  string // another consumer's key, same scopes
	posts  int    // builds and confirms posted, for fresh idempotency keys
}

// anvilDepth is the confirmation depth of the anvil chain in its PARTNER_CHAINS entry: not the
// devnet's (devnet.Confirmations), so confirm and status are seen to follow the configuration.
const anvilDepth = 5

// newAnvilTradeWorld seeds the devnet's market on anvil, configures anvil as base through a
// PARTNER_CHAINS file (local mode off) with a confirmation depth of anvilDepth, and runs the
// service on it. Unlike newAnvilWorld it trades nothing after seeding: the users are untouched.
func newAnvilTradeWorld(t *testing.T) *tradeWorld {
	t.Helper()
	a := startAnvilService(t, func(cc *chain.ChainConfig) { cc.Confirmations = anvilDepth })
	keys := make([]string, len(a.node.Keys))
	for i, k := range a.node.Keys {
		keys[i] = hexutil.Encode(crypto.FromECDSA(k))
	}
	w := newTradeWorld(a.world, a.node.URL, a.seeded, keys, anvilDepth)
	w.mine = func(n int) {
		// A second between blocks, as the devnet's blocks (farms earn by the clock).
		if err := w.client.Client().CallContext(w.ctx, nil, "anvil_mine", hexutil.Uint64(n), hexutil.Uint64(1)); err != nil {
			t.Fatalf("anvil_mine %d: %v", n, err)
		}
	}
	return w
}

// newDevnetTradeWorld runs the service in local mode (its in-process devnet serves base, with no
// background trader) and trades nothing on it.
func newDevnetTradeWorld(t *testing.T) *tradeWorld {
	t.Helper()
	mw := startMarketWorld(t, chain.Config{})
	local := mw.m.chains.devnet
	var keys []string
	for _, a := range local.Accounts() {
		keys = append(keys, a.PrivateKeyHex)
	}
	w := newTradeWorld(mw, local.RPCURL(), local.Market(), keys, local.ChainConfig().Confirmations)
	w.mine = func(n int) {
		for range n {
			local.Commit()
		}
	}
	return w
}

// newTradeWorld adds two trading consumers to a market world's service and dials the chain.
func newTradeWorld(mw *marketWorld, rpcURL string, m devnet.Market, keys []string, depth int) *tradeWorld {
	t := mw.t
	t.Helper()
	c := &cli{t: t, url: mw.m.Config.DatabaseURL, env: map[string]string{"PARTNER_DATABASE_URL": mw.m.Config.DatabaseURL}}
	consumerKey := func(name string) string {
		cons := c.createConsumer(name, "--scopes", "quote:read,tx:build", "--rpm", "100000", "--burst", "10000", "--enable")
		return c.createKey(cons.ID, "k").Key
	}
	client, err := ethclient.DialContext(t.Context(), rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return &tradeWorld{t: t, ctx: t.Context(), addr: mw.m.Addr(), rpcURL: rpcURL, market: m, keys: keys, depth: depth, client: client,
		key: consumerKey("Trader"), other: consumerKey("Someone else")}
}

// onTradeWorlds runs check in parallel on anvil and on local mode's devnet, each a fresh world.
func onTradeWorlds(t *testing.T, check func(*testing.T, *tradeWorld)) {
	for _, world := range []struct {
		name string
		new  func(*testing.T) *tradeWorld
	}{
		{"anvil", newAnvilTradeWorld},
		{"devnet", newDevnetTradeWorld},
	} {
		t.Run(world.name, func(t *testing.T) {
			t.Parallel()
			check(t, world.new(t))
		})
	}
}

// TestTradeOnAnvil quotes, builds, signs, sends, confirms and looks up swaps, transfers and
// uniswap-v2 LP operations through the service's HTTP API on anvil, an EVM independent of
// go-ethereum, configured through PARTNER_CHAINS; and the same on local mode's devnet. See
// checkTrade.
func TestTradeOnAnvil(t *testing.T) {
	t.Parallel()
	onTradeWorlds(t, checkTrade)
}

// answer is an HTTP answer of the service.
type answer struct {
	status int
	body   map[string]any
	raw    []byte
}

// do calls the service with key; a POST gets a fresh Idempotency-Key.
func (w *tradeWorld) do(method, path, key string, body any) answer {
	w.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			w.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(w.ctx, method, "http://"+w.addr+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	if method == http.MethodPost {
		w.posts++
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", fmt.Sprintf("trade-%d", w.posts))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode}
	if a.raw, err = io.ReadAll(resp.Body); err != nil {
		w.t.Fatal(err)
	}
	if err := json.Unmarshal(a.raw, &a.body); err != nil {
		w.t.Fatalf("%s %s: %d, not a JSON object: %s", method, path, a.status, a.raw)
	}
	return a
}

// ok calls the service with the trading key, wants 200 and decodes the answer into out.
func (w *tradeWorld) ok(method, path string, body, out any) answer {
	w.t.Helper()
	a := w.do(method, path, w.key, body)
	if a.status != http.StatusOK {
		w.t.Fatalf("%s %s: %d %s", method, path, a.status, a.raw)
	}
	if out != nil {
		if err := json.Unmarshal(a.raw, out); err != nil {
			w.t.Fatalf("%s %s: %v: %s", method, path, err, a.raw)
		}
	}
	return a
}

type hopAnswer struct {
	Pool, Venue, TokenIn, TokenOut, AmountIn, AmountOut string
	FeeBps                                              int
}

type quoteAnswer struct {
	InAmount, OutAmount, MinOutAmount string
	SlippageBps                       int
	Block                             uint64
	Route                             []hopAnswer
	Raw                               map[string]any
}

type builtAnswer struct {
	Signing           struct{ Mode string }
	Quote             *quoteAnswer
	Metadata          map[string]any
	Transactions      []devnet.BuiltTx
	ConfirmationToken string
	raw               []byte
}

// expects are the payload.expect allowances of a build's transactions, by position (nil: none).
func expects(raw []byte) []map[string]any {
	var b struct {
		Transactions []struct {
			Payload *struct {
				Expect *struct {
					Allowance map[string]any
				}
			}
		}
	}
	_ = json.Unmarshal(raw, &b)
	out := make([]map[string]any, len(b.Transactions))
	for i, tx := range b.Transactions {
		if tx.Payload != nil && tx.Payload.Expect != nil {
			out[i] = tx.Payload.Expect.Allowance
		}
	}
	return out
}

func (b builtAnswer) ids() []string {
	var ids []string
	for _, tx := range b.Transactions {
		ids = append(ids, tx.ID)
	}
	return ids
}

// build posts a builder body and wants 200.
func (w *tradeWorld) build(path string, body map[string]any) builtAnswer {
	w.t.Helper()
	var b builtAnswer
	b.raw = w.ok(http.MethodPost, path, body, &b).raw
	return b
}

// wallet is a test wallet for account i.
func (w *tradeWorld) wallet(i int) *devnet.Wallet {
	w.t.Helper()
	wl, err := devnet.NewWallet(w.ctx, w.rpcURL, w.keys[i])
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(wl.Close)
	return wl
}

// send signs and sends a build's transactions in order with wl, as the signing rules ask.
func (w *tradeWorld) send(wl *devnet.Wallet, b builtAnswer) ([]common.Hash, []*types.Receipt) {
	w.t.Helper()
	hashes, receipts, err := wl.SendBuild(w.ctx, b.raw)
	if err != nil {
		w.t.Fatal(err)
	}
	return hashes, receipts
}

// token is a seeded token's address by symbol; "native" is the zero address.
func (w *tradeWorld) token(symbol string) common.Address {
	switch symbol {
	case "native":
		return common.Address{}
	case "USDD":
		return w.market.Core.USD
	case "WETH":
		return w.market.Core.WrappedNative
	}
	for _, tk := range w.market.Tokens {
		if tk.Symbol == symbol {
			return tk.Address
		}
	}
	w.t.Fatalf("no seeded token %s", symbol)
	return common.Address{}
}

// mint is a token's inputMint/outputMint/token parameter.
func mintOf(a common.Address) string {
	if a == (common.Address{}) {
		return "native"
	}
	return a.Hex()
}

// read makes a read-only call at block (nil: the latest).
func (w *tradeWorld) read(to common.Address, data []byte, block *big.Int) ([]byte, error) {
	return w.client.CallContract(w.ctx, ethereum.CallMsg{To: &to, Data: data}, block)
}

// balance is who's balance of token (the zero address: native) at the latest block.
func (w *tradeWorld) balance(token, who common.Address) *big.Int {
	w.t.Helper()
	if token == (common.Address{}) {
		b, err := w.client.BalanceAt(w.ctx, who, nil)
		if err != nil {
			w.t.Fatal(err)
		}
		return b
	}
	out, err := w.read(token, tokenABI.PackBalanceOf(who), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	b, err := tokenABI.UnpackBalanceOf(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

func (w *tradeWorld) allowance(token, owner, spender common.Address) *big.Int {
	w.t.Helper()
	out, err := w.read(token, tokenABI.PackAllowance(owner, spender), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	a, err := tokenABI.UnpackAllowance(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return a
}

// amountsOut is the official Router02's getAmountsOut along path at block, nil when it reverts
// (a pool of the path does not exist).
func (w *tradeWorld) amountsOut(amount *big.Int, path []common.Address, block uint64) []*big.Int {
	out, err := w.read(w.market.Core.Router, routerABI.PackGetAmountsOut(amount, path), new(big.Int).SetUint64(block))
	if err != nil {
		return nil
	}
	amounts, err := routerABI.UnpackGetAmountsOut(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return amounts
}

// pool is the venue's pool of a and b (fee: the V3 tier, pips), as its official factory answers.
func (w *tradeWorld) pool(venue string, a, b common.Address, fee int) common.Address {
	w.t.Helper()
	if venue == "uniswap-v2" {
		return readCall(w, w.market.Core.Factory, factoryABI.PackGetPair(a, b), factoryABI.UnpackGetPair)
	}
	return readCall(w, w.market.V3.Factory, v3FactoryABI.PackGetPool(a, b, big.NewInt(int64(fee))), v3FactoryABI.UnpackGetPool)
}

// hopOut is what selling amount of a for b on the venue's pool (fee: the V3 tier, pips) gives at
// block, by the official Router02's getAmountsOut or QuoterV2's quoteExactInputSingle; ok is false
// when the pool does not exist or cannot fill it.
func (w *tradeWorld) hopOut(venue string, a, b common.Address, fee int, amount *big.Int, block uint64) (*big.Int, bool) {
	if venue == "uniswap-v2" {
		amounts := w.amountsOut(amount, []common.Address{a, b}, block)
		if amounts == nil {
			return nil, false
		}
		return amounts[1], true
	}
	if w.pool(venue, a, b, fee) == (common.Address{}) {
		return nil, false
	}
	out, err := w.read(w.market.V3.QuoterV2, quoterABI.PackQuoteExactInputSingle(bindings.IQuoterV2QuoteExactInputSingleParams{
		TokenIn: a, TokenOut: b, AmountIn: amount, Fee: big.NewInt(int64(fee)), SqrtPriceLimitX96: new(big.Int)}), new(big.Int).SetUint64(block))
	if err != nil {
		return nil, false
	}
	q, err := quoterABI.UnpackQuoteExactInputSingle(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return q.AmountOut, true
}

// readCall makes a read-only call at the latest block and unpacks it.
func readCall[T any](w *tradeWorld, to common.Address, data []byte, unpack func([]byte) (T, error)) T {
	w.t.Helper()
	out, err := w.read(to, data, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	v, err := unpack(out)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// gasPaid is the native coin the receipts' transactions paid for gas.
func gasPaid(receipts []*types.Receipt) *big.Int {
	sum := new(big.Int)
	for _, rc := range receipts {
		sum.Add(sum, new(big.Int).Mul(new(big.Int).SetUint64(rc.GasUsed), rc.EffectiveGasPrice))
	}
	return sum
}

func decimal(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("%q is not a decimal integer", s)
	}
	return n
}

// swapCase is one swap of the scenario. Amounts are base units.
type swapCase struct {
	name    string
	in, out string // symbols, or native
	amount  string
	approve bool     // the user's allowance of the router falls short
	venues  []string // the venue of each hop of the best route
	// approveFirst: send the build's approve alone, build the same swap again (it needs no
	// approve now) and carry on with that build.
	approveFirst bool
}

// checkTrade is the scenario, on a world where nothing has traded since seeding:
//
//   - swap quotes (token to token, two hops, native in, native out, V3 only), whose best routes
//     mix the venues: each hop's pool is its venue's official factory's (getPair, getPool at the hop's
//     fee tier) and its amounts are what the official Router02's getAmountsOut or QuoterV2's
//     quoteExactInputSingle give at the quote's block, each hop is on the venue the case expects, no
//     other candidate route (direct, or through WETH or USDD, each hop on the V2 pair or a V3 pool of
//     any tier) gives more, minOutAmount is outAmount less slippageBps rounded down, and raw is the
//     quote;
//   - each swap built for account 5 (requoted to the same figures, nothing having traded) calls
//     Router02 for a route of pairs only, SwapRouter02 for one with a V3 pool, and is signed and
//     sent by a test wallet: the user receives exactly quote.outAmount and spends exactly amount
//     (gas accounted for on the native side); the approve is exact, to that router, and absent when
//     the allowance already suffices (the same swap built again after its approve was sent);
//   - confirm answers 200 confirmed false with finality_pending until the configured depth, exactly
//     (one block short is still pending), then confirmed and updated, then updated false; another
//     consumer's key is 404; status goes unknown, confirmed, finalized;
//   - a swap front-run beyond its slippageBps by account 6 reverts on chain (only gas spent), confirm
//     answers 422 verification_failed with the hash reverted and the router's reason, status failed;
//   - transfers of native, USDD (6 decimals) and QRTZ (9 decimals) in human units move exactly the
//     amount, and confirm;
//   - lp/add, lp/farm (stake and unstake), lp/harvest and lp/remove (see liquidity).
func checkTrade(t *testing.T, w *tradeWorld) {
	user := w.wallet(5)
	v2, v3 := []string{"uniswap-v2"}, []string{"uniswap-v3"}

	never := crypto.Keccak256Hash([]byte("a transaction nobody sent"))
	var st struct{ Status string }
	if w.ok(http.MethodGet, "/v1/transactions/"+never.Hex()+"/status?chain=base", nil, &st); st.Status != "unknown" {
		t.Errorf("status of a hash nobody sent: %q, want unknown", st.Status)
	}

	cases := []swapCase{
		{"token to token", "USDD", "AUR", "100000000", true, v2, true}, // 100 USDD
		// 1,000 QRTZ (9 decimals): its V2 pair with WETH, then WETH/USDD's 0.05 % V3 pool (SwapRouter02)
		{"two hops through WETH", "QRTZ", "USDD", "1000000000000", true, []string{"uniswap-v2", "uniswap-v3"}, false},
		{"native in", "native", "AUR", "10000000000000000", false, v2, false}, // 0.01 ETH
		// 5 AUR: its V2 pair with USDD, then USDD/WETH's 0.05 % V3 pool, unwrapped by SwapRouter02
		{"native out", "AUR", "native", "5000000000000000000", true, []string{"uniswap-v2", "uniswap-v3"}, false},
		{"V3 only", "USDD", "WETH", "2500000000", true, v3, false},                      // 2,500 USDD on the 0.05 % pool
		{"native in, V3 only", "native", "NIM", "200000000000000000", false, v3, false}, // 0.2 ETH on NIM/WETH, a pool V2 lacks
	}
	for _, tc := range cases {
		in, out := w.token(tc.in), w.token(tc.out)
		q := w.quote(tc, in, out, 50)
		router := w.market.Core.Router // Router02 for pairs only, SwapRouter02 for a route with a V3 pool
		if slices.Contains(tc.venues, "uniswap-v3") {
			router = w.market.V3.SwapRouter02
		}

		balIn, balOut := w.balance(in, user.Address), w.balance(out, user.Address)
		body := map[string]any{"chain": "base", "user": user.Address.Hex(), "inputMint": mintOf(in), "outputMint": mintOf(out),
			"amount": tc.amount, "slippageBps": 50}
		b := w.build("/v1/build/swap", body)
		want := []string{"swap"}
		if tc.approve {
			want = []string{"approve", "swap"}
		}
		if !slices.Equal(b.ids(), want) || b.Signing.Mode != "sequential" || b.ConfirmationToken == "" || b.Quote == nil {
			t.Fatalf("%s: build %v (signing %q, token %t), want %v", tc.name, b.ids(), b.Signing.Mode, b.ConfirmationToken != "", want)
		}
		if b.Quote.OutAmount != q.OutAmount || b.Quote.MinOutAmount != q.MinOutAmount {
			t.Errorf("%s: the build requoted %s (min %s), the quote said %s (min %s) and nothing traded", tc.name,
				b.Quote.OutAmount, b.Quote.MinOutAmount, q.OutAmount, q.MinOutAmount)
		}
		swapTx := b.Transactions[len(b.Transactions)-1]
		if !strings.EqualFold(swapTx.To, router.Hex()) || !strings.EqualFold(swapTx.From, user.Address.Hex()) {
			t.Errorf("%s: the swap calls %s from %s, want the router %s from the user", tc.name, swapTx.To, swapTx.From, router)
		}
		exp := expects(b.raw)
		if tc.approve {
			a := exp[0]
			if a == nil || a["amount"] != tc.amount || !strings.EqualFold(fmt.Sprint(a["token"]), in.Hex()) ||
				!strings.EqualFold(fmt.Sprint(a["owner"]), user.Address.Hex()) || !strings.EqualFold(fmt.Sprint(a["spender"]), router.Hex()) {
				t.Errorf("%s: approve expects %v, want exactly %s of %s from the user to the router", tc.name, a, tc.amount, in)
			}
		}
		if exp[len(exp)-1] != nil {
			t.Errorf("%s: the swap expects %v, want nothing", tc.name, exp[len(exp)-1])
		}

		if tc.approveFirst {
			// Send the approve alone: the same swap built again finds the allowance and needs none.
			h, rc, err := user.Send(w.ctx, b.Transactions[0])
			if err != nil || rc.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("%s: approve %s: %v", tc.name, h, err)
			}
			if a := w.allowance(in, user.Address, router); a.String() != tc.amount {
				t.Errorf("%s: allowance %s after the approve, want exactly %s", tc.name, a, tc.amount)
			}
			approveNonce := b.Transactions[0].Nonce
			b = w.build("/v1/build/swap", body)
			if !slices.Equal(b.ids(), []string{"swap"}) || b.Transactions[0].Nonce != approveNonce+1 || b.Quote.OutAmount != q.OutAmount {
				t.Fatalf("%s, built again after its approve: %v (nonce %d, out %s), want the swap alone (nonce %d, out %s)", tc.name,
					b.ids(), b.Transactions[0].Nonce, b.Quote.OutAmount, approveNonce+1, q.OutAmount)
			}
		}

		hashes, receipts := w.send(user, b)
		for i, rc := range receipts {
			if rc.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("%s: %s reverted", tc.name, b.Transactions[i].ID)
			}
		}
		if len(receipts) != len(b.Transactions) {
			t.Fatalf("%s: %d of %d transactions sent", tc.name, len(receipts), len(b.Transactions))
		}
		got := new(big.Int).Sub(w.balance(out, user.Address), balOut)
		spent := new(big.Int).Sub(balIn, w.balance(in, user.Address))
		if out == (common.Address{}) { // native out: the gas paid came off what arrived
			got.Add(got, gasPaid(receipts))
		}
		if in == (common.Address{}) {
			spent.Sub(spent, gasPaid(receipts))
		}
		if got.String() != b.Quote.OutAmount || spent.String() != tc.amount {
			t.Errorf("%s: received %s for %s, want exactly the quoted %s for %s", tc.name, got, spent, b.Quote.OutAmount, tc.amount)
		}
		if in != (common.Address{}) {
			if a := w.allowance(in, user.Address, router); a.Sign() != 0 {
				t.Errorf("%s: allowance %s left after the swap, want 0 (the approval was exact)", tc.name, a)
			}
		}
		w.confirmAtDepth(tc.name, b, hashes)
	}

	w.slipped(user, w.wallet(6))
	w.transfers(user, w.wallet(6).Address)
	w.liquidity(user)
}

// quote gets a swap quote and checks it against the chain (see checkTrade).
func (w *tradeWorld) quote(tc swapCase, in, out common.Address, slippageBps int) quoteAnswer {
	t := w.t
	t.Helper()
	var q quoteAnswer
	w.ok(http.MethodGet, fmt.Sprintf("/v1/quotes/swap?chain=base&inputMint=%s&outputMint=%s&amount=%s&slippageBps=%d",
		mintOf(in), mintOf(out), tc.amount, slippageBps), nil, &q)
	weth := w.market.Core.WrappedNative
	routed := func(a common.Address) common.Address {
		if a == (common.Address{}) {
			return weth
		}
		return a
	}
	from, to := routed(in), routed(out)
	if q.InAmount != tc.amount || q.SlippageBps != slippageBps || len(q.Route) != len(tc.venues) {
		t.Fatalf("%s: quote %+v, want %s in and %d hops", tc.name, q, tc.amount, len(tc.venues))
	}
	path := []common.Address{from}
	for i, h := range q.Route {
		if !strings.EqualFold(h.TokenIn, path[i].Hex()) {
			t.Errorf("%s: hop %d sells %s, want %s", tc.name, i, h.TokenIn, path[i])
		}
		if i > 0 && h.AmountIn != q.Route[i-1].AmountOut {
			t.Errorf("%s: hop %d sells %s, the hop before bought %s", tc.name, i, h.AmountIn, q.Route[i-1].AmountOut)
		}
		if h.Venue != tc.venues[i] {
			t.Errorf("%s: hop %d is on %s, want %s (route %+v)", tc.name, i, h.Venue, tc.venues[i], q.Route)
		}
		tokenIn, tokenOut := common.HexToAddress(h.TokenIn), common.HexToAddress(h.TokenOut)
		path = append(path, tokenOut)
		if pool := w.pool(h.Venue, tokenIn, tokenOut, h.FeeBps*100); !strings.EqualFold(pool.Hex(), h.Pool) {
			t.Errorf("%s: hop %d trades on %s, the %s factory's pool is %s", tc.name, i, h.Pool, h.Venue, pool)
		}
		if out, ok := w.hopOut(h.Venue, tokenIn, tokenOut, h.FeeBps*100, decimal(t, h.AmountIn), q.Block); !ok || out.String() != h.AmountOut {
			t.Errorf("%s: hop %d buys %s, the official %s contracts say %s at block %d", tc.name, i, h.AmountOut, h.Venue, out, q.Block)
		}
	}
	last := q.Route[len(q.Route)-1]
	if q.Route[0].AmountIn != tc.amount || path[len(path)-1] != to || last.AmountOut != q.OutAmount {
		t.Errorf("%s: route %+v does not take %s of %s to %s out of %s", tc.name, q.Route, tc.amount, from, q.OutAmount, to)
	}
	// No other candidate route (direct, through WETH, through USDD; each hop on the V2 pair or a V3
	// pool of any tier) gives more, by the official router's getAmountsOut and QuoterV2.
	amount := decimal(t, tc.amount)
	type hop struct {
		venue string
		fee   int
	}
	hops := []hop{{"uniswap-v2", 0}, {"uniswap-v3", 500}, {"uniswap-v3", 3000}, {"uniswap-v3", 10000}}
	better := func(p []common.Address, choice []hop) {
		in := amount
		for i, h := range choice {
			var ok bool
			if in, ok = w.hopOut(h.venue, p[i], p[i+1], h.fee, in, q.Block); !ok {
				return
			}
		}
		if in.Cmp(decimal(t, q.OutAmount)) > 0 {
			t.Errorf("%s: route %v on %v gives %s, more than the quoted %s", tc.name, p, choice, in, q.OutAmount)
		}
	}
	for _, mid := range []common.Address{{}, weth, w.market.Core.USD} {
		if mid == (common.Address{}) {
			for _, h := range hops {
				better([]common.Address{from, to}, []hop{h})
			}
			continue
		}
		if mid == from || mid == to {
			continue
		}
		for _, h1 := range hops {
			for _, h2 := range hops {
				better([]common.Address{from, mid, to}, []hop{h1, h2})
			}
		}
	}
	minOut := new(big.Int).Div(new(big.Int).Mul(decimal(t, q.OutAmount), big.NewInt(int64(10_000-slippageBps))), big.NewInt(10_000))
	if q.MinOutAmount != minOut.String() {
		t.Errorf("%s: minOutAmount %s, want %s (outAmount %s less %d bps, rounded down)", tc.name, q.MinOutAmount, minOut, q.OutAmount, slippageBps)
	}
	rawRoute, _ := q.Raw["route"].([]any)
	if q.Raw["inAmount"] != q.InAmount || q.Raw["outAmount"] != q.OutAmount || q.Raw["minOutAmount"] != q.MinOutAmount ||
		q.Raw["block"] != float64(q.Block) || len(rawRoute) != len(q.Route) {
		t.Errorf("%s: raw %v is not the quote", tc.name, q.Raw)
	}
	return q
}

// confirmAtDepth confirms a sent build: pending (finality_pending, every transaction) and status
// confirmed until the configured depth, one block short of it still pending; then confirmed and
// updated, then not updated again, status finalized; another consumer's key is 404.
func (w *tradeWorld) confirmAtDepth(what string, b builtAnswer, hashes []common.Hash) {
	t := w.t
	t.Helper()
	sigs := make([]string, len(hashes))
	for i, h := range hashes {
		sigs[i] = h.Hex()
	}
	body := map[string]any{"confirmationToken": b.ConfirmationToken, "signatures": sigs}
	last := "/v1/transactions/" + hashes[len(hashes)-1].Hex() + "/status?chain=base"
	type statusAnswer struct {
		Status        string
		Confirmations int
	}
	status := func() (s statusAnswer) {
		w.ok(http.MethodGet, last, nil, &s)
		return s
	}
	type confirmAnswer struct {
		Confirmed, Updated bool
		PendingIds         []string
		PendingReason      string
	}
	confirm := func() (c confirmAnswer) { // a fresh value each time: absent fields stay zero
		w.ok(http.MethodPost, "/v1/build/confirm", body, &c)
		return c
	}
	if c := confirm(); c.Confirmed || c.Updated || c.PendingReason != "finality_pending" || !slices.Equal(c.PendingIds, b.ids()) {
		t.Errorf("%s: confirm at once: %+v, want pending finality of %v", what, c, b.ids())
	}
	if s := status(); s.Status != "confirmed" || s.Confirmations != 1 {
		t.Errorf("%s: status at once: %+v, want confirmed with 1 confirmation", what, s)
	}
	w.mine(w.depth - 2) // the last transaction is depth-1 deep: one short
	if c := confirm(); c.Confirmed || c.Updated || c.PendingReason != "finality_pending" || !slices.Equal(c.PendingIds, b.ids()[len(b.ids())-1:]) {
		t.Errorf("%s: confirm one block short of depth %d: %+v, want the last transaction pending finality", what, w.depth, c)
	}
	if s := status(); s.Status != "confirmed" || s.Confirmations != w.depth-1 {
		t.Errorf("%s: status one block short of depth %d: %+v, want confirmed", what, w.depth, s)
	}
	w.mine(1)
	if a := w.do(http.MethodPost, "/v1/build/confirm", w.other, body); a.status != http.StatusNotFound || a.body["code"] != "not_found" {
		t.Errorf("%s: confirm with another consumer's key: %d %s, want 404 not_found", what, a.status, a.raw)
	}
	if c := confirm(); !c.Confirmed || !c.Updated || len(c.PendingIds) != 0 || c.PendingReason != "" {
		t.Errorf("%s: confirm at depth %d: %+v, want confirmed and updated", what, w.depth, c)
	}
	if c := confirm(); !c.Confirmed || c.Updated {
		t.Errorf("%s: second confirm: %+v, want confirmed, not updated", what, c)
	}
	if s := status(); s.Status != "finalized" || s.Confirmations != w.depth {
		t.Errorf("%s: status at depth %d: %+v, want finalized", what, w.depth, s)
	}
}

// slipped: the user builds a 0.1 ETH buy of AUR with 10 bps of slippage; before it is sent,
// another user buys AUR with 2 ETH (about 1 % of the pool, under the review threshold), through the
// API too. The user's swap reverts on chain, costing only gas; confirm and status report it.
func (w *tradeWorld) slipped(user, front *devnet.Wallet) {
	t := w.t
	t.Helper()
	aur := w.token("AUR").Hex()
	b := w.build("/v1/build/swap", map[string]any{"chain": "base", "user": user.Address.Hex(), "inputMint": "native", "outputMint": aur,
		"amount": "100000000000000000", "slippageBps": 10})
	fb := w.build("/v1/build/swap", map[string]any{"chain": "base", "user": front.Address.Hex(), "inputMint": "native", "outputMint": aur,
		"amount": "2000000000000000000", "slippageBps": 100})
	if _, rcs := w.send(front, fb); rcs[len(rcs)-1].Status != types.ReceiptStatusSuccessful {
		t.Fatal("the front-running swap reverted")
	}
	eth, tokens := w.balance(common.Address{}, user.Address), w.balance(common.HexToAddress(aur), user.Address)
	hashes, receipts := w.send(user, b)
	if len(receipts) != 1 || receipts[0].Status != types.ReceiptStatusFailed {
		t.Fatalf("the slipped swap did not revert: %d receipts", len(receipts))
	}
	spent := new(big.Int).Sub(eth, w.balance(common.Address{}, user.Address))
	if spent.Cmp(gasPaid(receipts)) != 0 || w.balance(common.HexToAddress(aur), user.Address).Cmp(tokens) != 0 {
		t.Errorf("the reverted swap cost %s wei, gas was %s; AUR moved from %s", spent, gasPaid(receipts), tokens)
	}
	const reason = "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"
	a := w.do(http.MethodPost, "/v1/build/confirm", w.key, map[string]any{"confirmationToken": b.ConfirmationToken, "signatures": []string{hashes[0].Hex()}})
	v, _ := a.body["verification"].(map[string]any)
	entry, _ := v[strings.ToLower(hashes[0].Hex())].(map[string]any)
	if a.status != http.StatusUnprocessableEntity || a.body["code"] != "verification_failed" || entry["result"] != "reverted" || entry["reason"] != reason ||
		entry["id"] != "swap" || entry["block"] != float64(receipts[0].BlockNumber.Uint64()) {
		t.Errorf("confirm of the reverted swap: %d %s", a.status, a.raw)
	}
	var s struct{ Status, Error string }
	if w.ok(http.MethodGet, "/v1/transactions/"+hashes[0].Hex()+"/status?chain=base", nil, &s); s.Status != "failed" || s.Error != reason {
		t.Errorf("status of the reverted swap: %+v, want failed with %q", s, reason)
	}
}

// transfers: native, USDD (6 decimals) and QRTZ (9 decimals) in human units move exactly the
// amount; a USDD amount with 7 decimals is 400 invalid_amount.
func (w *tradeWorld) transfers(user *devnet.Wallet, to common.Address) {
	t := w.t
	t.Helper()
	for _, tc := range []struct {
		token, amount, base string
	}{
		{"native", "1.0000001", "1000000100000000000"},
		{"USDD", "12.345678", "12345678"},
		{"QRTZ", "7.123456789", "7123456789"},
	} {
		tok := w.token(tc.token)
		sent, got := w.balance(tok, user.Address), w.balance(tok, to)
		b := w.build("/v1/build/transfer", map[string]any{"chain": "base", "user": user.Address.Hex(), "to": to.Hex(), "token": mintOf(tok), "amount": tc.amount})
		if !slices.Equal(b.ids(), []string{"transfer"}) {
			t.Fatalf("transfer %s: build %v", tc.token, b.ids())
		}
		hashes, receipts := w.send(user, b)
		if len(receipts) != 1 || receipts[0].Status != types.ReceiptStatusSuccessful {
			t.Fatalf("transfer %s reverted", tc.token)
		}
		moved := new(big.Int).Sub(w.balance(tok, to), got)
		left := new(big.Int).Sub(sent, w.balance(tok, user.Address))
		if tok == (common.Address{}) {
			left.Sub(left, gasPaid(receipts))
		}
		if moved.String() != tc.base || left.String() != tc.base {
			t.Errorf("transfer %s %s: %s arrived, %s left the sender; want exactly %s", tc.amount, tc.token, moved, left, tc.base)
		}
		w.confirmAtDepth("transfer "+tc.token, b, hashes)
	}
	a := w.do(http.MethodPost, "/v1/build/transfer", w.key, map[string]any{"chain": "base", "user": user.Address.Hex(), "to": to.Hex(),
		"token": w.token("USDD").Hex(), "amount": "1.0000001"})
	if a.status != http.StatusBadRequest || a.body["code"] != "invalid_amount" {
		t.Errorf("7 decimals of a 6-decimal token: %d %s, want 400 invalid_amount", a.status, a.raw)
	}
}

// mustRead is read at the latest block, failing the test on error.
func (w *tradeWorld) mustRead(to common.Address, data []byte) []byte {
	w.t.Helper()
	out, err := w.read(to, data, nil)
	if err != nil {
		w.t.Fatalf("call %s: %v", to, err)
	}
	return out
}

// metadata entry of a build, as a string.
func (b builtAnswer) md(key string) string {
	switch v := b.Metadata[key].(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// liquidity: the uniswap-v2 LP builders on the seeded AUR/USDD pool and its StakingRewards farm,
// for a user with no LP and no stake:
//
//   - lp/add of 10 AUR and up to 100 USDD spends exactly the amounts the official Router02 takes
//     of them at the pool's reserves, once asked for exactly those (its quote(), applied as its
//     _addLiquidity does, twice), with exact approvals, and mints exactly
//     min(amount0*supply/reserve0, amount1*supply/reserve1) LP, as its metadata says;
//   - lp/farm stakes all that LP (exact approve of the farm); after some blocks lp/harvest claims
//     at least what the build said was earned, and all of it; lp/farm unstake gives it all back;
//   - lp/remove of 2500 bps burns a quarter of the LP and returns exactly liquidity*balance/supply
//     of each token, as its metadata says.
//
// Each build is confirmed at the configured depth.
func (w *tradeWorld) liquidity(user *devnet.Wallet) {
	t := w.t
	t.Helper()
	aur, usd, hrv := w.token("AUR"), w.token("USDD"), w.token("HRV")
	router := w.market.Core.Router
	var pool devnet.SeededPool
	var farm devnet.SeededFarm
	for i, p := range w.market.Pools {
		if (p.Token0 == aur && p.Token1 == usd) || (p.Token0 == usd && p.Token1 == aur) {
			pool, farm = p, w.market.Farms[i]
		}
	}
	if pool.Address == (common.Address{}) {
		t.Fatal("no seeded AUR/USDD pool")
	}
	tokens := [2]common.Address{pool.Token0, pool.Token1}
	lpBody := func(fields map[string]any) map[string]any {
		body := map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": user.Address.Hex(), "pool": pool.Address.Hex()}
		for k, v := range fields {
			body[k] = v
		}
		return body
	}
	pairABI := bindings.NewUniswapV2Pair()
	farmABI := bindings.NewStakingRewards()
	reserves := func() [2]*big.Int {
		r, err := pairABI.UnpackGetReserves(w.mustRead(pool.Address, pairABI.PackGetReserves()))
		if err != nil {
			t.Fatal(err)
		}
		return [2]*big.Int{r.Reserve0, r.Reserve1}
	}
	supply := func() *big.Int {
		s, err := tokenABI.UnpackTotalSupply(w.mustRead(pool.Address, tokenABI.PackTotalSupply()))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	staked := func() *big.Int {
		s, err := farmABI.UnpackBalanceOf(w.mustRead(farm.Address, farmABI.PackBalanceOf(user.Address)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sent := func(what string, b builtAnswer, ids ...string) {
		t.Helper()
		if !slices.Equal(b.ids(), ids) || b.Signing.Mode != "sequential" || b.ConfirmationToken == "" {
			t.Fatalf("%s: build %v (signing %q), want %v; metadata %v", what, b.ids(), b.Signing.Mode, ids, b.Metadata)
		}
	}
	send := func(what string, b builtAnswer) []common.Hash {
		t.Helper()
		hashes, receipts := w.send(user, b)
		if len(receipts) != len(b.Transactions) || receipts[len(receipts)-1].Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: %d of %d transactions sent, the last reverted", what, len(receipts), len(b.Transactions))
		}
		return hashes
	}

	// lp/add of 10 AUR and up to 100 USDD: what Router02's _addLiquidity takes of them at the
	// reserves (addLiquidity names token0 first), and asked for again: the amounts it then takes
	// whole (the build asks for that fixed point, so that it spends exactly what it approves).
	r, s := reserves(), supply()
	quote := func(a, ra, rb *big.Int) *big.Int {
		q, err := routerABI.UnpackQuote(w.mustRead(router, routerABI.PackQuote(a, ra, rb)))
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	routerAdd := func(d [2]*big.Int) [2]*big.Int {
		if b := quote(d[0], r[0], r[1]); b.Cmp(d[1]) <= 0 {
			return [2]*big.Int{d[0], b}
		}
		return [2]*big.Int{quote(d[1], r[1], r[0]), d[1]}
	}
	desired := [2]*big.Int{units(10, 18), units(100, 6)} // AUR, USDD
	if tokens[0] != aur {
		desired[0], desired[1] = desired[1], desired[0]
	}
	used := routerAdd(routerAdd(desired))
	lp := new(big.Int).Div(new(big.Int).Mul(used[0], s), r[0])
	if l1 := new(big.Int).Div(new(big.Int).Mul(used[1], s), r[1]); l1.Cmp(lp) < 0 {
		lp = l1
	}
	before := [2]*big.Int{w.balance(tokens[0], user.Address), w.balance(tokens[1], user.Address)}
	add := w.build("/v1/build/lp/add", lpBody(map[string]any{"tokenA": aur.Hex(), "tokenB": usd.Hex(), "amountA": "10", "amountB": "100"}))
	sent("lp/add", add, "approveToken0", "approveToken1", "addLiquidity")
	exp := expects(add.raw)
	for i := range 2 {
		if add.md(fmt.Sprintf("amount%d", i)) != used[i].String() || exp[i] == nil || exp[i]["amount"] != used[i].String() ||
			!strings.EqualFold(fmt.Sprint(exp[i]["token"]), tokens[i].Hex()) || !strings.EqualFold(fmt.Sprint(exp[i]["spender"]), router.Hex()) {
			t.Errorf("lp/add: token%d: amount %s, approve expects %v; want exactly %s for the router", i, add.md(fmt.Sprintf("amount%d", i)), exp[i], used[i])
		}
	}
	if add.md("lpAmount") != lp.String() {
		t.Errorf("lp/add: lpAmount %s, the pair mints %s at its reserves", add.md("lpAmount"), lp)
	}
	hashes := send("lp/add", add)
	for i := range 2 {
		if spent := new(big.Int).Sub(before[i], w.balance(tokens[i], user.Address)); spent.Cmp(used[i]) != 0 {
			t.Errorf("lp/add spent %s of token%d, want exactly %s", spent, i, used[i])
		}
		if a := w.allowance(tokens[i], user.Address, router); a.Sign() != 0 {
			t.Errorf("lp/add left an allowance of %s of token%d to the router", a, i)
		}
	}
	if got := w.balance(pool.Address, user.Address); got.Cmp(lp) != 0 {
		t.Errorf("lp/add minted %s LP, want %s", got, lp)
	}
	w.confirmAtDepth("lp/add", add, hashes)

	// lp/farm: stake all of it.
	stake := w.build("/v1/build/lp/farm", lpBody(nil))
	sent("lp/farm", stake, "approveLP", "stake")
	if exp := expects(stake.raw)[0]; stake.md("action") != "stake" || stake.md("lpAmount") != lp.String() || !strings.EqualFold(stake.md("farm"), farm.Address.Hex()) ||
		!strings.EqualFold(stake.md("rewardToken"), hrv.Hex()) || exp == nil || exp["amount"] != lp.String() || !strings.EqualFold(fmt.Sprint(exp["spender"]), farm.Address.Hex()) {
		t.Errorf("lp/farm: metadata %v, approve expects %v; want all %s LP staked in %s", stake.Metadata, exp, lp, farm.Address)
	}
	hashes = send("lp/farm", stake)
	if got := staked(); got.Cmp(lp) != 0 || w.balance(pool.Address, user.Address).Sign() != 0 || w.allowance(pool.Address, user.Address, farm.Address).Sign() != 0 {
		t.Errorf("lp/farm: %s staked, want all %s (and no LP or allowance left)", got, lp)
	}
	w.confirmAtDepth("lp/farm", stake, hashes) // blocks pass: the lone staker earns HRV

	// lp/harvest: at least what was earned when built, and everything.
	harvest := w.build("/v1/build/lp/harvest", lpBody(nil))
	sent("lp/harvest", harvest, "getReward")
	earned := decimal(t, harvest.md("earned"))
	if earned.Sign() == 0 {
		t.Fatalf("lp/harvest: nothing earned after %d blocks staked: %v", w.depth, harvest.Metadata)
	}
	hrvBefore := w.balance(hrv, user.Address)
	hashes = send("lp/harvest", harvest)
	paid := new(big.Int).Sub(w.balance(hrv, user.Address), hrvBefore)
	left, err := farmABI.UnpackEarned(w.mustRead(farm.Address, farmABI.PackEarned(user.Address)))
	if err != nil {
		t.Fatal(err)
	}
	if paid.Cmp(earned) < 0 || left.Sign() != 0 {
		t.Errorf("lp/harvest paid %s HRV base units (%s still earned), want at least the %s earned when built, and all of it", paid, left, earned)
	}
	w.confirmAtDepth("lp/harvest", harvest, hashes)

	// lp/farm unstake: all of it back.
	unstake := w.build("/v1/build/lp/farm", lpBody(map[string]any{"action": "unstake"}))
	sent("lp/farm unstake", unstake, "withdraw")
	if unstake.md("action") != "unstake" || unstake.md("lpAmount") != lp.String() {
		t.Errorf("lp/farm unstake: metadata %v, want all %s LP", unstake.Metadata, lp)
	}
	hashes = send("lp/farm unstake", unstake)
	if got := w.balance(pool.Address, user.Address); got.Cmp(lp) != 0 || staked().Sign() != 0 {
		t.Errorf("lp/farm unstake gave back %s LP (%s still staked), want %s", got, staked(), lp)
	}
	w.confirmAtDepth("lp/farm unstake", unstake, hashes)

	// lp/remove: a quarter, pro rata to the pair's balances (UniswapV2Pair.burn).
	liq := new(big.Int).Div(new(big.Int).Mul(lp, big.NewInt(2500)), big.NewInt(10_000))
	s = supply()
	var want [2]*big.Int
	for i := range 2 {
		want[i] = new(big.Int).Div(new(big.Int).Mul(liq, w.balance(tokens[i], pool.Address)), s)
		before[i] = w.balance(tokens[i], user.Address)
	}
	rm := w.build("/v1/build/lp/remove", lpBody(map[string]any{"bps": 2500}))
	sent("lp/remove", rm, "approveLP", "removeLiquidity")
	if exp := expects(rm.raw)[0]; rm.md("lpAmount") != liq.String() || rm.md("amount0") != want[0].String() || rm.md("amount1") != want[1].String() ||
		exp == nil || exp["amount"] != liq.String() || !strings.EqualFold(fmt.Sprint(exp["spender"]), router.Hex()) {
		t.Errorf("lp/remove: metadata %v, approve expects %v; want %s LP burned for %s and %s", rm.Metadata, exp, liq, want[0], want[1])
	}
	hashes = send("lp/remove", rm)
	for i := range 2 {
		if got := new(big.Int).Sub(w.balance(tokens[i], user.Address), before[i]); got.Cmp(want[i]) != 0 {
			t.Errorf("lp/remove returned %s of token%d, want exactly %s", got, i, want[i])
		}
	}
	if got := w.balance(pool.Address, user.Address); got.Cmp(new(big.Int).Sub(lp, liq)) != 0 || w.allowance(pool.Address, user.Address, router).Sign() != 0 {
		t.Errorf("lp/remove left %s LP, want %s (and no LP allowance)", got, new(big.Int).Sub(lp, liq))
	}
	w.confirmAtDepth("lp/remove", rm, hashes)
}
