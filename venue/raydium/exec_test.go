package raydium_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// Every encoder executed against our CPMM-compatible program on the local validator, signed by
// its test wallets and sent over RPC (solana-go is used here, in the tests, to sign and send only;
// the package itself does not import it), with the vault, wallet and pool state deltas held to
// venue/raydium's quote math exactly.

var writeAccounts = flag.Bool("write-accounts", false, "TestExecute writes the accounts it leaves (configs, pools) to testdata/accounts.json for testdata/sdk/gen.sh")

// execEnv is one validator with the seeded market, no background activity (so that nothing but
// the test moves the pools between a read and a transaction).
type execEnv struct {
	t    *testing.T
	node *localnet.Node
	rpc  *rpc.Client
	// fees are the seeded mints' Token-2022 transfer fees, by address
	fees map[raydium.Pubkey]*svm.FeeSchedule
}

func newExecEnv(t *testing.T) *execEnv {
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 8})
	e := &execEnv{t: t, node: n, rpc: rpc.New(n.URL), fees: map[raydium.Pubkey]*svm.FeeSchedule{}}
	for _, m := range n.Mints {
		if m.TransferFee != nil {
			e.fees[pk(t, m.Address)] = &svm.FeeSchedule{BasisPoints: m.TransferFee.BasisPoints, MaximumFee: m.TransferFee.MaximumFee}
		}
	}
	return e
}

func (e *execEnv) wallet(name string) solana.PrivateKey {
	e.t.Helper()
	k, ok := e.node.Keypair(name)
	if !ok {
		e.t.Fatalf("no keypair %s", name)
	}
	w, err := solana.PrivateKeyFromBase58(k.SecretKey)
	if err != nil {
		e.t.Fatal(err)
	}
	return w
}

func (e *execEnv) pool(name string) localnet.Pool {
	e.t.Helper()
	p, ok := e.node.Pool(name)
	if !ok {
		e.t.Fatalf("no pool %s", name)
	}
	return p
}

// accounts reads accounts' data at the head (processed), all from one slot; a missing account is nil.
func (e *execEnv) accounts(keys ...raydium.Pubkey) [][]byte {
	e.t.Helper()
	ks := make([]solana.PublicKey, len(keys))
	for i, k := range keys {
		ks[i] = solana.PublicKey(k)
	}
	r, err := e.rpc.GetMultipleAccountsWithOpts(e.t.Context(), ks, &rpc.GetMultipleAccountsOpts{Commitment: rpc.CommitmentProcessed, Encoding: solana.EncodingBase64})
	if err != nil {
		e.t.Fatalf("getMultipleAccounts: %v", err)
	}
	out := make([][]byte, len(keys))
	for i, a := range r.Value {
		if a != nil {
			out[i] = a.Data.GetBinary()
		}
	}
	return out
}

func (e *execEnv) lamports(k raydium.Pubkey) uint64 {
	e.t.Helper()
	r, err := e.rpc.GetBalance(e.t.Context(), solana.PublicKey(k), rpc.CommitmentProcessed)
	if err != nil {
		e.t.Fatal(err)
	}
	return r.Value
}

// tokenAmount is a token account's amount (SPL Token and Token-2022 alike: offset 64); 0 where the
// account does not exist.
func tokenAmount(data []byte) uint64 {
	if len(data) < 72 {
		return 0
	}
	return binary.LittleEndian.Uint64(data[64:])
}

// balances are token accounts' amounts, read from one slot.
func (e *execEnv) balances(keys ...raydium.Pubkey) []uint64 {
	e.t.Helper()
	out := make([]uint64, len(keys))
	for i, d := range e.accounts(keys...) {
		out[i] = tokenAmount(d)
	}
	return out
}

var clockSysvar = raydium.MustPubkey("SysvarC1ock11111111111111111111111111111111")

// snapshot reads a pool as a quote needs it, everything from one slot: the pool, its config, its
// vaults, the clock; the mints' transfer fees are the seeded ones.
func (e *execEnv) snapshot(pool raydium.Pubkey) *raydium.Snapshot {
	e.t.Helper()
	d := e.accounts(pool)
	p, err := raydium.DecodePoolState(d[0])
	if err != nil {
		e.t.Fatalf("pool %s: %v", pool, err)
	}
	d = e.accounts(p.AmmConfig, p.Token0Vault, p.Token1Vault, clockSysvar)
	c, err := raydium.DecodeAmmConfig(d[0])
	if err != nil {
		e.t.Fatalf("config %s: %v", p.AmmConfig, err)
	}
	return &raydium.Snapshot{Pool: p, Config: c, Vault0: tokenAmount(d[1]), Vault1: tokenAmount(d[2]),
		TransferFee0: e.fees[p.Token0Mint], TransferFee1: e.fees[p.Token1Mint], Now: binary.LittleEndian.Uint64(d[3][32:])}
}

