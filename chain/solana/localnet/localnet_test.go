package localnet

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	alt "github.com/gagliardetto/solana-go/programs/address-lookup-table"
	ata "github.com/gagliardetto/solana-go/programs/associated-token-account"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/programs/token"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
)

// shared is one validator for the tests that do not need their own timing: 200 ms blocks,
// finalized after 4 (StartTest's settings).
var shared struct {
	once sync.Once
	node *Node
	err  error
}

func sharedNode(t *testing.T) *Node {
	t.Helper()
	shared.once.Do(func() {
		shared.node, shared.err = Start(context.Background(), Options{SlotTime: 200 * time.Millisecond, FinalizeDepth: 4})
	})
	if errors.Is(shared.err, ErrUnavailable) {
		StartTestWith(t, Options{}) // skips, or fails under PARTNER_TEST_REQUIRE_ALL=1, with the reason
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.node
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.node != nil {
		shared.node.Close()
	}
	os.Exit(code)
}

func key(t *testing.T, s string) solana.PublicKey {
	t.Helper()
	k, err := solana.PublicKeyFromBase58(s)
	if err != nil {
		t.Fatalf("public key %q: %v", s, err)
	}
	return k
}

func wallet(t *testing.T, n *Node, name string) solana.PrivateKey {
	t.Helper()
	k, ok := n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	pk, err := solana.PrivateKeyFromBase58(k.SecretKey)
	if err != nil {
		t.Fatalf("secret key of %s: %v", name, err)
	}
	if pk.PublicKey().String() != k.Address {
		t.Fatalf("secret key of %s is for %s, want %s", name, pk.PublicKey(), k.Address)
	}
	return pk
}

func mint(t *testing.T, n *Node, symbol string) Mint {
	t.Helper()
	m, ok := n.Mint(symbol)
	if !ok {
		t.Fatalf("no mint %s", symbol)
	}
	return m
}

// build returns a signed legacy transaction on the confirmed blockhash.
func build(t *testing.T, c *rpc.Client, payer solana.PrivateKey, signers []solana.PrivateKey, ixs ...solana.Instruction) *solana.Transaction {
	t.Helper()
	bh, err := c.GetLatestBlockhash(t.Context(), rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("getLatestBlockhash: %v", err)
	}
	tx, err := solana.NewTransaction(ixs, bh.Value.Blockhash, solana.TransactionPayer(payer.PublicKey()))
	if err != nil {
		t.Fatalf("new transaction: %v", err)
	}
	if _, err := tx.Sign(func(k solana.PublicKey) *solana.PrivateKey {
		for _, s := range append([]solana.PrivateKey{payer}, signers...) {
			if s.PublicKey() == k {
				return &s
			}
		}
		return nil
	}); err != nil {
		t.Fatalf("sign: %v", err)
	}
	return tx
}

func rpcError(t *testing.T, err error) *jsonrpc.RPCError {
	t.Helper()
	var re *jsonrpc.RPCError
	if !errors.As(err, &re) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return re
}

// waitFor polls getSignatureStatuses until the transaction reaches a status and returns it.
func waitFor(t *testing.T, c *rpc.Client, sig solana.Signature, want rpc.ConfirmationStatusType) *rpc.SignatureStatusesResult {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, err := c.GetSignatureStatuses(t.Context(), true, sig)
		if err != nil {
			t.Fatalf("getSignatureStatuses: %v", err)
		}
		if s := out.Value[0]; s != nil && rank(s.ConfirmationStatus) >= rank(want) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s not %s after 20 s", sig, want)
	return nil
}

func rank(s rpc.ConfirmationStatusType) int {
	return slices.Index([]rpc.ConfirmationStatusType{rpc.ConfirmationStatusProcessed, rpc.ConfirmationStatusConfirmed, rpc.ConfirmationStatusFinalized}, s)
}

type rawResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	ID json.RawMessage `json:"id"`
}

func post(t *testing.T, url, body string) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatalf("read: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, buf.String())
	}
	return buf.Bytes()
}

func raw(t *testing.T, url, method string, params ...any) rawResponse {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	var r rawResponse
	if err := json.Unmarshal(post(t, url, string(body)), &r); err != nil {
		t.Fatalf("%s: decode: %v", method, err)
	}
	return r
}

// TestSeed checks every seeded mint, holding and wallet against the chain, read with solana-go,
// on a validator of its own (the other tests move balances).
func TestSeed(t *testing.T) {
	n := StartTest(t)
	t.Run("Holdings", func(t *testing.T) { testHoldings(t, n) })
	t.Run("ProgramAccountsByMint", func(t *testing.T) { testProgramAccountsByMint(t, n) })
}

