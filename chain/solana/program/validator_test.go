package program

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain/solana/localnet"
)

// unknownIx is a transaction that calls the program with a discriminator it does not know: the
// program answers Anchor's InstructionFallbackNotFound (101), which only our program running at
// ID can say.
func unknownIx(t *testing.T, payer solana.PublicKey) string {
	t.Helper()
	ix := solana.NewInstruction(ID, solana.AccountMetaSlice{solana.Meta(payer)}, []byte("notanix!"))
	tx, err := solana.NewTransaction([]solana.Instruction{ix}, solana.Hash{}, solana.TransactionPayer(payer))
	if err != nil {
		t.Fatal(err)
	}
	tx.Signatures = make([]solana.Signature, 1)
	b, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestValidatorDeploys: the local validator (server.mjs) and run-unsigned.mjs both deploy the
// committed .so at Raydium CPMM's program id, and transactions sent there execute it.
func TestValidatorDeploys(t *testing.T) {
	n := localnet.StartTest(t)
	faucet, ok := n.Keypair("faucet")
	if !ok {
		t.Fatal("no faucet keypair")
	}
	payer := solana.MustPublicKeyFromBase58(faucet.Address)
	call := func(method string, params ...any) json.RawMessage {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
		resp, err := http.Post(n.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Error != nil {
			t.Fatalf("%s: %v %s", method, err, r.Error)
		}
		return r.Result
	}
	var info struct {
		Value *struct {
			Executable bool `json:"executable"`
		} `json:"value"`
	}
	if err := json.Unmarshal(call("getAccountInfo", ID.String(), map[string]any{"encoding": "base64"}), &info); err != nil || info.Value == nil || !info.Value.Executable {
		t.Fatalf("getAccountInfo(%s): %+v %v", ID, info.Value, err)
	}
	var sim struct {
		Value struct {
			Err  json.RawMessage `json:"err"`
			Logs []string        `json:"logs"`
		} `json:"value"`
	}
	res := call("simulateTransaction", unknownIx(t, payer), map[string]any{"encoding": "base64", "sigVerify": false, "replaceRecentBlockhash": true})
	if err := json.Unmarshal(res, &sim); err != nil {
		t.Fatal(err)
	}
	if string(sim.Value.Err) != `{"InstructionError":[0,{"Custom":101}]}` || !strings.Contains(strings.Join(sim.Value.Logs, "\n"), "Fallback functions are not supported") {
		t.Fatalf("simulateTransaction: %s\n%s", sim.Value.Err, strings.Join(sim.Value.Logs, "\n"))
	}

	runs, err := localnet.RunUnsigned(t.Context(), "", []string{unknownIx(t, payer)})
	if err != nil {
		t.Fatal(err)
	}
	if string(runs[0].Err) != `{"InstructionError":[0,{"Custom":101}]}` {
		t.Fatalf("run-unsigned: %s\n%s", runs[0].Err, strings.Join(runs[0].Logs, "\n"))
	}
}
