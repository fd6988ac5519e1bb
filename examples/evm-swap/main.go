// Command evm-swap swaps on an EVM chain through the partner API, the way a partner backend does:
// quote, build (the API returns unsigned transactions), sign each transaction exactly as built
// with the partner's own key, send them in order waiting for each receipt, confirm the build, and
// print each transaction's final status. The API never sees the key.
//
// It runs against `make run` (base served from the local devnet) as is; see README.md beside it.
// Secrets come from the environment only: PARTNER_API_KEY (the API key) and DEVNET_KEY (the
// signer's private key, 0x and 64 hex digits). Neither is ever printed.
package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

var (
	baseURL     = flag.String("base-url", envOr("PARTNER_BASE_URL", "http://localhost:8080"), "partner API base URL (env PARTNER_BASE_URL)")
	rpcURL      = flag.String("rpc-url", envOr("RPC_URL", "http://127.0.0.1:8545"), "JSON-RPC URL to send the signed transactions through (env RPC_URL)")
	chainName   = flag.String("chain", "base", "chain id of the partner API")
	inputMint   = flag.String("input-mint", "native", "token to sell: an address, or native for the gas token")
	outputMint  = flag.String("output-mint", "0xfA172D7e20A062de8B89f8B03821e77072B141B3", "token to buy (default: the devnet's AUR)")
	amount      = flag.String("amount", "", "amount of input-mint to sell, integer base units (required; 100000000000000000 is 0.1 ETH)")
	slippageBps = flag.Int("slippage-bps", 50, "accepted slippage, basis points")
	maxLossPpm  = flag.Int("max-value-loss-ppm", -1, "the value loss you reviewed and accept, ppm; only set it after reading a review_required answer (default: none)")
	confirmWait = flag.Duration("confirm-timeout", 3*time.Minute, "how long to wait for the build to be confirmed (final on chain)")
)

func main() {
	flag.Parse()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "evm-swap:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	apiKey, keyHex := os.Getenv("PARTNER_API_KEY"), os.Getenv("DEVNET_KEY")
	if apiKey == "" || keyHex == "" || *amount == "" {
		return errors.New("set PARTNER_API_KEY and DEVNET_KEY in the environment and give -amount (base units)")
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(keyHex, "0x"))
	if err != nil {
		return errors.New("DEVNET_KEY is not a private key (0x and 64 hex digits)") // never echo the key
	}
	user := crypto.PubkeyToAddress(key.PublicKey)
	api := &client{base: strings.TrimRight(*baseURL, "/"), key: apiKey}
	eth, err := ethclient.DialContext(ctx, *rpcURL)
	if err != nil {
		return fmt.Errorf("dial %s: %w", *rpcURL, err)
	}
	defer eth.Close()

	// 1. Quote.
	var q quote
	query := url.Values{"chain": {*chainName}, "inputMint": {*inputMint}, "outputMint": {*outputMint}, "amount": {*amount}, "slippageBps": {strconv.Itoa(*slippageBps)}}
	if err := api.do(ctx, "GET", "/v1/quotes/swap?"+query.Encode(), nil, "", &q); err != nil {
		return fmt.Errorf("quote: %w", err)
	}
	fmt.Printf("quote: in %s, out %s, min out %s, price impact %s%%, at block %d\n", q.InAmount, q.OutAmount, q.MinOutAmount, q.PriceImpactPct, q.Block)
	for _, h := range q.Route {
		fmt.Printf("  route: %s pool %s (%d bps): %s %s -> %s %s\n", h.Venue, h.Pool, h.FeeBps, h.AmountIn, h.TokenIn, h.AmountOut, h.TokenOut)
	}

	// 2. Build. The server quotes again; a large value loss needs the user's own review.
	req := map[string]any{"chain": *chainName, "user": user.Hex(), "inputMint": *inputMint, "outputMint": *outputMint, "amount": *amount, "slippageBps": *slippageBps}
	if *maxLossPpm >= 0 {
		req["maxValueLossPpm"] = *maxLossPpm
	}
	var b build
	idemKey := newKey() // a retry of this build sends it again with the same body
	if err := api.do(ctx, "POST", "/v1/build/swap", req, idemKey, &b); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Code == "review_required" {
			fmt.Printf("review required: this swap loses %d ppm of its value at the current price.\n", e.ValueLossPpm)
			fmt.Printf("If you accept that, run again with -max-value-loss-ppm %d (or more).\n", e.ValueLossPpm)
		}
		return fmt.Errorf("build: %w", err)
	}
	fmt.Printf("build: %d transaction(s), min out %s, value loss %v ppm (Idempotency-Key %s)\n", len(b.Transactions), b.Quote.MinOutAmount, b.Metadata["valueLossPpm"], idemKey)

	// 3. Sign each transaction exactly as built and send them in order, waiting for each receipt.
	chainID, err := eth.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("rpc chain id: %w", err)
	}
	var hashes []string
	for _, tx := range b.Transactions {
		h, err := send(ctx, eth, key, chainID, tx)
		if h != "" {
			hashes = append(hashes, h)
		}
		if err != nil {
			printStatuses(ctx, api, hashes)
			return fmt.Errorf("%s: %w", tx.ID, err)
		}
	}

	// 4. Confirm, polling while the transactions are not final. A pending answer is never replayed,
	// so every poll can use one Idempotency-Key.
	deadline := time.Now().Add(*confirmWait)
	confirmKey := newKey()
	for b.ConfirmationToken != "" {
		var c struct {
			Confirmed     bool     `json:"confirmed"`
			PendingIDs    []string `json:"pendingIds"`
			PendingReason string   `json:"pendingReason"`
		}
		body := map[string]any{"confirmationToken": b.ConfirmationToken, "signatures": hashes}
		if err := api.do(ctx, "POST", "/v1/build/confirm", body, confirmKey, &c); err != nil {
			return fmt.Errorf("confirm: %w", err)
		}
		if c.Confirmed {
			fmt.Println("confirm: confirmed")
			break
		}
		if time.Now().After(deadline) {
			printStatuses(ctx, api, hashes)
			return fmt.Errorf("gave up waiting after %v (-confirm-timeout): still %s for %v; the transactions were sent, "+
				"so look their hashes up (GET /v1/transactions/{hash}/status) before building again", *confirmWait, c.PendingReason, c.PendingIDs)
		}
		fmt.Printf("confirm: pending (%s of %v), asking again in 2s\n", c.PendingReason, c.PendingIDs)
		time.Sleep(2 * time.Second)
	}
	printStatuses(ctx, api, hashes)
	return nil
}

