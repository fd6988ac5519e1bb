package api

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
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

func newTradeEnv(t *testing.T, account int, opts ...envOption) *tradeEnv {
	return newTradeEnvOn(t, "base", account, opts...)
}

// newTradeEnvOn is newTradeEnv with the devnet serving the named chain.
func newTradeEnvOn(t *testing.T, chainName string, account int, opts ...envOption) *tradeEnv {
	t.Helper()
	d := &devnetChain{name: chainName}
	e := newEnv(t, append([]envOption{withDevnet(d)}, opts...)...)
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
		b, err := te.wallet.Client.BalanceAt(ctx, who, nil)
		if err != nil {
			te.t.Fatal(err)
		}
		return b
	}
	out, err := te.wallet.Client.CallContract(ctx, ethereum.CallMsg{To: &token, Data: bindings.NewToken().PackBalanceOf(who)}, nil)
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
	return te.checked(request{method: http.MethodPost, path: path, key: te.key, body: string(raw),
		headers: map[string]string{"Idempotency-Key": fmt.Sprintf("build-%d", te.builds)}})
}

// get calls a read with the consumer's key.
func (te *tradeEnv) get(path string) response {
	te.t.Helper()
	return te.checked(request{path: path, key: te.key})
}

// checked makes the call and validates the answer against the schema the served OpenAPI document
// gives the operation for its status.
func (te *tradeEnv) checked(req request) response {
	te.t.Helper()
	r := te.do(req)
	method := req.method
	if method == "" {
		method = http.MethodGet
	}
	path, _, _ := strings.Cut(req.path, "?")
	for _, spec := range te.server.specs {
		if spec.Method == method && pathMatches(spec.Path, path) {
			checkAnswer(te.t, te.server, spec, r)
			checkFeeRows(te.t, r)
			return r
		}
	}
	te.t.Fatalf("no operation serves %s %s", method, path)
	return r
}

// checkFeeRows holds every fee row of a build's answer to the one rule of fee rows: amount in token
// units, baseUnits the same amount as an integer, at the token's decimals.
func checkFeeRows(t testing.TB, r response) {
	t.Helper()
	fees, _ := r.body["fees"].([]any)
	for _, f := range fees {
		row := f.(map[string]any)
		base, ok := new(big.Int).SetString(fmt.Sprint(row["baseUnits"]), 10)
		decimals, isNumber := row["decimals"].(float64)
		if !ok || !isNumber || row["amount"] != market.Units(base, int(decimals)) {
			t.Errorf("fee row %v: amount is not baseUnits at the token's decimals", row)
		}
	}
}

