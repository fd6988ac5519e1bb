package solana

import (
	"context"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
)

// Against the local validator (chain/solana/localnet: standard Solana JSON-RPC over LiteSVM, a
// real SVM): the adapter is pointed at its URL exactly as at a mainnet provider's. Every build is
// signed with a test keypair, sent, and the balances after must equal the request exactly.

func localClient(t *testing.T) (*localnet.Node, *Client) {
	t.Helper()
	return localClientWith(t, Options{})
}

func localClientWith(t *testing.T, opts Options) (*localnet.Node, *Client) {
	t.Helper()
	n := localnet.StartTest(t)
	c, genesis, err := Open(t.Context(), "solana", chain.ChainConfig{RPCURLs: []string{n.URL}, Network: chain.Devnet}, opts,
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if genesis != n.GenesisHash {
		t.Errorf("genesis %s, the validator says %s", genesis, n.GenesisHash)
	}
	return n, c
}

func keypair(t *testing.T, n *localnet.Node, name string) sol.PrivateKey {
	t.Helper()
	k, ok := n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	pk, err := sol.PrivateKeyFromBase58(k.SecretKey)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

func seededMint(t *testing.T, n *localnet.Node, symbol string) localnet.Mint {
	t.Helper()
	m, ok := n.Mint(symbol)
	if !ok {
		t.Fatalf("no mint %s", symbol)
	}
	return m
}

// balances are a wallet's lamports and its balance of each mint (summed over its accounts).
type balances struct {
	lamports uint64
	tokens   map[string]uint64
}

func balancesOf(t *testing.T, c *Client, wallets ...sol.PublicKey) []balances {
	t.Helper()
	asked := make([]string, len(wallets))
	for i, w := range wallets {
		asked[i] = w.String()
	}
	res, err := c.Holdings(t.Context(), asked)
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

// signAndSend signs a build with key, sends it, and waits until the adapter reads it confirmed.
func signAndSend(t *testing.T, n *localnet.Node, c *Client, b chain.SVMTransferBuild, key sol.PrivateKey) string {
	t.Helper()
	tx, err := sol.TransactionFromBase64(b.Transaction)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(k sol.PublicKey) *sol.PrivateKey {
		if k == key.PublicKey() {
			return &key
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sig, err := rpc.New(n.URL).SendTransaction(t.Context(), tx)
	if err != nil {
		t.Fatalf("send: %v\n%s", err, n.Log())
	}
	waitStatus(t, c, sig.String(), chain.SVMStatusConfirmed)
	return sig.String()
}

// waitStatus polls the signature's status until it reaches at least want.
func waitStatus(t *testing.T, c *Client, sig, want string) chain.SVMSigStatus {
	t.Helper()
	rank := map[string]int{"": 0, chain.SVMStatusProcessed: 1, chain.SVMStatusConfirmed: 2, chain.SVMStatusFinalized: 3}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		st, err := c.SignatureStatuses(ctx, []string{sig})
		if err != nil {
			t.Fatal(err)
		}
		if rank[st[0].Status] >= rank[want] {
			return st[0]
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never became %s: %+v", sig, want, st[0])
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func TestLocalnetTransfers(t *testing.T) {
	// A priority fee floor, so that the fee the SVM charges includes one (an idle cluster's
	// recent fees are 0).
	rt := &countingTransport{base: http.DefaultTransport}
	n, c := localClientWith(t, Options{MinUnitPrice: 12_345, Transport: rt})
	fresh := testKey("a wallet the validator has never seen")

	for _, tc := range []struct {
		name   string
		to     sol.PublicKey
		symbol string // "" for SOL
		amount string
	}{
		{"SOL to a holder", sol.PublicKey{}, "", "0.123456789"},
		{"SOL to a new wallet", fresh, "", "0.5"},
		{"USDC to a holder", sol.PublicKey{}, "USDC", "12.345678"},
		{"USDC to a new wallet (creates its account)", fresh, "USDC", "1.5"},
		{"QRTZ, 2 decimals", sol.PublicKey{}, "QRTZ", "0.07"},
		{"EMB with its 1% fee, creating the account", fresh, "EMB", "123.456789"},
		{"EMB at the fee cap", sol.PublicKey{}, "EMB", "1500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from := richest(t, n, tc.symbol)
			sender := from.PublicKey()
			if tc.to == sender || tc.to.IsZero() {
				tc.to = sol.MustPublicKeyFromBase58(mustKeypair(t, n, "holder-7").Address)
			}
			req := chain.SVMTransferRequest{From: sender.String(), To: tc.to.String(), Amount: tc.amount}
			mint := ""
			if tc.symbol != "" {
				mint = seededMint(t, n, tc.symbol).Address
				req.Mint = mint
			}
			before := balancesOf(t, c, sender, tc.to)
			rt.n.Store(0)
			b, err := c.BuildTransfer(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			if n := rt.n.Load(); n > 2 {
				t.Errorf("the build took %d round trips, want at most 2", n)
			}
			if b.ComputeUnitPrice != 12_345 || b.PriorityFee == 0 {
				t.Errorf("unit price %d, priority fee %d", b.ComputeUnitPrice, b.PriorityFee)
			}
			sig := signAndSend(t, n, c, b, from)
			after := balancesOf(t, c, sender, tc.to)

			// The sender pays the network fee (and the new account's rent) in SOL.
			solOut := b.NetworkFee + b.RentLamports
			if mint == "" {
				solOut += b.Amount.Uint64()
				if got := after[1].lamports - before[1].lamports; got != b.Amount.Uint64() {
					t.Errorf("the recipient got %d lamports, want %d", got, b.Amount.Uint64())
				}
			} else {
				want, _ := chain.HumanToBaseUnits(tc.amount, int(seededMint(t, n, tc.symbol).Decimals))
				if b.Amount.Cmp(want) != 0 {
					t.Errorf("amount %s, want %s", b.Amount, want)
				}
				if got := before[0].tokens[mint] - after[0].tokens[mint]; got != b.Amount.Uint64() {
					t.Errorf("the sender sent %d, want %d", got, b.Amount.Uint64())
				}
				if got := after[1].tokens[mint] - before[1].tokens[mint]; got != b.Received.Uint64() {
					t.Errorf("the recipient received %d, want %d (amount %d less fee %d)", got, b.Received.Uint64(), b.Amount.Uint64(), b.TransferFee)
				}
				if f := seededMint(t, n, tc.symbol).TransferFee; f != nil {
					wantFee := min((b.Amount.Uint64()*uint64(f.BasisPoints)+9_999)/10_000, f.MaximumFee)
					if b.TransferFee != wantFee || b.TransferFee == 0 {
						t.Errorf("transfer fee %d, want %d", b.TransferFee, wantFee)
					}
				}
			}
			if got := before[0].lamports - after[0].lamports; got != solOut {
				t.Errorf("the sender spent %d lamports, want %d (fee %d, rent %d)", got, solOut, b.NetworkFee, b.RentLamports)
			}

			// Status and confirm: the mined transaction is the built one.
			txs, err := c.Transactions(t.Context(), []string{sig})
			if err != nil {
				t.Fatal(err)
			}
			mined := txs[0]
			if !mined.HasMessage || mined.Failed || mined.Payer != sender.String() || mined.Fee != b.NetworkFee {
				t.Errorf("mined %+v", mined)
			}
			if d, err := c.Diff(b.Transaction, mined); err != nil || len(d) != 0 {
				t.Errorf("Diff = %v, %v", d, err)
			}
			if mined.ComputeUnits > uint64(b.ComputeUnitLimit) || mined.ComputeUnits == 0 {
				t.Errorf("used %d units of a %d limit", mined.ComputeUnits, b.ComputeUnitLimit)
			}
		})
	}
}

// richest returns the keypair of the holder with the largest associated account of symbol (for
// SOL: holder-1).
func richest(t *testing.T, n *localnet.Node, symbol string) sol.PrivateKey {
	t.Helper()
	if symbol == "" {
		return keypair(t, n, "holder-1")
	}
	var best localnet.Holding
	for _, h := range n.Holdings {
		if h.Symbol == symbol && h.Associated && strings.HasPrefix(h.Owner, "holder-") && h.Amount > best.Amount {
			best = h
		}
	}
	if best.Owner == "" {
		t.Fatalf("nobody holds %s", symbol)
	}
	return keypair(t, n, best.Owner)
}

// countingTransport counts HTTP round trips.
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

func mustKeypair(t *testing.T, n *localnet.Node, name string) localnet.Keypair {
	t.Helper()
	k, ok := n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	return k
}

func TestLocalnetStatusFinalizes(t *testing.T) {
	n, c := localClient(t)
	from := keypair(t, n, "holder-3")
	b, err := c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: from.PublicKey().String(), To: testKey("status").String(), Amount: "0.01"})
	if err != nil {
		t.Fatal(err)
	}
	sig := signAndSend(t, n, c, b, from)
	st := waitStatus(t, c, sig, chain.SVMStatusFinalized)
	if !st.Found || st.Failed || st.Confirmations != 0 || st.Slot == 0 {
		t.Errorf("finalized status %+v", st)
	}
}

func TestLocalnetReads(t *testing.T) {
	n, c := localClient(t)
	symbols := []string{"USDC", "WSOL", "AUR", "NIM", "QRTZ", "EMB"}
	addrs := make([]string, len(symbols))
	for i, s := range symbols {
		addrs[i] = seededMint(t, n, s).Address
	}
	ms, err := c.Mints(t.Context(), addrs)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		want := seededMint(t, n, symbols[i])
		if !m.Found || m.Program != want.Program || m.Decimals != int(want.Decimals) || m.MintAuthority != want.MintAuthority ||
			m.FreezeAuthority != want.FreezeAuthority || m.Supply.Uint64() != want.Supply && want.Symbol != "WSOL" {
			t.Errorf("%s = %+v, seeded %+v", symbols[i], m, want)
		}
		switch want.Metadata {
		case "":
			if m.Metadata != nil {
				t.Errorf("%s metadata %+v", symbols[i], m.Metadata)
			}
		default:
			if m.Metadata == nil || m.Metadata.Source != want.Metadata || m.Metadata.Symbol != want.Symbol || m.Metadata.Name != want.Name {
				t.Errorf("%s metadata %+v, seeded %s %q", symbols[i], m.Metadata, want.Metadata, want.Name)
			}
		}
		if f := want.TransferFee; f != nil && (m.TransferFee == nil || m.TransferFee.BasisPoints != f.BasisPoints || m.TransferFee.MaximumFee != f.MaximumFee) {
			t.Errorf("%s fee %+v, seeded %+v", symbols[i], m.TransferFee, f)
		}
	}

	// Holdings of every keypair equal the seeded token accounts.
	var wallets []sol.PublicKey
	for _, k := range n.Keypairs {
		wallets = append(wallets, sol.MustPublicKeyFromBase58(k.Address))
	}
	got := balancesOf(t, c, wallets...)
	for i, k := range n.Keypairs {
		want := map[string]uint64{}
		for _, h := range n.Holdings {
			if h.Address == k.Address && h.Amount > 0 { // empty accounts (the pool creator's spent funding) are skipped on both sides
				want[h.Mint] += h.Amount
			}
		}
		for m, a := range got[i].tokens {
			if a == 0 {
				delete(got[i].tokens, m)
			}
		}
		if len(got[i].tokens) != len(want) {
			t.Errorf("%s holds %v, seeded %v", k.Name, got[i].tokens, want)
		}
		for m, a := range want {
			if got[i].tokens[m] != a {
				t.Errorf("%s holds %d of %s, seeded %d", k.Name, got[i].tokens[m], m, a)
			}
		}
		if got[i].lamports != k.Lamports {
			t.Errorf("%s has %d lamports, seeded %d", k.Name, got[i].lamports, k.Lamports)
		}
	}

	// Holders: owners summed over their accounts, by the scan and by the largest accounts.
	for _, symbol := range []string{"USDC", "EMB"} {
		m := seededMint(t, n, symbol)
		want := map[string]*big.Int{}
		for _, h := range n.Holdings {
			if h.Mint == m.Address && h.Amount > 0 {
				if want[h.Address] == nil {
					want[h.Address] = new(big.Int)
				}
				want[h.Address].Add(want[h.Address], new(big.Int).SetUint64(h.Amount))
			}
		}
		for _, largest := range []bool{false, true} {
			l, err := c.Holders(t.Context(), m.Address, chain.SVMHoldersOptions{Limit: 100, LargestOnly: largest})
			if err != nil {
				t.Fatal(err)
			}
			if l.Complete == largest || l.Owners != len(want) || len(l.Holders) != len(want) {
				t.Errorf("%s holders (largest only %v): complete %v, %d owners, want %d", symbol, largest, l.Complete, l.Owners, len(want))
			}
			for _, h := range l.Holders {
				if w := want[h.Owner]; w == nil || w.Cmp(h.Amount) != 0 {
					t.Errorf("%s holder %s: %s, seeded %v", symbol, h.Owner, h.Amount, w)
				}
			}
			if !slices.IsSortedFunc(l.Holders, func(a, b chain.SVMHolder) int { return b.Amount.Cmp(a.Amount) }) {
				t.Errorf("%s holders not largest first", symbol)
			}
		}
	}
}