func testHoldings(t *testing.T, n *Node) {
	c := rpc.New(n.URL)
	ctx := t.Context()

	if len(n.Mints) != 6 || len(n.Keypairs) != 15 || len(n.Pools) != 5 || len(n.Holdings) < 20 {
		t.Fatalf("%d mints, %d keypairs, %d holdings", len(n.Mints), len(n.Keypairs), len(n.Holdings))
	}
	for _, k := range n.Keypairs {
		wallet(t, n, k.Name)
		b, err := c.GetBalance(ctx, key(t, k.Address), rpc.CommitmentFinalized)
		if err != nil {
			t.Fatalf("getBalance %s: %v", k.Name, err)
		}
		if b.Value != k.Lamports {
			t.Errorf("%s: %d lamports, the seed says %d", k.Name, b.Value, k.Lamports)
		}
	}
	seen := map[uint64]string{}
	for _, k := range n.Keypairs {
		if other, dup := seen[k.Lamports]; dup && strings.HasPrefix(k.Name, "holder") {
			t.Errorf("%s and %s have the same balance", k.Name, other)
		}
		seen[k.Lamports] = k.Name
	}

	for _, m := range n.Mints {
		info, err := c.GetAccountInfoWithOpts(ctx, key(t, m.Address), &rpc.GetAccountInfoOpts{Encoding: solana.EncodingJSONParsed, Commitment: rpc.CommitmentFinalized})
		if err != nil {
			t.Fatalf("getAccountInfo %s: %v", m.Symbol, err)
		}
		if info.Value.Owner.String() != m.Program {
			t.Errorf("%s owned by %s, want %s", m.Symbol, info.Value.Owner, m.Program)
		}
		var parsed struct {
			Program string `json:"program"`
			Parsed  struct {
				Type string `json:"type"`
				Info struct {
					Decimals        uint8   `json:"decimals"`
					MintAuthority   *string `json:"mintAuthority"`
					FreezeAuthority *string `json:"freezeAuthority"`
					Supply          string  `json:"supply"`
					Extensions      []struct {
						Extension string          `json:"extension"`
						State     json.RawMessage `json:"state"`
					} `json:"extensions"`
				} `json:"info"`
			} `json:"parsed"`
		}
		if err := json.Unmarshal(info.Value.Data.GetRawJSON(), &parsed); err != nil {
			t.Fatalf("%s jsonParsed: %v (%s)", m.Symbol, err, info.Value.Data.GetRawJSON())
		}
		p := parsed.Parsed.Info
		if parsed.Parsed.Type != "mint" || p.Decimals != m.Decimals || deref(p.MintAuthority) != m.MintAuthority || deref(p.FreezeAuthority) != m.FreezeAuthority {
			t.Errorf("%s: parsed %+v, seed %+v", m.Symbol, parsed, m)
		}
		supply, err := c.GetTokenSupply(ctx, key(t, m.Address), rpc.CommitmentFinalized)
		if err != nil {
			t.Fatalf("getTokenSupply %s: %v", m.Symbol, err)
		}
		if supply.Value.Decimals != m.Decimals {
			t.Errorf("%s supply decimals %d", m.Symbol, supply.Value.Decimals)
		}
		var held uint64
		for _, h := range n.Holdings {
			if h.Symbol == m.Symbol {
				held += h.Amount
			}
		}
		// A Token-2022 mint's supply also counts the transfer fees withheld in the receiving accounts.
		if m.Symbol != "WSOL" && (supply.Value.Amount != fmt.Sprint(m.Supply) || (m.TransferFee == nil && m.Supply != held) || m.Supply < held) {
			t.Errorf("%s: supply %s on chain, %d in the seed, %d held", m.Symbol, supply.Value.Amount, m.Supply, held)
		}
		switch m.Metadata {
		case "metaplex":
			md, err := c.GetAccountInfo(ctx, key(t, m.MetadataAddress))
			if err != nil {
				t.Fatalf("%s metadata: %v", m.Symbol, err)
			}
			data := md.Value.Data.GetBinary()
			if md.Value.Owner.String() != "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s" || data[0] != 4 || !bytes.Equal(data[33:65], key(t, m.Address).Bytes()) || !bytes.Contains(data, []byte(m.Name)) {
				t.Errorf("%s: metadata account %s is not Metaplex metadata of the mint", m.Symbol, m.MetadataAddress)
			}
			want, _, err := solana.FindTokenMetadataAddress(key(t, m.Address))
			if err != nil || want.String() != m.MetadataAddress {
				t.Errorf("%s: metadata at %s, Metaplex's PDA is %s (%v)", m.Symbol, m.MetadataAddress, want, err)
			}
		case "token-2022":
			exts := map[string]json.RawMessage{}
			for _, e := range p.Extensions {
				exts[e.Extension] = e.State
			}
			var fee struct {
				Newer struct {
					Bps    uint16 `json:"transferFeeBasisPoints"`
					MaxFee uint64 `json:"maximumFee"`
				} `json:"newerTransferFee"`
			}
			var meta struct{ Name, Symbol, Mint string }
			var pointer struct{ MetadataAddress string }
			_ = json.Unmarshal(exts["transferFeeConfig"], &fee)
			_ = json.Unmarshal(exts["tokenMetadata"], &meta)
			_ = json.Unmarshal(exts["metadataPointer"], &pointer)
			if m.TransferFee == nil || fee.Newer.Bps != m.TransferFee.BasisPoints || fee.Newer.MaxFee != m.TransferFee.MaximumFee {
				t.Errorf("%s: transfer fee %+v on chain, %+v in the seed", m.Symbol, fee, m.TransferFee)
			}
			if meta.Name != m.Name || meta.Symbol != m.Symbol || meta.Mint != m.Address || pointer.MetadataAddress != m.Address {
				t.Errorf("%s: metadata %+v, pointer %+v", m.Symbol, meta, pointer)
			}
		}
	}

	for _, h := range n.Holdings {
		m := holdingMint(t, n, h)
		bal, err := c.GetTokenAccountBalance(ctx, key(t, h.Account), rpc.CommitmentFinalized)
		if err != nil {
			t.Fatalf("getTokenAccountBalance %s of %s: %v", h.Symbol, h.Owner, err)
		}
		if bal.Value.Amount != fmt.Sprint(h.Amount) || bal.Value.Decimals != m.Decimals {
			t.Errorf("%s of %s: %s (%d decimals), the seed says %d", h.Symbol, h.Owner, bal.Value.Amount, bal.Value.Decimals, h.Amount)
		}
		if h.Associated {
			want, _, err := solana.FindAssociatedTokenAddressWithProgram(key(t, h.Address), key(t, m.Address), key(t, m.Program))
			if err != nil || want.String() != h.Account {
				t.Errorf("%s of %s: account %s, associated is %s", h.Symbol, h.Owner, h.Account, want)
			}
		}
		mk := key(t, m.Address)
		byOwner, err := c.GetTokenAccountsByOwner(ctx, key(t, h.Address), &rpc.GetTokenAccountsConfig{Mint: &mk}, &rpc.GetTokenAccountsOpts{Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentFinalized})
		if err != nil {
			t.Fatalf("getTokenAccountsByOwner: %v", err)
		}
		if want := len(n.HoldingsOf(h.Owner, h.Symbol)); len(byOwner.Value) != want {
			t.Errorf("%s holds %d %s accounts, the seed says %d", h.Owner, len(byOwner.Value), h.Symbol, want)
		}
		found := false
		for _, ka := range byOwner.Value {
			if ka.Pubkey.String() == h.Account {
				found = true
				data := ka.Account.Data.GetBinary()
				if !bytes.Equal(data[:32], mk.Bytes()) || binary.LittleEndian.Uint64(data[64:72]) != h.Amount {
					t.Errorf("%s of %s: account data does not hold the mint and amount", h.Symbol, h.Owner)
				}
			}
		}
		if !found {
			t.Errorf("getTokenAccountsByOwner(%s, %s) misses %s", h.Owner, h.Symbol, h.Account)
		}
	}

	// Every Token-2022 account of holder-0, by program id, parsed.
	t22 := solana.Token2022ProgramID
	all, err := c.GetTokenAccountsByOwner(ctx, key(t, n.HoldingsOf("holder-0", "EMB")[0].Address), &rpc.GetTokenAccountsConfig{ProgramId: &t22}, &rpc.GetTokenAccountsOpts{Encoding: solana.EncodingJSONParsed})
	if err != nil || len(all.Value) != 1 || !bytes.Contains(all.Value[0].Account.Data.GetRawJSON(), []byte(`"transferFeeAmount"`)) {
		t.Errorf("holder-0's Token-2022 accounts: %v %v", all, err)
	}

	// Largest accounts of USDC: sorted, and holder-0's two accounts both there.
	usdc := mint(t, n, "USDC")
	largest, err := c.GetTokenLargestAccounts(ctx, key(t, usdc.Address), rpc.CommitmentFinalized)
	if err != nil {
		t.Fatalf("getTokenLargestAccounts: %v", err)
	}
	var prev uint64 = 1<<64 - 1
	accounts := map[string]bool{}
	for _, a := range largest.Value {
		var amt uint64
		fmt.Sscan(a.Amount, &amt)
		if amt > prev {
			t.Errorf("getTokenLargestAccounts not sorted: %s after %d", a.Amount, prev)
		}
		prev = amt
		accounts[a.Address.String()] = true
	}
	for _, h := range n.HoldingsOf("holder-0", "USDC") {
		if !accounts[h.Account] {
			t.Errorf("getTokenLargestAccounts misses %s", h.Account)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// testProgramAccountsByMint is how holders are read: getProgramAccounts with a memcmp on the mint
// (offset 0) and a dataSlice of owner and amount.
func testProgramAccountsByMint(t *testing.T, n *Node) {
	c := rpc.New(n.URL)
	for _, symbol := range []string{"USDC", "EMB", "NIM"} {
		m := mint(t, n, symbol)
		filters := []rpc.RPCFilter{{Memcmp: &rpc.RPCFilterMemcmp{Offset: 0, Bytes: key(t, m.Address).Bytes()}}}
		if m.Program == solana.TokenProgramID.String() {
			filters = append(filters, rpc.RPCFilter{DataSize: 165})
		}
		off, length := uint64(32), uint64(40)
		out, err := c.GetProgramAccountsWithOpts(t.Context(), key(t, m.Program), &rpc.GetProgramAccountsOpts{
			Encoding: solana.EncodingBase64, Commitment: rpc.CommitmentFinalized, Filters: filters,
			DataSlice: &rpc.DataSlice{Offset: &off, Length: &length},
		})
		if err != nil {
			t.Fatalf("getProgramAccounts %s: %v", symbol, err)
		}
		got := map[string]string{}
		for _, ka := range out {
			d := ka.Account.Data.GetBinary()
			if len(d) != 40 {
				t.Fatalf("%s: a %d-byte slice, want 40", symbol, len(d))
			}
			got[ka.Pubkey.String()] = fmt.Sprintf("%s %d", solana.PublicKeyFromBytes(d[:32]), binary.LittleEndian.Uint64(d[32:]))
		}
		want := map[string]string{}
		for _, h := range n.Holdings {
			if h.Symbol == symbol {
				want[h.Account] = fmt.Sprintf("%s %d", h.Address, h.Amount)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s holders:\n got %v\nwant %v", symbol, got, want)
		}
	}
	// jsonParsed on getProgramAccounts, and the error for jsonParsed with a dataSlice.
	m := mint(t, n, "QRTZ")
	r := raw(t, n.URL, "getProgramAccounts", solana.TokenProgramID.String(), map[string]any{
		"encoding": "jsonParsed", "filters": []any{map[string]any{"memcmp": map[string]any{"offset": 0, "bytes": m.Address}}, map[string]any{"dataSize": 165}},
	})
	if r.Error != nil || strings.Count(string(r.Result), `"type":"account"`) != holders(n, "QRTZ") {
		t.Errorf("jsonParsed getProgramAccounts: %s %+v", r.Result, r.Error)
	}
	r = raw(t, n.URL, "getProgramAccounts", solana.TokenProgramID.String(), map[string]any{"encoding": "jsonParsed", "dataSlice": map[string]any{"offset": 0, "length": 8}})
	if r.Error == nil || r.Error.Code != -32600 {
		t.Errorf("jsonParsed with dataSlice: %+v", r.Error)
	}
}

// TestTransfers sends a SOL transfer, an SPL TransferChecked and a Token-2022 TransferChecked
// (with its transfer fee) signed by seeded keypairs and checks the balances move exactly, then
// reads the transactions back.
func TestTransfers(t *testing.T) {
	n := sharedNode(t)
	c := rpc.New(n.URL)
	ctx := t.Context()

	// SOL: holder-1 pays a fresh account.
	from := wallet(t, n, "holder-1")
	to := solana.NewWallet().PublicKey()
	before, _ := c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	const lamports = 1_234_567_891
	tx := build(t, c, from, nil, system.NewTransferInstruction(lamports, from.PublicKey(), to).Build())
	sig, err := c.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("sendTransaction: %v", err)
	}
	if sig != tx.Signatures[0] {
		t.Fatalf("signature %s, want %s", sig, tx.Signatures[0])
	}
	got, _ := c.GetBalance(ctx, to, rpc.CommitmentProcessed)
	after, _ := c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	if got.Value != lamports || before.Value-after.Value != lamports+5000 {
		t.Errorf("SOL transfer: recipient %d (want %d), sender paid %d (want %d)", got.Value, lamports, before.Value-after.Value, lamports+5000)
	}
	// At finalized the transfer is not there yet; once finalized it is.
	if fin, _ := c.GetBalance(ctx, to, rpc.CommitmentFinalized); fin.Value != 0 {
		t.Errorf("finalized balance %d right after sending", fin.Value)
	}
	waitFor(t, c, sig, rpc.ConfirmationStatusFinalized)
	if fin, _ := c.GetBalance(ctx, to, rpc.CommitmentFinalized); fin.Value != lamports {
		t.Errorf("finalized balance %d once finalized", fin.Value)
	}
	gt, err := c.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		t.Fatalf("getTransaction: %v", err)
	}
	if gt.Meta.Fee != 5000 || gt.Meta.Err != nil || len(gt.Meta.LogMessages) == 0 || gt.Meta.PreBalances[1] != 0 || gt.Meta.PostBalances[1] != lamports || gt.BlockTime == nil {
		t.Errorf("getTransaction meta: %+v", gt.Meta)
	}
	decoded, err := gt.Transaction.GetTransaction()
	if err != nil || decoded.Signatures[0] != sig || decoded.Message.RecentBlockhash != tx.Message.RecentBlockhash {
		t.Errorf("getTransaction json transaction: %v %v", decoded, err)
	}

	// A priority fee without a compute unit limit: the default limit (3,000 CUs per builtin
	// instruction here) prices it; getFeeForMessage agrees with what the SVM charged.
	tx = build(t, c, from, nil, computebudget.NewSetComputeUnitPriceInstruction(1_000_000).Build(), system.NewTransferInstruction(lamports, from.PublicKey(), to).Build())
	msg, _ := tx.Message.MarshalBinary()
	quoted, err := c.GetFeeForMessage(ctx, base64.StdEncoding.EncodeToString(msg), rpc.CommitmentProcessed)
	if err != nil || quoted.Value == nil {
		t.Fatalf("getFeeForMessage: %+v %v", quoted, err)
	}
	before, _ = c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	if _, err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatalf("sendTransaction: %v", err)
	}
	after, _ = c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	if charged := before.Value - after.Value - lamports; charged != *quoted.Value || charged != 5000+6000 {
		t.Errorf("fee charged %d, getFeeForMessage %d, want 11000", charged, *quoted.Value)
	}

	// SPL: holder-2 sends USDC to holder-3's associated account.
	usdc := mint(t, n, "USDC")
	src := n.HoldingsOf("holder-2", "USDC")[0]
	dst := n.HoldingsOf("holder-3", "USDC")[0]
	owner := wallet(t, n, "holder-2")
	const amount = 1_500_250_000 // 1,500.25 USDC
	srcBefore, _ := c.GetTokenAccountBalance(ctx, key(t, src.Account), rpc.CommitmentProcessed)
	dstBefore, _ := c.GetTokenAccountBalance(ctx, key(t, dst.Account), rpc.CommitmentProcessed)
	tx = build(t, c, owner, nil,
		computebudget.NewSetComputeUnitLimitInstruction(50_000).Build(),
		computebudget.NewSetComputeUnitPriceInstruction(20_000).Build(),
		token.NewTransferCheckedInstruction(amount, usdc.Decimals, key(t, src.Account), key(t, usdc.Address), key(t, dst.Account), owner.PublicKey(), nil).Build())
	splSig, err := c.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentProcessed})
	if err != nil {
		t.Fatalf("sendTransaction TransferChecked: %v", err)
	}
	srcAfter, _ := c.GetTokenAccountBalance(ctx, key(t, src.Account), rpc.CommitmentProcessed)
	dstAfter, _ := c.GetTokenAccountBalance(ctx, key(t, dst.Account), rpc.CommitmentProcessed)
	if diff(srcBefore.Value.Amount, srcAfter.Value.Amount) != amount || diff(dstAfter.Value.Amount, dstBefore.Value.Amount) != amount {
		t.Errorf("USDC: source %s -> %s, destination %s -> %s, want %d moved", srcBefore.Value.Amount, srcAfter.Value.Amount, dstBefore.Value.Amount, dstAfter.Value.Amount, amount)
	}
	waitFor(t, c, splSig, rpc.ConfirmationStatusConfirmed)
	v0 := uint64(0)
	gt, err = c.GetTransaction(ctx, splSig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &v0})
	if err != nil {
		t.Fatalf("getTransaction: %v", err)
	}
	// Fee: one signature plus the priority fee, ceil(20,000 micro-lamports * 50,000 CUs / 1e6) = 1,000.
	if gt.Meta.Fee != 5000+1000 {
		t.Errorf("fee %d, want 6000", gt.Meta.Fee)
	}
	tokenBalance := func(list []rpc.TokenBalance, account string) string {
		for _, b := range list {
			if decoded, _ := gt.Transaction.GetTransaction(); decoded != nil {
				if int(b.AccountIndex) < len(decoded.Message.AccountKeys) && decoded.Message.AccountKeys[b.AccountIndex].String() == account {
					if b.Mint.String() != usdc.Address || b.UiTokenAmount.Decimals != usdc.Decimals || b.ProgramId == nil || b.ProgramId.String() != usdc.Program {
						t.Errorf("token balance %+v", b)
					}
					return b.UiTokenAmount.Amount
				}
			}
		}
		return "missing"
	}
	if tokenBalance(gt.Meta.PreTokenBalances, src.Account) != srcBefore.Value.Amount || tokenBalance(gt.Meta.PostTokenBalances, src.Account) != srcAfter.Value.Amount ||
		tokenBalance(gt.Meta.PreTokenBalances, dst.Account) != dstBefore.Value.Amount || tokenBalance(gt.Meta.PostTokenBalances, dst.Account) != dstAfter.Value.Amount {
		t.Errorf("pre/post token balances: %+v / %+v", gt.Meta.PreTokenBalances, gt.Meta.PostTokenBalances)
	}
	msg, _ = tx.Message.MarshalBinary()
	if fee, err := c.GetFeeForMessage(ctx, base64.StdEncoding.EncodeToString(msg), rpc.CommitmentProcessed); err != nil || fee.Value == nil || *fee.Value != gt.Meta.Fee {
		t.Errorf("getFeeForMessage %+v, charged %d (%v)", fee, gt.Meta.Fee, err)
	}
	if gt.Version != rpc.LegacyTransactionVersion {
		t.Errorf("version %v, want legacy", gt.Version)
	}
	// base64: the exact bytes sent.
	gb, err := c.GetTransaction(ctx, splSig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed, Encoding: solana.EncodingBase64})
	if err != nil {
		t.Fatalf("getTransaction base64: %v", err)
	}
	sent, _ := tx.MarshalBinary()
	if !bytes.Equal(gb.Transaction.GetBinary(), sent) {
		t.Errorf("getTransaction base64 is not the transaction sent")
	}
	sigs, err := c.GetSignaturesForAddressWithOpts(ctx, owner.PublicKey(), &rpc.GetSignaturesForAddressOpts{Commitment: rpc.CommitmentConfirmed})
	if err != nil || len(sigs) == 0 || sigs[0].Signature != splSig || sigs[0].Err != nil || sigs[0].BlockTime == nil {
		t.Errorf("getSignaturesForAddress: %+v %v", sigs, err)
	}

	// Token-2022 with its transfer fee: the recipient gets the amount less 1% (at most 10 EMB),
	// withheld in its account.
	emb := mint(t, n, "EMB")
	esrc := n.HoldingsOf("holder-3", "EMB")[0]
	eowner := wallet(t, n, "holder-3")
	recipient := solana.NewWallet().PublicKey()
	edst, _, _ := solana.FindAssociatedTokenAddressWithProgram(recipient, key(t, emb.Address), solana.Token2022ProgramID)
	for _, amt := range []uint64{123_456_789, 5_000_000_000} { // 123.456789 EMB (fee 1.234568), 5,000 EMB (fee capped at 10)
		fee := (amt*uint64(emb.TransferFee.BasisPoints) + 9999) / 10000
		fee = min(fee, emb.TransferFee.MaximumFee)
		before, _ := c.GetTokenAccountBalance(ctx, key(t, esrc.Account), rpc.CommitmentProcessed)
		var dstBefore uint64
		if b, err := c.GetTokenAccountBalance(ctx, edst, rpc.CommitmentProcessed); err == nil {
			fmt.Sscan(b.Value.Amount, &dstBefore)
		}
		tx = build(t, c, eowner, nil,
			ata.NewCreateIdempotentInstructionWithTokenProgram(eowner.PublicKey(), recipient, key(t, emb.Address), solana.Token2022ProgramID).Build(),
			onToken2022(t, token.NewTransferCheckedInstruction(amt, emb.Decimals, key(t, esrc.Account), key(t, emb.Address), edst, eowner.PublicKey(), nil).Build()))
		if _, err := c.SendTransaction(ctx, tx); err != nil {
			t.Fatalf("sendTransaction Token-2022 TransferChecked: %v", err)
		}
		after, _ := c.GetTokenAccountBalance(ctx, key(t, esrc.Account), rpc.CommitmentProcessed)
		got, err := c.GetTokenAccountBalance(ctx, edst, rpc.CommitmentProcessed)
		if err != nil {
			t.Fatalf("recipient's EMB account: %v", err)
		}
		var gotAmt uint64
		fmt.Sscan(got.Value.Amount, &gotAmt)
		if diff(before.Value.Amount, after.Value.Amount) != amt || gotAmt-dstBefore != amt-fee {
			t.Errorf("EMB %d: sender paid %d, recipient got %d, want %d and %d (fee %d)", amt, diff(before.Value.Amount, after.Value.Amount), gotAmt-dstBefore, amt, amt-fee, fee)
		}
	}
	withheld := raw(t, n.URL, "getAccountInfo", edst.String(), map[string]any{"encoding": "jsonParsed", "commitment": "processed"})
	wantFee := (123_456_789*100+9999)/10000 + 10_000_000
	if !bytes.Contains(withheld.Result, []byte(fmt.Sprintf(`"withheldAmount":%d`, wantFee))) {
		t.Errorf("withheld fees: want %d in %s", wantFee, withheld.Result)
	}
}

