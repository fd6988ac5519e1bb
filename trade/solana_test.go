package trade

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// Solana transfers through the trade service, against the local validator (standard Solana
// JSON-RPC over LiteSVM): each build is signed with a seeded test keypair (solana.SignTransaction),
// sent with a plain JSON-RPC sendTransaction, and the balances after must equal the request and
// the build's fee rows exactly; then status and confirm answer as the contract says.

const consumer = 7

type solEnv struct {
	rt  *countingTransport
	n   *localnet.Node
	c   *solana.Client
	db  *ent.Client
	svc *Service
	log *slog.Logger
}

func newSolEnv(t *testing.T) *solEnv {
	t.Helper()
	// Finalization 20 blocks (2 s) behind: long enough to see a confirm pending on finality. No
	// background trader: nothing trades between a quote and its transaction unless a test does.
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 20})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// A priority fee floor, so that the fee charged includes one (an idle cluster's recent fees are 0).
	rt := &countingTransport{base: http.DefaultTransport}
	c, _, err := solana.Open(t.Context(), "solana", chain.ChainConfig{RPCURLs: []string{n.URL}, Network: chain.Devnet},
		solana.Options{MinUnitPrice: 12_345, Transport: rt}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	st, err := store.Open(t.Context(), "sqlite:"+t.TempDir()+"/trade.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	usdc, _ := n.Mint("USDC")
	svc := New(st.Client, []Chain{NewSolanaChain(SolanaChain{Name: "solana", Client: c, Accounts: solana.NewSource(c), Stablecoins: []string{usdc.Address},
		Venues: []chain.Venue{raydium.Venue{}}})}, log,
		WithQuoteKey([]byte("test secret key")))
	return &solEnv{rt: rt, n: n, c: c, db: st.Client, svc: svc, log: log}
}

// countingTransport counts the adapter's HTTP round trips (a JSON-RPC batch is one).
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

func (e *solEnv) keypair(t *testing.T, name string) localnet.Keypair {
	t.Helper()
	k, ok := e.n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	return k
}

func (e *solEnv) mint(t *testing.T, symbol string) localnet.Mint {
	t.Helper()
	m, ok := e.n.Mint(symbol)
	if !ok {
		t.Fatalf("no mint %s", symbol)
	}
	return m
}

// send signs a build's one transaction with key and sends it (sendTransaction, base64); it
// returns the signature the validator answers.
func (e *solEnv) send(t *testing.T, b Build, key localnet.Keypair) string {
	t.Helper()
	if len(b.Transactions) != 1 || b.Transactions[0].Payload == nil {
		t.Fatalf("transactions %+v", b.Transactions)
	}
	signed, err := solana.SignTransaction(b.Transactions[0].Payload.Transaction, key.SecretKey)
	if err != nil {
		t.Fatal(err)
	}
	var sig string
	if err := rpcCall(t.Context(), e.n.URL, "sendTransaction", []any{signed, map[string]any{"encoding": "base64"}}, &sig); err != nil {
		t.Fatalf("send: %v\n%s", err, e.n.Log())
	}
	return sig
}

// rpcCall makes one JSON-RPC 2.0 call.
func rpcCall(ctx context.Context, url, method string, params any, out any) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return err
	}
	if r.Error != nil {
		return errors.New(r.Error.Message)
	}
	return json.Unmarshal(r.Result, out)
}

// balances are a wallet's lamports and its balance of each mint (summed over its accounts).
type balances struct {
	lamports uint64
	tokens   map[string]uint64
}

func (e *solEnv) balancesOf(t *testing.T, wallets ...string) []balances {
	t.Helper()
	res, err := e.c.Holdings(t.Context(), wallets)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]balances, len(wallets))
	for i, h := range res.Owners {
		if h.Err != nil {
			t.Fatal(h.Err)
		}
		out[i] = balances{lamports: h.Lamports, tokens: map[string]uint64{}}
		for _, tb := range h.Tokens {
			out[i].tokens[tb.Mint] += tb.Amount.Uint64()
		}
	}
	return out
}

