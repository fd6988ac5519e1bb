package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/chain/solana"
)

// localSolana is what local mode's log line says about the local Solana validator.
type localSolana struct {
	RPC      string            `json:"rpc"`
	Mints    map[string]string `json:"mints"`
	Keypairs map[string]string `json:"keypairs"` // name -> "<address> secret <base58 secret key>"
}

// keypair returns a logged keypair's address and secret key.
func (l localSolana) keypair(t *testing.T, name string) (addr, secret string) {
	t.Helper()
	addr, secret, ok := strings.Cut(l.Keypairs[name], " secret ")
	if !ok {
		t.Fatalf("no keypair %s in the local validator's log line: %v", name, l.Keypairs)
	}
	return addr, secret
}

// localSolanaOf finds local mode's Solana line in the server's log.
func localSolanaOf(p *process) localSolana {
	p.t.Helper()
	for line := range strings.SplitSeq(p.stderr.String(), "\n") {
		var v struct {
			Msg string `json:"msg"`
			localSolana
		}
		if json.Unmarshal([]byte(line), &v) == nil && strings.HasPrefix(v.Msg, "LOCAL MODE: no Solana RPC") {
			return v.localSolana
		}
	}
	p.fatalf("no LOCAL MODE line for solana in the log")
	return localSolana{}
}