// pathMatches reports whether a request path fits an OpenAPI path template.
func pathMatches(template, path string) bool {
	ts, ps := strings.Split(template, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if !strings.HasPrefix(ts[i], "{") && ts[i] != ps[i] {
			return false
		}
	}
	return true
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

func quoteOf(t testing.TB, body string) EVMSwapQuoteResponse {
	t.Helper()
	var q EVMSwapQuoteResponse
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
	user := te.wallet.Address
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
		r := te.get("/v1/quotes/swap?chain=base&inputMint=" + in + "&outputMint=" + out + "&amount=" + tc.amount + "&slippageBps=50")
		if trips := te.d.rpc.RoundTrips() - before; r.status == http.StatusOK && trips != 1 {
			t.Errorf("%s: the quote took %d RPC round trips, want 1", tc.name, trips)
		}
		if r.status != http.StatusOK {
			t.Fatalf("%s: quote: %d %s", tc.name, r.status, r.rawBody)
		}
		q := quoteOf(t, r.rawBody)
		if len(q.Route) != tc.hops || q.Raw.OutAmount != q.OutAmount || q.Kind != "evm" {
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
			ids = append(ids, tx.EVM.ID)
		}
		want := []string{"swap"}
		if tc.approve {
			want = []string{"approve", "swap"}
			exp := built.Transactions[0].EVM.Payload.Expect.Allowance
			if exp.Amount != tc.amount || !strings.EqualFold(exp.Token, inAddr.Hex()) {
				t.Errorf("%s: approve expects %+v, want exactly %s of %s", tc.name, exp, tc.amount, inAddr)
			}
		}
		if fmt.Sprint(ids) != fmt.Sprint(want) || built.Signing.Mode != "sequential" || built.ConfirmationToken == "" {
			t.Fatalf("%s: build %v (signing %q), want %v", tc.name, ids, built.Signing.Mode, want)
		}
		fresh := built.Quote.EVM.OutAmount

		hashes, receipts := te.wallet.sendBuild(b.rawBody)
		for i, rc := range receipts {
			if rc.Status != 1 {
				t.Fatalf("%s: %s reverted", tc.name, built.Transactions[i].EVM.ID)
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
		s := te.get("/v1/transactions/" + hashes[len(hashes)-1].Hex() + "/status?chain=base")
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

// TestTransferOnDevnet: native and ERC-20 transfers move exactly the amount asked, in human units
// converted with the right decimals. The devnet serves arc here, whose gas token (USDC) has 18
// decimals while a 6-decimal stablecoin is an ERC-20: an amount with 7 decimals is fine for the
// native coin and 400 invalid_amount for the token.
func TestTransferOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnvOn(t, "arc", 5)
	usd := te.token("USDD")
	user, to := te.wallet.Address, te.d.local.Accounts()[6].Address
	cases := []struct {
		token  string
		addr   common.Address
		amount string
		want   string // base units
	}{
		{"native", common.Address{}, "1.0000001", "1000000100000000000"},
		{usd.Hex(), usd, "12.345678", "12345678"},
	}
	for _, tc := range cases {
		before := te.balance(tc.addr, to)
		b := te.build("/v1/build/transfer", map[string]any{"chain": "arc", "user": user.Hex(), "to": to.Hex(), "token": tc.token, "amount": tc.amount})
		if b.status != http.StatusOK {
			t.Fatalf("transfer %s: %d %s", tc.token, b.status, b.rawBody)
		}
		hashes, receipts := te.wallet.sendBuild(b.rawBody)
		if len(receipts) != 1 || receipts[0].Status != 1 {
			t.Fatalf("transfer %s did not succeed", tc.token)
		}
		if got := new(big.Int).Sub(te.balance(tc.addr, to), before); got.String() != tc.want {
			t.Errorf("transfer %s %s moved %s, want %s", tc.amount, tc.token, got, tc.want)
		}
		te.finalize()
		if c := te.confirm(b.rawBody, hashes); c.status != http.StatusOK || c.body["confirmed"] != true {
			t.Errorf("confirm transfer %s: %d %s", tc.token, c.status, c.rawBody)
		}
	}
	r := te.build("/v1/build/transfer", map[string]any{"chain": "arc", "user": user.Hex(), "to": to.Hex(), "token": usd.Hex(), "amount": "1.0000001"})
	if r.status != http.StatusBadRequest || r.body["code"] != "invalid_amount" {
		t.Errorf("7 decimals of a 6-decimal token: %d %s", r.status, r.rawBody)
	}
	r = te.build("/v1/build/transfer", map[string]any{"chain": "arc", "user": user.Hex(), "to": to.Hex(), "token": usd.Hex(), "amount": "1000000"})
	if r.status != http.StatusUnprocessableEntity || r.body["code"] != "prerequisite_failed" || !strings.Contains(r.body["error"].(string), "insufficient balance") {
		t.Errorf("more than the balance: %d %s", r.status, r.rawBody)
	}
}

// TestSwapSlippedBeyondTolerance: a trade slipped in between the build and its execution beyond
// slippageBps makes the swap revert, and confirm reports it (422 verification_failed, reverted with
// the router's reason); the status of the hash is failed with the same reason.
func TestSwapSlippedBeyondTolerance(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user := te.wallet.Address
	b := te.build("/v1/build/swap", map[string]any{"chain": "base", "user": user.Hex(), "inputMint": "native", "outputMint": te.token("AUR").Hex(),
		"amount": "100000000000000000", "slippageBps": 10})
	if b.status != http.StatusOK {
		t.Fatalf("build: %d %s", b.status, b.rawBody)
	}
	// Another user buys AUR with 5 ETH first: the price moves far more than 0.1 %.
	front := newWallet(t, te.d.local.RPCURL(), te.d.local.Accounts()[6].PrivateKeyHex)
	fb := te.build("/v1/build/swap", map[string]any{"chain": "base", "user": front.Address.Hex(), "inputMint": "native", "outputMint": te.token("AUR").Hex(),
		"amount": "5000000000000000000", "slippageBps": 100, "maxValueLossPpm": 1_000_000})
	if fb.status != http.StatusOK {
		t.Fatalf("front-run build: %d %s", fb.status, fb.rawBody)
	}
	if _, rcs := front.sendBuild(fb.rawBody); rcs[len(rcs)-1].Status != 1 {
		t.Fatal("the front-run swap failed")
	}
	hashes, receipts := te.wallet.sendBuild(b.rawBody)
	if receipts[len(receipts)-1].Status != 0 {
		t.Fatal("the slipped swap succeeded")
	}
	c := te.confirm(b.rawBody, hashes)
	v, _ := c.body["verification"].(map[string]any)
	entry, _ := v[strings.ToLower(hashes[0].Hex())].(map[string]any)
	if c.status != http.StatusUnprocessableEntity || c.body["code"] != "verification_failed" || entry["result"] != "reverted" ||
		entry["reason"] != "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT" {
		t.Errorf("confirm of a reverted swap: %d %s", c.status, c.rawBody)
	}
	s := te.get("/v1/transactions/" + hashes[0].Hex() + "/status?chain=base")
	if s.status != http.StatusOK || s.body["status"] != "failed" || s.body["error"] != "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT" {
		t.Errorf("status of a reverted swap: %d %s", s.status, s.rawBody)
	}
}

// TestSwapReview: a swap that loses more than the review threshold against the route's mid price
// answers 409 review_required with valueLossPpm; the same request with maxValueLossPpm below it is
// refused again, at it goes ahead. As buildSwap documents, the 409 is kept under its
// Idempotency-Key (replayed), and the reviewed body under that key is idempotency_conflict.
func TestSwapReview(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	body := map[string]any{"chain": "base", "user": te.wallet.Address.Hex(), "inputMint": "native", "outputMint": te.token("AUR").Hex(),
		"amount": "20000000000000000000", "slippageBps": 50} // 20 ETH into a 200 ETH pool: about 9 % lost
	r := te.build("/v1/build/swap", body)
	loss, _ := r.body["valueLossPpm"].(float64)
	if r.status != http.StatusConflict || r.body["code"] != "review_required" || r.body["riskAcknowledgement"] != "maxValueLossPpm" || loss <= 30_000 {
		t.Fatalf("a 9 %% loss: %d %s", r.status, r.rawBody)
	}
	key := map[string]string{"Idempotency-Key": fmt.Sprintf("build-%d", te.builds)}
	raw, _ := json.Marshal(body)
	if again := te.checked(request{method: http.MethodPost, path: "/v1/build/swap", key: te.key, body: string(raw), headers: key}); again.status != http.StatusConflict ||
		again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the same request under the same key: %d %v, want the 409 replayed", again.status, again.header)
	}
	reviewed, _ := json.Marshal(map[string]any{"chain": "base", "user": body["user"], "inputMint": "native", "outputMint": body["outputMint"],
		"amount": body["amount"], "slippageBps": 50, "maxValueLossPpm": int(loss)})
	if r := te.checked(request{method: http.MethodPost, path: "/v1/build/swap", key: te.key, body: string(reviewed), headers: key}); r.code() != string(CodeIdempotencyConflict) {
		t.Errorf("the reviewed request under the old key: %d %s, want idempotency_conflict", r.status, r.rawBody)
	}
	body["maxValueLossPpm"] = int(loss) - 1
	if r := te.build("/v1/build/swap", body); r.status != http.StatusConflict {
		t.Errorf("maxValueLossPpm below the loss: %d %s", r.status, r.rawBody)
	}
	body["maxValueLossPpm"] = int(loss)
	if r := te.build("/v1/build/swap", body); r.status != http.StatusOK {
		t.Errorf("maxValueLossPpm at the loss: %d %s", r.status, r.rawBody)
	}
}

// tokenRows counts the stored confirmation tokens: one per build that ran.
func (te *tradeEnv) tokenRows() int {
	te.t.Helper()
	n, err := te.store.Client.ConfirmationToken.Query().Count(te.t.Context())
	if err != nil {
		te.t.Fatal(err)
	}
	return n
}

// TestBuildIdempotencyOnDevnet: 50 identical concurrent builds run the builder once (one
// confirmation token) and all get the same bytes; the same key with a changed body is 409
// idempotency_conflict.
func TestBuildIdempotencyOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	body := fmt.Sprintf(`{"chain":"base","user":%q,"to":%q,"token":"native","amount":"0.25"}`, te.wallet.Address.Hex(), te.d.local.Accounts()[6].Address.Hex())
	post := func(body string) response {
		return te.checked(request{method: http.MethodPost, path: "/v1/build/transfer", key: te.key, body: body, headers: map[string]string{"Idempotency-Key": "same"}})
	}
	const n = 50
	answers := make(chan response, n)
	for range n {
		go func() { answers <- post(body) }()
	}
	var first string
	replayed := 0
	for range n {
		r := <-answers
		if r.status != http.StatusOK {
			t.Fatalf("concurrent build: %d %s", r.status, r.rawBody)
		}
		if first == "" {
			first = r.rawBody
		}
		if r.rawBody != first {
			t.Fatalf("concurrent builds answered different bytes:\n%s\n%s", first, r.rawBody)
		}
		if r.header.Get("Idempotent-Replayed") == "true" {
			replayed++
		}
	}
	if rows := te.tokenRows(); rows != 1 || replayed != n-1 {
		t.Errorf("%d builds ran (confirmation tokens), %d replays; want 1 and %d", rows, replayed, n-1)
	}
	if r := post(strings.Replace(body, "0.25", "0.26", 1)); r.status != http.StatusConflict || r.body["code"] != "idempotency_conflict" {
		t.Errorf("changed body: %d %s", r.status, r.rawBody)
	}
}

// TestBuildTokenKeptWithAnswer: a build's confirmation token is stored in one transaction with its
// answer's idempotency record. When the store fails to keep the answer, the caller gets a 503 and no
// token is left behind; the retry builds again and its token, the only one stored, is known to confirm.
func TestBuildTokenKeptWithAnswer(t *testing.T) {
	t.Parallel()
	store := &finishFails{}
	te := newTradeEnv(t, 7, withDeps(func(d *Deps) { store.Store = d.Idempotency; d.Idempotency = store }))
	body := fmt.Sprintf(`{"chain":"base","user":%q,"to":%q,"token":"native","amount":"0.5"}`, te.wallet.Address.Hex(), te.d.local.Accounts()[8].Address.Hex())
	post := func() response {
		return te.checked(request{method: http.MethodPost, path: "/v1/build/transfer", key: te.key, body: body, headers: map[string]string{"Idempotency-Key": "kept"}})
	}
	store.fail.Store(true)
	if r := post(); r.status != http.StatusServiceUnavailable || r.body["code"] != "unavailable" {
		t.Fatalf("build whose answer the store did not keep: %d %s", r.status, r.rawBody)
	}
	if rows := te.tokenRows(); rows != 0 {
		t.Fatalf("%d confirmation tokens stored for an answer that was not kept, want 0", rows)
	}
	store.fail.Store(false)
	r := post()
	token, _ := r.body["confirmationToken"].(string)
	if r.status != http.StatusOK || token == "" {
		t.Fatalf("retry: %d %s", r.status, r.rawBody)
	}
	if rows := te.tokenRows(); rows != 1 {
		t.Fatalf("%d confirmation tokens stored after the retry, want 1", rows)
	}
	hashes, _ := te.wallet.sendBuild(r.rawBody)
	if c := te.confirm(r.rawBody, hashes); c.status != http.StatusOK {
		t.Fatalf("confirm with the kept token: %d %s", c.status, c.rawBody)
	}
}

// TestBuildBadInput: every malformed swap or transfer build answers 400 with its code, before
// anything is built (no confirmation token is written).
func TestBuildBadInput(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user, to, aur := te.wallet.Address.Hex(), te.d.local.Accounts()[6].Address.Hex(), te.token("AUR").Hex()
	noCode := "0x00000000000000000000000000000000000c0de0"
	swap := func(edit func(m map[string]any)) map[string]any {
		m := map[string]any{"chain": "base", "user": user, "inputMint": "native", "outputMint": aur, "amount": "1000", "slippageBps": 50}
		edit(m)
		return m
	}
	transfer := func(edit func(m map[string]any)) map[string]any {
		m := map[string]any{"chain": "base", "user": user, "to": to, "token": aur, "amount": "1.5"}
		edit(m)
		return m
	}
	cases := []struct {
		name, path string
		body       map[string]any
		status     int
		code       string
	}{
		{"swap without amount", "/v1/build/swap", swap(func(m map[string]any) { delete(m, "amount") }), 400, "invalid_amount"},
		{"swap without slippageBps", "/v1/build/swap", swap(func(m map[string]any) { delete(m, "slippageBps") }), 400, "invalid_request"},
		{"swap without user", "/v1/build/swap", swap(func(m map[string]any) { delete(m, "user") }), 400, "invalid_request"},
		{"swap, zero amount", "/v1/build/swap", swap(func(m map[string]any) { m["amount"] = "0" }), 400, "invalid_amount"},
		{"swap, negative amount", "/v1/build/swap", swap(func(m map[string]any) { m["amount"] = "-5" }), 400, "invalid_amount"},
		{"swap, decimal amount", "/v1/build/swap", swap(func(m map[string]any) { m["amount"] = "1.5" }), 400, "invalid_amount"},
		{"swap, signer not an address", "/v1/build/swap", swap(func(m map[string]any) { m["user"] = "alice" }), 400, "invalid_address"},
		{"swap, Solana mint on an EVM chain", "/v1/build/swap", swap(func(m map[string]any) { m["outputMint"] = "So11111111111111111111111111111111111111112" }), 400, "invalid_address"},
		{"swap, unknown chain", "/v1/build/swap", swap(func(m map[string]any) { m["chain"] = "dogechain" }), 400, "invalid_chain"},
		{"swap, chain not enabled", "/v1/build/swap", swap(func(m map[string]any) { m["chain"] = "ethereum" }), 400, "chain_not_enabled"},
		{"swap, not a token", "/v1/build/swap", swap(func(m map[string]any) { m["outputMint"] = noCode }), 400, "invalid_request"},
		{"swap, same token twice", "/v1/build/swap", swap(func(m map[string]any) { m["inputMint"] = aur }), 400, "invalid_request"},
		{"swap, native to its wrapped token", "/v1/build/swap", swap(func(m map[string]any) { m["outputMint"] = te.token("WETH").Hex() }), 400, "invalid_request"},
		{"swap, slippage over 50 %", "/v1/build/swap", swap(func(m map[string]any) { m["slippageBps"] = 5001 }), 400, "invalid_request"},
		{"transfer without to", "/v1/build/transfer", transfer(func(m map[string]any) { delete(m, "to") }), 400, "invalid_request"},
		{"transfer, zero amount", "/v1/build/transfer", transfer(func(m map[string]any) { m["amount"] = "0" }), 400, "invalid_amount"},
		{"transfer, negative amount", "/v1/build/transfer", transfer(func(m map[string]any) { m["amount"] = "-1" }), 400, "invalid_amount"},
		{"transfer, exponent", "/v1/build/transfer", transfer(func(m map[string]any) { m["amount"] = "1e3" }), 400, "invalid_amount"},
		{"transfer, too many decimals", "/v1/build/transfer", transfer(func(m map[string]any) { m["amount"] = "1.0000000000000000001" }), 400, "invalid_amount"},
		{"transfer, signer not an address", "/v1/build/transfer", transfer(func(m map[string]any) { m["user"] = "0x1234" }), 400, "invalid_address"},
		{"transfer, not a token", "/v1/build/transfer", transfer(func(m map[string]any) { m["token"] = noCode }), 400, "invalid_request"},
		{"transfer, Solana token on an EVM chain", "/v1/build/transfer", transfer(func(m map[string]any) { m["token"] = "So11111111111111111111111111111111111111112" }), 400, "invalid_address"},
	}
	for _, tc := range cases {
		r := te.build(tc.path, tc.body)
		if r.status != tc.status || r.body["code"] != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.status, r.rawBody, tc.status, tc.code)
		}
	}
	if n := te.tokenRows(); n != 0 {
		t.Errorf("bad input wrote %d confirmation tokens", n)
	}
}

