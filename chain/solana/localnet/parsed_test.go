package localnet

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"testing"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
	partnersol "github.com/partner-platform/partnerd/chain/solana"
)

// parsedInstructions sends a signed transaction, waits until it is confirmed and returns its
// top-level instructions as getTransaction's jsonParsed encoding has them.
func parsedInstructions(t *testing.T, n *Node, tx *solana.Transaction) []json.RawMessage {
	t.Helper()
	wire, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return parsedOf(t, n, sendWire(t, n, base64.StdEncoding.EncodeToString(wire)))
}

// sendWire sends a signed base64 transaction, waits until it is confirmed and returns its signature.
func sendWire(t *testing.T, n *Node, wire string) solana.Signature {
	t.Helper()
	r := raw(t, n.URL, "sendTransaction", wire, map[string]any{"encoding": "base64"})
	var sig solana.Signature
	if r.Error != nil || json.Unmarshal(r.Result, &sig) != nil {
		t.Fatalf("sendTransaction: %s %+v", r.Result, r.Error)
	}
	if s := waitFor(t, rpc.New(n.URL), sig, rpc.ConfirmationStatusConfirmed); s.Err != nil {
		t.Fatalf("%s failed: %v", sig, s.Err)
	}
	return sig
}

// parsedOf returns a confirmed transaction's top-level jsonParsed instructions.
func parsedOf(t *testing.T, n *Node, sig solana.Signature) []json.RawMessage {
	t.Helper()
	r := raw(t, n.URL, "getTransaction", sig.String(), map[string]any{"encoding": "jsonParsed", "commitment": "confirmed"})
	var got struct {
		Transaction struct {
			Message struct {
				Instructions []json.RawMessage `json:"instructions"`
			} `json:"message"`
		} `json:"transaction"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &got) != nil {
		t.Fatalf("getTransaction jsonParsed: %s %+v", r.Result, r.Error)
	}
	return got.Transaction.Message.Instructions
}

// sameJSON fails the test unless got is the JSON value want (compared field for field).
func sameJSON(t *testing.T, what string, got json.RawMessage, want any) {
	t.Helper()
	var g, w any
	wb, _ := json.Marshal(want)
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v: %s", what, err, got)
	}
	_ = json.Unmarshal(wb, &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got  %s\n want %s", what, got, wb)
	}
}

// parsedIx is a jsonParsed instruction as Agave writes it (a top-level one: stackHeight null).
func parsedIx(program string, programID solana.PublicKey, typ string, info map[string]any) map[string]any {
	return map[string]any{"parsed": map[string]any{"type": typ, "info": info}, "program": program, "programId": programID.String(), "stackHeight": nil}
}

// uiAmount is Agave's UiTokenAmount.
func uiAmount(amount string, decimals int, ui float64, uiString string) map[string]any {
	return map[string]any{"amount": amount, "decimals": decimals, "uiAmount": ui, "uiAmountString": uiString}
}

// TestJSONParsedInstructions: getTransaction's jsonParsed decodes the Associated Token Account
// program's create (both forms), createIdempotent and recoverNested, and Token-2022's
// transferCheckedWithFee, in transactions that contain them, exactly as Agave's transaction-status
// crate does (parse_associated_token.rs, parse_token.rs, parse_token/extension/transfer_fee.rs;
// both token programs are "spl-token" there). The first is the API's own build: an EMB
// (Token-2022, 1 % transfer fee) transfer to a wallet without an EMB account.
func TestJSONParsedInstructions(t *testing.T) {
	n := sharedNode(t)
	ctx := t.Context()
	system, ata := solana.SystemProgramID, solana.SPLAssociatedTokenAccountProgramID

	t.Run("the API's Token-2022 transfer", func(t *testing.T) {
		client, _, err := partnersol.Open(ctx, "solana", chain.ChainConfig{RPCURLs: []string{n.URL}, Network: chain.Devnet}, partnersol.Options{},
			slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(client.Close)
		holder := mustKeypair(t, n, "holder-0")
		emb := mint(t, n, "EMB")
		to := solana.NewWallet().PublicKey()
		tb, err := client.BuildTransfer(ctx, chain.SVMTransferRequest{From: holder.Address, To: to.String(), Mint: emb.Address, Amount: "12.5"})
		if err != nil {
			t.Fatal(err)
		}
		if !tb.CreatesDestination || tb.TransferFee != 125_000 {
			t.Fatalf("build creates the destination %v, fee %d; want a new account and 0.125 EMB", tb.CreatesDestination, tb.TransferFee)
		}
		signed, err := partnersol.SignTransaction(tb.Transaction, holder.SecretKey)
		if err != nil {
			t.Fatal(err)
		}
		ixs := parsedOf(t, n, sendWire(t, n, signed))
		var create, transfer json.RawMessage
		for _, ix := range ixs {
			var head struct{ ProgramID string }
			_ = json.Unmarshal(ix, &head)
			switch head.ProgramID {
			case ata.String():
				create = ix
			case solana.Token2022ProgramID.String():
				transfer = ix
			}
		}
		sameJSON(t, "createIdempotent", create, parsedIx("spl-associated-token-account", ata, "createIdempotent", map[string]any{
			"source": holder.Address, "account": tb.Destination, "wallet": to.String(), "mint": emb.Address,
			"systemProgram": system.String(), "tokenProgram": solana.Token2022ProgramID.String(),
		}))
		sameJSON(t, "transferCheckedWithFee", transfer, parsedIx("spl-token", solana.Token2022ProgramID, "transferCheckedWithFee", map[string]any{
			"source": tb.Source, "mint": emb.Address, "destination": tb.Destination, "authority": holder.Address,
			"tokenAmount": uiAmount("12500000", 6, 12.5, "12.5"), "feeAmount": uiAmount("125000", 6, 0.125, "0.125"),
		}))
	})

	t.Run("create, with and without its discriminator", func(t *testing.T) {
		payer := wallet(t, n, "holder-1")
		nim, qrtz := key(t, mint(t, n, "NIM").Address), key(t, mint(t, n, "QRTZ").Address)
		w1, w2 := solana.NewWallet().PublicKey(), solana.NewWallet().PublicKey()
		a1, _, _ := solana.FindAssociatedTokenAddress(w1, nim)
		a2, _, _ := solana.FindAssociatedTokenAddress(w2, qrtz)
		metas := func(account, wallet, mint solana.PublicKey) solana.AccountMetaSlice {
			return solana.AccountMetaSlice{solana.Meta(payer.PublicKey()).WRITE().SIGNER(), solana.Meta(account).WRITE(), solana.Meta(wallet), solana.Meta(mint),
				solana.Meta(system), solana.Meta(solana.TokenProgramID)}
		}
		// [0]; and the deprecated form: no data, the rent sysvar as a seventh account.
		withRent := append(metas(a2, w2, qrtz), solana.Meta(solana.SysVarRentPubkey))
		ixs := parsedInstructions(t, n, build(t, rpc.New(n.URL), payer, nil,
			solana.NewInstruction(ata, metas(a1, w1, nim), []byte{0}), solana.NewInstruction(ata, withRent, nil)))
		want := func(account, wallet, mint solana.PublicKey) map[string]any {
			return parsedIx("spl-associated-token-account", ata, "create", map[string]any{"source": payer.PublicKey().String(), "account": account.String(),
				"wallet": wallet.String(), "mint": mint.String(), "systemProgram": system.String(), "tokenProgram": solana.TokenProgramID.String()})
		}
		if len(ixs) != 2 {
			t.Fatalf("%d instructions, want 2", len(ixs))
		}
		sameJSON(t, "create [0]", ixs[0], want(a1, w1, nim))
		sameJSON(t, "create, no data", ixs[1], want(a2, w2, qrtz))
	})

	t.Run("recoverNested", func(t *testing.T) {
		// holder-5's USDC account owns an AUR account (nested) holding 3 AUR: recoverNested moves
		// them to holder-5's AUR account and closes the nested one.
		w := wallet(t, n, "holder-5")
		usdc, aur := key(t, mint(t, n, "USDC").Address), key(t, mint(t, n, "AUR").Address)
		ownerATA, _, _ := solana.FindAssociatedTokenAddress(w.PublicKey(), usdc)
		nested, _, _ := solana.FindAssociatedTokenAddress(ownerATA, aur)
		dest, _, _ := solana.FindAssociatedTokenAddress(w.PublicKey(), aur)
		amount := binary.LittleEndian.AppendUint64([]byte{12}, 3_000_000_000) // TransferChecked 3 AUR (9 decimals)
		setup := build(t, rpc.New(n.URL), w, nil,
			solana.NewInstruction(ata, solana.AccountMetaSlice{solana.Meta(w.PublicKey()).WRITE().SIGNER(), solana.Meta(nested).WRITE(), solana.Meta(ownerATA),
				solana.Meta(aur), solana.Meta(system), solana.Meta(solana.TokenProgramID)}, []byte{1}),
			solana.NewInstruction(solana.TokenProgramID, solana.AccountMetaSlice{solana.Meta(dest).WRITE(), solana.Meta(aur), solana.Meta(nested).WRITE(),
				solana.Meta(w.PublicKey()).SIGNER()}, append(amount, 9)))
		parsedInstructions(t, n, setup)
		recoverTx := build(t, rpc.New(n.URL), w, nil, solana.NewInstruction(ata, solana.AccountMetaSlice{solana.Meta(nested).WRITE(), solana.Meta(aur),
			solana.Meta(dest).WRITE(), solana.Meta(ownerATA), solana.Meta(usdc), solana.Meta(w.PublicKey()).WRITE().SIGNER(), solana.Meta(solana.TokenProgramID)}, []byte{2}))
		ixs := parsedInstructions(t, n, recoverTx)
		if len(ixs) != 1 {
			t.Fatalf("%d instructions, want 1", len(ixs))
		}
		sameJSON(t, "recoverNested", ixs[0], parsedIx("spl-associated-token-account", ata, "recoverNested", map[string]any{
			"nestedSource": nested.String(), "nestedMint": aur.String(), "destination": dest.String(), "nestedOwner": ownerATA.String(),
			"ownerMint": usdc.String(), "wallet": w.PublicKey().String(), "tokenProgram": solana.TokenProgramID.String(),
		}))
		if a := raw(t, n.URL, "getAccountInfo", nested.String(), map[string]any{"commitment": "confirmed"}); string(a.Result) == "" || !jsonHasNullValue(a.Result) {
			t.Errorf("the nested account is still there after recoverNested: %s", a.Result)
		}
	})
}

// jsonHasNullValue reports whether an RPC result is {"context":...,"value":null}.
func jsonHasNullValue(result json.RawMessage) bool {
	var v struct{ Value json.RawMessage }
	return json.Unmarshal(result, &v) == nil && string(v.Value) == "null"
}