// send signs one built transaction as an EIP-1559 transaction with exactly its fields, sends it,
// waits for its receipt (which must succeed) and, when the entry says so, for the allowance the
// next call needs. It returns the hash once the transaction is sent.
func send(ctx context.Context, eth *ethclient.Client, key *ecdsa.PrivateKey, chainID *big.Int, tx builtTx) (string, error) {
	me := crypto.PubkeyToAddress(key.PublicKey)
	if !strings.EqualFold(tx.From, me.Hex()) || tx.ChainID != chainID.Int64() {
		return "", fmt.Errorf("built for %s on chain %d; this wallet is %s on chain %s", tx.From, tx.ChainID, me, chainID)
	}
	// Nonces are serialized per wallet: if another transaction took this nonce, build again.
	if next, err := eth.PendingNonceAt(ctx, me); err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	} else if next != tx.Nonce {
		return "", fmt.Errorf("built with nonce %d but the wallet's next nonce is %d: another transaction went first, build again", tx.Nonce, next)
	}
	value, ok1 := new(big.Int).SetString(orZero(tx.Value), 10)
	feeCap, ok2 := new(big.Int).SetString(tx.MaxFeePerGas, 10)
	tip, ok3 := new(big.Int).SetString(tx.MaxPriorityFeePerGas, 10)
	data, err := hexutil.Decode(tx.Data)
	if !ok1 || !ok2 || !ok3 || err != nil || !common.IsHexAddress(tx.To) {
		return "", errors.New("malformed transaction entry")
	}
	to := common.HexToAddress(tx.To)
	signed, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: tx.Nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: tx.Gas, To: &to, Value: value, Data: data})
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	if err := eth.SendTransaction(ctx, signed); err != nil {
		return "", fmt.Errorf("send: %w", err)
	}
	hash := signed.Hash().Hex()
	rc, err := waitFor(ctx, 2*time.Minute, func() (*types.Receipt, error) { return eth.TransactionReceipt(ctx, signed.Hash()) })
	if err != nil {
		return hash, fmt.Errorf("no receipt for %s: %w", hash, err)
	}
	fmt.Printf("sent %s %s: block %s, gas used %d, status %d\n", tx.ID, hash, rc.BlockNumber, rc.GasUsed, rc.Status)
	if rc.Status != types.ReceiptStatusSuccessful {
		return hash, fmt.Errorf("transaction %s reverted", hash)
	}
	if a := tx.Payload.Expect.Allowance; a != nil { // e.g. the approve before a token swap
		token, want := common.HexToAddress(a.Token), new(big.Int)
		want.SetString(a.Amount, 10)
		call := hexutil.MustDecode("0xdd62ed3e") // ERC-20 allowance(owner, spender)
		call = append(call, common.LeftPadBytes(common.HexToAddress(a.Owner).Bytes(), 32)...)
		call = append(call, common.LeftPadBytes(common.HexToAddress(a.Spender).Bytes(), 32)...)
		_, err := waitFor(ctx, 30*time.Second, func() (*big.Int, error) {
			out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: call}, nil)
			if err == nil && new(big.Int).SetBytes(out).Cmp(want) < 0 {
				err = ethereum.NotFound // not there yet
			}
			return new(big.Int).SetBytes(out), err
		})
		if err != nil {
			return hash, fmt.Errorf("allowance of %s for %s did not reach %s: %w", a.Token, a.Spender, a.Amount, err)
		}
	}
	return hash, nil
}

