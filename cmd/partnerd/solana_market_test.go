package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// solanaWorld is the service in local mode with a consumer that reads markets and quotes.
type solanaWorld struct {
	*marketWorld
	node *localnet.Node
}

// newSolanaWorld starts the service in local mode on SQLite (the local validator behind solana,
// its background trader every 3 s) and waits until the indexer has found the five seeded pools.
func newSolanaWorld(t *testing.T) *solanaWorld {
	t.Helper()
	c := sqliteCLI(t)
	logs := &lockedBuffer{}
	m := &Main{
		Config: Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: 500 * time.Millisecond, Chains: chain.Config{}, DevnetChain: "base"},
		Log:    slog.New(slog.NewJSONHandler(logs, nil)),
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	})
	if m.chains.solana == nil || m.chains.solana.node == nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("local mode serves no solana (PARTNER_TEST_REQUIRE_ALL=1); log:\n%s", logs)
		}
		t.Skipf("skipping: local mode could not run the Solana validator; log:\n%s", logs)
	}
	cons := c.createConsumer("Solana reader", "--scopes", "market:read,portfolio:read,quote:read,tx:build", "--rpm", "100000", "--burst", "10000", "--enable")
	w := &solanaWorld{marketWorld: &marketWorld{t: t, ctx: t.Context(), m: m, key: c.createKey(cons.ID, "k").Key}, node: m.chains.solana.node}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var list struct{ Pools []struct{ Address string } }
		w.get("/v1/pools/new?chain=solana&amm=raydium", &list)
		if len(list.Pools) == len(w.node.Pools) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s the index lists %d of the %d seeded pools; log:\n%s", len(list.Pools), len(w.node.Pools), logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	return w
}