// onToken2022 is an SPL Token instruction sent to Token-2022 instead (same layout for
// TransferChecked; solana-go's token-2022 package needs a module go.mod does not require).
func onToken2022(t *testing.T, ix solana.Instruction) solana.Instruction {
	t.Helper()
	data, err := ix.Data()
	if err != nil {
		t.Fatal(err)
	}
	return solana.NewInstruction(solana.Token2022ProgramID, ix.Accounts(), data)
}

// TestVersionedTransaction: an address lookup table made by the ALT program, then a v0
// TransferChecked whose token accounts and mint come from it.
func TestVersionedTransaction(t *testing.T) {
	n := sharedNode(t)
	c := rpc.New(n.URL)
	ctx := t.Context()
	owner := wallet(t, n, "holder-4")
	usdc := mint(t, n, "USDC")
	src := n.HoldingsOf("holder-4", "USDC")[0]
	dst := n.HoldingsOf("holder-1", "USDC")[0]

	recent, err := c.GetSlot(ctx, rpc.CommitmentFinalized)
	if err != nil {
		t.Fatal(err)
	}
	create, table, err := alt.NewCreateLookupTableInstruction(owner.PublicKey(), owner.PublicKey(), recent)
	if err != nil {
		t.Fatal(err)
	}
	addresses := solana.PublicKeySlice{key(t, dst.Account), key(t, usdc.Address)}
	tx := build(t, c, owner, nil, create.Build(), alt.NewExtendLookupTableInstruction(table, owner.PublicKey(), owner.PublicKey(), addresses).Build())
	sig, err := c.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("create the lookup table: %v", err)
	}
	waitFor(t, c, sig, rpc.ConfirmationStatusConfirmed) // extended addresses are usable from the next slot on

	bh, _ := c.GetLatestBlockhash(ctx, rpc.CommitmentConfirmed)
	const amount = 2_000_000
	tx, err = solana.NewTransaction([]solana.Instruction{
		token.NewTransferCheckedInstruction(amount, usdc.Decimals, key(t, src.Account), key(t, usdc.Address), key(t, dst.Account), owner.PublicKey(), nil).Build(),
	}, bh.Value.Blockhash, solana.TransactionPayer(owner.PublicKey()), solana.TransactionAddressTables(map[solana.PublicKey]solana.PublicKeySlice{table: addresses}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Sign(func(solana.PublicKey) *solana.PrivateKey { return &owner }); err != nil {
		t.Fatal(err)
	}
	if !tx.Message.IsVersioned() || len(tx.Message.AddressTableLookups) != 1 {
		t.Fatalf("not a v0 transaction with a lookup: %+v", tx.Message)
	}
	before, _ := c.GetTokenAccountBalance(ctx, key(t, dst.Account), rpc.CommitmentProcessed)
	sig, err = c.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("send v0: %v", err)
	}
	after, _ := c.GetTokenAccountBalance(ctx, key(t, dst.Account), rpc.CommitmentProcessed)
	if diff(after.Value.Amount, before.Value.Amount) != amount {
		t.Errorf("v0 transfer moved %d, want %d", diff(after.Value.Amount, before.Value.Amount), amount)
	}
	waitFor(t, c, sig, rpc.ConfirmationStatusConfirmed)
	if _, err := c.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed}); rpcError(t, err).Code != -32015 {
		t.Errorf("v0 without maxSupportedTransactionVersion: %v", err)
	}
	v0 := uint64(0)
	gt, err := c.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentConfirmed, MaxSupportedTransactionVersion: &v0})
	if err != nil {
		t.Fatalf("getTransaction v0: %v", err)
	}
	la := gt.Meta.LoadedAddresses
	if gt.Version != 0 || len(la.Writable) != 1 || la.Writable[0] != addresses[0] || len(la.ReadOnly) != 1 || la.ReadOnly[0] != addresses[1] {
		t.Errorf("version %v, loaded addresses %+v", gt.Version, la)
	}
	decoded, err := gt.Transaction.GetTransaction()
	if err != nil {
		t.Fatal(err)
	}
	nStatic := len(decoded.Message.AccountKeys)
	found := false
	for _, b := range gt.Meta.PostTokenBalances {
		if int(b.AccountIndex) == nStatic && b.UiTokenAmount.Amount == after.Value.Amount { // the first loaded (writable) address
			found = true
		}
	}
	if !found {
		t.Errorf("post token balances %+v miss the loaded destination (index %d)", gt.Meta.PostTokenBalances, nStatic)
	}
}

