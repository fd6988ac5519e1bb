package solana

import (
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/token"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

func TestMints(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	asked := []string{usdcMint.String(), pyusdMint.String(), feeMint.String(), wsolMint.String(), sender.String(),
		testKey("nothing here").String(), ata(sender, usdcMint, tokenProgramID).String()}
	ms, err := c.Mints(t.Context(), asked)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 1 {
		t.Errorf("%d round trips, want 1", n)
	}
	usdc, pyusd, feet, wsol := ms[0], ms[1], ms[2], ms[3]
	if !usdc.Found || usdc.Program != TokenProgram || usdc.Decimals != 6 || usdc.Supply.Uint64() != usdcSupply ||
		usdc.MintAuthority != usdcMintAuthority.String() || usdc.FreezeAuthority != usdcFreezeAuthority.String() ||
		usdc.Slot != fakeSlot || usdc.Epoch != fixtureEpoch || usdc.TransferFee != nil {
		t.Errorf("USDC = %+v", usdc)
	}
	if md := usdc.Metadata; md == nil || md.Name != "USD Coin" || md.Symbol != "USDC" || md.Source != "metaplex" {
		t.Errorf("USDC metadata = %+v", md)
	}
	if !pyusd.Found || pyusd.Program != Token2022Program || pyusd.TransferFee == nil || *pyusd.TransferFee != (svm.FeeSchedule{Epoch: 605}) ||
		!pyusd.Extensions.Has("PermanentDelegate") || pyusd.Extensions.PermanentDelegate == "" {
		t.Errorf("PYUSD = %+v", pyusd)
	}
	if md := pyusd.Metadata; md == nil || md.Symbol != "PYUSD" || md.Source != "token-2022" || !md.Mutable {
		t.Errorf("PYUSD metadata = %+v", md)
	}
	if feet.TransferFee == nil || *feet.TransferFee != (svm.FeeSchedule{Epoch: 700, BasisPoints: 150, MaximumFee: 5_000_000}) || feet.Metadata.Symbol != "FEET" {
		t.Errorf("FEET fee in epoch %d = %+v", feet.Epoch, feet.TransferFee)
	}
	if !wsol.Found || wsol.Decimals != 9 || wsol.Metadata != nil {
		t.Errorf("wSOL = %+v", wsol)
	}
	for i, m := range ms[4:] {
		if m.Found || m.Address != asked[4+i] {
			t.Errorf("%s is not a mint, read %+v", asked[4+i], m)
		}
	}
	if _, err := c.Mints(t.Context(), []string{"0x6B175474E89094C44Da98b954EedeAC495271d0F"}); !errors.Is(err, chain.ErrInvalidAddress) {
		t.Errorf("EVM mint: %v", err)
	}

	// Many mints: 100 keys per getMultipleAccounts, all in the one batch.
	f.reset()
	many := make([]string, 0, 130)
	for i := range 130 {
		many = append(many, testKey("absent mint "+string(rune('a'+i%26))+string(rune('a'+i/26))).String())
	}
	many = append(many, usdcMint.String())
	ms, err = c.Mints(t.Context(), many)
	if err != nil || len(ms) != 131 || !ms[130].Found || ms[0].Found {
		t.Fatalf("131 mints: %d, %v", len(ms), err)
	}
	if n, calls := f.roundTrips.Load(), f.count("getMultipleAccounts"); n != 1 || calls != 3 {
		t.Errorf("131 mints: %d round trips and %d getMultipleAccounts, want 1 and 3", n, calls)
	}
}

func TestHoldings24Owners(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	asked := make([]string, len(owners))
	for i, o := range owners {
		asked[i] = o.String()
	}
	res, err := c.Holdings(t.Context(), asked)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n > 2 {
		t.Errorf("24 owners: %d round trips, want at most 2", n)
	}
	t.Logf("24 owners' holdings: %d round trips, %d calls (%d getBalance, %d getTokenAccountsByOwner, %d getMultipleAccounts, %d getEpochInfo)",
		f.roundTrips.Load(), f.count("getBalance")+f.count("getTokenAccountsByOwner")+f.count("getMultipleAccounts")+f.count("getEpochInfo"),
		f.count("getBalance"), f.count("getTokenAccountsByOwner"), f.count("getMultipleAccounts"), f.count("getEpochInfo"))
	for i, h := range res.Owners {
		if h.Err != nil || h.Owner != asked[i] || h.Lamports != uint64(i)*ownerLamportsStep+1 || h.Slot != fakeSlot {
			t.Fatalf("owner %d: %+v", i, h)
		}
		want := map[string]uint64{ata(owners[i], usdcMint, tokenProgramID).String(): ownerUSDC(i)}
		if i%3 == 0 {
			want[ata(owners[i], pyusdMint, token2022ID).String()] = uint64(i+1) * 1_000_000
		}
		if i >= 6 && i <= 17 {
			want[ata(owners[i], feeMint, token2022ID).String()] = uint64(i) * 10_000_000
		}
		switch i {
		case 0:
			want[owner0Extra.String()] = owner0ExtraUSDC
		case 1:
			want[ata(owners[1], wsolMint, tokenProgramID).String()] = owner1WrappedSOL
		case 3:
			want[ata(owners[3], feeMint, token2022ID).String()] = 250_000_000
			want[testKey("owner 03 second FEET account").String()] = 50_000_000
		}
		if len(h.Tokens) != len(want) {
			t.Errorf("owner %d: %d token accounts, want %d: %+v", i, len(h.Tokens), len(want), h.Tokens)
		}
		for _, tb := range h.Tokens {
			m := res.Mints[tb.Mint]
			if w, ok := want[tb.Account]; !ok || tb.Amount.Uint64() != w || tb.Decimals != m.Decimals || tb.Program != m.Program {
				t.Errorf("owner %d: %+v (want %d, mint %+v)", i, tb, w, m)
			}
			if tb.Frozen != (i == 5 && tb.Mint == usdcMint.String()) || tb.Native != (tb.Mint == NativeMint) {
				t.Errorf("owner %d: frozen/native wrong in %+v", i, tb)
			}
		}
		if !slices.IsSortedFunc(h.Tokens, func(a, b TokenBalance) int {
			if a.Program != b.Program {
				return compareStr(a.Program, b.Program)
			}
			if a.Mint != b.Mint {
				return compareStr(a.Mint, b.Mint)
			}
			return compareStr(a.Account, b.Account)
		}) {
			t.Errorf("owner %d: tokens not ordered", i)
		}
	}
	if len(res.Mints) != 4 || res.Mints[feeMint.String()].TransferFee == nil || res.Mints[usdcMint.String()].Metadata.Symbol != "USDC" {
		t.Errorf("mints: %+v", res.Mints)
	}
}

func compareStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestHoldingsPerOwnerFailure(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	bad := owners[7].String()
	f.setOverride(func(method string, params []json.RawMessage) (any, *rpcErr, bool) {
		if method == "getTokenAccountsByOwner" && f.str(params[0]) == bad {
			return nil, &rpcErr{Code: -32010, Message: bad + " excluded from account secondary indexes; this RPC method unavailable for key"}, true
		}
		return nil, nil, false
	})
	res, err := c.Holdings(t.Context(), []string{owners[6].String(), bad, sender.String(), testKey("empty wallet").String()})
	if err != nil {
		t.Fatal(err)
	}
	if e := res.Owners[1].Err; KindOf(e) != KindBadResponse || res.Owners[1].Tokens != nil || res.Owners[1].Owner != bad {
		t.Errorf("failing owner: %+v", res.Owners[1])
	}
	if res.Owners[0].Err != nil || len(res.Owners[0].Tokens) != 3 {
		t.Errorf("owner 6 beside a failing owner: %+v", res.Owners[0])
	}
	s := res.Owners[2]
	if s.Err != nil || s.Lamports != senderLamports || len(s.Tokens) != 6 {
		t.Errorf("sender: %+v", s)
	}
	if e := res.Owners[3]; e.Err != nil || e.Lamports != 0 || len(e.Tokens) != 0 {
		t.Errorf("an empty wallet: %+v", e)
	}
	// A bad owner ref fails before any call.
	f.reset()
	if _, err := c.Holdings(t.Context(), []string{sender.String(), "base:0x6B175474E89094C44Da98b954EedeAC495271d0F"}); !errors.Is(err, chain.ErrInvalidAddress) || f.roundTrips.Load() != 0 {
		t.Errorf("bad owner: %v after %d round trips", err, f.roundTrips.Load())
	}
}

func TestHoldersScan(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	l, err := c.Holders(t.Context(), feeMint.String(), chain.SVMHoldersOptions{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 1 {
		t.Errorf("scan: %d round trips, want 1", n)
	}
	// Owners, not accounts: owner 3's two accounts are summed.
	want := []chain.SVMHolder{
		{Owner: treasury.String(), Amount: big.NewInt(treasuryFEET), Accounts: 1},
		{Owner: sender.String(), Amount: big.NewInt(senderFEET), Accounts: 1},
		{Owner: owners[3].String(), Amount: big.NewInt(300_000_000), Accounts: 2},
		{Owner: owners[17].String(), Amount: big.NewInt(170_000_000), Accounts: 1},
		{Owner: owners[16].String(), Amount: big.NewInt(160_000_000), Accounts: 1},
	}
	if !l.Complete || l.Owners != 15 || !slices.EqualFunc(l.Holders, want, sameHolder) {
		t.Errorf("FEET holders: complete %v, %d owners, %+v", l.Complete, l.Owners, l.Holders)
	}
	// Top 10: 2320 + 1000 + 300 + 170 + 160 + 150 + 140 + 130 + 120 + 110 FEET, of a 5,000 supply.
	top10 := int64(2_320+1_000+300+170+160+150+140+130+120+110) * 1_000_000
	if l.Top10.Int64() != top10 || l.Top10SharePpm() != top10*1_000_000/feetSupply {
		t.Errorf("top 10 = %s (%d ppm), want %d", l.Top10, l.Top10SharePpm(), top10)
	}

	// SPL Token: owner 0's two USDC accounts summed, owner 2's empty one left out.
	l, err = c.Holders(t.Context(), usdcMint.String(), chain.SVMHoldersOptions{Limit: 100})
	if err != nil || !l.Complete {
		t.Fatal(err)
	}
	for _, h := range l.Holders {
		if h.Owner == owners[0].String() && (h.Amount.Uint64() != ownerUSDC(0)+owner0ExtraUSDC || h.Accounts != 2) {
			t.Errorf("owner 0 = %+v", h)
		}
		if h.Owner == owners[2].String() {
			t.Errorf("owner 2 holds nothing: %+v", h)
		}
	}
	if l.Owners != 26 || l.Holders[0].Owner != sender.String() {
		t.Errorf("USDC: %d owners, first %+v", l.Owners, l.Holders[0])
	}

	// Not a mint.
	l, err = c.Holders(t.Context(), sender.String(), chain.SVMHoldersOptions{})
	if err != nil || l.Mint.Found || len(l.Holders) != 0 || l.Top10SharePpm() != 0 {
		t.Errorf("a wallet's holders: %+v, %v", l, err)
	}
}

func sameHolder(a, b chain.SVMHolder) bool {
	return a.Owner == b.Owner && a.Amount.Cmp(b.Amount) == 0 && a.Accounts == b.Accounts
}

func TestHoldersLargest(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	l, err := c.Holders(t.Context(), feeMint.String(), chain.SVMHoldersOptions{Limit: 3, LargestOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 2 || f.count("getProgramAccounts") != 0 {
		t.Errorf("largest: %d round trips, %d scans; want 2 and 0", n, f.count("getProgramAccounts"))
	}
	want := []chain.SVMHolder{
		{Owner: treasury.String(), Amount: big.NewInt(treasuryFEET), Accounts: 1},
		{Owner: sender.String(), Amount: big.NewInt(senderFEET), Accounts: 1},
		{Owner: owners[3].String(), Amount: big.NewInt(300_000_000), Accounts: 2},
	}
	if l.Complete || !slices.EqualFunc(l.Holders, want, sameHolder) || l.Owners != 15 {
		t.Errorf("largest: complete %v, %d owners, %+v", l.Complete, l.Owners, l.Holders)
	}

	// A provider that refuses the scan: the largest accounts do.
	f.reset()
	f.setOverride(func(method string, _ []json.RawMessage) (any, *rpcErr, bool) {
		return nil, &rpcErr{Code: -32010, Message: "excluded from account secondary indexes"}, method == "getProgramAccounts"
	})
	l, err = c.Holders(t.Context(), feeMint.String(), chain.SVMHoldersOptions{Limit: 3})
	if err != nil || l.Complete || !slices.EqualFunc(l.Holders, want, sameHolder) {
		t.Errorf("refused scan: %+v, %v", l, err)
	}
	if n := f.roundTrips.Load(); n != 3 {
		t.Errorf("refused scan: %d round trips, want 3", n)
	}
	// A scan too large for the response bound: likewise.
	f.setOverride(nil)
	f.reset()
	c = f.client(Options{MaxResponseBytes: 6_000})
	l, err = c.Holders(t.Context(), usdcMint.String(), chain.SVMHoldersOptions{Limit: 3})
	if err != nil || l.Complete || len(l.Holders) != 3 {
		t.Errorf("too large a scan: %+v, %v", l, err)
	}
}

func TestSignatureStatuses(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	got, err := c.SignatureStatuses(t.Context(), []string{sigFinal.String(), sigConfirmed.String(), sigProcessed.String(), sigFailed.String(), sigUnknown.String()})
	if err != nil {
		t.Fatal(err)
	}
	want := []chain.SVMSigStatus{
		{Signature: sigFinal.String(), Found: true, Status: chain.SVMStatusFinalized, Slot: 312_457_001},
		{Signature: sigConfirmed.String(), Found: true, Status: chain.SVMStatusConfirmed, Slot: 312_457_880, Confirmations: 11},
		{Signature: sigProcessed.String(), Found: true, Status: chain.SVMStatusProcessed, Slot: 312_457_890},
		{Signature: sigFailed.String(), Found: true, Status: chain.SVMStatusFinalized, Slot: 312_456_000, Failed: true, Err: `{"InstructionError":[0,{"Custom":1}]}`},
		{Signature: sigUnknown.String()},
	}
	if !slices.Equal(got, want) {
		t.Errorf("statuses:\n got %+v\nwant %+v", got, want)
	}
	if f.roundTrips.Load() != 1 {
		t.Errorf("%d round trips", f.roundTrips.Load())
	}
	if _, err := c.SignatureStatuses(t.Context(), []string{"0x" + sigFinal.String()[:64]}); !errors.Is(err, chain.ErrInvalidSolanaSignature) {
		t.Errorf("bad signature: %v", err)
	}
}

func TestTransactions(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	txs, err := c.Transactions(t.Context(), []string{sigFinal.String(), sigFailed.String(), sigProcessed.String(), sigUnknown.String()})
	if err != nil {
		t.Fatal(err.(*Error).Detail())
	}
	if f.roundTrips.Load() != 1 {
		t.Errorf("%d round trips, want 1", f.roundTrips.Load())
	}
	v0 := txs[0]
	src, dst := ata(sender, usdcMint, tokenProgramID).String(), ata(recipient, usdcMint, tokenProgramID).String()
	if !v0.HasMessage || v0.Version != "0" || v0.Payer != sender.String() || !slices.Equal(v0.Signers, []string{sender.String()}) ||
		v0.Status != chain.SVMStatusFinalized || v0.Failed || v0.Fee != 6_000 || v0.ComputeUnits != 6_500 || v0.BlockTime != 1_735_171_234 ||
		v0.RecentBlockhash != fixtureBlockhash || len(v0.Logs) != 8 {
		t.Errorf("v0 = %+v", v0)
	}
	// The loaded addresses follow the static keys: writable, then read-only.
	n := len(v0.AccountKeys)
	if n != 6 || !slices.Equal(v0.AccountKeys[n-2:], []string{dst, usdcMint.String()}) {
		t.Errorf("account keys = %v", v0.AccountKeys)
	}
	if len(v0.Instructions) != 3 {
		t.Fatalf("instructions = %+v", v0.Instructions)
	}
	transfer := v0.Instructions[2]
	if transfer.Program != TokenProgram || !slices.Equal(transfer.Accounts, []string{src, usdcMint.String(), dst, sender.String()}) ||
		transfer.Data[0] != 12 {
		t.Errorf("transfer = %+v", transfer)
	}
	failed := txs[1]
	if !failed.HasMessage || !failed.Failed || failed.Err != `{"InstructionError":[0,{"Custom":1}]}` || failed.Version != "legacy" || failed.Payer != poor.String() {
		t.Errorf("failed = %+v", failed)
	}
	if p := txs[2]; !p.Found || p.HasMessage || p.Status != chain.SVMStatusProcessed {
		t.Errorf("processed = %+v", p)
	}
	if u := txs[3]; u.Found || u.HasMessage {
		t.Errorf("unknown = %+v", u)
	}

	// Diff: the recorded transaction against itself, and against changed builds.
	payload := txBase64(t, v0Transfer(t))
	if d, err := c.Diff(payload, v0); err == nil {
		t.Errorf("a v0 build with lookups compared: %v", d)
	}
	legacy := func(amount uint64, price uint64, payer sol.PublicKey) string {
		rebuilt, err := sol.NewTransaction([]sol.Instruction{
			computeBudgetLimit(40_000), computeBudgetPrice(price),
			transferChecked(amount, sender, recipient),
		}, sol.MustHashFromBase58(fixtureBlockhash), sol.TransactionPayer(payer))
		if err != nil {
			t.Fatal(err)
		}
		rebuilt.Signatures = make([]sol.Signature, rebuilt.Message.Header.NumRequiredSignatures)
		return txBase64(t, rebuilt)
	}
	for _, tc := range []struct {
		payload string
		want    []string
	}{
		{legacy(12_500_000, 25_000, sender), nil},
		{legacy(12_500_000, 99_000, sender), []string{chain.SVMDiffComputeBudget}},
		{legacy(12_500_001, 25_000, sender), []string{chain.SVMDiffInstructions}},
		{legacy(12_500_000, 25_000, recipient), []string{chain.SVMDiffPayer}},
	} {
		d, err := c.Diff(tc.payload, v0)
		if err != nil || !slices.Equal(d, tc.want) {
			t.Errorf("Diff = %v, %v; want %v", d, err, tc.want)
		}
	}
	if _, err := c.Diff("not base64!", v0); err == nil {
		t.Error("Diff of a bad payload")
	}
	if _, err := c.Diff(legacy(1, 1, sender), txs[2]); err == nil {
		t.Error("Diff without the mined message")
	}
}

func computeBudgetLimit(units uint32) sol.Instruction {
	return computebudget.NewSetComputeUnitLimitInstruction(units).Build()
}

func computeBudgetPrice(microLamports uint64) sol.Instruction {
	return computebudget.NewSetComputeUnitPriceInstruction(microLamports).Build()
}

// transferChecked is a USDC TransferChecked between two wallets' associated token accounts.
func transferChecked(amount uint64, from, to sol.PublicKey) sol.Instruction {
	return token.NewTransferCheckedInstruction(amount, 6, ata(from, usdcMint, tokenProgramID), usdcMint, ata(to, usdcMint, tokenProgramID), from, nil).Build()
}

func TestBatchSplit(t *testing.T) {
	f := newFakeRPC(t)
	many := make([]string, 0, 130)
	for i := range 130 {
		many = append(many, testKey("split mint "+string(rune('a'+i%26))+string(rune('a'+i/26))).String())
	}
	// 260 keys (the mints and their metadata accounts): three getMultipleAccounts of about 4.6 KB
	// each; with a 6 KB request bound they go in three requests, at once.
	c := f.client(Options{MaxRequestBytes: 6_000})
	if _, err := c.Mints(t.Context(), many); err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 3 {
		t.Errorf("%d HTTP requests, want 3", n)
	}
	// Three calls per owner, two per batch.
	f.reset()
	c = f.client(Options{MaxBatch: 2})
	res, err := c.Holdings(t.Context(), []string{sender.String()})
	if err != nil || len(res.Owners[0].Tokens) != 6 {
		t.Fatalf("holdings: %+v, %v", res, err)
	}
	if n := f.roundTrips.Load(); n != 3 { // 2, then 1 for the 6 mints held (getMultipleAccounts and getEpochInfo)
		t.Errorf("%d HTTP requests, want 3", n)
	}
}