// confirmFinal confirms b, whose one transaction was sent as sig, for consumer: confirm checks what
// was mined against what was built, then waits for the chain's finality.
func (e *solEnv) confirmFinal(t *testing.T, b Build, sig string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		res, err := e.svc.Confirm(t.Context(), consumer, b.ConfirmationToken, []*string{&sig})
		if err != nil {
			t.Fatalf("confirm: %v", err)
		}
		if res.Confirmed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("confirm still pending: %+v", res)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitStatus polls the service's status of sig until it is want, recording the statuses seen.
func (e *solEnv) waitStatus(t *testing.T, sig, want string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var seen []string
	for {
		e.rt.n.Store(0)
		st, err := e.svc.Status(ctx, "solana", sig)
		if err != nil {
			t.Fatal(err)
		}
		if n := e.rt.n.Load(); n != 1 {
			t.Errorf("the status took %d round trips, want 1", n)
		}
		if len(seen) == 0 || seen[len(seen)-1] != st.Status {
			seen = append(seen, st.Status)
		}
		if st.Status == want {
			if st.Block == 0 || st.Error != "" {
				t.Errorf("status %+v", st)
			}
			return seen
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never became %s: saw %v", sig, want, seen)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freshWallet is an address the validator has never seen.
func freshWallet(label string) string {
	h := sha256.Sum256([]byte("partnerd trade test " + label))
	return chain.EncodeBase58(h[:])
}

// feeSum sums the fee rows of a kind in lamports (SOL rows) or base units (token rows).
func feeSum(t *testing.T, b Build, kind string, decimals int) uint64 {
	t.Helper()
	var sum uint64
	for _, f := range b.Fees {
		if f.Kind != kind {
			continue
		}
		if f.Decimals != decimals {
			t.Fatalf("fee row %+v: decimals %d, want %d", f, f.Decimals, decimals)
		}
		sum += checkFeeRow(t, f).Uint64()
	}
	return sum
}

// checkFeeRow holds a fee row to the one rule of every row: amount in token units, baseUnits the
// same amount as an integer, with the token's decimals. It returns the base units.
func checkFeeRow(t *testing.T, f Fee) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(f.BaseUnits, 10)
	if !ok || n.Sign() < 0 {
		t.Fatalf("fee row %+v: baseUnits is not an integer", f)
	}
	if f.Amount != market.Units(n, f.Decimals) {
		t.Fatalf("fee row %+v: amount %s is not baseUnits %s at %d decimals", f, f.Amount, f.BaseUnits, f.Decimals)
	}
	return n
}

func TestSolanaTransfers(t *testing.T) {
	e := newSolEnv(t)
	sender := e.keypair(t, "holder-3") // holds SOL, USDC and EMB
	holder := e.keypair(t, "holder-6").Address

	for _, tc := range []struct {
		name, symbol, to, amount string // symbol "" for SOL
		creates                  bool
	}{
		{"SOL", "", holder, "0.123456789", false},
		{"SOL to a new wallet", "", freshWallet("sol"), "0.5", false},
		{"USDC to a holder", "USDC", holder, "12.345678", false},
		{"USDC to a new wallet: creates its account", "USDC", freshWallet("usdc"), "1.5", true},
		{"EMB (Token-2022) with its 1% fee", "EMB", holder, "123.456789", false},
		{"EMB at the fee cap, creating the account", "EMB", freshWallet("emb"), "1500", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := TransferRequest{Chain: "solana", User: sender.Address, To: tc.to, Token: Native, Amount: tc.amount}
			decimals, mint := chain.SOLDecimals, ""
			var m localnet.Mint
			if tc.symbol != "" {
				m = e.mint(t, tc.symbol)
				r.Token, mint, decimals = m.Address, m.Address, int(m.Decimals)
			}
			before := e.balancesOf(t, sender.Address, tc.to)
			e.rt.n.Store(0)
			b, err := e.svc.BuildTransfer(t.Context(), consumer, r)
			if err != nil {
				t.Fatal(err)
			}
			if n := e.rt.n.Load(); n > 2 {
				t.Errorf("the build took %d round trips, want at most 2", n)
			}
			// The token is unknown until the build is kept (the API keeps it with its answer).
			unsent := "1111111111111111111111111111111111111111111111111111111111111111"
			if _, err := e.svc.Confirm(t.Context(), consumer, b.ConfirmationToken, []*string{&unsent}); !errors.Is(err, ErrNotFound) {
				t.Errorf("confirm before the build was kept: %v, want ErrNotFound", err)
			}
			if err := b.Keep(t.Context(), e.db); err != nil {
				t.Fatal(err)
			}

			// The build's shape.
			if len(b.Transactions) != 1 {
				t.Fatalf("%d transactions", len(b.Transactions))
			}
			tx := b.Transactions[0]
			if tx.ID != "transfer" || tx.Encoding != "base64" || tx.From != sender.Address || tx.Payload.Transaction == "" || tx.ChainID != 0 || tx.Data != "" {
				t.Errorf("transaction %+v", tx)
			}
			if !strings.HasPrefix(b.ConfirmationToken, "ct_") {
				t.Errorf("confirmation token %q", b.ConfirmationToken)
			}
			want, _ := chain.HumanToBaseUnits(tc.amount, decimals)
			if b.Metadata["baseUnits"] != want.String() || b.Metadata["decimals"] != decimals || b.Metadata["createsDestination"] != tc.creates {
				t.Errorf("metadata %v", b.Metadata)
			}
			kinds := []string{}
			for _, f := range b.Fees {
				kinds = append(kinds, f.Kind)
				if f.TxID != "transfer" {
					t.Errorf("fee row %+v", f)
				}
			}
			wantKinds := []string{"network", FeePriority}
			if tc.creates {
				wantKinds = append(wantKinds, FeeRent)
			}
			var wantFee uint64
			if m.TransferFee != nil {
				wantKinds = append(wantKinds, FeeTransferFee)
				wantFee = min((want.Uint64()*uint64(m.TransferFee.BasisPoints)+9_999)/10_000, m.TransferFee.MaximumFee)
			}
			if !slices.Equal(kinds, wantKinds) {
				t.Errorf("fee kinds %v, want %v", kinds, wantKinds)
			}
			network, priority, rent := feeSum(t, b, "network", 9), feeSum(t, b, FeePriority, 9), feeSum(t, b, FeeRent, 9)
			transferFee := feeSum(t, b, FeeTransferFee, decimals)
			if network != 5000 || priority == 0 || (rent > 0) != tc.creates || transferFee != wantFee {
				t.Errorf("fees: network %d, priority %d, rent %d, transfer fee %d (want %d)", network, priority, rent, transferFee, wantFee)
			}
			if tc.symbol == "EMB" && (transferFee == 0 || b.Fees[len(b.Fees)-1].FeeBps != 100 || b.Fees[len(b.Fees)-1].Token != mint) {
				t.Errorf("EMB fee rows %+v", b.Fees)
			}
			if tc.amount == "1500" && transferFee != m.TransferFee.MaximumFee {
				t.Errorf("at 1500 EMB the fee %d is not the cap %d", transferFee, m.TransferFee.MaximumFee)
			}

			// Sign, send; confirm right away is pending (not yet final), never confirmed.
			sig := e.send(t, b, sender)
			e.rt.n.Store(0)
			res, err := e.svc.Confirm(t.Context(), consumer, b.ConfirmationToken, []*string{&sig})
			if err != nil {
				t.Fatal(err)
			}
			if n := e.rt.n.Load(); n != 1 {
				t.Errorf("the confirm took %d round trips, want 1", n)
			}
			if res.Confirmed || res.Updated || !slices.Equal(res.PendingIDs, []string{"transfer"}) ||
				(res.PendingReason != PendingReceipt && res.PendingReason != PendingFinality && res.PendingReason != PendingNotFound) {
				t.Errorf("confirm before finality: %+v", res)
			}

			// Status goes to finalized through confirmed; the balances then equal the request exactly.
			seen := e.waitStatus(t, sig, StatusFinalized)
			for _, s := range seen {
				if s != StatusPending && s != StatusConfirmed && s != StatusFinalized {
					t.Errorf("statuses seen %v", seen)
				}
			}
			t.Logf("statuses seen: %v", seen)
			after := e.balancesOf(t, sender.Address, tc.to)
			solOut := network + priority + rent
			if mint == "" {
				solOut += want.Uint64()
				if got := after[1].lamports - before[1].lamports; got != want.Uint64() {
					t.Errorf("the recipient got %d lamports, want %d", got, want.Uint64())
				}
			} else {
				if got := before[0].tokens[mint] - after[0].tokens[mint]; got != want.Uint64() {
					t.Errorf("the sender sent %d, want %d", got, want.Uint64())
				}
				received := want.Uint64() - transferFee
				if got := after[1].tokens[mint] - before[1].tokens[mint]; got != received {
					t.Errorf("the recipient received %d, want %d (%d less the fee %d)", got, received, want.Uint64(), transferFee)
				}
				if b.Metadata["receivedBaseUnits"] != new(big.Int).SetUint64(received).String() {
					t.Errorf("metadata received %v, want %d", b.Metadata["receivedBaseUnits"], received)
				}
			}
			if got := before[0].lamports - after[0].lamports; got != solOut {
				t.Errorf("the sender spent %d lamports, want %d (network %d, priority %d, rent %d)", got, solOut, network, priority, rent)
			}

			// Confirm: confirmed and updated once; then confirmed, not updated.
			res, err = e.svc.Confirm(t.Context(), consumer, b.ConfirmationToken, []*string{&sig})
			if err != nil || !res.Confirmed || !res.Updated || len(res.PendingIDs) != 0 {
				t.Errorf("confirm: %+v, %v", res, err)
			}
			res, err = e.svc.Confirm(t.Context(), consumer, b.ConfirmationToken, []*string{&sig})
			if err != nil || !res.Confirmed || res.Updated {
				t.Errorf("second confirm: %+v, %v", res, err)
			}
			// Another consumer's token is not found.
			if _, err := e.svc.Confirm(t.Context(), consumer+1, b.ConfirmationToken, []*string{&sig}); !errors.Is(err, ErrNotFound) {
				t.Errorf("another consumer's confirm: %v", err)
			}
		})
	}
}

// rewriting alters the transactions the adapter reads, as a wallet's edits would show on chain.
type rewriting struct {
	SolanaClient
	edit func(*chain.SVMSentTx)
}

func (r rewriting) Transactions(ctx context.Context, sigs []string) ([]chain.SVMSentTx, error) {
	txs, err := r.SolanaClient.Transactions(ctx, sigs)
	for i := range txs {
		if txs[i].HasMessage {
			r.edit(&txs[i])
		}
	}
	return txs, err
}

func TestSolanaConfirmVerifies(t *testing.T) {
	e := newSolEnv(t)
	sender := e.keypair(t, "holder-5")
	usdc := e.mint(t, "USDC")
	to := e.keypair(t, "holder-6").Address
	build := func(amount string) Build {
		b, err := e.svc.BuildTransfer(t.Context(), consumer, TransferRequest{Chain: "solana", User: sender.Address, To: to, Token: usdc.Address, Amount: amount})
		if err == nil {
			err = b.Keep(t.Context(), e.db)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Two builds: 1 USDC and 2 USDC; the 2 USDC one is signed and sent.
	one, two := build("1"), build("2")
	sig := e.send(t, two, sender)
	e.waitStatus(t, sig, StatusFinalized)

	// Its signature against the 1 USDC build's token: what was mined is not what was built.
	_, err := e.svc.Confirm(t.Context(), consumer, one.ConfirmationToken, []*string{&sig})
	var v *VerificationError
	if !errors.As(err, &v) {
		t.Fatalf("confirm of another build's transaction: %v", err)
	}
	if got := v.Verification[sig]; got.Result != "mismatch" || !slices.Equal(got.Fields, []string{chain.SVMDiffInstructions}) {
		t.Errorf("verification %v", v.Verification)
	}

	// Bad confirm requests.
	bad := "not-a-signature"
	for name, sigs := range map[string][]*string{
		"no signature":       {},
		"two signatures":     {&sig, &sig},
		"a null signature":   {nil},
		"a bad signature":    {&bad},
		"an EVM transaction": {ptr("0x5c1f0e7b9a3d2e48c6b1f07a9d3e52c8b4f6a1e09d7c3b25e8f4a61c0b9d7e3a")},
	} {
		if _, err := e.svc.Confirm(t.Context(), consumer, two.ConfirmationToken, sigs); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A signature the cluster has never seen: pending, not found.
	unseen := chain.EncodeBase58(bytes.Repeat([]byte{7}, 64))
	if res, err := e.svc.Confirm(t.Context(), consumer, two.ConfirmationToken, []*string{&unseen}); err != nil || res.Confirmed ||
		res.PendingReason != PendingNotFound {
		t.Errorf("an unseen signature: %+v, %v", res, err)
	}

	// A wallet that re-priced the priority fee and signed with a newer blockhash: the same transfer,
	// confirmed. Another payer or other instructions: a mismatch.
	for _, tc := range []struct {
		name     string
		edit     func(*chain.SVMSentTx)
		fields   []string
		finality string
		pending  string
	}{
		{"only confirmed yet", func(tx *chain.SVMSentTx) { tx.Status = chain.SVMStatusConfirmed }, nil, "", PendingFinality},
		{"confirmed is enough", func(tx *chain.SVMSentTx) { tx.Status = chain.SVMStatusConfirmed }, nil, chain.SVMStatusConfirmed, ""},
		{"failed", func(tx *chain.SVMSentTx) { tx.Failed, tx.Err = true, `{"InstructionError":[2,{"Custom":1}]}` }, nil, "", ""},
		{"re-priced, newer blockhash", func(tx *chain.SVMSentTx) {
			for i, ix := range tx.Instructions {
				if ix.Program == solana.ComputeBudgetProgram && len(ix.Data) > 0 && ix.Data[0] == 3 { // SetComputeUnitPrice
					tx.Instructions[i].Data = append([]byte{3}, bytes.Repeat([]byte{0x42}, 8)...)
				}
			}
			tx.RecentBlockhash = freshWallet("another blockhash")
			if d, err := e.c.Diff(two.Transactions[0].Payload.Transaction, *tx); err != nil ||
				!slices.Equal(d, []string{chain.SVMDiffComputeBudget, chain.SVMDiffBlockhash}) {
				t.Errorf("the edited transaction differs by %v, %v", d, err)
			}
		}, nil, "", ""},
		{"another payer", func(tx *chain.SVMSentTx) { tx.Payer = freshWallet("payer") }, []string{chain.SVMDiffPayer}, "", ""},
		{"another recipient account", func(tx *chain.SVMSentTx) {
			last := &tx.Instructions[len(tx.Instructions)-1]
			last.Accounts = slices.Clone(last.Accounts)
			last.Accounts[2] = freshWallet("recipient")
		}, []string{chain.SVMDiffInstructions}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := New(e.db, []Chain{NewSolanaChain(SolanaChain{Name: "solana", Client: rewriting{e.c, tc.edit}, Finality: tc.finality})}, e.log)
			res, err := svc.Confirm(t.Context(), consumer, two.ConfirmationToken, []*string{&sig})
			switch {
			case tc.name == "failed":
				if !errors.As(err, &v) || v.Verification[sig].Result != "failed" || v.Verification[sig].Reason == "" {
					t.Errorf("confirm of a failed transaction: %+v, %v", res, err)
				}
				return
			case tc.pending != "":
				if err != nil || res.Confirmed || res.PendingReason != tc.pending || !slices.Equal(res.PendingIDs, []string{"transfer"}) {
					t.Errorf("confirm: %+v, %v", res, err)
				}
				return
			}
			if tc.fields == nil {
				if err != nil || !res.Confirmed {
					t.Errorf("confirm: %+v, %v", res, err)
				}
				return
			}
			if !errors.As(err, &v) || !slices.Equal(v.Verification[sig].Fields, tc.fields) {
				t.Errorf("confirm: %+v, %v", res, err)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestSolanaBadInput(t *testing.T) {
	e := newSolEnv(t)
	sender := e.keypair(t, "holder-5").Address
	to := e.keypair(t, "holder-6").Address
	usdc := e.mint(t, "USDC").Address
	for _, tc := range []struct {
		name                    string
		user, to, token, amount string
		want                    []error
	}{
		{"an EVM recipient", sender, "0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d", usdc, "1", []error{ErrInvalid, chain.ErrInvalidAddress}},
		{"an EVM sender", "0x7C3A91F4E2b85D06a1C9e3F7B2D4058E6A1c9b3d", to, Native, "1", []error{ErrInvalid, chain.ErrInvalidAddress}},
		{"base58 of 31 bytes", sender, chain.EncodeBase58(bytes.Repeat([]byte{9}, 31)), Native, "1", []error{ErrInvalid, chain.ErrInvalidAddress}},
		{"USDC beyond 6 decimals", sender, to, usdc, "1.1234567", []error{ErrInvalidAmount, chain.ErrInvalidAmount}},
		{"SOL beyond 9 decimals", sender, to, Native, "0.0000000001", []error{ErrInvalidAmount}},
		{"a malformed amount", sender, to, Native, "1e9", []error{ErrInvalidAmount}},
		{"a token that is a wallet", sender, to, to, "1", []error{ErrInvalid, chain.ErrInvalidSolanaToken}},
		{"more USDC than held", sender, to, usdc, "501", []error{ErrPrerequisite}},
		{"more SOL than held", sender, to, Native, "1000000", []error{ErrPrerequisite}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.BuildTransfer(t.Context(), consumer, TransferRequest{Chain: "solana", User: tc.user, To: tc.to, Token: tc.token, Amount: tc.amount})
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("err %v, want %v", err, w)
				}
			}
			if err != nil {
				t.Logf("%v", err)
			}
		})
	}
	if _, err := e.svc.Status(t.Context(), "solana", "0xabc"); !errors.Is(err, ErrInvalid) {
		t.Errorf("status of an EVM hash: %v", err)
	}
	if st, err := e.svc.Status(t.Context(), "solana", chain.EncodeBase58(bytes.Repeat([]byte{7}, 64))); err != nil || st.Status != StatusUnknown {
		t.Errorf("status of an unseen signature: %+v, %v", st, err)
	}
	// Signing: a key that does not sign the transaction, a key that is not a key.
	b, err := e.svc.BuildTransfer(t.Context(), consumer, TransferRequest{Chain: "solana", User: sender, To: to, Token: Native, Amount: "0.01"})
	if err != nil {
		t.Fatal(err)
	}
	other := e.keypair(t, "holder-6").SecretKey
	if _, err := solana.SignTransaction(b.Transactions[0].Payload.Transaction, other); !errors.Is(err, solana.ErrSign) || strings.Contains(err.Error(), other) {
		t.Errorf("signing with a non-signer: %v", err)
	}
	if _, err := solana.SignTransaction(b.Transactions[0].Payload.Transaction, "abc"); !errors.Is(err, solana.ErrSign) {
		t.Errorf("signing with a bad key: %v", err)
	}
	if _, err := solana.SignTransaction("AAAA", e.keypair(t, "holder-5").SecretKey); !errors.Is(err, solana.ErrSign) {
		t.Errorf("signing a bad payload: %v", err)
	}
}

// TestSolanaUpstream: an RPC that refuses connections is ErrUpstreamUnavailable, one that hangs
// ErrUpstreamTimeout, through builds, statuses and confirms alike.
func TestSolanaUpstream(t *testing.T) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) }) // runs first
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	st, err := store.Open(t.Context(), "sqlite:"+t.TempDir()+"/trade.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		url  string
		want error
	}{{downURL, chain.ErrUpstreamUnavailable}, {hang.URL, chain.ErrUpstreamTimeout}} {
		c, err := solana.New([]string{tc.url}, solana.Options{CallTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		svc := New(st.Client, []Chain{NewSolanaChain(SolanaChain{Name: "solana", Client: c})}, log)
		a, b := freshWallet("a"), freshWallet("b")
		if _, err := svc.BuildTransfer(t.Context(), consumer, TransferRequest{Chain: "solana", User: a, To: b, Token: Native, Amount: "1"}); !errors.Is(err, tc.want) {
			t.Errorf("%s: build: %v", tc.want, err)
		}
		sig := chain.EncodeBase58(bytes.Repeat([]byte{7}, 64))
		if _, err := svc.Status(t.Context(), "solana", sig); !errors.Is(err, tc.want) {
			t.Errorf("%s: status: %v", tc.want, err)
		}
		c.Close()
	}
}

// fakeStatuses answers SignatureStatuses with fixed statuses.
type fakeStatuses struct {
	SolanaClient
	st chain.SVMSigStatus
}

func (f fakeStatuses) SignatureStatuses(_ context.Context, sigs []string) ([]chain.SVMSigStatus, error) {
	st := f.st
	st.Signature = sigs[0]
	return []chain.SVMSigStatus{st}, nil
}

// TestSolanaStatusMapping: the cluster's commitment levels in the status vocabulary.
func TestSolanaStatusMapping(t *testing.T) {
	sig := chain.EncodeBase58(bytes.Repeat([]byte{7}, 64))
	for _, tc := range []struct {
		in   chain.SVMSigStatus
		want TxStatus
	}{
		{chain.SVMSigStatus{}, TxStatus{Status: StatusUnknown}},
		{chain.SVMSigStatus{Found: true, Status: chain.SVMStatusProcessed, Slot: 9}, TxStatus{Status: StatusPending, Block: 9}},
		{chain.SVMSigStatus{Found: true, Status: chain.SVMStatusProcessed, Slot: 9, Failed: true, Err: `{"x":1}`}, TxStatus{Status: StatusPending, Block: 9}},
		{chain.SVMSigStatus{Found: true, Status: chain.SVMStatusConfirmed, Slot: 9, Confirmations: 3}, TxStatus{Status: StatusConfirmed, Block: 9, Confirmations: 4}},
		{chain.SVMSigStatus{Found: true, Status: chain.SVMStatusFinalized, Slot: 9}, TxStatus{Status: StatusFinalized, Block: 9}},
		{chain.SVMSigStatus{Found: true, Status: chain.SVMStatusConfirmed, Slot: 9, Failed: true, Err: `{"InstructionError":[2,{"Custom":1}]}`},
			TxStatus{Status: StatusFailed, Block: 9, Error: `{"InstructionError":[2,{"Custom":1}]}`}},
	} {
		svc := New(nil, []Chain{NewSolanaChain(SolanaChain{Name: "solana", Client: fakeStatuses{st: tc.in}})}, nil)
		if got, err := svc.Status(t.Context(), "solana", sig); err != nil || got != tc.want {
			t.Errorf("%+v: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	if !New(nil, []Chain{NewSolanaChain(SolanaChain{Name: "solana"})}, nil).ServesTransfers("solana") || New(nil, nil, nil).ServesTransfers("solana") {
		t.Error("ServesTransfers")
	}
	if New(nil, []Chain{NewSolanaChain(SolanaChain{Name: "solana"})}, nil).ServesSwaps("solana") {
		t.Error("ServesSwaps(solana) without a pool reader")
	}
}

// TestSolanaErrorMapping: the adapter's errors as the service's.
func TestSolanaErrorMapping(t *testing.T) {
	err := solanaError("transfer", &chain.SVMSimulationError{Err: `{"InstructionError":[2,{"Custom":1}]}`, Logs: []string{"a", "b", "c", "d"}})
	var sim *SimulationError
	if !errors.As(err, &sim) || !slices.Equal(sim.Reasons, []string{`transfer: {"InstructionError":[2,{"Custom":1}]}`, "transfer: b", "transfer: c", "transfer: d"}) {
		t.Errorf("simulation: %v", err)
	}
	for in, want := range map[error]error{
		chain.ErrNotSupported:           ErrNotSupported,
		chain.ErrPrerequisite:           ErrPrerequisite,
		chain.ErrInvalidSolanaToken:     ErrInvalid,
		chain.ErrInvalidAddress:         ErrInvalid,
		chain.ErrInvalidAmount:          ErrInvalidAmount,
		chain.ErrInvalidSolanaSignature: ErrInvalid,
	} {
		got := solanaError("x", errors.Join(in))
		if !errors.Is(got, want) || !errors.Is(got, in) || got.Error() != in.Error() {
			t.Errorf("%v: %v", in, got)
		}
	}
}

// TestSolanaBuildsRunUnsigned: builds run straight in LiteSVM, unsigned and exactly as built (a
// fresh SVM seeded like the validator they were built against, signature verification off), and
// move exactly what was asked: SOL, USDC creating the recipient's account, and Token-2022 EMB at
// its fee cap.
func TestSolanaBuildsRunUnsigned(t *testing.T) {
	e := newSolEnv(t) // the validator has run nothing but its seeding
	sender := e.keypair(t, "holder-3").Address
	usdc, emb := e.mint(t, "USDC"), e.mint(t, "EMB")
	cases := []struct {
		token, to, amount string
		want              uint64 // what the recipient holds after: lamports, or token base units
		mint              string
	}{
		{Native, freshWallet("unsigned sol"), "0.5", 500_000_000, ""},
		{usdc.Address, freshWallet("unsigned usdc"), "1.5", 1_500_000, usdc.Address},
		{emb.Address, freshWallet("unsigned emb"), "1500", 1_500_000_000 - emb.TransferFee.MaximumFee, emb.Address},
	}
	var payloads []string
	for _, c := range cases {
		b, err := e.svc.BuildTransfer(t.Context(), consumer, TransferRequest{Chain: "solana", User: sender, To: c.to, Token: c.token, Amount: c.amount})
		if err != nil {
			t.Fatal(err)
		}
		payloads = append(payloads, b.Transactions[0].Payload.Transaction)
	}
	runs, err := localnet.RunUnsigned(t.Context(), e.n.Seed, payloads)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		r := runs[i]
		if !r.Succeeded() {
			t.Fatalf("%s %s: %+v", c.amount, c.token, r)
		}
		got := uint64(0)
		if c.mint == "" {
			got = r.PostBalances[slices.Index(r.Accounts, c.to)]
		}
		for _, raw := range r.PostTokenBalances {
			var tb struct {
				Mint, Owner   string
				UITokenAmount struct{ Amount string } `json:"uiTokenAmount"`
			}
			if err := json.Unmarshal(raw, &tb); err != nil {
				t.Fatal(err)
			}
			if tb.Mint == c.mint && tb.Owner == c.to {
				got, _ = strconv.ParseUint(tb.UITokenAmount.Amount, 10, 64)
			}
		}
		if got != c.want {
			t.Errorf("%s %s: the recipient holds %d after, want %d", c.amount, c.token, got, c.want)
		}
	}
}