func diff(a, b string) uint64 {
	var x, y uint64
	fmt.Sscan(a, &x)
	fmt.Sscan(b, &y)
	return x - y
}

// TestStatusProgression: a transaction is processed at once, confirmed a block later and
// finalized FinalizeDepth blocks later, observed by polling getSignatureStatuses.
func TestStatusProgression(t *testing.T) {
	n := StartTestWith(t, Options{SlotTime: 400 * time.Millisecond, FinalizeDepth: 3})
	c := rpc.New(n.URL)
	ctx := t.Context()
	from := wallet(t, n, "holder-5")
	tx := build(t, c, from, nil, system.NewTransferInstruction(solana.LAMPORTS_PER_SOL, from.PublicKey(), solana.NewWallet().PublicKey()).Build())
	sig, err := c.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("sendTransaction: %v", err)
	}
	var seen []rpc.ConfirmationStatusType
	var confirmations []string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		out, err := c.GetSignatureStatuses(ctx, false, sig)
		if err != nil {
			t.Fatalf("getSignatureStatuses: %v", err)
		}
		s := out.Value[0]
		if s == nil {
			t.Fatalf("no status for %s", sig)
		}
		if len(seen) == 0 || seen[len(seen)-1] != s.ConfirmationStatus {
			seen = append(seen, s.ConfirmationStatus)
			if s.Confirmations == nil {
				confirmations = append(confirmations, "null")
			} else {
				confirmations = append(confirmations, fmt.Sprint(*s.Confirmations))
			}
		}
		if s.ConfirmationStatus == rpc.ConfirmationStatusFinalized {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if fmt.Sprint(seen) != "[processed confirmed finalized]" || fmt.Sprint(confirmations) != "[0 1 null]" {
		t.Errorf("statuses %v with confirmations %v, want [processed confirmed finalized] with [0 1 null]", seen, confirmations)
	}
	// getTransaction refuses processed and answers at finalized now.
	if _, err := c.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentProcessed}); err == nil || rpcError(t, err).Code != -32602 {
		t.Errorf("getTransaction at processed: %v", err)
	}
	if gt, err := c.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{Commitment: rpc.CommitmentFinalized}); err != nil || gt.Meta.Err != nil {
		t.Errorf("getTransaction at finalized: %v %v", gt, err)
	}
}