// waitFor calls f every 200 ms until it returns something other than ethereum.NotFound, for at most d.
func waitFor[T any](ctx context.Context, d time.Duration, f func() (T, error)) (T, error) {
	end := time.Now().Add(d)
	for {
		v, err := f()
		if !errors.Is(err, ethereum.NotFound) || time.Now().After(end) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// printStatuses prints what the API says of each hash: pending, confirmed, finalized or failed.
func printStatuses(ctx context.Context, api *client, hashes []string) {
	for _, h := range hashes {
		var s struct {
			Status        string `json:"status"`
			Block         int64  `json:"block"`
			Confirmations int    `json:"confirmations"`
			Error         string `json:"error"`
		}
		if err := api.do(ctx, "GET", "/v1/transactions/"+h+"/status?chain="+url.QueryEscape(*chainName), nil, "", &s); err != nil {
			fmt.Printf("status %s: %v\n", h, err)
			continue
		}
		if s.Error != "" {
			s.Status += " (" + s.Error + ")"
		}
		fmt.Printf("status %s: %s, block %d, %d confirmation(s)\n", h, s.Status, s.Block, s.Confirmations)
	}
}

// The API's answers, with the fields this program reads (answers may gain fields).
type quote struct {
	InAmount, OutAmount, MinOutAmount, PriceImpactPct string
	Block                                             int64
	Route                                             []struct {
		Pool, Venue, TokenIn, TokenOut, AmountIn, AmountOut string
		FeeBps                                              int
	}
}

type build struct {
	Transactions      []builtTx      `json:"transactions"`
	Quote             quote          `json:"quote"`
	Metadata          map[string]any `json:"metadata"`
	ConfirmationToken string         `json:"confirmationToken"`
}

type builtTx struct {
	ID, From, To, Data, Value, MaxFeePerGas, MaxPriorityFeePerGas string
	ChainID                                                       int64
	Gas, Nonce                                                    uint64
	Payload                                                       struct {
		Expect struct {
			Allowance *struct{ Token, Owner, Spender, Amount string }
		}
	}
}

// apiError is the error envelope: {ok:false, error, code, requestId} and optional fields.
type apiError struct {
	Status       int    `json:"-"`
	Message      string `json:"error"`
	Code         string `json:"code"`
	RequestID    string `json:"requestId"`
	ValueLossPpm int    `json:"valueLossPpm"`
	RetryAfter   int    `json:"retryAfterSec"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("HTTP %d %s: %s (requestId %s)", e.Status, e.Code, e.Message, e.RequestID)
}

type client struct{ base, key string }

// do calls the API and decodes a success into out. A builder call carries idemKey, and a retry
// (network error, 429, 502 to 504, or idempotency_pending) sends the same key and the same body
// bytes, so the server replays the first result instead of building twice.
func (c *client) do(ctx context.Context, method, path string, body any, idemKey string, out any) error {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * time.Second)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(raw))
		if err != nil {
			return err
		}
		req.Header.Set("X-API-Key", c.key)
		req.Header.Set("Content-Type", "application/json")
		if idemKey != "" {
			req.Header.Set("Idempotency-Key", idemKey)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			last = err
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			last = err
			continue
		}
		if resp.StatusCode == http.StatusOK {
			return json.Unmarshal(data, out)
		}
		e := &apiError{Status: resp.StatusCode}
		if json.Unmarshal(data, e) != nil || e.Code == "" {
			e.Code, e.Message = "unexpected_answer", string(data)
		}
		last = e
		switch {
		case e.Status == http.StatusTooManyRequests && e.RetryAfter > 0:
			time.Sleep(time.Duration(e.RetryAfter) * time.Second)
		case e.Status == http.StatusTooManyRequests, e.Status >= 502 && e.Status <= 504, e.Code == "idempotency_pending":
		default:
			return e
		}
	}
	return last
}

// newKey is a fresh Idempotency-Key.
func newKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "evm-swap-" + hex.EncodeToString(b)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}
