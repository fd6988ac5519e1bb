package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain"
)

// TestAvailabilityPerChain: GET /v1/chains lists the operations each chain serves, and every other
// chain-scoped operation naming an enabled chain answers 400 operation_not_supported (never a 503
// that tells a partner to retry). Every keyed operation of the contract is called on base, and every
// answer must validate against the schema the OpenAPI document gives it (no null where a list is
// promised, no missing required field).
func TestAvailabilityPerChain(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
	m := d.local.Market()
	token, pool := m.Tokens[0].Address.Hex(), m.Pools[0].Address.Hex()
	base, quote := m.Pools[0].Token0.Hex(), m.Pools[0].Token1.Hex()
	user := d.local.Accounts()[0].Address.Hex()
	lp := func(extra string) string {
		return `{"chain":"base","venue":"uniswap-v2","version":"2","user":"` + user + `","pool":"` + pool + `"` + extra + `}`
	}
	// One call on base per keyed operation.
	calls := map[string]request{
		"searchTokens":         {path: "/v1/tokens/search?chain=base&q=AUR"},
		"getToken":             {path: "/v1/tokens/" + token + "?chain=base"},
		"getTokenPrice":        {path: "/v1/tokens/" + token + "/price?chain=base"},
		"getTokenHistory":      {path: "/v1/tokens/" + token + "/history?chain=base"},
		"getTokenStats":        {path: "/v1/tokens/" + token + "/stats?chain=base"},
		"getTokenHolders":      {path: "/v1/tokens/" + token + "/holders?chain=base"},
		"getTokenTrades":       {path: "/v1/tokens/" + token + "/trades?chain=base"},
		"getTokenTopTraders":   {path: "/v1/tokens/" + token + "/top-traders?chain=base"},
		"getTrending":          {path: "/v1/markets/trending?chain=base"},
		"getHotPools":          {path: "/v1/pools/hot?chain=base"},
		"getNewPools":          {path: "/v1/pools/new?chain=base"},
		"getPool":              {path: "/v1/pools/" + pool + "?chain=base"},
		"getPoolReserves":      {path: "/v1/pools/" + pool + "/reserves?chain=base&amm=uniswap-v2&base=" + base + "&quote=" + quote},
		"getPoolBins":          {path: "/v1/pools/" + m.V3Pools[0].Address.Hex() + "/bins?chain=base&amm=uniswap-v3"},
		"getPoolChart":         {path: "/v1/pools/" + pool + "/chart?chain=base"},
		"getPoolAudit":         {path: "/v1/pools/" + pool + "/audit?chain=base"},
		"getHoldings":          {path: "/v1/portfolio/" + user + "/holdings?chain=base"},
		"getHoldingsBatch":     {path: "/v1/portfolio/holdings?owners=base:" + user},
		"getPositions":         {path: "/v1/portfolio/" + user + "/positions?chain=base"},
		"getPositionsBatch":    {path: "/v1/portfolio/positions?owners=base:" + user},
		"getSwapQuote":         {path: "/v1/quotes/swap?chain=base&inputMint=" + base + "&outputMint=" + quote + "&amount=1000000000000000&slippageBps=50"},
		"getBridgeQuote":       {method: http.MethodPost, path: "/v1/quotes/bridge", body: `{"fromChain":"base","toChain":"ethereum","inputToken":"` + base + `","outputToken":"` + quote + `","amount":"1.5","user":"` + user + `"}`},
		"getTransactionStatus": {path: "/v1/transactions/0x" + strings.Repeat("ab", 32) + "/status?chain=base"},
		"buildSwap":            {method: http.MethodPost, path: "/v1/build/swap", body: `{"chain":"base","user":"` + user + `","inputMint":"native","outputMint":"` + quote + `","amount":"1000000000000000","slippageBps":50}`},
		"buildBridge":          {method: http.MethodPost, path: "/v1/build/bridge", body: `{"fromChain":"base","toChain":"ethereum","inputToken":"` + base + `","outputToken":"` + quote + `","amount":"1.5","user":"` + user + `"}`},
		"buildTransfer":        {method: http.MethodPost, path: "/v1/build/transfer", body: `{"chain":"base","user":"` + user + `","to":"` + evmAddr2 + `","token":"native","amount":"1.5"}`},
		"buildLPCreate":        {method: http.MethodPost, path: "/v1/build/lp/create", body: `{"chain":"base","venue":"uniswap-v2","version":"2","user":"` + user + `","tokenA":"` + m.Tokens[0].Address.Hex() + `","tokenB":"` + m.Tokens[2].Address.Hex() + `"}`},
		"buildLPAdd":           {method: http.MethodPost, path: "/v1/build/lp/add", body: lp(`,"amountA":"1","amountB":"1","native":true`)},
		"buildLPIncrease": {method: http.MethodPost, path: "/v1/build/lp/increase", body: `{"chain":"base","venue":"uniswap-v3","version":"3","user":"` + user +
			`","positionIds":["` + m.V3Pools[0].Positions[0].TokenID.String() + `"],"amountA":"0.001","amountB":"0.001"}`},
		"buildLPRemove":   {method: http.MethodPost, path: "/v1/build/lp/remove", body: lp(`,"bps":2500`)},
		"buildLPHarvest":  {method: http.MethodPost, path: "/v1/build/lp/harvest", body: lp("")},
		"buildLPCompound": {method: http.MethodPost, path: "/v1/build/lp/compound", body: lp("")},
		"buildLPRebalance": {method: http.MethodPost, path: "/v1/build/lp/rebalance", body: `{"chain":"base","venue":"uniswap-v3","version":"3","user":"` + user +
			`","positionIds":["` + m.V3Pools[0].Positions[0].TokenID.String() + `"],"tickLower":-887272,"tickUpper":887272}`},
		"buildLPMigrate": {method: http.MethodPost, path: "/v1/build/lp/migrate", body: `{"chain":"base","venue":"uniswap-v3","version":"3","user":"` + user +
			`","pool":"` + pool + `","bps":100,"feeTier":3000,"tickLower":-887272,"tickUpper":887272}`},
		"buildLPFarm": {method: http.MethodPost, path: "/v1/build/lp/farm", body: lp("")},
	}
	// Chain-independent operations: confirm names no chain (a token nobody issued is 404).
	chainless := map[string]bool{"confirmBuild": true}

	// Harvest and compound need a stake that has earned: the deployer stakes some of its LP of the first pool.
	deployer := newWallet(t, d.local.RPCURL(), d.local.Accounts()[0].PrivateKeyHex)
	stake := e.do(request{method: http.MethodPost, path: "/v1/build/lp/farm", key: key, body: lp(`,"amount":"0.01"`), headers: map[string]string{"Idempotency-Key": "availability-stake"}})
	if stake.status != http.StatusOK {
		t.Fatalf("stake: %d %s", stake.status, stake.rawBody)
	}
	if _, receipts := deployer.sendBuild(stake.rawBody); receipts[len(receipts)-1].Status != 1 {
		t.Fatal("the stake reverted")
	}
	d.local.Commit() // a block later, the stake has earned

	r := e.do(request{path: "/v1/chains"})
	if r.status != http.StatusOK {
		t.Fatalf("chains: %d %s", r.status, r.rawBody)
	}
	checkAnswer(t, e.server, e.server.specs[1], r)
	served := map[string][]string{}
	for _, c := range r.body["chains"].([]any) {
		c := c.(map[string]any)
		var ops []string
		for _, op := range c["operations"].([]any) {
			ops = append(ops, op.(string))
		}
		if c["enabled"] != true && len(ops) > 0 {
			t.Errorf("chain %v is not enabled but lists operations %v", c["id"], ops)
		}
		served[c["id"].(string)] = ops
	}
	for _, op := range []string{"getTokenPrice", "getHoldingsBatch", "getPoolReserves"} {
		if !slices.Contains(served["base"], op) {
			t.Errorf("base's operations %v lack %s", served["base"], op)
		}
	}

	for _, spec := range e.server.specs {
		if spec.Scope == "" || chainless[spec.ID] {
			continue
		}
		req, ok := calls[spec.ID]
		if !ok {
			t.Errorf("operation %s has no call in this test", spec.ID)
			continue
		}
		req.key = key
		if req.method == http.MethodPost && strings.HasPrefix(req.path, "/v1/build/") {
			req.headers = map[string]string{"Idempotency-Key": "availability-" + spec.ID}
		}
		got := e.do(req)
		checkAnswer(t, e.server, spec, got)
		listed := slices.Contains(served["base"], spec.ID)
		switch {
		case listed && got.status != http.StatusOK:
			t.Errorf("%s is listed for base but answered %d %s", spec.ID, got.status, got.rawBody)
		case !listed && (got.status != http.StatusBadRequest || got.code() != string(CodeOperationNotSupported)):
			t.Errorf("%s is not listed for base but answered %d %s; want 400 operation_not_supported", spec.ID, got.status, got.rawBody)
		case !listed && strings.Contains(got.rawBody, "not available") && !strings.Contains(got.rawBody, spec.ID+" is not available on base yet"):
			t.Errorf("%s: the refusal does not name the chain: %s", spec.ID, got.rawBody)
		}
	}
}