func toSolana(ix raydium.Instruction) solana.Instruction {
	metas := make(solana.AccountMetaSlice, len(ix.Accounts))
	for i, m := range ix.Accounts {
		metas[i] = &solana.AccountMeta{PublicKey: solana.PublicKey(m.Pubkey), IsSigner: m.IsSigner, IsWritable: m.IsWritable}
	}
	return solana.NewInstruction(solana.PublicKey(ix.ProgramID), metas, ix.Data)
}

// txError is a transaction's failure: the error of its simulation or execution, as JSON.
type txError string

// send signs ixs (after a compute unit limit) by payer and signers and sends them with the
// preflight; it waits until the transaction is confirmed. A failure is returned, not fatal.
func (e *execEnv) send(payer solana.PrivateKey, signers []solana.PrivateKey, ixs ...raydium.Instruction) (solana.Signature, txError) {
	e.t.Helper()
	all := []solana.Instruction{computebudget.NewSetComputeUnitLimitInstruction(400_000).Build()}
	for _, ix := range ixs {
		all = append(all, toSolana(ix))
	}
	bh, err := e.rpc.GetLatestBlockhash(e.t.Context(), rpc.CommitmentProcessed)
	if err != nil {
		e.t.Fatal(err)
	}
	tx, err := solana.NewTransaction(all, bh.Value.Blockhash, solana.TransactionPayer(payer.PublicKey()))
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := tx.Sign(func(k solana.PublicKey) *solana.PrivateKey {
		for _, s := range append([]solana.PrivateKey{payer}, signers...) {
			if s.PublicKey() == k {
				return &s
			}
		}
		return nil
	}); err != nil {
		e.t.Fatalf("sign: %v", err)
	}
	sig, err := e.rpc.SendTransactionWithOpts(e.t.Context(), tx, rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentProcessed})
	if err != nil {
		return sig, txError(err.Error())
	}
	ctx, cancel := context.WithTimeout(e.t.Context(), 30*time.Second)
	defer cancel()
	for {
		st, err := e.rpc.GetSignatureStatuses(ctx, false, sig)
		if err != nil {
			e.t.Fatalf("getSignatureStatuses: %v", err)
		}
		if s := st.Value[0]; s != nil && s.ConfirmationStatus != rpc.ConfirmationStatusProcessed {
			if s.Err != nil {
				b, _ := json.Marshal(s.Err)
				return sig, txError(b)
			}
			return sig, ""
		}
		select {
		case <-ctx.Done():
			e.t.Fatalf("transaction %s not confirmed: %v", sig, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// mustSend is send that fails the test on a failure.
func (e *execEnv) mustSend(what string, payer solana.PrivateKey, signers []solana.PrivateKey, ixs ...raydium.Instruction) {
	e.t.Helper()
	if _, err := e.send(payer, signers, ixs...); err != "" {
		e.t.Fatalf("%s: %s", what, err)
	}
}

// mustFail is send that expects the program's error code (Anchor's or CPMM's).
func (e *execEnv) mustFail(what string, code int, payer solana.PrivateKey, signers []solana.PrivateKey, ixs ...raydium.Instruction) {
	e.t.Helper()
	_, err := e.send(payer, signers, ixs...)
	if want := fmt.Sprintf(`"Custom":%d`, code); !strings.Contains(strings.ReplaceAll(string(err), " ", ""), want) &&
		!strings.Contains(string(err), fmt.Sprintf("custom program error: 0x%x", code)) {
		e.t.Fatalf("%s: want the program's error %d, got %q", what, code, err)
	}
}

func pub(w solana.PrivateKey) raydium.Pubkey { return raydium.Pubkey(w.PublicKey()) }

// Program error codes the test expects.
const (
	errExceededSlippage = 6005 // CPMM's ExceededSlippage
	errConstraintMut    = 2000 // Anchor's ConstraintMut
)

// TestExecute runs every encoder against the program and holds what happens to the quote math:
//
//   - swap_base_input and swap_base_output both ways on SPL Token pools and on EMB/USDC (EMB a
//     Token-2022 mint with a 1 % transfer fee, on the input and on the output side): the quote's
//     minimum out (Received) and maximum in (AmountIn) are exact, one unit tighter fails with
//     ExceededSlippage, and the vaults move by CurveIn and AmountOut, the payer's accounts by
//     AmountIn and Received, the fees owed by ProtocolFee and FundFee, the reserves to
//     ReservesAfter;
//   - deposit and withdraw (the pool's LP and Token-2022 transfer fees both ways), with the same
//     exactness of maximum and minimum amounts;
//   - initialize of new pools, at the PDA and at a keypair's address, one of them with EMB: the
//     vaults hold InitialLiquidity's Vault0/Vault1, the creator's LP account its CreatorLP, the
//     PoolState our layout decodes names DerivePoolKeys' addresses and the authority's bump, the
//     fee receiver gains the config's CreatePoolFee; then the new pools trade as quoted;
//   - the SDK's initialize flags (the creator read-only) fail with ConstraintMut when the creator
//     is not the fee payer: why ours mark it writable (see sdkCreatorReadonly).
func TestExecute(t *testing.T) {
	e := newExecEnv(t)
	trader := e.wallet("trader-0")

	t.Run("swaps", func(t *testing.T) {
		for _, c := range []struct {
			pool                string
			inSymbol            string
			baseInput           bool
			amount              uint64 // in: what is sent; out: what is received
			wantInFee, wantOutF bool
		}{
			{"AUR/USDC", "AUR", true, 100_000_000_000, false, false},
			{"AUR/USDC", "USDC", false, 50_000_000_000, false, false},
			{"AUR/USDC", "USDC", true, 1_234_567, false, false},
			{"EMB/USDC", "EMB", true, 10_000_000, true, false},
			{"EMB/USDC", "USDC", false, 5_000_000, false, true},
			{"EMB/USDC", "USDC", true, 250_000_000, false, true},
			{"EMB/USDC", "EMB", false, 100_000_000, true, false},
			{"QRTZ/USDC", "QRTZ", false, 1_000_000, false, false},
			{"QRTZ/USDC", "USDC", true, 777_777_777, false, false},
		} {
			name := fmt.Sprintf("%s %s in, base %s", c.pool, c.inSymbol, map[bool]string{true: "input", false: "output"}[c.baseInput])
			p := e.pool(c.pool)
			zeroForOne := p.Token0.Symbol == c.inSymbol
			e.swap(name, trader, pk(t, p.Address), zeroForOne, c.baseInput, c.amount, c.wantInFee, c.wantOutF)
		}
	})

	provider := e.wallet("lp-provider")
	t.Run("deposit and withdraw", func(t *testing.T) {
		emb := pk(t, e.pool("EMB/USDC").Address)
		e.deposit("EMB/USDC", provider, emb, e.snapshot(emb).Pool.LPSupply/1000)
		e.withdraw("EMB/USDC", provider, emb, e.snapshot(emb).Pool.LPSupply/2000)
		sol := pk(t, e.pool("SOL/USDC").Address)
		owned := e.balances(raydium.AssociatedTokenAccount(pub(provider), e.snapshot(sol).Pool.LPMint, raydium.TokenProgram))[0]
		e.withdraw("SOL/USDC", provider, sol, owned/10)
		e.deposit("SOL/USDC", provider, sol, owned/20)
	})

	creator := e.wallet("trader-1")
	t.Run("initialize", func(t *testing.T) {
		mint := func(symbol string) localnet.Mint {
			m, ok := e.node.Mint(symbol)
			if !ok {
				t.Fatalf("no mint %s", symbol)
			}
			return m
		}
		// the SDK's flags: the creator a read-only signer, another wallet paying the fee
		aur, qrtz := mint("AUR"), mint("QRTZ")
		_, ix, _ := e.initializeIx(creator, aur, qrtz, 0, 1_000*1e9, 20_000*1e2, raydium.Pubkey{})
		ix.Accounts[0].IsWritable = false
		e.mustFail("initialize with the SDK's read-only creator", errConstraintMut, e.wallet("trader-2"), []solana.PrivateKey{creator}, ix)

		seed := sha256.Sum256([]byte("raydium venue test/new pool keypair"))
		poolKey := solana.PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
		pools := []raydium.Pubkey{
			e.initialize("AUR/QRTZ at the PDA", creator, aur, qrtz, 0, 1_000*1e9, 20_000*1e2, nil),
			e.initialize("EMB/NIM at a keypair's address", creator, mint("EMB"), mint("NIM"), 2, 100*1e6, 50_000*1e5, &poolKey),
		}
		// the new pools trade as quoted once open (a second after their block)
		for _, pool := range pools {
			deadline := time.Now().Add(10 * time.Second)
			for s := e.snapshot(pool); s.Now < s.Pool.OpenTime; s = e.snapshot(pool) {
				if time.Now().After(deadline) {
					t.Fatalf("pool %s not open at %d (opens %d)", pool, s.Now, s.Pool.OpenTime)
				}
				time.Sleep(100 * time.Millisecond)
			}
			s := e.snapshot(pool)
			e.swap("new pool "+pool.String(), creator, pool, true, true, s.Vault0/1000, e.fees[s.Pool.Token0Mint] != nil, e.fees[s.Pool.Token1Mint] != nil)
			e.swap("new pool "+pool.String(), creator, pool, true, false, s.Vault1/2000, e.fees[s.Pool.Token0Mint] != nil, e.fees[s.Pool.Token1Mint] != nil)
		}
		if *writeAccounts {
			e.writeAccounts(pools)
		}
	})
}

// swap quotes a swap, checks that one unit tighter fails and the quote's limit passes, and holds
// every delta to the quote.
func (e *execEnv) swap(name string, payer solana.PrivateKey, pool raydium.Pubkey, zeroForOne, baseInput bool, amount uint64, inFee, outFee bool) {
	t := e.t
	t.Helper()
	s := e.snapshot(pool)
	p := &s.Pool
	inMint, outMint, inProg, outProg := p.Token0Mint, p.Token1Mint, p.Token0Program, p.Token1Program
	if !zeroForOne {
		inMint, outMint, inProg, outProg = outMint, inMint, outProg, inProg
	}
	inAcc, outAcc := raydium.AssociatedTokenAccount(pub(payer), inMint, inProg), raydium.AssociatedTokenAccount(pub(payer), outMint, outProg)
	accts := p.SwapAccounts(pool, pub(payer), zeroForOne, inAcc, outAcc)
	var q raydium.SwapQuote
	var err error
	var tight, exact raydium.Instruction
	if baseInput {
		q, err = s.SwapBaseInput(zeroForOne, amount)
		tight, exact = raydium.SwapBaseInput(accts, amount, q.Received+1), raydium.SwapBaseInput(accts, amount, q.Received)
	} else {
		q, err = s.SwapBaseOutput(zeroForOne, amount)
		tight, exact = raydium.SwapBaseOutput(accts, q.AmountIn-1, amount), raydium.SwapBaseOutput(accts, q.AmountIn, amount)
	}
	if err != nil {
		t.Fatalf("%s: quote: %v", name, err)
	}
	if (q.InputTransferFee > 0) != inFee || (q.OutputTransferFee > 0) != outFee {
		t.Fatalf("%s: transfer fees in %d out %d, want in %v out %v", name, q.InputTransferFee, q.OutputTransferFee, inFee, outFee)
	}
	e.mustFail(name+" one unit tighter", errExceededSlippage, payer, nil, tight)

	vaultIn, vaultOut := p.Token0Vault, p.Token1Vault
	if !zeroForOne {
		vaultIn, vaultOut = vaultOut, vaultIn
	}
	before := e.balances(vaultIn, vaultOut, inAcc, outAcc)
	if s2 := e.snapshot(pool); s2.Vault0 != s.Vault0 || s2.Vault1 != s.Vault1 || s2.Pool != s.Pool {
		t.Fatalf("%s: the pool moved under the test", name)
	}
	e.mustSend(name, payer, nil, exact)
	after := e.balances(vaultIn, vaultOut, inAcc, outAcc)
	a := e.snapshot(pool)
	for _, c := range []struct {
		what      string
		got, want uint64
	}{
		{"input vault gain", after[0] - before[0], q.CurveIn},
		{"output vault loss", before[1] - after[1], q.AmountOut},
		{"payer's input paid", before[2] - after[2], q.AmountIn},
		{"payer's output received", after[3] - before[3], q.Received},
		{"protocol fees owed gain", side(a.Pool.ProtocolFeesToken0, a.Pool.ProtocolFeesToken1, zeroForOne) - side(p.ProtocolFeesToken0, p.ProtocolFeesToken1, zeroForOne), q.ProtocolFee},
		{"fund fees owed gain", side(a.Pool.FundFeesToken0, a.Pool.FundFeesToken1, zeroForOne) - side(p.FundFeesToken0, p.FundFeesToken1, zeroForOne), q.FundFee},
		{"creator fees owed", a.Pool.CreatorFeesToken0 + a.Pool.CreatorFeesToken1 - p.CreatorFeesToken0 - p.CreatorFeesToken1, q.CreatorFee},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s %d, the quote says %d (%+v)", name, c.what, c.got, c.want, q)
		}
	}
	r0, r1, err := a.Reserves()
	if err != nil {
		t.Fatal(err)
	}
	wantIn, wantOut := q.ReservesAfter()
	if side(r0, r1, zeroForOne) != wantIn || side(r1, r0, zeroForOne) != wantOut {
		t.Errorf("%s: reserves after %d/%d, the quote says in %d out %d", name, r0, r1, wantIn, wantOut)
	}
	if q.TradeFee == 0 || q.ProtocolFee == 0 {
		t.Errorf("%s: a swap without fees proves little: %+v", name, q)
	}
	t.Logf("%s: paid %d (transfer fee %d), received %d (transfer fee %d), trade fee %d", name, q.AmountIn, q.InputTransferFee, q.Received, q.OutputTransferFee, q.TradeFee)
}

// side is a figure of token 0 when zeroForOne, else of token 1.
func side(of0, of1 uint64, zeroForOne bool) uint64 {
	if zeroForOne {
		return of0
	}
	return of1
}

func (e *execEnv) liquidityAccounts(owner solana.PrivateKey, pool raydium.Pubkey, p *raydium.PoolState) raydium.LiquidityAccounts {
	return p.LiquidityAccounts(pool, pub(owner), raydium.AssociatedTokenAccount(pub(owner), p.LPMint, raydium.TokenProgram),
		raydium.AssociatedTokenAccount(pub(owner), p.Token0Mint, p.Token0Program), raydium.AssociatedTokenAccount(pub(owner), p.Token1Mint, p.Token1Program))
}

func (e *execEnv) deposit(name string, owner solana.PrivateKey, pool raydium.Pubkey, lp uint64) {
	t := e.t
	t.Helper()
	s := e.snapshot(pool)
	q, err := s.Deposit(lp)
	if err != nil {
		t.Fatalf("%s deposit: %v", name, err)
	}
	a := e.liquidityAccounts(owner, pool, &s.Pool)
	e.mustFail(name+" deposit, token 0 one unit tighter", errExceededSlippage, owner, nil, raydium.Deposit(a, lp, q.Pay0-1, q.Pay1))
	e.mustFail(name+" deposit, token 1 one unit tighter", errExceededSlippage, owner, nil, raydium.Deposit(a, lp, q.Pay0, q.Pay1-1))
	before := e.balances(a.Vault0, a.Vault1, a.Token0Account, a.Token1Account, a.OwnerLP)
	e.mustSend(name+" deposit", owner, nil, raydium.Deposit(a, lp, q.Pay0, q.Pay1))
	after := e.balances(a.Vault0, a.Vault1, a.Token0Account, a.Token1Account, a.OwnerLP)
	supply := e.snapshot(pool).Pool.LPSupply
	for _, c := range []struct {
		what      string
		got, want uint64
	}{
		{"vault 0 gain", after[0] - before[0], q.Amount0}, {"vault 1 gain", after[1] - before[1], q.Amount1},
		{"owner's token 0 paid", before[2] - after[2], q.Pay0}, {"owner's token 1 paid", before[3] - after[3], q.Pay1},
		{"owner's LP gain", after[4] - before[4], lp}, {"LP supply gain", supply - s.Pool.LPSupply, lp},
	} {
		if c.got != c.want {
			t.Errorf("%s deposit of %d LP: %s %d, the quote says %d (%+v)", name, lp, c.what, c.got, c.want, q)
		}
	}
	t.Logf("%s deposit of %d LP: paid %d and %d (transfer fees %d and %d)", name, lp, q.Pay0, q.Pay1, q.TransferFee0, q.TransferFee1)
}

func (e *execEnv) withdraw(name string, owner solana.PrivateKey, pool raydium.Pubkey, lp uint64) {
	t := e.t
	t.Helper()
	s := e.snapshot(pool)
	q, err := s.Withdraw(lp)
	if err != nil {
		t.Fatalf("%s withdraw: %v", name, err)
	}
	a := e.liquidityAccounts(owner, pool, &s.Pool)
	e.mustFail(name+" withdraw, token 0 one unit tighter", errExceededSlippage, owner, nil, raydium.Withdraw(a, lp, q.Receive0+1, q.Receive1))
	e.mustFail(name+" withdraw, token 1 one unit tighter", errExceededSlippage, owner, nil, raydium.Withdraw(a, lp, q.Receive0, q.Receive1+1))
	before := e.balances(a.Vault0, a.Vault1, a.Token0Account, a.Token1Account, a.OwnerLP)
	e.mustSend(name+" withdraw", owner, nil, raydium.Withdraw(a, lp, q.Receive0, q.Receive1))
	after := e.balances(a.Vault0, a.Vault1, a.Token0Account, a.Token1Account, a.OwnerLP)
	supply := e.snapshot(pool).Pool.LPSupply
	for _, c := range []struct {
		what      string
		got, want uint64
	}{
		{"vault 0 loss", before[0] - after[0], q.Amount0}, {"vault 1 loss", before[1] - after[1], q.Amount1},
		{"owner's token 0 received", after[2] - before[2], q.Receive0}, {"owner's token 1 received", after[3] - before[3], q.Receive1},
		{"owner's LP burned", before[4] - after[4], lp}, {"LP supply loss", s.Pool.LPSupply - supply, lp},
	} {
		if c.got != c.want {
			t.Errorf("%s withdraw of %d LP: %s %d, the quote says %d (%+v)", name, lp, c.what, c.got, c.want, q)
		}
	}
	t.Logf("%s withdraw of %d LP: received %d and %d (transfer fees %d and %d)", name, lp, q.Receive0, q.Receive1, q.TransferFee0, q.TransferFee1)
}

// initializeIx builds initialize of a pool of two seeded mints (in either order) under config
// index, funded with amountX of x and amountY of y.
func (e *execEnv) initializeIx(creator solana.PrivateKey, x, y localnet.Mint, index uint16, amountX, amountY uint64, pool raydium.Pubkey) (raydium.PoolKeys, raydium.Instruction, raydium.InitializeAccounts) {
	t := e.t
	t.Helper()
	m0, m1, p0, p1, a0, a1 := pk(t, x.Address), pk(t, y.Address), pk(t, x.Program), pk(t, y.Program), amountX, amountY
	if !m0.Less(m1) {
		m0, m1, p0, p1, a0, a1 = m1, m0, p1, p0, a1, a0
	}
	a := raydium.InitializeAccounts{Creator: pub(creator), Config: raydium.AmmConfigAddress(index), Mint0: m0, Mint1: m1,
		Token0Program: p0, Token1Program: p1, Creator0: raydium.AssociatedTokenAccount(pub(creator), m0, p0),
		Creator1: raydium.AssociatedTokenAccount(pub(creator), m1, p1), Pool: pool}
	k, ix, err := raydium.Initialize(a, a0, a1, 0)
	if err != nil {
		t.Fatal(err)
	}
	return k, ix, a
}

// initialize creates a pool and holds the result to InitialLiquidity and DerivePoolKeys.
func (e *execEnv) initialize(name string, creator solana.PrivateKey, x, y localnet.Mint, index uint16, amountX, amountY uint64, poolKey *solana.PrivateKey) raydium.Pubkey {
	t := e.t
	t.Helper()
	var at raydium.Pubkey
	var signers []solana.PrivateKey
	if poolKey != nil {
		at, signers = pub(*poolKey), []solana.PrivateKey{*poolKey}
	}
	k, ix, a := e.initializeIx(creator, x, y, index, amountX, amountY, at)
	amount0, amount1 := amountX, amountY
	if a.Mint0 != pk(t, x.Address) {
		amount0, amount1 = amountY, amountX
	}
	q, err := raydium.InitialLiquidity(amount0, amount1, e.fees[a.Mint0], e.fees[a.Mint1])
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cfg, err := raydium.DecodeAmmConfig(e.accounts(a.Config)[0])
	if err != nil {
		t.Fatal(err)
	}
	creatorLP := raydium.AssociatedTokenAccount(a.Creator, k.LPMint, raydium.TokenProgram)
	before := e.balances(a.Creator0, a.Creator1)
	receiver := e.lamports(raydium.CreatePoolFeeReceiver)
	if d := e.accounts(k.Pool)[0]; d != nil {
		t.Fatalf("%s: pool %s exists already", name, k.Pool)
	}
	e.mustSend(name, creator, signers, ix)

	after := e.balances(a.Creator0, a.Creator1, k.Vault0, k.Vault1, creatorLP)
	d := e.accounts(k.Pool, k.Observation, k.LPMint)
	p, err := raydium.DecodePoolState(d[0])
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	obs, err := raydium.DecodeObservationState(d[1])
	if err != nil {
		t.Fatalf("%s: observation: %v", name, err)
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"creator's token 0 paid", before[0] - after[0], amount0}, {"creator's token 1 paid", before[1] - after[1], amount1},
		{"vault 0", after[2], q.Vault0}, {"vault 1", after[3], q.Vault1}, {"creator's LP", after[4], q.CreatorLP},
		{"LP supply", p.LPSupply, q.Liquidity}, {"LP mint's supply", binary.LittleEndian.Uint64(d[2][36:]), q.CreatorLP},
		{"pool creation fee", e.lamports(raydium.CreatePoolFeeReceiver) - receiver, cfg.CreatePoolFee},
		{"config", p.AmmConfig, a.Config}, {"creator", p.PoolCreator, a.Creator}, {"vault 0 key", p.Token0Vault, k.Vault0},
		{"vault 1 key", p.Token1Vault, k.Vault1}, {"LP mint key", p.LPMint, k.LPMint}, {"mint 0", p.Token0Mint, a.Mint0},
		{"mint 1", p.Token1Mint, a.Mint1}, {"program 0", p.Token0Program, a.Token0Program}, {"program 1", p.Token1Program, a.Token1Program},
		{"observation key", p.ObservationKey, k.Observation}, {"authority bump", p.AuthBump, raydium.AuthorityBump()},
		{"LP decimals", p.LPMintDecimals, uint8(raydium.LPMintDecimals)}, {"status", p.Status, uint8(0)},
		{"observation's pool", obs.PoolID, k.Pool}, {"at the PDA", k.Pool == raydium.PoolAddress(a.Config, a.Mint0, a.Mint1), poolKey == nil},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s %v, want %v", name, c.what, c.got, c.want)
		}
	}
	if q.TransferFee0+q.TransferFee1 == 0 && (e.fees[a.Mint0] != nil || e.fees[a.Mint1] != nil) {
		t.Errorf("%s: no transfer fee on a Token-2022 mint with one", name)
	}
	t.Logf("%s: pool %s, liquidity %d, vaults %d and %d (transfer fees %d and %d)", name, k.Pool, q.Liquidity, q.Vault0, q.Vault1, q.TransferFee0, q.TransferFee1)
	return k.Pool
}