// TestRefused: a bad signature, a failing transfer (preflight) and an unsigned transaction.
func TestRefused(t *testing.T) {
	n := sharedNode(t)
	c := rpc.New(n.URL)
	ctx := t.Context()
	from := wallet(t, n, "holder-6")
	to := solana.NewWallet().PublicKey()

	// A signature that does not verify.
	tx := build(t, c, from, nil, system.NewTransferInstruction(1, from.PublicKey(), to).Build())
	tx.Signatures[0][5] ^= 0xff
	_, err := c.SendTransaction(ctx, tx)
	if re := rpcError(t, err); re.Code != -32003 || re.Message != "Transaction signature verification failure" {
		t.Errorf("bad signature: %d %s", re.Code, re.Message)
	}
	// With skipPreflight the node takes it, and it never lands (the leader drops it at sigverify).
	sig, err := c.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{SkipPreflight: true})
	if err != nil || sig != tx.Signatures[0] {
		t.Fatalf("skipPreflight: %v %v", sig, err)
	}
	_, err = c.SimulateTransactionWithOpts(ctx, tx, &rpc.SimulateTransactionOpts{SigVerify: true})
	if re := rpcError(t, err); re.Code != -32003 {
		t.Errorf("simulate with sigVerify: %d %s", re.Code, re.Message)
	}

	// A USDC transfer beyond the balance: preflight fails with the program's logs.
	usdc := mint(t, n, "USDC")
	h := n.HoldingsOf("holder-6", "USDC")[0]
	dst := n.HoldingsOf("holder-5", "USDC")[0]
	tx = build(t, c, from, nil, token.NewTransferCheckedInstruction(h.Amount+1, usdc.Decimals, key(t, h.Account), key(t, usdc.Address), key(t, dst.Account), from.PublicKey(), nil).Build())
	_, err = c.SendTransaction(ctx, tx)
	re := rpcError(t, err)
	data, _ := json.Marshal(re.Data)
	if re.Code != -32002 || re.Message != "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1" ||
		!bytes.Contains(data, []byte(`"InstructionError":[0,{"Custom":1}]`)) || !bytes.Contains(data, []byte(`insufficient funds`)) {
		t.Errorf("preflight failure: %d %s %s", re.Code, re.Message, data)
	}
	// With skipPreflight it lands, fails, and its fee is charged.
	before, _ := c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	failSig, err := c.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{SkipPreflight: true})
	if err != nil {
		t.Fatalf("skipPreflight: %v", err)
	}
	st := waitFor(t, c, failSig, rpc.ConfirmationStatusProcessed)
	after, _ := c.GetBalance(ctx, from.PublicKey(), rpc.CommitmentProcessed)
	if st.Err == nil || before.Value-after.Value != 5000 {
		t.Errorf("failed transaction: status %+v, fee charged %d", st, before.Value-after.Value)
	}

	// An unsigned transfer runs with sigVerify false (and a replaced blockhash) without touching state.
	unsigned, err := solana.NewTransaction([]solana.Instruction{
		token.NewTransferCheckedInstruction(1_000_000, usdc.Decimals, key(t, h.Account), key(t, usdc.Address), key(t, dst.Account), from.PublicKey(), nil).Build(),
	}, solana.Hash{}, solana.TransactionPayer(from.PublicKey()))
	if err != nil {
		t.Fatal(err)
	}
	unsigned.Signatures = make([]solana.Signature, unsigned.Message.Header.NumRequiredSignatures)
	dstKey := key(t, dst.Account)
	sim, err := c.SimulateTransactionWithOpts(ctx, unsigned, &rpc.SimulateTransactionOpts{
		ReplaceRecentBlockhash: true, Commitment: rpc.CommitmentProcessed,
		Accounts: &rpc.SimulateTransactionAccountsOpts{Encoding: solana.EncodingBase64, Addresses: []solana.PublicKey{dstKey}},
	})
	if err != nil {
		t.Fatalf("simulateTransaction: %v", err)
	}
	v := sim.Value
	if v.Err != nil || v.UnitsConsumed == nil || *v.UnitsConsumed == 0 || v.ReplacementBlockhash == nil || !slices.ContainsFunc(v.Logs, func(l string) bool { return strings.Contains(l, solana.TokenProgramID.String()+" success") }) {
		t.Errorf("simulation: %+v", v)
	}
	if len(v.Accounts) != 1 || binary.LittleEndian.Uint64(v.Accounts[0].Data.GetBinary()[64:72]) != dst.Amount+1_000_000 {
		t.Errorf("simulated post-state of the destination: %+v", v.Accounts)
	}
	if b, _ := c.GetTokenAccountBalance(ctx, dstKey, rpc.CommitmentProcessed); b.Value.Amount != fmt.Sprint(dst.Amount) {
		t.Errorf("simulation changed state: %s", b.Value.Amount)
	}
	// Unsigned, without replacing the zero blockhash: BlockhashNotFound as the simulation's err.
	sim, err = c.SimulateTransactionWithOpts(ctx, unsigned, &rpc.SimulateTransactionOpts{})
	if err != nil || fmt.Sprint(sim.Value.Err) != "BlockhashNotFound" {
		t.Errorf("unknown blockhash: %+v %v", sim, err)
	}
	if _, err := c.SimulateTransactionWithOpts(ctx, unsigned, &rpc.SimulateTransactionOpts{SigVerify: true, ReplaceRecentBlockhash: true}); rpcError(t, err).Code != -32602 {
		t.Errorf("sigVerify with replaceRecentBlockhash: %v", err)
	}

	// The bad-signature transaction never landed.
	out, err := c.GetSignatureStatuses(ctx, true, sig)
	if err != nil || out.Value[0] != nil {
		t.Errorf("a transaction with a bad signature has a status: %+v %v", out, err)
	}
}

