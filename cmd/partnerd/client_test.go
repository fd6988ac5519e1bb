package main

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/cmd/partnerd/internal/apiclient"
)

// TestGeneratedClient calls the real binary with the Go client oapi-codegen generates from the
// document it serves (internal/apiclient; make check-generated proves it current), the way a
// partner's generated client would: bodies decode into the generated types, error bodies into
// Error, and the documented response headers reach the client.
func TestGeneratedClient(t *testing.T) {
	t.Parallel()
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:"+filepath.Join(t.TempDir(), "p.db"), "PARTNER_DEVNET_TRADE_INTERVAL=0")
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env}
	cons := as[access.Consumer](t, e.cli("consumer", "create", "--name", "Generated Client",
		"--scopes", "market:read,portfolio:read,quote:read,tx:build", "--rpm", "600", "--burst", "30", "--enable"))
	key := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", strconv.Itoa(cons.ID), "--name", "generated")).Key

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	withKey := apiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-API-Key", key)
		return nil
	})
	c, err := apiclient.NewClientWithResponses(e.base, withKey)
	if err != nil {
		t.Fatal(err)
	}
	base := apiclient.GetTokenHoldersParamsChain("base")

	chains, err := c.ListChainsWithResponse(ctx)
	if err != nil || chains.JSON200 == nil || chains.Headers200 == nil || chains.Headers200.XRequestId == "" {
		t.Fatalf("listChains: %v %+v", err, chains)
	}
	var baseOps []string
	for _, ch := range chains.JSON200.Chains {
		if ch.Id == "base" && ch.Enabled {
			baseOps = ch.Operations
		}
	}
	if !slices.Contains(baseOps, "getHoldingsBatch") || !slices.Contains(baseOps, "buildTransfer") || slices.Contains(baseOps, "buildBridge") {
		t.Errorf("base's operations %v", baseOps)
	}

	found, err := c.SearchTokensWithResponse(ctx, &apiclient.SearchTokensParams{Q: "AUR", Chain: ptr(apiclient.SearchTokensParamsChain("base"))})
	if err != nil || found.JSON200 == nil || len(found.JSON200.Results) == 0 {
		t.Fatalf("searchTokens: %v %s", err, body(found.Body))
	}
	aur := found.JSON200.Results[0].Address
	h := found.Headers200
	if h == nil || h.XRequestId == "" || h.XRateLimitLimit == nil || *h.XRateLimitLimit != 30 || h.XRateLimitRemaining == nil ||
		h.RateLimitPolicy == nil || *h.RateLimitPolicy != `"burst";q=30, "rate";q=600;w=60` || h.CacheControl == nil || *h.CacheControl != "private, no-store" {
		t.Errorf("searchTokens headers %+v", h)
	}

	holders, err := c.GetTokenHoldersWithResponse(ctx, aur, &apiclient.GetTokenHoldersParams{Chain: &base})
	if err != nil || holders.JSON200 == nil || len(holders.JSON200.Holders) == 0 {
		t.Fatalf("getTokenHolders: %v %s", err, body(holders.Body))
	}
	owner := holders.JSON200.Holders[0].Address
	batch, err := c.GetHoldingsBatchWithResponse(ctx, &apiclient.GetHoldingsBatchParams{Owners: "base:" + owner})
	if err != nil || batch.JSON200 == nil || len(batch.JSON200.Results) != 1 || batch.JSON200.Results[0].Result == nil {
		t.Fatalf("getHoldingsBatch: %v %s", err, body(batch.Body))
	}
	held := false
	for _, x := range batch.JSON200.Results[0].Result.Holdings {
		held = held || x.Token.Address == aur
	}
	if !held {
		t.Errorf("holdings of AUR's top holder %s lack AUR: %s", owner, batch.Body)
	}

	// An error decodes into Error, with its request id in the header the client exposes.
	bad, err := c.GetTokenPriceWithResponse(ctx, "not-an-address", &apiclient.GetTokenPriceParams{Chain: ptr(apiclient.GetTokenPriceParamsChain("base"))})
	if err != nil || bad.JSON400 == nil || bad.JSON400.Code != "invalid_address" || bad.Headers400 == nil || bad.Headers400.XRequestId != bad.JSON400.RequestId {
		t.Fatalf("getTokenPrice of a bad address: %v %s", err, body(bad.Body))
	}

	// A build decodes into BuildResponse; its transaction entries are a union on kind, which the
	// generated client turns into EVMTransaction and SolanaTransaction, and so are quotes.
	transfer := apiclient.BuildTransferJSONRequestBody{Chain: "base", User: owner, To: owner, Token: "native", Amount: "1.5"}
	built, err := c.BuildTransferWithResponse(ctx, &apiclient.BuildTransferParams{IdempotencyKey: "generated-0"}, transfer)
	if err != nil || built.JSON200 == nil || len(built.JSON200.Transactions) != 1 {
		t.Fatalf("buildTransfer: %v %s", err, body(built.Body))
	}
	entry, err := built.JSON200.Transactions[0].ValueByDiscriminator()
	if tx, ok := entry.(apiclient.EVMTransaction); err != nil || !ok || tx.Value != "1500000000000000000" {
		t.Errorf("buildTransfer's entry %#v (%v), want an EVMTransaction of 1.5 ETH", entry, err)
	}
	const holder0, holder1 = "58BAP9tWqD3nWfvzfa83a9vnNzjp8erG8suDCEX6qvJ3", "2ruo7F7X9SmPoi5vrWPwRNYoJ3txVwuugnRCEW5zNK87" // the local validator's, fixed
	solTransfer := apiclient.BuildTransferJSONRequestBody{Chain: "solana", User: holder0, To: holder1, Token: "native", Amount: "0.01"}
	solBuilt, err := c.BuildTransferWithResponse(ctx, &apiclient.BuildTransferParams{IdempotencyKey: "generated-sol"}, solTransfer)
	if err != nil || solBuilt.JSON200 == nil || len(solBuilt.JSON200.Transactions) != 1 {
		t.Fatalf("buildTransfer on solana: %v %s", err, body(solBuilt.Body))
	}
	entry, err = solBuilt.JSON200.Transactions[0].ValueByDiscriminator()
	if tx, ok := entry.(apiclient.SolanaTransaction); err != nil || !ok || tx.Encoding != "base64" || tx.Payload == "" {
		t.Errorf("the solana build's entry %#v (%v), want a SolanaTransaction", entry, err)
	}
	for _, f := range slices.Concat(built.JSON200.Fees, solBuilt.JSON200.Fees) {
		if f.BaseUnits == "" || f.Amount == "" {
			t.Errorf("fee row %+v: want amount and baseUnits", f)
		}
	}
	quoted, err := c.GetSwapQuoteWithResponse(ctx, &apiclient.GetSwapQuoteParams{Chain: ptr(apiclient.GetSwapQuoteParamsChain("base")),
		InputMint: "native", OutputMint: aur, Amount: "1000000000000000"})
	if err != nil || quoted.JSON200 == nil {
		t.Fatalf("getSwapQuote: %v %s", err, body(quoted.Body))
	}
	v, err := quoted.JSON200.ValueByDiscriminator()
	if q, ok := v.(apiclient.EVMSwapQuoteResponse); err != nil || !ok || q.OutAmount == "" || q.Raw.OutAmount != q.OutAmount {
		t.Errorf("getSwapQuote decodes into %#v (%v), want an EVMSwapQuoteResponse whose raw agrees", v, err)
	}

	// A builder's refusal is replayed under the same Idempotency-Key, and the client sees that.
	transfer.Amount = "1.0000000000000000001" // 19 decimals: more than the gas token has
	first, err := c.BuildTransferWithResponse(ctx, &apiclient.BuildTransferParams{IdempotencyKey: "generated-1"}, transfer)
	if err != nil || first.JSON400 == nil || first.JSON400.Code != "invalid_amount" {
		t.Fatalf("buildTransfer: %v %s", err, body(first.Body))
	}
	again, err := c.BuildTransferWithResponse(ctx, &apiclient.BuildTransferParams{IdempotencyKey: "generated-1"}, transfer)
	if err != nil || again.Headers400 == nil || again.Headers400.IdempotentReplayed == nil || *again.Headers400.IdempotentReplayed != "true" ||
		again.Headers400.OriginalRequestId == nil || *again.Headers400.OriginalRequestId != first.JSON400.RequestId ||
		again.JSON400 == nil || again.JSON400.RequestId != again.Headers400.XRequestId {
		t.Fatalf("buildTransfer replay: %v %+v %s", err, again.Headers400, body(again.Body))
	}

	// Spending the burst gives 429 with Retry-After, in the body and the header.
	var limited *apiclient.GetTrendingResponse
	for range 40 {
		r, err := c.GetTrendingWithResponse(ctx, &apiclient.GetTrendingParams{})
		if err != nil {
			t.Fatal(err)
		}
		if r.JSON429 != nil {
			limited = r
			break
		}
	}
	if limited == nil || limited.JSON429.RetryAfterSec == nil || limited.Headers429 == nil || limited.Headers429.RetryAfter == nil ||
		*limited.Headers429.RetryAfter != int(*limited.JSON429.RetryAfterSec) {
		t.Fatalf("no 429 with Retry-After after spending the burst: %+v", limited)
	}
}

func body(b []byte) string { return string(b) }

func ptr[T any](v T) *T { return &v }
