package solana

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	associatedtoken "github.com/gagliardetto/solana-go/programs/associated-token-account"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/programs/token"

	"github.com/partner-platform/partnerd/chain"
)

// builtTx decodes a build's payload with solana-go's decoder and checks what every build shares:
// one zero signature slot for the sender, who pays; the fresh blockhash; the Compute Budget
// instructions first, with the documented layouts (SetComputeUnitLimit = [2, u32 LE],
// SetComputeUnitPrice = [3, u64 LE]).
func builtTx(t *testing.T, b chain.SVMTransferBuild, from sol.PublicKey) (*sol.Transaction, []chain.SVMInstruction) {
	t.Helper()
	tx, err := sol.TransactionFromBase64(b.Transaction)
	if err != nil {
		t.Fatal(err)
	}
	if len(tx.Signatures) != 1 || tx.Signatures[0] != (sol.Signature{}) || tx.Message.Header.NumRequiredSignatures != 1 ||
		tx.Message.AccountKeys[0] != from || tx.Message.IsVersioned() {
		t.Errorf("signatures %v, header %+v, payer %s", tx.Signatures, tx.Message.Header, tx.Message.AccountKeys[0])
	}
	if tx.Message.RecentBlockhash.String() != fixtureBlockhash || b.Blockhash != fixtureBlockhash || b.LastValidBlockHeight != fixtureLastValid {
		t.Errorf("blockhash %s, last valid %d", tx.Message.RecentBlockhash, b.LastValidBlockHeight)
	}
	instrs, err := resolveInstructions(tx.Message.Instructions, tx.Message.AccountKeys)
	if err != nil {
		t.Fatal(err)
	}
	if len(instrs) < 3 {
		t.Fatalf("%d instructions", len(instrs))
	}
	limit := append([]byte{2}, binary.LittleEndian.AppendUint32(nil, b.ComputeUnitLimit)...)
	price := append([]byte{3}, binary.LittleEndian.AppendUint64(nil, b.ComputeUnitPrice)...)
	if instrs[0].Program != ComputeBudgetProgram || !bytes.Equal(instrs[0].Data, limit) || len(instrs[0].Accounts) != 0 ||
		instrs[1].Program != ComputeBudgetProgram || !bytes.Equal(instrs[1].Data, price) || len(instrs[1].Accounts) != 0 {
		t.Errorf("compute budget instructions %+v %+v, want data % x and % x", instrs[0], instrs[1], limit, price)
	}
	// solana-go's own decoders read the compute budget instructions back.
	for i, want := range []any{&computebudget.SetComputeUnitLimit{Units: b.ComputeUnitLimit}, &computebudget.SetComputeUnitPrice{MicroLamports: b.ComputeUnitPrice}} {
		dec, err := computebudget.DecodeInstruction(nil, instrs[i].Data)
		if err != nil || !sameJSON(dec.Impl, want) {
			t.Errorf("compute budget %d decodes to %+v, %v", i, dec, err)
		}
	}
	// The fee figures: the recorded 75th percentile of recent fees, the recorded units plus 10 %
	// and 1,000, the recorded signature fee.
	if b.ComputeUnitPrice != 150_000 || b.UnitsConsumed != fixtureUnits || b.ComputeUnitLimit != fixtureUnits+fixtureUnits/10+1_000 ||
		b.PriorityFee != (150_000*uint64(b.ComputeUnitLimit)+999_999)/1_000_000 || b.NetworkFee != fixtureSigFee+b.PriorityFee {
		t.Errorf("price %d, units %d, limit %d, priority fee %d, network fee %d", b.ComputeUnitPrice, b.UnitsConsumed, b.ComputeUnitLimit, b.PriorityFee, b.NetworkFee)
	}
	return tx, instrs
}

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// checkSimulated checks the one simulation of a build: the same body, the unit limit at the
// maximum and the price at zero, sigVerify and replaceRecentBlockhash false, the sender's account
// asked for.
func checkSimulated(t *testing.T, f *fakeRPC, built []chain.SVMInstruction, from sol.PublicKey) {
	t.Helper()
	if len(f.simulated) != 1 {
		t.Fatalf("%d simulations", len(f.simulated))
	}
	cfg := f.simParams[0]
	if cfg["sigVerify"] != false || cfg["replaceRecentBlockhash"] != false || cfg["encoding"] != "base64" {
		t.Errorf("simulateTransaction config %v", cfg)
	}
	if accs, _ := cfg["accounts"].(map[string]any); accs == nil || !slices.Equal(accs["addresses"].([]any), []any{from.String()}) {
		t.Errorf("simulated accounts %v", cfg["accounts"])
	}
	sim := f.simulated[0]
	simInstrs, err := resolveInstructions(sim.Message.Instructions, sim.Message.AccountKeys)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(simInstrs[0].Data, []byte{2, 0xc0, 0x5c, 0x15, 0}) || !bytes.Equal(simInstrs[1].Data, []byte{3, 0, 0, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("simulated compute budget % x, % x; want 1,400,000 units at price 0", simInstrs[0].Data, simInstrs[1].Data)
	}
	if !slices.EqualFunc(simInstrs[2:], built[2:], sameInstruction) || sim.Message.RecentBlockhash.String() != fixtureBlockhash {
		t.Error("the simulated body differs from the built one")
	}
}

func TestBuildSOLTransfer(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	b, err := c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Amount: "1.25"})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 2 {
		t.Errorf("SOL transfer: %d round trips, want 2", n)
	}
	_, instrs := builtTx(t, b, sender)
	if len(instrs) != 3 {
		t.Fatalf("instructions %+v", instrs)
	}
	// System Transfer: [2 u32 LE, lamports u64 LE], accounts from (signer, writable), to (writable).
	want := append([]byte{2, 0, 0, 0}, binary.LittleEndian.AppendUint64(nil, 1_250_000_000)...)
	tr := instrs[2]
	if tr.Program != SystemProgram || !bytes.Equal(tr.Data, want) || !slices.Equal(tr.Accounts, []string{sender.String(), recipient.String()}) {
		t.Errorf("system transfer %+v, want data % x", tr, want)
	}
	dec, err := system.DecodeInstruction(nil, tr.Data)
	if err != nil || dec.Impl.(*system.Transfer).Lamports == nil || *dec.Impl.(*system.Transfer).Lamports != 1_250_000_000 {
		t.Errorf("solana-go decodes %+v, %v", dec, err)
	}
	if b.Amount.Uint64() != 1_250_000_000 || b.Received.Uint64() != 1_250_000_000 || b.Decimals != 9 || b.Mint != nil || b.CreatesDestination || b.TransferFee != 0 {
		t.Errorf("build %+v", b)
	}
	tx, _ := sol.TransactionFromBase64(b.Transaction)
	checkSimulated(t, f, instrs, sender)
	if w, _ := tx.Message.IsWritable(recipient); !w || !tx.Message.IsSigner(sender) || tx.Message.IsSigner(recipient) {
		t.Error("account flags")
	}
}