// TestBlockhashExpiry: a blockhash is valid for 150 blocks, then refused.
func TestBlockhashExpiry(t *testing.T) {
	n := StartTestWith(t, Options{SlotTime: 10 * time.Millisecond, FinalizeDepth: 2})
	c := rpc.New(n.URL)
	ctx := t.Context()
	from := wallet(t, n, "holder-7")
	bh, err := c.GetLatestBlockhash(ctx, rpc.CommitmentProcessed)
	if err != nil {
		t.Fatal(err)
	}
	height, _ := c.GetBlockHeight(ctx, rpc.CommitmentProcessed)
	if bh.Value.LastValidBlockHeight < height+140 || bh.Value.LastValidBlockHeight > height+150 {
		t.Errorf("lastValidBlockHeight %d at height %d, want height+150", bh.Value.LastValidBlockHeight, height)
	}
	tx, _ := solana.NewTransaction([]solana.Instruction{system.NewTransferInstruction(1, from.PublicKey(), solana.NewWallet().PublicKey()).Build()}, bh.Value.Blockhash, solana.TransactionPayer(from.PublicKey()))
	if _, err := tx.Sign(func(solana.PublicKey) *solana.PrivateKey { return &from }); err != nil {
		t.Fatal(err)
	}
	msg, _ := tx.Message.MarshalBinary()

	// A durable nonce account, whose nonce outlives any blockhash.
	nonce := solana.NewWallet().PrivateKey
	rent, _ := c.GetMinimumBalanceForRentExemption(ctx, 80, rpc.CommitmentProcessed)
	ntx := build(t, c, from, []solana.PrivateKey{nonce},
		system.NewCreateAccountInstruction(rent, 80, solana.SystemProgramID, from.PublicKey(), nonce.PublicKey()).Build(),
		system.NewInitializeNonceAccountInstruction(from.PublicKey(), nonce.PublicKey(), solana.SysVarRecentBlockHashesPubkey, solana.SysVarRentPubkey).Build())
	if _, err := c.SendTransaction(ctx, ntx); err != nil {
		t.Fatalf("create the nonce account: %v", err)
	}
	na, err := c.GetAccountInfoWithOpts(ctx, nonce.PublicKey(), &rpc.GetAccountInfoOpts{Commitment: rpc.CommitmentProcessed})
	if err != nil {
		t.Fatalf("nonce account: %v", err)
	}
	durable := solana.HashFromBytes(na.Value.Data.GetBinary()[40:72])
	nonceRecipient := solana.NewWallet().PublicKey()
	ntx, _ = solana.NewTransaction([]solana.Instruction{
		system.NewAdvanceNonceAccountInstruction(nonce.PublicKey(), solana.SysVarRecentBlockHashesPubkey, from.PublicKey()).Build(),
		system.NewTransferInstruction(solana.LAMPORTS_PER_SOL, from.PublicKey(), nonceRecipient).Build(),
	}, durable, solana.TransactionPayer(from.PublicKey()))
	if _, err := ntx.Sign(func(solana.PublicKey) *solana.PrivateKey { return &from }); err != nil {
		t.Fatal(err)
	}

	if v, err := c.IsBlockhashValid(ctx, bh.Value.Blockhash, rpc.CommitmentProcessed); err != nil || !v.Value {
		t.Fatalf("fresh blockhash not valid: %v %v", v, err)
	}
	if fee, err := c.GetFeeForMessage(ctx, base64.StdEncoding.EncodeToString(msg), rpc.CommitmentProcessed); err != nil || fee.Value == nil || *fee.Value != 5000 {
		t.Errorf("getFeeForMessage: %+v %v", fee, err)
	}
	for {
		h, err := c.GetBlockHeight(ctx, rpc.CommitmentProcessed)
		if err != nil {
			t.Fatal(err)
		}
		if h > bh.Value.LastValidBlockHeight {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if v, err := c.IsBlockhashValid(ctx, bh.Value.Blockhash, rpc.CommitmentProcessed); err != nil || v.Value {
		t.Errorf("expired blockhash still valid: %v %v", v, err)
	}
	_, err = c.SendTransaction(ctx, tx)
	if re := rpcError(t, err); re.Code != -32002 || re.Message != "Transaction simulation failed: Blockhash not found" {
		t.Errorf("expired blockhash: %d %s", re.Code, re.Message)
	}
	if fee, err := c.GetFeeForMessage(ctx, base64.StdEncoding.EncodeToString(msg), rpc.CommitmentProcessed); err != nil || fee.Value != nil {
		t.Errorf("getFeeForMessage of an expired message: %+v %v", fee, err)
	}
	// The durable-nonce transaction lands whatever the age of its nonce, and advances it.
	if _, err := c.SendTransaction(ctx, ntx); err != nil {
		t.Fatalf("durable-nonce transaction: %v", err)
	}
	if b, _ := c.GetBalance(ctx, nonceRecipient, rpc.CommitmentProcessed); b.Value != solana.LAMPORTS_PER_SOL {
		t.Errorf("durable-nonce transfer: balance %d", b.Value)
	}
	if _, err := c.SendTransaction(ctx, ntx); err == nil || rpcError(t, err).Code != -32002 {
		t.Errorf("the same durable-nonce transaction again: %v", err)
	}
	// Skipped slots: after more than 25 blocks the slot runs ahead of the block height.
	slot, _ := c.GetSlot(ctx, rpc.CommitmentProcessed)
	height, _ = c.GetBlockHeight(ctx, rpc.CommitmentProcessed)
	if slot <= height {
		t.Errorf("slot %d, block height %d: no skipped slots", slot, height)
	}
	if _, err := c.GetBlockTime(ctx, slot-1); err != nil {
		if re := rpcError(t, err); re.Code != -32007 {
			t.Errorf("getBlockTime: %v", err)
		}
	}
}

// TestMethods covers the remaining methods, JSON-RPC batches and error shapes.
func TestMethods(t *testing.T) {
	n := sharedNode(t)
	c := rpc.New(n.URL)
	ctx := t.Context()

	v, err := c.GetVersion(ctx)
	if err != nil || v.SolanaCore != n.SolanaCore {
		t.Errorf("getVersion: %+v %v", v, err)
	}
	g, err := c.GetGenesisHash(ctx)
	if err != nil || g.String() != n.GenesisHash {
		t.Errorf("getGenesisHash: %s %v", g, err)
	}
	processed, _ := c.GetSlot(ctx, rpc.CommitmentProcessed)
	confirmed, _ := c.GetSlot(ctx, rpc.CommitmentConfirmed)
	finalized, _ := c.GetSlot(ctx, rpc.CommitmentFinalized)
	if !(processed >= confirmed && confirmed > finalized) {
		t.Errorf("slots: processed %d, confirmed %d, finalized %d", processed, confirmed, finalized)
	}
	ei, err := c.GetEpochInfo(ctx, rpc.CommitmentProcessed)
	if err != nil || ei.SlotsInEpoch != 432000 || ei.AbsoluteSlot < processed || ei.TransactionCount == nil || *ei.TransactionCount < uint64(len(n.Holdings)) {
		t.Errorf("getEpochInfo: %+v %v", ei, err)
	}
	rent, err := c.GetMinimumBalanceForRentExemption(ctx, 165, rpc.CommitmentFinalized)
	if err != nil || rent != 2039280 {
		t.Errorf("getMinimumBalanceForRentExemption(165): %d %v", rent, err)
	}
	usdc, emb := mint(t, n, "USDC"), mint(t, n, "EMB")
	ma, err := c.GetMultipleAccountsWithOpts(ctx, []solana.PublicKey{key(t, usdc.Address), solana.NewWallet().PublicKey(), key(t, emb.Address)}, &rpc.GetMultipleAccountsOpts{Commitment: rpc.CommitmentFinalized})
	if err != nil || len(ma.Value) != 3 || ma.Value[1] != nil || len(ma.Value[0].Data.GetBinary()) != 82 || ma.Value[2].Owner != solana.Token2022ProgramID {
		t.Errorf("getMultipleAccounts: %+v %v", ma, err)
	}
	fees, err := c.GetRecentPrioritizationFees(ctx, nil)
	if err != nil || len(fees) == 0 {
		t.Errorf("getRecentPrioritizationFees: %v %v", fees, err)
	}

	// requestAirdrop lands a faucet transfer.
	to := solana.NewWallet().PublicKey()
	sig, err := c.RequestAirdrop(ctx, to, 2*solana.LAMPORTS_PER_SOL, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("requestAirdrop: %v", err)
	}
	waitFor(t, c, sig, rpc.ConfirmationStatusConfirmed)
	if b, _ := c.GetBalance(ctx, to, rpc.CommitmentConfirmed); b.Value != 2*solana.LAMPORTS_PER_SOL {
		t.Errorf("airdropped balance %d", b.Value)
	}

	// A batch: answers in order, an error in the middle.
	body := post(t, n.URL, `[{"jsonrpc":"2.0","id":1,"method":"getSlot","params":[{"commitment":"processed"}]},`+
		`{"jsonrpc":"2.0","id":"two","method":"getBalance","params":["not-a-key"]},`+
		`{"jsonrpc":"2.0","id":3,"method":"getLatestBlockhash","params":[{"commitment":"finalized"}]},`+
		`{"jsonrpc":"2.0","id":4,"method":"noSuchMethod"}]`)
	var batch []rawResponse
	if err := json.Unmarshal(body, &batch); err != nil || len(batch) != 4 {
		t.Fatalf("batch: %s %v", body, err)
	}
	if string(batch[0].ID) != "1" || batch[0].Error != nil || string(batch[1].ID) != `"two"` || batch[1].Error == nil || batch[1].Error.Code != -32602 ||
		batch[2].Error != nil || !bytes.Contains(batch[2].Result, []byte(`"lastValidBlockHeight"`)) || batch[3].Error == nil || batch[3].Error.Code != -32601 {
		t.Errorf("batch answers: %s", body)
	}
	if r := raw(t, n.URL, "getTokenAccountBalance", usdc.Address); r.Error == nil || r.Error.Code != -32602 || r.Error.Message != "Invalid param: not a Token account" {
		t.Errorf("getTokenAccountBalance of a mint: %+v", r.Error)
	}
	if r := raw(t, n.URL, "getBalance", usdc.Address, map[string]any{"minContextSlot": 1 << 40}); r.Error == nil || r.Error.Code != -32016 {
		t.Errorf("minContextSlot: %+v", r.Error)
	}
	var parseErr rawResponse
	if err := json.Unmarshal(post(t, n.URL, `{"jsonrpc":"2.0",`), &parseErr); err != nil || parseErr.Error == nil || parseErr.Error.Code != -32700 {
		t.Errorf("parse error: %+v %v", parseErr, err)
	}
	// base58-encoded sendTransaction and a context-wrapped answer with apiVersion.
	from := wallet(t, n, "holder-4")
	tx := build(t, c, from, nil, system.NewTransferInstruction(1, from.PublicKey(), to).Build())
	wire, _ := tx.MarshalBinary()
	if r := raw(t, n.URL, "sendTransaction", solana.Base58(wire).String()); r.Error != nil || string(r.Result) != `"`+tx.Signatures[0].String()+`"` {
		t.Errorf("sendTransaction base58: %s %+v", r.Result, r.Error)
	}
	if r := raw(t, n.URL, "getBalance", to.String(), map[string]any{"commitment": "processed"}); !bytes.Contains(r.Result, []byte(`"apiVersion"`)) {
		t.Errorf("getBalance context: %s", r.Result)
	}
}

// TestStartOptions: a fixed seed gives the same addresses; Close is idempotent.
func TestStartOptions(t *testing.T) {
	n := sharedNode(t)
	other := StartTestWith(t, Options{Seed: "another seed", Activity: 300 * time.Millisecond})
	if other.GenesisHash == n.GenesisHash || other.Mints[0].Address == n.Mints[0].Address {
		t.Errorf("another seed, same addresses")
	}
	if m, _ := other.Mint("WSOL"); m.Address != solana.WrappedSol.String() {
		t.Errorf("wrapped SOL at %s", m.Address)
	}
	c := rpc.New(other.URL)
	trader := key(t, mustKeypair(t, other, "trader-0").Address)
	deadline := time.Now().Add(10 * time.Second)
	for {
		sigs, err := c.GetSignaturesForAddressWithOpts(t.Context(), trader, &rpc.GetSignaturesForAddressOpts{Commitment: rpc.CommitmentConfirmed})
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(sigs, func(s *rpc.TransactionSignature) bool {
			return s.Memo != nil && strings.Contains(*s.Memo, "localnet activity")
		}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no background activity after 10 s; log:\n%s", other.Log())
		}
		time.Sleep(100 * time.Millisecond)
	}
	other.Close()
	other.Close()
	select {
	case <-other.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if other.Err() == nil {
		t.Error("a killed validator reports no exit error")
	}
}

func mustKeypair(t *testing.T, n *Node, name string) Keypair {
	t.Helper()
	k, ok := n.Keypair(name)
	if !ok {
		t.Fatalf("no keypair %s", name)
	}
	return k
}

// holders counts the seeded token accounts of a mint symbol.
func holders(n *Node, symbol string) int {
	c := 0
	for _, h := range n.Holdings {
		if h.Symbol == symbol {
			c++
		}
	}
	return c
}

// holdingMint is the mint of a seeded holding: a seeded mint, or a pool's LP mint.
func holdingMint(t *testing.T, n *Node, h Holding) Mint {
	t.Helper()
	for _, p := range n.Pools {
		if h.Symbol == p.Name+" LP" {
			return Mint{Symbol: h.Symbol, Address: p.LPMint, Decimals: p.LPDecimals, Program: solana.TokenProgramID.String()}
		}
	}
	return mint(t, n, h.Symbol)
}