// rpc calls the local validator's JSON-RPC and decodes the result into out.
func (w *solanaWorld) rpc(method string, params []any, out any) {
	w.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(w.node.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Error != nil {
		w.t.Fatalf("%s: %v %+v", method, err, r.Error)
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		w.t.Fatalf("%s: %v", method, err)
	}
}

// chainReserves reads a pool's reserves from the chain at one slot, independently of the service's
// reads: the vaults' balances (getMultipleAccounts) less the fees the pool owes (its PoolState,
// decoded with venue/raydium's layout, which is held to Raydium's SDK).
func (w *solanaWorld) chainReserves(p localnet.Pool) (r0, r1 uint64, slot uint64) {
	w.t.Helper()
	var res struct {
		Context struct{ Slot uint64 }
		Value   []struct{ Data []string }
	}
	w.rpc("getMultipleAccounts", []any{[]string{p.Address, p.Token0.Vault, p.Token1.Vault}, map[string]string{"encoding": "base64", "commitment": "confirmed"}}, &res)
	var data [3][]byte
	for i, v := range res.Value {
		data[i] = decodeBase64(w.t, v.Data[0])
	}
	st, err := raydium.DecodePoolState(data[0])
	if err != nil {
		w.t.Fatal(err)
	}
	amount := func(d []byte) uint64 { return new(big.Int).SetBytes(reverse(d[64:72])).Uint64() }
	r0, r1, err = st.Reserves(amount(data[1]), amount(data[2]))
	if err != nil {
		w.t.Fatal(err)
	}
	return r0, r1, res.Context.Slot
}

// TestSolanaMarket reads the solana market through the API in local mode, against the chain: the
// seeded pools are listed under raydium, their reserves equal the vaults less the fees owed, every
// swap the chain holds of a pool is in its token's trades, a chart's last close is the pool's
// price, and a swap quote is in Jupiter's shape, sealed, with the amount CPMM's math gives.
func TestSolanaMarket(t *testing.T) {
	t.Parallel()
	w := newSolanaWorld(t)

	type venueInfo struct {
		Name   string
		Serves []string
	}
	type chainInfo struct {
		ID         string
		Operations []string
		Venues     []venueInfo
	}
	var chains struct{ Chains []chainInfo }
	w.get("/v1/chains", &chains)
	i := slices.IndexFunc(chains.Chains, func(c chainInfo) bool { return c.ID == "solana" })
	if i < 0 {
		t.Fatalf("/v1/chains lists no solana: %+v", chains)
	}
	sol := chains.Chains[i]
	if len(sol.Venues) != 1 || sol.Venues[0].Name != "raydium" || fmt.Sprint(sol.Venues[0].Serves) != "[pools swaps liquidity]" {
		t.Errorf("solana venues %+v, want raydium serving pools, swaps and liquidity", sol.Venues)
	}
	for _, op := range []string{"getPool", "getPoolReserves", "getPoolChart", "getTokenTrades", "getTokenPrice", "getSwapQuote", "buildSwap",
		"buildLPCreate", "buildLPAdd", "buildLPRemove"} {
		if !slices.Contains(sol.Operations, op) {
			t.Errorf("solana does not list %s: %v", op, sol.Operations)
		}
	}
	if slices.Contains(sol.Operations, "buildLPFarm") || slices.Contains(sol.Operations, "getPoolBins") {
		t.Errorf("solana lists farms or bins, which raydium does not serve: %v", sol.Operations)
	}

	// Holdings are valued at the indexed prices: holder-0's AUR at AUR's price on solana.
	holder, _ := w.node.Keypair("holder-0")
	var holdings struct {
		Holdings []struct {
			Token            struct{ Address string }
			Amount, PriceUsd string
			ValueUsd         string
		}
	}
	w.get("/v1/portfolio/"+holder.Address+"/holdings?chain=solana", &holdings)
	aurMint, _ := w.node.Mint("AUR")
	var price struct{ PriceUsd string }
	w.get("/v1/tokens/"+aurMint.Address+"/price?chain=solana", &price)
	valued := false
	for _, h := range holdings.Holdings {
		if h.Token.Address == aurMint.Address {
			valued = h.ValueUsd != "" && h.PriceUsd != ""
		}
	}
	if !valued || price.PriceUsd == "" {
		t.Errorf("holder-0's AUR is not valued (price %q): %+v", price.PriceUsd, holdings)
	}

	// Quotes: Jupiter's shape, sealed; a direct pool, SOL as native, and a route through USDC.
	usdc, _ := w.node.Mint("USDC")
	aur, _ := w.node.Mint("AUR")
	for _, tc := range []struct {
		in, out string
		hops    []string // the pools' names
	}{
		{usdc.Address, aur.Address, []string{"AUR/USDC"}},
		{"native", usdc.Address, []string{"SOL/USDC"}},
		{aur.Address, "native", []string{"AUR/USDC", "SOL/USDC"}},
	} {
		var q struct {
			Kind, InputMint, InAmount, OutputMint, OutAmount, OtherAmountThreshold, SwapMode, PriceImpactPct, Seal string
			SlippageBps                                                                                            int
			PlatformFee                                                                                            any
			ContextSlot                                                                                            uint64
			RoutePlan                                                                                              []struct {
				Percent  int
				SwapInfo struct{ AmmKey, Label, InputMint, OutputMint, InAmount, OutAmount, FeeAmount, FeeMint string }
			}
			Raw map[string]any
		}
		w.get("/v1/quotes/swap?"+url.Values{"chain": {"solana"}, "inputMint": {tc.in}, "outputMint": {tc.out}, "amount": {"1000000"}, "slippageBps": {"100"}}.Encode(), &q)
		out, _ := new(big.Int).SetString(q.OutAmount, 10)
		threshold := new(big.Int).Div(new(big.Int).Mul(out, big.NewInt(9900)), big.NewInt(10000))
		if q.Kind != "solana" || q.SwapMode != "ExactIn" || q.InAmount != "1000000" || out == nil || out.Sign() <= 0 || q.OtherAmountThreshold != threshold.String() ||
			q.Seal == "" || q.PlatformFee != nil || q.ContextSlot == 0 || q.Raw["seal"] != q.Seal || len(q.RoutePlan) != len(tc.hops) {
			t.Errorf("quote %s -> %s: %+v", tc.in, tc.out, q)
			continue
		}
		for i, st := range q.RoutePlan {
			p, _ := w.node.Pool(tc.hops[i])
			if st.SwapInfo.AmmKey != p.Address || st.SwapInfo.Label != "raydium" || st.Percent != 100 {
				t.Errorf("quote %s -> %s: hop %d %+v, want pool %s", tc.in, tc.out, i, st, tc.hops[i])
			}
		}
		if last := q.RoutePlan[len(q.RoutePlan)-1].SwapInfo; last.OutAmount != q.OutAmount || last.OutputMint != q.OutputMint {
			t.Errorf("quote %s -> %s: the last hop pays %s of %s, the quote %s of %s", tc.in, tc.out, last.OutAmount, last.OutputMint, q.OutAmount, q.OutputMint)
		}
	}

	t.Run("audit", func(t *testing.T) {
		w := &solanaWorld{marketWorld: &marketWorld{t: t, ctx: w.ctx, m: w.m, key: w.key}, node: w.node}
		w.auditLP("SOL/USDC") // pool-creator's and lp-provider's LP
	})

	// The background trader swaps through the next pool every 3 s: wait until each has traded.
	for _, p := range w.node.Pools {
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(250 * time.Millisecond) {
			var trades struct{ Trades []struct{ TxHash string } }
			w.get("/v1/tokens/"+p.Token0.Mint+"/trades?chain=solana&pool="+p.Address, &trades)
			if len(trades.Trades) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no trade of %s indexed within 60 s", p.Name)
			}
		}
	}
	for _, p := range w.node.Pools {
		t.Run(p.Name, func(t *testing.T) {
			w := &solanaWorld{marketWorld: &marketWorld{t: t, ctx: w.ctx, m: w.m, key: w.key}, node: w.node}
			// Reserves: equal to the chain's at the answered slot (a swap in between: read both again).
			for try := 0; ; try++ {
				var r struct {
					Base, Quote             string
					BaseAmount, QuoteAmount string
					Block                   uint64
				}
				q := url.Values{"chain": {"solana"}, "amm": {"raydium"}, "base": {p.Token0.Mint}, "quote": {p.Token1.Mint}}
				w.get("/v1/pools/"+p.Address+"/reserves?"+q.Encode(), &r)
				r0, r1, slot := w.chainReserves(p)
				got := [2]string{r.BaseAmount, r.QuoteAmount}
				want := [2]string{tokenUnits(r0, p.Token0.Decimals), tokenUnits(r1, p.Token1.Decimals)}
				if got == want && r.Block <= slot {
					break
				}
				if try == 5 {
					t.Fatalf("reserves %v at slot %d; the chain holds %v at slot %d", got, r.Block, want, slot)
				}
			}
			// Trades: every swap of the pool the chain holds (up to the index's slot) is listed.
			var sigs []struct {
				Signature string
				Slot      uint64
				Err       any
			}
			w.rpc("getSignaturesForAddress", []any{p.Address, map[string]any{"commitment": "confirmed", "limit": 1000}}, &sigs)
			var trades struct {
				Trades []struct {
					TxHash string
					Pool   string
				}
			}
			w.get("/v1/tokens/"+p.Token0.Mint+"/trades?chain=solana&pool="+p.Address+"&limit=100", &trades)
			listed := map[string]bool{}
			for _, tr := range trades.Trades {
				listed[tr.TxHash] = true
				if tr.Pool != p.Address {
					t.Errorf("trade %s of pool %s", tr.TxHash, tr.Pool)
				}
			}
			if len(trades.Trades) == 0 {
				t.Errorf("no trades listed for %s", p.Name)
			}
			// The newest listed trade and everything older that the chain holds must be there (the
			// index may lag the newest swaps by a few slots).
			var newest uint64
			for _, s := range sigs {
				if listed[s.Signature] {
					newest = max(newest, s.Slot)
				}
			}
			swaps := 0
			for _, s := range sigs {
				if s.Slot > newest || s.Err != nil || !w.isSwap(s.Signature) {
					continue
				}
				swaps++
				if !listed[s.Signature] && len(trades.Trades) < 100 {
					t.Errorf("swap %s at slot %d (at or below the newest listed, %d) is not in the trades", s.Signature, s.Slot, newest)
				}
			}
			if swaps != len(trades.Trades) {
				t.Errorf("%d trades listed, the chain holds %d swaps of the pool up to slot %d", len(trades.Trades), swaps, newest)
			}
			// Chart: the last candle's close is the pool's price in the index after its last event.
			var chart struct {
				Candles []struct{ Close string }
			}
			w.get("/v1/pools/"+p.Address+"/chart?chain=solana&resolution=1", &chart)
			if len(chart.Candles) == 0 {
				t.Fatalf("no candles for %s", p.Name)
			}
			last := chart.Candles[len(chart.Candles)-1].Close
			// In a pool quoted in USDC the USD price is the pool's own price at its last event. The
			// pool's summary comes from the snapshot, refreshed every second: it may lag the chart,
			// which reads the index, by one refresh.
			var pool struct {
				Pool struct{ PriceNative, PriceUsd string }
			}
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(200 * time.Millisecond) {
				w.get("/v1/pools/"+p.Address+"?chain=solana", &pool)
				if last == pool.Pool.PriceNative || !(p.Token0.Symbol == "USDC" || p.Token1.Symbol == "USDC") {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("%s: the chart's last close is %s, the pool's price %s", p.Name, last, pool.Pool.PriceNative)
					break
				}
			}
			t.Logf("%s: %d trades listed (%d swaps on the chain), last close %s, pool price %s (%s USD)", p.Name, len(trades.Trades), swaps, last,
				pool.Pool.PriceNative, pool.Pool.PriceUsd)
		})
	}
}