// checkAnswer validates a response body against the schema the document gives the operation's
// answer of that status.
func checkAnswer(t testing.TB, s *Server, spec *opSpec, r response) {
	t.Helper()
	doc := s.api.OpenAPI()
	schema := &huma.Schema{Ref: "#/components/schemas/Error"}
	if r.status == http.StatusOK {
		op := doc.Paths[spec.Path].Get
		if spec.Method == http.MethodPost {
			op = doc.Paths[spec.Path].Post
		}
		schema = op.Responses["200"].Content["application/json"].Schema
	}
	var body any
	if err := json.Unmarshal([]byte(r.rawBody), &body); err != nil {
		t.Errorf("%s: %d answer is not JSON: %s", spec.ID, r.status, r.rawBody)
		return
	}
	res := &huma.ValidateResult{}
	huma.Validate(doc.Components.Schemas, schema, huma.NewPathBuffer(nil, 0), huma.ModeReadFromServer, body, res)
	for _, e := range res.Errors {
		t.Errorf("%s: %d answer does not match its schema: %v\n%s", spec.ID, r.status, e, r.rawBody)
	}
}

// TestVenuesInChains: GET /v1/chains lists each enabled chain's venues with what each serves (the
// devnet's: uniswap-v2 and uniswap-v3); a uniswap-v2 venue configured without initCodeHash serves
// its pools only, its trading operations are off the chain's list, and calling one is 400
// operation_not_supported naming the missing setting (not 404 no_route, which reads like thin
// liquidity).
func TestVenuesInChains(t *testing.T) {
	t.Parallel()
	// venueOf is base's operations and its venues by name, uniswap-v2's apart.
	venueOf := func(e *env) (ops []string, venue map[string]any, venues map[string]map[string]any) {
		r := e.do(request{path: "/v1/chains"})
		checkAnswer(t, e.server, e.server.specs[1], r)
		for _, c := range r.body["chains"].([]any) {
			c := c.(map[string]any)
			if c["id"] != "base" {
				if v := c["venues"].([]any); len(v) != 0 {
					t.Errorf("chain %v (not enabled) lists venues %v", c["id"], v)
				}
				continue
			}
			for _, op := range c["operations"].([]any) {
				ops = append(ops, op.(string))
			}
			venues = map[string]map[string]any{}
			for _, v := range c["venues"].([]any) {
				venues[v.(map[string]any)["name"].(string)] = v.(map[string]any)
			}
			if venues["uniswap-v2"] == nil {
				t.Fatalf("base's venues: %v, want uniswap-v2", c["venues"])
			}
			venue = venues["uniswap-v2"]
		}
		return ops, venue, venues
	}
	trading := []string{"getSwapQuote", "buildSwap", "buildLPCreate", "buildLPAdd", "buildLPRemove", "buildLPHarvest", "buildLPCompound", "buildLPFarm"}

	t.Run("complete", func(t *testing.T) {
		var d devnetChain
		e := newEnv(t, withDevnet(&d))
		ops, v, venues := venueOf(e)
		if v["name"] != "uniswap-v2" || v["kind"] != "constant-product" || fmt.Sprint(v["serves"]) != "[pools swaps liquidity farms]" || v["notes"] != nil {
			t.Errorf("the devnet's venue: %v", v)
		}
		if v3 := venues["uniswap-v3"]; len(venues) != 2 || v3["kind"] != "concentrated" {
			t.Errorf("the devnet's venues: %v, want uniswap-v2 and uniswap-v3 (concentrated): the devnet seeds both", venues)
		}
		for _, op := range append(trading, "getPool", "getTokenPrice") {
			if !slices.Contains(ops, op) || !strings.Contains(fmt.Sprint(v["operations"]), op) {
				t.Errorf("%s missing from base's operations %v or its venue's %v", op, ops, v["operations"])
			}
		}
		if strings.Contains(fmt.Sprint(v["operations"]), "getHoldings") {
			t.Errorf("the venue lists a chain-wide operation: %v", v["operations"])
		}
	})

	t.Run("without initCodeHash", func(t *testing.T) {
		d := devnetChain{edit: func(cc *chain.ChainConfig) { // uniswap-v2 alone, without initCodeHash
			v := cc.Venues["uniswap-v2"]
			v.InitCodeHash = ""
			cc.Venues = map[string]chain.VenueConfig{"uniswap-v2": v}
		}}
		e := newEnv(t, withDevnet(&d))
		_, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(100_000), Burst: ptr(10_000)})
		ops, v, _ := venueOf(e)
		if fmt.Sprint(v["serves"]) != "[pools]" || !strings.Contains(fmt.Sprint(v["notes"]), "initCodeHash") {
			t.Errorf("a venue without initCodeHash: %v", v)
		}
		for _, op := range trading {
			if slices.Contains(ops, op) {
				t.Errorf("%s is listed for base, whose venue has no initCodeHash", op)
			}
		}
		if !slices.Contains(ops, "getPool") {
			t.Errorf("getPool is not listed: the venue's pools are still indexed: %v", ops)
		}
		m := d.local.Market()
		user := d.local.Accounts()[0].Address.Hex()
		for _, req := range []request{
			{path: "/v1/quotes/swap?chain=base&inputMint=native&outputMint=" + m.Tokens[0].Address.Hex() + "&amount=1000000000000000&slippageBps=50"},
			{method: http.MethodPost, path: "/v1/build/swap", headers: map[string]string{"Idempotency-Key": "no-hash"},
				body: `{"chain":"base","user":"` + user + `","inputMint":"native","outputMint":"` + m.Tokens[0].Address.Hex() + `","amount":"1000000000000000","slippageBps":50}`},
		} {
			req.key = key
			r := e.do(req)
			if r.status != http.StatusBadRequest || r.code() != string(CodeOperationNotSupported) ||
				!strings.Contains(r.rawBody, "chains.base.venues.uniswap-v2.initCodeHash") {
				t.Errorf("%s: %d %s, want 400 operation_not_supported naming the missing initCodeHash", req.path, r.status, r.rawBody)
			}
		}
	})
}