func TestBuildSPLTransfer(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	// The recipient has a USDC account: no creation.
	b, err := c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: usdcMint.String(), Amount: "12.5"})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 2 {
		t.Errorf("USDC transfer: %d round trips, want 2", n)
	}
	_, instrs := builtTx(t, b, sender)
	if len(instrs) != 3 {
		t.Fatalf("instructions %+v", instrs)
	}
	src, dst := ata(sender, usdcMint, tokenProgramID), ata(recipient, usdcMint, tokenProgramID)
	// TransferChecked = [12, amount u64 LE, decimals u8]; accounts source, mint, destination, owner.
	want := append(append([]byte{12}, binary.LittleEndian.AppendUint64(nil, 12_500_000)...), 6)
	tr := instrs[2]
	if tr.Program != TokenProgram || !bytes.Equal(tr.Data, want) || !slices.Equal(tr.Accounts, []string{src.String(), usdcMint.String(), dst.String(), sender.String()}) {
		t.Errorf("TransferChecked %+v, want % x", tr, want)
	}
	dec, err := token.DecodeInstruction(nil, tr.Data)
	if tc, ok := dec.Impl.(*token.TransferChecked); err != nil || !ok || *tc.Amount != 12_500_000 || *tc.Decimals != 6 {
		t.Errorf("solana-go decodes %+v, %v", dec, err)
	}
	if b.Source != src.String() || b.Destination != dst.String() || b.CreatesDestination || b.Amount.Uint64() != 12_500_000 || b.Decimals != 6 ||
		b.Mint == nil || b.Mint.Metadata.Symbol != "USDC" {
		t.Errorf("build %+v", b)
	}
	checkSimulated(t, f, instrs, sender)
}