// auditLP checks a pool's audit against the chain, read independently: its LP supply is the pool
// account's lp_supply (decoded with venue/raydium's layout, held to Raydium's SDK), in LP token
// units, and the largest LP holder it names owns the LP mint's largest token account
// (getTokenLargestAccounts, then the account's owner).
func (w *solanaWorld) auditLP(name string) {
	w.t.Helper()
	p, _ := w.node.Pool(name)
	var audit struct {
		Pool, Token string
		Score       int
		Findings    []struct{ Code, Level, Message string }
	}
	w.get("/v1/pools/"+p.Address+"/audit?chain=solana", &audit)
	found := map[string]string{}
	for _, f := range audit.Findings {
		found[f.Code] = f.Message
	}

	var pool struct{ Value struct{ Data []string } }
	w.rpc("getAccountInfo", []any{p.Address, map[string]string{"encoding": "base64", "commitment": "confirmed"}}, &pool)
	st, err := raydium.DecodePoolState(decodeBase64(w.t, pool.Value.Data[0]))
	if err != nil {
		w.t.Fatal(err)
	}
	lpMint := st.LPMint.String()
	var supply struct{ Value struct{ Amount string } }
	w.rpc("getTokenSupply", []any{lpMint, map[string]string{"commitment": "confirmed"}}, &supply)
	minted, _ := strconv.ParseUint(supply.Value.Amount, 10, 64)
	wantSupply := "the pool's LP supply is " + tokenUnits(st.LPSupply, st.LPMintDecimals) + " LP (LP mint " + lpMint + "), " +
		tokenUnits(minted, st.LPMintDecimals) + " LP of it in circulation"
	if lpMint != p.LPMint || found["lp_supply"] != wantSupply {
		w.t.Errorf("%s: lp_supply %q, want %q", name, found["lp_supply"], wantSupply)
	}
	if locked := ": " + tokenUnits(st.LPSupply-minted, st.LPMintDecimals) + " LP that the pool counts and no one holds"; !strings.Contains(found["lp_locked"], locked) {
		w.t.Errorf("%s: lp_locked %q, want %s", name, found["lp_locked"], locked)
	}

	var largest struct {
		Value []struct{ Address, Amount string }
	}
	w.rpc("getTokenLargestAccounts", []any{lpMint, map[string]string{"commitment": "confirmed"}}, &largest)
	if len(largest.Value) < 2 {
		w.t.Fatalf("%s: LP accounts %+v, want the creator's and the provider's", name, largest.Value)
	}
	var account struct{ Value struct{ Data []string } }
	w.rpc("getAccountInfo", []any{largest.Value[0].Address, map[string]string{"encoding": "base64", "commitment": "confirmed"}}, &account)
	owner := raydium.Pubkey(decodeBase64(w.t, account.Value.Data[0])[32:64]).String()
	amount, _ := strconv.ParseUint(largest.Value[0].Amount, 10, 64)
	creator, _ := w.node.Keypair("pool-creator")
	said := found["lp_concentrated"]
	if owner != creator.Address || !strings.HasPrefix(said, "one owner, "+owner+", holds ") ||
		!strings.Contains(said, "% of the LP supply ("+tokenUnits(amount, st.LPMintDecimals)+" LP)") {
		w.t.Errorf("%s: the largest LP account %s (%s) is owned by %s (pool-creator %s); the audit says %q", name, largest.Value[0].Address,
			largest.Value[0].Amount, owner, creator.Address, said)
	}
	if audit.Pool != p.Address || found["lp_top10_holders"] == "" {
		w.t.Errorf("%s: audit %+v", name, audit)
	}
}

