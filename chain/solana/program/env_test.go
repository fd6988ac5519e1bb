package program

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain/solana/program/internal/svmtest"
)

// The test environment: LiteSVM with the program deployed at ID, accounts written as state.

var (
	tokenProgram   = solana.TokenProgramID
	token2022      = solana.MustPublicKeyFromBase58("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	ataProgram     = solana.SPLAssociatedTokenAccountProgramID
	memoProgram    = solana.MustPublicKeyFromBase58("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
	computeBudget  = solana.MustPublicKeyFromBase58("ComputeBudget111111111111111111111111111111")
	nativeMint     = solana.MustPublicKeyFromBase58("So11111111111111111111111111111111111111112")
	admin          = solana.MustPublicKeyFromBase58("GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ")
	createPoolFees = solana.MustPublicKeyFromBase58("DNXgeM9EiiaAbaWvwjHj9fQQLAX5ZsfHyvmYUNRAdNC8")
)

func key(label string) solana.PublicKey {
	h := sha256.Sum256([]byte("cpmm test/" + label))
	return solana.PublicKeyFromBytes(h[:])
}

func disc(name string) []byte {
	h := sha256.Sum256([]byte(name))
	return h[:8]
}

type env struct {
	t   *testing.T
	svm *svmtest.SVM
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, svm: svmtest.Start(t)}
	e.svm.AddProgram(ID, SO)
	e.svm.SetClock(1000, 3, 1_700_000_000)
	for _, k := range []solana.PublicKey{admin, key("creator"), key("trader")} {
		e.svm.SetAccount(k, svmtest.Account{Lamports: 1_000_000_000_000, Owner: solana.SystemProgramID})
	}
	// the pool creation fee receiver: a wrapped SOL account, as on mainnet
	rent := e.svm.Rent(165)
	e.svm.SetAccount(createPoolFees, svmtest.Account{Lamports: rent, Owner: tokenProgram, Data: tokenAccount(nativeMint, key("fee owner"), 0, &rent)})
	return e
}

// mint writes a mint: SPL Token, or Token-2022 with a transfer fee when bps > 0.
func (e *env) mint(label string, t22 bool, decimals byte, bps uint16, maxFee uint64) solana.PublicKey {
	m := key("mint/" + label)
	d := make([]byte, 82)
	binary.LittleEndian.PutUint32(d, 1)
	copy(d[4:], key("mint authority").Bytes())
	binary.LittleEndian.PutUint64(d[36:], 1<<60)
	d[44], d[45] = decimals, 1
	owner := tokenProgram
	if t22 {
		owner = token2022
		if bps > 0 {
			d = append(d, make([]byte, 165-82)...)
			d = append(d, 1) // AccountType::Mint
			ext := make([]byte, 4+108)
			binary.LittleEndian.PutUint16(ext, 1) // TransferFeeConfig
			binary.LittleEndian.PutUint16(ext[2:], 108)
			for _, at := range []int{4 + 72, 4 + 90} { // older, newer: epoch 0
				binary.LittleEndian.PutUint64(ext[at+8:], maxFee)
				binary.LittleEndian.PutUint16(ext[at+16:], bps)
			}
			d = append(d, ext...)
		}
	}
	e.svm.SetAccount(m, svmtest.Account{Lamports: e.svm.Rent(len(d)), Owner: owner, Data: d})
	return m
}

// tokenAccount builds a token account's 165 bytes (wrapped SOL when native is set).
func tokenAccount(mint, owner solana.PublicKey, amount uint64, native *uint64) []byte {
	d := make([]byte, 165)
	copy(d, mint.Bytes())
	copy(d[32:], owner.Bytes())
	binary.LittleEndian.PutUint64(d[64:], amount)
	d[108] = 1
	if native != nil {
		binary.LittleEndian.PutUint32(d[109:], 1)
		binary.LittleEndian.PutUint64(d[113:], *native)
	}
	return d
}

// holding writes owner's token account of mint with amount and returns its address.
func (e *env) holding(owner, mint solana.PublicKey, amount uint64) solana.PublicKey {
	a := key("holding/" + owner.String() + "/" + mint.String())
	m := e.svm.Account(mint)
	d := tokenAccount(mint, owner, amount, nil)
	if m.Owner == token2022 && len(m.Data) > 165 {
		d = append(d, 2, 2, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0) // AccountType::Account, TransferFeeAmount
	}
	e.svm.SetAccount(a, svmtest.Account{Lamports: e.svm.Rent(len(d)), Owner: m.Owner, Data: d})
	return a
}

func (e *env) balance(a solana.PublicKey) uint64 {
	acc := e.svm.Account(a)
	if acc == nil {
		e.t.Fatalf("no account %s", a)
	}
	return binary.LittleEndian.Uint64(acc.Data[64:])
}

func (e *env) data(a solana.PublicKey) []byte {
	acc := e.svm.Account(a)
	if acc == nil {
		e.t.Fatalf("no account %s", a)
	}
	return acc.Data
}

func cuLimit(units uint32) solana.Instruction {
	d := []byte{2, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(d[1:], units)
	return solana.NewInstruction(computeBudget, solana.AccountMetaSlice{}, d)
}

// send runs one instruction (with a high compute limit) and fails the test unless it succeeds.
func (e *env) send(payer solana.PublicKey, ix solana.Instruction) svmtest.Result {
	e.t.Helper()
	r := e.svm.Send(payer, cuLimit(1_400_000), ix)
	if !r.OK {
		e.t.Fatalf("transaction failed: %s\n%s", r.Err, strings.Join(r.Logs, "\n"))
	}
	return r
}

// sendErr runs one instruction that must fail with the program's custom error code.
func (e *env) sendErr(payer solana.PublicKey, ix solana.Instruction, code int) svmtest.Result {
	e.t.Helper()
	r := e.svm.Send(payer, cuLimit(1_400_000), ix)
	var want any = map[string]any{"InstructionError": []any{1, map[string]any{"Custom": code}}}
	var got any
	_ = json.Unmarshal(r.Err, &got)
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if r.OK || string(wb) != string(gb) {
		e.t.Fatalf("err = %s, want %s\n%s", r.Err, wb, strings.Join(r.Logs, "\n"))
	}
	return r
}

func u64le(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

func pda(seeds ...[]byte) solana.PublicKey {
	k, _, err := solana.FindProgramAddress(seeds, ID)
	if err != nil {
		panic(err)
	}
	return k
}