// writeAccounts writes testdata/accounts.json: every config and every pool (the seeded ones, after
// this test's swaps and LP changes, and the new ones), for gen.sh to decode with the SDK.
func (e *execEnv) writeAccounts(newPools []raydium.Pubkey) {
	t := e.t
	type account struct {
		Name    string `json:"name"`
		Address string `json:"address"`
		Layout  string `json:"layout"`
		Data    string `json:"data"`
	}
	var out []account
	for _, c := range e.node.AmmConfigs {
		out = append(out, account{fmt.Sprintf("AmmConfig %d", c.Index), c.Address, "AmmConfig", ""})
	}
	for _, p := range e.node.Pools {
		out = append(out, account{"pool " + p.Name, p.Address, "PoolState", ""})
	}
	for i, p := range newPools {
		out = append(out, account{fmt.Sprintf("new pool %d", i), p.String(), "PoolState", ""})
	}
	keys := make([]raydium.Pubkey, len(out))
	for i, a := range out {
		keys[i] = pk(t, a.Address)
	}
	for i, d := range e.accounts(keys...) {
		out[i].Data = base64.StdEncoding.EncodeToString(d)
	}
	b, err := json.MarshalIndent(map[string]any{
		"about":    "Accounts the local validator held after venue/raydium's TestExecute (go test ./venue/raydium -run TestExecute -write-accounts): its AmmConfigs (state the seeding writes) and pools (written by our program's initialize, then swapped, deposited and withdrawn). gen.sh decodes them with the SDK into sdk_layouts.json.",
		"accounts": out,
	}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/accounts.json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote testdata/accounts.json: %d accounts", len(out))
}