// tokenUnits writes base units as token units.
func tokenUnits(v uint64, decimals uint8) string {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(v), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	s := r.FloatString(int(decimals))
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

func reverse(b []byte) []byte {
	out := slices.Clone(b)
	slices.Reverse(out)
	return out
}

func decodeBase64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// isSwap reports whether a transaction holds a CPMM swap (swap_base_input or swap_base_output),
// read from the chain and told by the instruction's Anchor discriminator.
func (w *solanaWorld) isSwap(signature string) bool {
	w.t.Helper()
	var tx struct {
		Transaction struct {
			Message struct {
				AccountKeys  []string
				Instructions []struct {
					ProgramIDIndex int
					Data           string
				}
			}
		}
	}
	w.rpc("getTransaction", []any{signature, map[string]any{"commitment": "confirmed", "encoding": "json", "maxSupportedTransactionVersion": 0}}, &tx)
	m := tx.Transaction.Message
	for _, ix := range m.Instructions {
		data, err := svm.DecodeBase58(ix.Data)
		if err != nil || m.AccountKeys[ix.ProgramIDIndex] != raydium.ProgramID.String() || len(data) < 8 {
			continue
		}
		for _, name := range []string{"global:swap_base_input", "global:swap_base_output"} {
			if d := sha256.Sum256([]byte(name)); bytes.Equal(data[:8], d[:8]) {
				return true
			}
		}
	}
	return false
}

// TestExampleSolanaSwap: a partner quotes a swap on solana, builds it from the quote's raw object,
// and sends it with examples/solana-transfer (the official @solana/web3.js client), which signs the
// v0 transaction and confirms it over the validator's PubSub; holder-0 then holds at least the
// quote's otherAmountThreshold more AUR (exactly outAmount unless the background trader traded the
// pool in between), and confirm says confirmed.
func TestExampleSolanaSwap(t *testing.T) {
	t.Parallel()
	example := exampleSolanaDir(t)
	sw := newSolanaWorld(t)
	w := newTradeWorld(sw.marketWorld, sw.m.chains.devnet.RPCURL(), sw.m.chains.devnet.Market(), nil, 0)
	holder, _ := sw.node.Keypair("holder-0")
	usdc, _ := sw.node.Mint("USDC")
	aur, _ := sw.node.Mint("AUR")
	account := sw.node.HoldingsOf("holder-0", "AUR")[0].Account
	balance := func() uint64 {
		var r struct{ Value struct{ Amount string } }
		sw.rpc("getTokenAccountBalance", []any{account, map[string]string{"commitment": "confirmed"}}, &r)
		n, _ := strconv.ParseUint(r.Value.Amount, 10, 64)
		return n
	}

	var quote struct {
		OutAmount, OtherAmountThreshold string
		Raw                             json.RawMessage
	}
	w.ok(http.MethodGet, "/v1/quotes/swap?"+url.Values{"chain": {"solana"}, "inputMint": {usdc.Address}, "outputMint": {aur.Address},
		"amount": {"5000000"}, "slippageBps": {"100"}}.Encode(), nil, &quote)
	before := balance()
	var built struct {
		Transactions      []struct{ ID, Encoding, Payload string }
		ConfirmationToken string
	}
	raw := w.ok(http.MethodPost, "/v1/build/swap", map[string]any{"chain": "solana", "user": holder.Address, "quoteResponse": quote.Raw}, &built).raw
	if len(built.Transactions) != 1 || built.Transactions[0].ID != "swap" {
		t.Fatalf("build = %s", raw)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 45*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "send.mjs", "--rpc-url", sw.node.URL, "--commitment", "confirmed")
	cmd.Dir = example
	cmd.Env = append(exampleEnv(), "SOLANA_SECRET_KEY="+holder.SecretKey)
	cmd.Stdin = bytes.NewReader(raw)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("send.mjs: %v\n%s%s", err, stdout.String(), stderr.String())
	sent := regexp.MustCompile(`(?m)^sent swap \(1/1\): (\w{64,88})$`).FindStringSubmatch(stdout.String())
	if err != nil || sent == nil || !regexp.MustCompile(`(?m)^confirmed `+sent[1]+` at slot \d+ in \d+ ms$`).MatchString(stdout.String()) {
		t.Fatalf("the example did not send and confirm the swap")
	}
	got := balance() - before
	threshold, _ := strconv.ParseUint(quote.OtherAmountThreshold, 10, 64)
	if got < threshold {
		t.Errorf("holder-0 received %d AUR base units, below the quote's otherAmountThreshold %d", got, threshold)
	}
	t.Logf("received %d AUR base units; the quote said %s (threshold %d)", got, quote.OutAmount, threshold)
	var confirmed struct{ Confirmed bool }
	for deadline := time.Now().Add(40 * time.Second); !confirmed.Confirmed; time.Sleep(250 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("confirm never said confirmed")
		}
		w.ok(http.MethodPost, "/v1/build/confirm", map[string]any{"confirmationToken": built.ConfirmationToken, "signatures": []string{sent[1]}}, &confirmed)
	}
}