// TestSolanaEndToEnd: local mode serves solana from the local validator, through the real binary:
// /v1/chains lists it as a devnet, calls without chain go to it, holdings equal the seed, and a
// Token-2022 transfer built by the API, signed with a seeded test key and sent to the validator
// moves exactly the amount less the mint's transfer fee, reaches finalized, and confirms.
func TestSolanaEndToEnd(t *testing.T) {
	t.Parallel()
	bin := partnerdBinary(t)
	env := baseEnv("PARTNER_DATABASE_URL=sqlite:" + filepath.Join(t.TempDir(), "p.db"))
	e := &e2e{process: startServer(t, bin, env), bin: bin, env: env, client: &http.Client{Timeout: 30 * time.Second}}
	t.Cleanup(e.client.CloseIdleConnections)
	local := localSolanaOf(e.process)
	cons := as[access.Consumer](t, e.cli("consumer", "create", "--name", "Solana partner",
		"--scopes", "market:read,portfolio:read,quote:read,tx:build", "--rpm", "60000", "--burst", "1000", "--enable"))
	key := as[access.IssuedKey](t, e.cli("key", "create", "--consumer", strconv.Itoa(cons.ID), "--name", "k")).Key

	var chains struct {
		Chains []struct {
			ID, Network string
			Enabled     bool
			Operations  []string
		}
	}
	r := e.call(http.MethodGet, "/v1/chains", "", nil)
	if err := json.Unmarshal(r.raw, &chains); err != nil {
		t.Fatal(err)
	}
	if c := chains.Chains[0]; c.ID != "solana" || !c.Enabled || c.Network != "devnet" || !slices.Contains(c.Operations, "buildTransfer") ||
		!slices.Contains(c.Operations, "getHoldings") || !slices.Contains(c.Operations, "buildSwap") || !slices.Contains(c.Operations, "getPositions") {
		t.Fatalf("solana in /v1/chains = %+v; want enabled as a devnet with transfers, holdings, positions and swaps", c)
	}

	holder, secret := local.keypair(t, "holder-0")
	emb := local.Mints["EMB"]
	balance := func(owner, token string) string {
		t.Helper()
		r := e.call(http.MethodGet, "/v1/portfolio/"+owner+"/holdings", key, nil) // no chain: the default, solana
		e.expect(r, "holdings of "+owner, http.StatusOK, "")
		for _, h := range r.body["holdings"].([]any) {
			h := h.(map[string]any)
			if h["token"].(map[string]any)["address"] == token {
				return h["amount"].(string)
			}
		}
		return "0"
	}
	if got := balance(holder, local.Mints["USDC"]); got != "1251000.5" {
		t.Fatalf("holder-0's USDC = %s, want the seeded 1251000.5 (two accounts)", got)
	}
	before := balance(holder, emb)
	r = e.call(http.MethodGet, "/v1/tokens/"+emb, key, nil)
	e.expect(r, "EMB", http.StatusOK, "")
	if audit, _ := r.body["audit"].(map[string]any); audit == nil || !strings.Contains(string(r.raw), "transfer") {
		t.Fatalf("EMB = %s; want its audit, naming its transfer fee", r.raw)
	}

	// Bad input on Solana.
	r = e.call(http.MethodGet, "/v1/portfolio/0x00000000000000000000000000000000000000aa/holdings?chain=solana", key, nil)
	e.expect(r, "an EVM address on solana", http.StatusBadRequest, "invalid_address")
	transfer := func(amount, idem string) response {
		return e.call(http.MethodPost, "/v1/build/transfer", key, map[string]string{"chain": "solana", "user": holder,
			"to": "Getiq6bf2BFP4gNXBHsBeFDcoXe9JQhwap36ffw8fRXL", "token": emb, "amount": amount}, "Idempotency-Key", idem)
	}
	e.expect(transfer("1.0000001", "too-precise"), "more decimals than the mint's 6", http.StatusBadRequest, "invalid_amount")
	r = e.call(http.MethodGet, "/v1/portfolio/3QkfvpabHMF9CzxkvjQvHKR8mMcWTDnB2mnSa8sVZz7/holdings?chain=solana", key, nil)
	e.expect(r, "base58 of 31 bytes", http.StatusBadRequest, "invalid_address")
	r = e.call(http.MethodGet, "/v1/transactions/not-base58-0OIl/status?chain=solana", key, nil)
	e.expect(r, "a signature that is not base58", http.StatusBadRequest, "invalid_request")

	// 200 EMB at 1 %: the recipient gets 198.
	built := transfer("200", "emb-200")
	e.expect(built, "build a Token-2022 transfer", http.StatusOK, "")
	var b struct {
		Signing      struct{ Mode string }
		Fees         []struct{ Kind, Amount, BaseUnits string }
		Transactions []struct{ ID, Encoding, Payload string }
		Token        string `json:"confirmationToken"`
	}
	if err := json.Unmarshal(built.raw, &b); err != nil {
		t.Fatalf("decode the build: %v\n%s", err, built.raw)
	}
	if b.Signing.Mode != "sequential" || len(b.Transactions) != 1 || b.Transactions[0].Encoding != "base64" || b.Token == "" {
		t.Fatalf("build = %s; want one base64 transaction, sequential signing and a confirmation token", built.raw)
	}
	var fee, feeBase string
	for _, f := range b.Fees {
		if f.Kind == "transfer_fee" {
			fee, feeBase = f.Amount, f.BaseUnits
		}
	}
	if fee != "2" || feeBase != "2000000" {
		t.Fatalf("fees %+v; want the transfer fee of 2 EMB (2000000 base units)", b.Fees)
	}
	signed, err := solana.SignTransaction(b.Transactions[0].Payload, secret)
	if err != nil {
		t.Fatal(err)
	}
	sig := sendSolana(t, local.RPC, signed)

	var status string
	for deadline := time.Now().Add(30 * time.Second); status != "finalized"; {
		if time.Now().After(deadline) {
			t.Fatalf("the transfer is %q after 30 s, want finalized", status)
		}
		r := e.call(http.MethodGet, "/v1/transactions/"+sig+"/status?chain=solana", key, nil)
		e.expect(r, "status", http.StatusOK, "")
		status, _ = r.body["status"].(string)
		time.Sleep(200 * time.Millisecond)
	}
	r = e.call(http.MethodPost, "/v1/build/confirm", key, map[string]any{"confirmationToken": b.Token, "signatures": []string{sig}},
		"Idempotency-Key", "confirm-emb-200")
	e.expect(r, "confirm", http.StatusOK, "")
	if r.body["confirmed"] != true {
		t.Fatalf("confirm = %s, want confirmed", r.raw)
	}
	if got := balance("Getiq6bf2BFP4gNXBHsBeFDcoXe9JQhwap36ffw8fRXL", emb); got != "198" {
		t.Fatalf("the recipient holds %s EMB, want 198 (200 less the 1 %% fee)", got)
	}
	t.Logf("holder-0 EMB %s before; transfer %s finalized and confirmed", before, sig)
}

// sendSolana sends a signed transaction to a Solana JSON-RPC endpoint and returns its signature.
func sendSolana(t *testing.T, url, tx string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "sendTransaction",
		"params": []any{tx, map[string]string{"encoding": "base64"}}})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result string
		Error  *struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Error != nil || out.Result == "" {
		t.Fatalf("sendTransaction: %+v %v", out.Error, err)
	}
	return out.Result
}