func TestBuildToken2022Transfers(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})

	// FEET: a 1.5 % fee capped at 5 tokens, the recipient's account created.
	b, err := c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: feeMint.String(), Amount: "100.000001"})
	if err != nil {
		t.Fatal(err)
	}
	if n := f.roundTrips.Load(); n != 2 {
		t.Errorf("FEET transfer: %d round trips, want 2", n)
	}
	_, instrs := builtTx(t, b, sender)
	if len(instrs) != 4 {
		t.Fatalf("instructions %+v", instrs)
	}
	src, dst := ata(sender, feeMint, token2022ID), ata(recipient, feeMint, token2022ID)
	// CreateIdempotent = [1]; accounts payer, the account, wallet, mint, system program, token program.
	create := instrs[2]
	if create.Program != AssociatedTokenProgram || !bytes.Equal(create.Data, []byte{1}) ||
		!slices.Equal(create.Accounts, []string{sender.String(), dst.String(), recipient.String(), feeMint.String(), SystemProgram, Token2022Program}) {
		t.Errorf("create %+v", create)
	}
	var metas []*sol.AccountMeta
	for _, a := range create.Accounts {
		metas = append(metas, sol.Meta(sol.MustPublicKeyFromBase58(a)))
	}
	if dec, err := associatedtoken.DecodeInstruction(metas, create.Data); err != nil || dec.TypeID.Uint8() != associatedtoken.Instruction_CreateIdempotent {
		t.Errorf("solana-go decodes %+v, %v", dec, err)
	}
	// TransferCheckedWithFee = [26, 1, amount u64, decimals u8, fee u64]: 100,000,001 × 1.5 % = 1,500,000.015, rounded up.
	const amount, fee = 100_000_001, 1_500_001
	want := append(append(append([]byte{26, 1}, binary.LittleEndian.AppendUint64(nil, amount)...), 6), binary.LittleEndian.AppendUint64(nil, fee)...)
	tr := instrs[3]
	if tr.Program != Token2022Program || !bytes.Equal(tr.Data, want) ||
		!slices.Equal(tr.Accounts, []string{src.String(), feeMint.String(), dst.String(), sender.String()}) {
		t.Errorf("TransferCheckedWithFee %+v, want % x", tr, want)
	}
	if b.TransferFee != fee || b.Fee == nil || b.Fee.BasisPoints != 150 || b.Received.Uint64() != amount-fee || b.Amount.Uint64() != amount ||
		!b.CreatesDestination || b.RentLamports != 2_157_600 { // (128 + 165 + 1 + 4 + 12) × 6,960
		t.Errorf("FEET build %+v", b)
	}
	checkSimulated(t, f, instrs, sender)

	// A large FEET transfer pays the maximum fee.
	f.reset()
	f.simulated, f.simParams = nil, nil
	b, err = c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: feeMint.String(), Amount: "1000"})
	if err != nil || b.TransferFee != 5_000_000 || b.Received.Uint64() != 995_000_000 {
		t.Errorf("FEET 1000: fee %d, received %v, %v", b.TransferFee, b.Received, err)
	}

	// PYUSD: the extension at 0 bps still transfers with the fee checked (0).
	f.simulated, f.simParams = nil, nil
	b, err = c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: pyusdMint.String(), Amount: "7"})
	if err != nil {
		t.Fatal(err)
	}
	_, instrs = builtTx(t, b, sender)
	if tr := instrs[len(instrs)-1]; tr.Program != Token2022Program || tr.Data[0] != 26 || tr.Data[1] != 1 || b.TransferFee != 0 || !b.CreatesDestination ||
		b.RentLamports != (128+165+1+4+12+5)*6_960 {
		t.Errorf("PYUSD transfer %+v, build %+v", tr, b)
	}

	// A Token-2022 mint without a fee: TransferChecked under Token-2022. The recipient holds
	// COLD already (its account thawed by the authority), so nothing is created.
	f.simulated, f.simParams = nil, nil
	f.setAccount(ata(recipient, frozenDefMint, token2022ID).String(), tokenAccountFixture(t, frozenDefMint, recipient, 0, false))
	f.setAccount(ata(sender, frozenDefMint, token2022ID).String(), tokenAccountFixture(t, frozenDefMint, sender, 5_00, false))
	b, err = c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: frozenDefMint.String(), Amount: "2.5"})
	if err != nil {
		t.Fatal(err)
	}
	_, instrs = builtTx(t, b, sender)
	want = append(append([]byte{12}, binary.LittleEndian.AppendUint64(nil, 250)...), 2)
	if len(instrs) != 3 || instrs[2].Program != Token2022Program || !bytes.Equal(instrs[2].Data, want) || b.CreatesDestination {
		t.Errorf("COLD transfer %+v", instrs)
	}
}