// TestMessagesOnDevnet: native is priced like quotes take it; an amount with too many decimals says
// so once; a bridge (served nowhere yet) says it is not supported before checking its tokens.
func TestMessagesOnDevnet(t *testing.T) {
	t.Parallel()
	var d devnetChain
	e := newEnv(t, withDevnet(&d))
	user := d.local.Accounts()[0].Address.Hex()

	var weth struct {
		PriceUsd string `json:"priceUsd"`
	}
	e.getJSON("/v1/tokens/"+d.config.WrappedNative+"/price?chain=base", e.key, &weth)
	r := e.do(request{path: "/v1/tokens/native/price?chain=base", key: e.key})
	token, _ := r.body["token"].(map[string]any)
	if r.status != http.StatusOK || token["address"] != "native" || token["symbol"] != "ETH" || token["decimals"] != float64(18) ||
		r.body["priceUsd"] != weth.PriceUsd || weth.PriceUsd == "" {
		t.Errorf("native price: %d %s; the wrapped token's is %q", r.status, r.rawBody, weth.PriceUsd)
	}
	checkAnswer(t, e.server, e.server.spec("getTokenPrice"), r)

	for _, tc := range []struct {
		path, body string
		code       Code
		want       string
	}{
		{"/v1/build/transfer", `{"chain":"base","user":"` + user + `","to":"` + evmAddr2 + `","token":"native","amount":"1.0000000000000000001"}`,
			CodeInvalidAmount, "invalid amount: at most 18 decimals for this token"},
		{"/v1/build/bridge", `{"fromChain":"base","toChain":"ethereum","inputToken":"native","outputToken":"native","amount":"1","user":"` + user + `"}`,
			CodeOperationNotSupported, "buildBridge is not available on base"},
		{"/v1/quotes/bridge", `{"fromChain":"base","toChain":"ethereum","inputToken":"native","outputToken":"native","amount":"1","user":"` + user + `"}`,
			CodeOperationNotSupported, "getBridgeQuote is not available on base"},
	} {
		r := e.do(request{method: http.MethodPost, path: tc.path, key: e.key, body: tc.body, headers: map[string]string{"Idempotency-Key": "m-" + tc.path}})
		msg, _ := r.body["error"].(string)
		if r.code() != string(tc.code) || !strings.Contains(msg, tc.want) || strings.Count(msg, "invalid amount") > 1 {
			t.Errorf("%s: %d %s, want %s saying %q", tc.path, r.status, r.rawBody, tc.code, tc.want)
		}
	}
}

// spec is the operation called id.
func (s *Server) spec(id string) *opSpec {
	for _, spec := range s.specs {
		if spec.ID == id {
			return spec
		}
	}
	panic("no operation " + id)
}