// TestSwapFeeOnTransfer: a token that taxes its transfers on its pool (3 % on buys, 5 % on sells)
// is quoted with its taxes (measured by the audit's simulation in the quote's one read) and
// flagged; the builds use the router's fee-on-transfer variants, and the user receives exactly the
// quoted amount both ways.
func TestSwapFeeOnTransfer(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	ctx := t.Context()
	m, local := te.market, te.d.local
	owner, err := devnet.NewAccount(ctx, local.Client(), mustKey(t, local.Accounts()[0].PrivateKeyHex))
	if err != nil {
		t.Fatal(err)
	}
	tokenB, taxB, routerB, factoryB := bindings.NewToken(), bindings.NewTaxToken(), bindings.NewUniswapV2Router02(), bindings.NewUniswapV2Factory()
	tax, err := owner.Deploy(ctx, local, &bindings.TaxTokenMetaData, tokenB.PackConstructor("Taxed", "TAX", 18))
	if err != nil {
		t.Fatal(err)
	}
	whole := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	send := func(to common.Address, value *big.Int, data []byte) {
		t.Helper()
		if _, err := owner.Transact(ctx, local, to, value, data); err != nil {
			t.Fatal(err)
		}
	}
	send(tax, nil, tokenB.PackMint(owner.Address, whole(1_000_000)))
	send(tax, nil, tokenB.PackApprove(m.Core.Router, whole(100_000)))
	send(m.Core.Router, whole(100), routerB.PackAddLiquidityETH(tax, whole(100_000), common.Big0, common.Big0, owner.Address, big.NewInt(1<<40)))
	out, err := local.Client().CallContract(ctx, ethereum.CallMsg{To: &m.Core.Factory, Data: factoryB.PackGetPair(tax, m.Core.WrappedNative)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := factoryB.UnpackGetPair(out)
	if err != nil {
		t.Fatal(err)
	}
	send(tax, nil, taxB.PackSetPair(pair))
	send(tax, nil, taxB.PackSetTaxes(big.NewInt(300), big.NewInt(500)))
	send(tax, nil, tokenB.PackMint(te.wallet.Address, whole(1_000)))

	user := te.wallet.Address
	for _, tc := range []struct{ in, out, amount string }{
		{"native", tax.Hex(), "1000000000000000000"},
		{tax.Hex(), "native", "100000000000000000000"},
	} {
		before := te.d.rpc.RoundTrips()
		q := te.get("/v1/quotes/swap?chain=base&inputMint=" + tc.in + "&outputMint=" + tc.out + "&amount=" + tc.amount + "&slippageBps=100")
		if trips := te.d.rpc.RoundTrips() - before; trips != 1 {
			t.Errorf("%s→%s: the quote took %d round trips, want 1", tc.in, tc.out, trips)
		}
		taxes, _ := q.body["taxes"].([]any)
		if q.status != http.StatusOK || q.body["feeOnTransfer"] != true || len(taxes) != 1 {
			t.Fatalf("quote %s→%s: %d %s", tc.in, tc.out, q.status, q.rawBody)
		}
		if tt := taxes[0].(map[string]any); tt["buyTaxBps"] != float64(300) || tt["sellTaxBps"] != float64(500) {
			t.Errorf("measured taxes %v, want 300 and 500", tt)
		}
		outAddr := common.Address{}
		if tc.out != "native" {
			outAddr = tax
		}
		balOut := te.balance(outAddr, user)
		b := te.build("/v1/build/swap", map[string]any{"chain": "base", "user": user.Hex(), "inputMint": tc.in, "outputMint": tc.out,
			"amount": tc.amount, "slippageBps": 100, "maxValueLossPpm": 100_000}) // the taxes are a loss to review
		if b.status != http.StatusOK {
			t.Fatalf("build %s→%s: %d %s", tc.in, tc.out, b.status, b.rawBody)
		}
		_, receipts := te.wallet.sendBuild(b.rawBody)
		if receipts[len(receipts)-1].Status != 1 {
			t.Fatalf("%s→%s reverted", tc.in, tc.out)
		}
		got := new(big.Int).Sub(te.balance(outAddr, user), balOut)
		if outAddr == (common.Address{}) {
			got.Add(got, gasPaid(receipts))
		}
		if want := b.body["quote"].(map[string]any)["outAmount"]; got.String() != want {
			t.Errorf("%s→%s received %s, want the quoted %v", tc.in, tc.out, got, want)
		}
	}
}

func mustKey(t testing.TB, keyHex string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(strings.TrimPrefix(keyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestConfirm: confirm answers 404 for a token of another consumer or an expired one, 400 for the
// wrong number of hashes or a null, 200 pending (transaction_not_found) for hashes the chain does
// not know, 422 verification_failed for a mined transaction that is not the one built, and once
// confirmed, updated false on a repeat.
func TestConfirm(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	to := te.d.local.Accounts()[6].Address
	body := map[string]any{"chain": "base", "user": te.wallet.Address.Hex(), "to": to.Hex(), "token": "native", "amount": "0.5"}
	b := te.build("/v1/build/transfer", body)
	if b.status != http.StatusOK {
		t.Fatalf("build: %d %s", b.status, b.rawBody)
	}
	token := b.body["confirmationToken"].(string)
	post := func(key string, body any) response {
		raw, _ := json.Marshal(body)
		te.builds++
		return te.checked(request{method: http.MethodPost, path: "/v1/build/confirm", key: key, body: string(raw),
			headers: map[string]string{"Idempotency-Key": fmt.Sprintf("confirm-%d", te.builds)}})
	}
	unknown := "0x" + strings.Repeat("ab", 32)

	_, otherKey := te.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(1000), Burst: ptr(100)})
	if r := post(otherKey, map[string]any{"confirmationToken": token, "signatures": []string{unknown}}); r.status != http.StatusNotFound {
		t.Errorf("another consumer's token: %d %s", r.status, r.rawBody)
	}
	if r := post(te.key, map[string]any{"confirmationToken": "ct_nobody", "signatures": []string{unknown}}); r.status != http.StatusNotFound {
		t.Errorf("an unknown token: %d %s", r.status, r.rawBody)
	}
	if r := post(te.key, map[string]any{"confirmationToken": token, "signatures": []string{unknown, unknown}}); r.status != http.StatusBadRequest {
		t.Errorf("two hashes for one transaction: %d %s", r.status, r.rawBody)
	}
	if r := post(te.key, map[string]any{"confirmationToken": token, "signatures": []any{nil}}); r.status != http.StatusBadRequest {
		t.Errorf("null for a required step: %d %s", r.status, r.rawBody)
	}
	// A pending answer is never replayed: polling under one Idempotency-Key checks the chain each time.
	for i := range 2 {
		raw, _ := json.Marshal(map[string]any{"confirmationToken": token, "signatures": []string{unknown}})
		r := te.checked(request{method: http.MethodPost, path: "/v1/build/confirm", key: te.key, body: string(raw),
			headers: map[string]string{"Idempotency-Key": "poll"}})
		if r.status != http.StatusOK || r.body["confirmed"] != false || r.body["pendingReason"] != "transaction_not_found" ||
			r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("poll %d of a hash the chain does not know: %d %v %s", i+1, r.status, r.header, r.rawBody)
		}
	}

	// The user sends 0.4 instead of the 0.5 built: confirm sees a different value.
	var built BuildResponse
	if err := json.Unmarshal([]byte(b.rawBody), &built); err != nil {
		t.Fatal(err)
	}
	tx := built.Transactions[0].EVM
	other := devnet.BuiltTx{ID: tx.ID, ChainID: tx.ChainID, From: tx.From, To: tx.To, Data: tx.Data, Value: "400000000000000000", Gas: uint64(tx.Gas),
		MaxFeePerGas: tx.MaxFeePerGas, MaxPriorityFeePerGas: tx.MaxPriorityFeePerGas, Nonce: uint64(tx.Nonce)}
	h, _, err := te.wallet.Send(t.Context(), other)
	if err != nil {
		t.Fatal(err)
	}
	r := post(te.key, map[string]any{"confirmationToken": token, "signatures": []string{h.Hex()}})
	v, _ := r.body["verification"].(map[string]any)
	if entry, _ := v[strings.ToLower(h.Hex())].(map[string]any); r.status != http.StatusUnprocessableEntity || entry["result"] != "mismatch" ||
		fmt.Sprint(entry["fields"]) != "[value]" {
		t.Errorf("a mined transaction that is not the one built: %d %s", r.status, r.rawBody)
	}

	// A fresh build, sent as built: confirmed once, then confirmed without an update.
	b = te.build("/v1/build/transfer", body)
	hashes, _ := te.wallet.sendBuild(b.rawBody)
	te.finalize()
	for i, wantUpdated := range []bool{true, false} {
		if c := te.confirm(b.rawBody, hashes); c.status != http.StatusOK || c.body["confirmed"] != true || c.body["updated"] != wantUpdated {
			t.Errorf("confirm %d: %d %s", i+1, c.status, c.rawBody)
		}
	}

	// An expired token is unknown.
	if _, err := te.store.Client.ConfirmationToken.Update().SetExpiresAt(time.Now().Add(-time.Second)).Save(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c := te.confirm(b.rawBody, hashes); c.status != http.StatusNotFound {
		t.Errorf("an expired token: %d %s", c.status, c.rawBody)
	}
	if s := te.get("/v1/transactions/" + unknown + "/status?chain=base"); s.status != http.StatusOK || s.body["status"] != "unknown" {
		t.Errorf("status of an unknown hash: %d %s", s.status, s.rawBody)
	}
}