// tokenAccountFixture is a Token-2022 account with ImmutableOwner.
func tokenAccountFixture(t *testing.T, mint, owner sol.PublicKey, amount uint64, frozen bool) fixtureAccount {
	state := token.Initialized
	if frozen {
		state = token.Frozen
	}
	data := withExtensions(encodeBin(t, token.Account{Mint: mint, Owner: owner, Amount: amount, State: state}), accountTypeAc, ext(extImmutableOwner))
	return fixtureAccount{Data: [2]string{encodeB64(data), "base64"}, Lamports: rentFor(len(data)), Owner: Token2022Program, Space: uint64(len(data))}
}

func TestBuildTransferRefusals(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	req := func(from, to, mint sol.PublicKey, amount string) chain.SVMTransferRequest {
		r := chain.SVMTransferRequest{From: from.String(), To: to.String(), Amount: amount}
		if !mint.IsZero() {
			r.Mint = mint.String()
		}
		return r
	}
	none := sol.PublicKey{}
	f.setAccount(ata(sender, frozenDefMint, token2022ID).String(), tokenAccountFixture(t, frozenDefMint, sender, 5_00, false))
	for _, tc := range []struct {
		name string
		r    chain.SVMTransferRequest
		want error
		says string
		rts  int64 // round trips spent
	}{
		{"EVM recipient", chain.SVMTransferRequest{From: sender.String(), To: "0x6B175474E89094C44Da98b954EedeAC495271d0F", Amount: "1"}, chain.ErrInvalidAddress, "EVM", 0},
		{"short address", chain.SVMTransferRequest{From: sender.String(), To: "abc", Amount: "1"}, chain.ErrInvalidAddress, "bytes", 0},
		{"bad amount", req(sender, recipient, none, "1e9"), chain.ErrInvalidAmount, "plain decimal", 0},
		{"too many SOL decimals", req(sender, recipient, none, "0.0000000001"), chain.ErrInvalidAmount, "at most 9 decimals", 0},
		{"too many USDC decimals", req(sender, recipient, usdcMint, "1.0000001"), chain.ErrInvalidAmount, "at most 6 decimals", 1},
		{"beyond u64", req(sender, recipient, usdcMint, "18446744073709.551616"), chain.ErrInvalidAmount, "largest", 1},
		{"zero", req(sender, recipient, usdcMint, "0"), chain.ErrInvalidAmount, "greater than zero", 0},
		{"not a mint", req(sender, recipient, recipient, "1"), chain.ErrInvalidSolanaToken, "not an SPL Token", 1},
		{"to a token account", req(sender, ata(recipient, usdcMint, tokenProgramID), usdcMint, "1"), chain.ErrInvalidSolanaToken, "token account", 1},
		{"SOL short", req(sender, recipient, none, "3"), chain.ErrPrerequisite, "holds 2.5 SOL", 1},
		{"USDC short", req(sender, recipient, usdcMint, "1500.250001"), chain.ErrPrerequisite, "holds 1500.25 USDC", 1},
		{"no account", req(recipient, sender, pyusdMint, "1"), chain.ErrPrerequisite, "holds no PYUSD", 1},
		{"frozen source", req(owners[5], recipient, usdcMint, "1"), chain.ErrPrerequisite, "frozen", 1},
		{"no SOL", req(testKey("nobody"), recipient, none, "1"), chain.ErrPrerequisite, "no SOL", 1},
		{"new account below rent", req(sender, testKey("new wallet"), none, "0.0001"), chain.ErrPrerequisite, "rent-exempt", 1},
		{"non-transferable", req(sender, recipient, soulboundMint, "1"), chain.ErrNotSupported, "non-transferable", 1},
		{"transfer hook", req(sender, recipient, hookMint, "1"), chain.ErrNotSupported, "hook", 1},
		{"paused", req(sender, recipient, pausedMint, "1"), chain.ErrPrerequisite, "paused", 1},
		{"new account frozen", req(sender, recipient, frozenDefMint, "1"), chain.ErrPrerequisite, "start frozen", 1},
	} {
		f.reset()
		_, err := c.BuildTransfer(t.Context(), tc.r)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %v saying %q", tc.name, err, tc.want, tc.says)
		}
		if n := f.roundTrips.Load(); n != tc.rts {
			t.Errorf("%s: %d round trips, want %d", tc.name, n, tc.rts)
		}
	}
}

func TestBuildTransferSimulation(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	r := chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: usdcMint.String(), Amount: "1"}
	answer := func(simErr any) {
		f.setOverride(func(method string, _ []json.RawMessage) (any, *rpcErr, bool) {
			if method != "simulateTransaction" {
				return nil, nil, false
			}
			return ctxValue(map[string]any{"err": simErr, "logs": []string{"Program log: Error: insufficient funds"}, "unitsConsumed": 4_100, "accounts": nil}), nil, true
		})
	}
	answer(map[string]any{"InstructionError": []any{2, map[string]any{"Custom": 1}}})
	_, err := c.BuildTransfer(t.Context(), r)
	var se *chain.SVMSimulationError
	if !errors.As(err, &se) || se.Err != `{"InstructionError":[2,{"Custom":1}]}` || len(se.Logs) != 1 {
		t.Errorf("failed simulation: %v", err)
	}
	answer("InsufficientFundsForFee")
	if _, err := c.BuildTransfer(t.Context(), r); !errors.Is(err, chain.ErrPrerequisite) {
		t.Errorf("fee: %v", err)
	}
	answer(map[string]any{"InsufficientFundsForRent": map[string]any{"account_index": 0}})
	if _, err := c.BuildTransfer(t.Context(), r); !errors.Is(err, chain.ErrPrerequisite) {
		t.Errorf("rent: %v", err)
	}
	answer("BlockhashNotFound")
	if _, err := c.BuildTransfer(t.Context(), r); KindOf(err) != KindUnavailable {
		t.Errorf("blockhash not found: %v", err)
	}
	f.setOverride(nil)

	// The sender can pay the base fee but not the priority fee on top.
	f.setAccount(poor.String(), fixtureAccount{Lamports: 5_000 + 1_000, Owner: SystemProgram})
	_, err = c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: poor.String(), To: recipient.String(), Mint: usdcMint.String(), Amount: "1"})
	if !errors.Is(err, chain.ErrPrerequisite) || !strings.Contains(err.Error(), "priority fee") {
		t.Errorf("priority fee not covered: %v", err)
	}
}

// TestBuildThenConfirm: a build's payload compared with the transaction that was mined from it.
func TestBuildThenConfirm(t *testing.T) {
	f := newFakeRPC(t)
	c := f.client(Options{})
	b, err := c.BuildTransfer(t.Context(), chain.SVMTransferRequest{From: sender.String(), To: recipient.String(), Mint: feeMint.String(), Amount: "3"})
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := sol.TransactionFromBase64(b.Transaction)
	sig := testSig("the build, mined")
	tx.Signatures[0] = sig
	mined := map[string]any{"slot": fakeSlot, "blockTime": 1_735_171_300, "version": "legacy", "transaction": []string{txBase64(t, tx), "base64"},
		"meta": map[string]any{"err": nil, "fee": b.NetworkFee, "computeUnitsConsumed": b.UnitsConsumed, "loadedAddresses": map[string]any{"writable": []string{}, "readonly": []string{}},
			"logMessages": []string{}, "preBalances": []uint64{}, "postBalances": []uint64{}, "status": map[string]any{"Ok": nil}}}
	f.setOverride(func(method string, params []json.RawMessage) (any, *rpcErr, bool) {
		switch method {
		case "getTransaction":
			return mined, nil, true
		case "getSignatureStatuses":
			return ctxValue([]any{map[string]any{"slot": fakeSlot, "confirmations": 3, "err": nil, "confirmationStatus": "confirmed"}}), nil, true
		}
		return nil, nil, false
	})
	txs, err := c.Transactions(t.Context(), []string{sig.String()})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := c.Diff(b.Transaction, txs[0]); err != nil || len(d) != 0 {
		t.Errorf("Diff of the mined build = %v, %v", d, err)
	}
	if txs[0].Status != chain.SVMStatusConfirmed || txs[0].Confirmations != 3 || txs[0].Payer != sender.String() {
		t.Errorf("mined = %+v", txs[0].SVMSigStatus)
	}
}

func TestUnitPrice(t *testing.T) {
	fees := func(v ...uint64) []prioritizationFee {
		out := make([]prioritizationFee, len(v))
		for i, x := range v {
			out[i] = prioritizationFee{Slot: uint64(i), PrioritizationFee: x}
		}
		return out
	}
	for _, tc := range []struct {
		fees []prioritizationFee
		max  uint64
		want uint64
	}{
		{nil, 100, 0},
		{fees(7), 100, 7},
		{fees(1, 2, 3, 4), 100, 3},
		{fees(4, 3, 2, 1, 0), 100, 3},
		{fees(0, 0, 0, 0, 1_000_000_000), 100, 0},
		{fees(5_000_000, 5_000_000), 2_000_000, 2_000_000},
	} {
		if got := unitPrice(tc.fees, tc.max); got != tc.want {
			t.Errorf("unitPrice(%v, %d) = %d, want %d", tc.fees, tc.max, got, tc.want)
		}
	}
	if UnitLimit(1_390_000) != maxComputeUnits || UnitLimit(10_000) != 12_000 {
		t.Errorf("UnitLimit: %d, %d", UnitLimit(1_390_000), UnitLimit(10_000))
	}
	if priorityFee(1, 1) != 1 || priorityFee(1_000_000, 200_000) != 200_000 || priorityFee(0, 1_400_000) != 0 {
		t.Error("priorityFee")
	}
	if units(1_500_250_000, 6) != "1500.25" || units(5, 9) != "0.000000005" || units(7, 0) != "7" || units(1_000_000_000, 9) != "1" {
		t.Error("units")
	}
}
