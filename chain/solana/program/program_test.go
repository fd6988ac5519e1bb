package program

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"math/big"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"
)

// pool is one pool's addresses.
type pool struct {
	config, state, authority, lpMint, vault0, vault1, observation, mint0, mint1, prog0, prog1 solana.PublicKey
}

func (e *env) createConfig(index uint16, trade, protocol, fund, createFee, creator uint64) solana.PublicKey {
	cfg := pda([]byte("amm_config"), []byte{byte(index >> 8), byte(index)})
	data := append(disc("global:create_amm_config"), byte(index), byte(index>>8))
	data = append(data, u64le(trade, protocol, fund, createFee, creator)...)
	e.send(admin, solana.NewInstruction(ID, solana.AccountMetaSlice{
		solana.Meta(admin).WRITE().SIGNER(), solana.Meta(cfg).WRITE(), solana.Meta(solana.SystemProgramID),
	}, data))
	return cfg
}

func (e *env) programOf(mint solana.PublicKey) solana.PublicKey { return e.svm.Account(mint).Owner }

func (e *env) initialize(creator, cfg, a, b solana.PublicKey, amountA, amountB uint64) pool {
	if bytes.Compare(a.Bytes(), b.Bytes()) > 0 {
		a, b = b, a
		amountA, amountB = amountB, amountA
	}
	p := pool{config: cfg, mint0: a, mint1: b, prog0: e.programOf(a), prog1: e.programOf(b)}
	p.state = pda([]byte("pool"), cfg.Bytes(), a.Bytes(), b.Bytes())
	p.authority = pda([]byte("vault_and_lp_mint_auth_seed"))
	p.lpMint = pda([]byte("pool_lp_mint"), p.state.Bytes())
	p.vault0 = pda([]byte("pool_vault"), p.state.Bytes(), a.Bytes())
	p.vault1 = pda([]byte("pool_vault"), p.state.Bytes(), b.Bytes())
	p.observation = pda([]byte("observation"), p.state.Bytes())
	lp, _, err := solana.FindAssociatedTokenAddress(creator, p.lpMint)
	if err != nil {
		e.t.Fatal(err)
	}
	data := append(disc("global:initialize"), u64le(amountA, amountB, 0)...)
	e.send(creator, solana.NewInstruction(ID, solana.AccountMetaSlice{
		solana.Meta(creator).WRITE().SIGNER(), solana.Meta(cfg), solana.Meta(p.authority), solana.Meta(p.state).WRITE(),
		solana.Meta(a), solana.Meta(b), solana.Meta(p.lpMint).WRITE(),
		solana.Meta(e.holdingOf(creator, a)).WRITE(), solana.Meta(e.holdingOf(creator, b)).WRITE(), solana.Meta(lp).WRITE(),
		solana.Meta(p.vault0).WRITE(), solana.Meta(p.vault1).WRITE(), solana.Meta(createPoolFees).WRITE(),
		solana.Meta(p.observation).WRITE(), solana.Meta(tokenProgram), solana.Meta(p.prog0), solana.Meta(p.prog1),
		solana.Meta(ataProgram), solana.Meta(solana.SystemProgramID), solana.Meta(solana.SysVarRentPubkey),
	}, data))
	return p
}

func (e *env) holdingOf(owner, mint solana.PublicKey) solana.PublicKey {
	return key("holding/" + owner.String() + "/" + mint.String())
}

func (e *env) lpAccounts(p pool, owner, lp solana.PublicKey, withdraw bool) solana.AccountMetaSlice {
	m := solana.AccountMetaSlice{
		solana.Meta(owner).SIGNER(), solana.Meta(p.authority), solana.Meta(p.state).WRITE(), solana.Meta(lp).WRITE(),
		solana.Meta(e.holdingOf(owner, p.mint0)).WRITE(), solana.Meta(e.holdingOf(owner, p.mint1)).WRITE(),
		solana.Meta(p.vault0).WRITE(), solana.Meta(p.vault1).WRITE(), solana.Meta(tokenProgram), solana.Meta(token2022),
		solana.Meta(p.mint0), solana.Meta(p.mint1), solana.Meta(p.lpMint).WRITE(),
	}
	if withdraw {
		m = append(m, solana.Meta(memoProgram))
	}
	return m
}

// swapIx builds a swap of input mint in (token 0 or 1 of p) for the other.
func (e *env) swapIx(p pool, payer solana.PublicKey, zeroForOne bool, name string, a, b uint64) solana.Instruction {
	inMint, outMint, inVault, outVault, inProg, outProg := p.mint0, p.mint1, p.vault0, p.vault1, p.prog0, p.prog1
	if !zeroForOne {
		inMint, outMint, inVault, outVault, inProg, outProg = p.mint1, p.mint0, p.vault1, p.vault0, p.prog1, p.prog0
	}
	return solana.NewInstruction(ID, solana.AccountMetaSlice{
		solana.Meta(payer).SIGNER(), solana.Meta(p.authority), solana.Meta(p.config), solana.Meta(p.state).WRITE(),
		solana.Meta(e.holdingOf(payer, inMint)).WRITE(), solana.Meta(e.holdingOf(payer, outMint)).WRITE(),
		solana.Meta(inVault).WRITE(), solana.Meta(outVault).WRITE(), solana.Meta(inProg), solana.Meta(outProg),
		solana.Meta(inMint), solana.Meta(outMint), solana.Meta(p.observation).WRITE(),
	}, append(disc("global:"+name), u64le(a, b)...))
}

// ---- the reference: CPMM's rules in math/big ----

func bi(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

func ceilDiv(a, b *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(a, b, new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

const million = 1_000_000

// refSwapIn: the output of swap_base_input (creator fee off, fee on input), and the trade fee.
func refSwapIn(in, x, y, tradeRate uint64) (out, tradeFee uint64) {
	fee := ceilDiv(new(big.Int).Mul(bi(in), bi(tradeRate)), bi(million))
	less := new(big.Int).Sub(bi(in), fee)
	o := new(big.Int).Quo(new(big.Int).Mul(less, bi(y)), new(big.Int).Add(bi(x), less))
	return o.Uint64(), fee.Uint64()
}

// refSwapOut: the input of swap_base_output for out, and the trade fee.
func refSwapOut(out, x, y, tradeRate uint64) (in, tradeFee uint64) {
	swapped := ceilDiv(new(big.Int).Mul(bi(x), bi(out)), new(big.Int).Sub(bi(y), bi(out)))
	with := ceilDiv(new(big.Int).Mul(swapped, bi(million)), bi(million-tradeRate))
	return with.Uint64(), new(big.Int).Sub(with, swapped).Uint64()
}

// refTransferFee is Token-2022's fee of amount at bps, capped.
func refTransferFee(amount uint64, bps uint16, max uint64) uint64 {
	f := ceilDiv(new(big.Int).Mul(bi(amount), big.NewInt(int64(bps))), big.NewInt(10000)).Uint64()
	return min(f, max)
}

func u64at(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }

func hasEvent(logs []string, name string) bool {
	d := disc("event:" + name)
	for _, l := range logs {
		if s, ok := strings.CutPrefix(l, "Program data: "); ok {
			b, err := base64.StdEncoding.DecodeString(s)
			if err == nil && bytes.HasPrefix(b, d) {
				return true
			}
		}
	}
	return false
}

// TestProgram runs every instruction in LiteSVM on an SPL Token pool and a Token-2022 pool with a
// transfer fee, and holds every amount to CPMM's rules computed independently in math/big.
func TestProgram(t *testing.T) {
	e := newEnv(t)
	const trade, protocol, fund = 2500, 120000, 40000
	cfg := e.createConfig(0, trade, protocol, fund, 150_000_000, 0)
	c := e.data(cfg)
	if !bytes.Equal(c[:8], disc("account:AmmConfig")) || len(c) != 236 || u64at(c, 12) != trade || u64at(c, 20) != protocol ||
		u64at(c, 28) != fund || u64at(c, 36) != 150_000_000 || !bytes.Equal(c[44:76], admin.Bytes()) || !bytes.Equal(c[76:108], admin.Bytes()) {
		t.Fatalf("AmmConfig = %x", c)
	}

	creator, trader := key("creator"), key("trader")
	usd := e.mint("USD", false, 6, 0, 0)
	gold := e.mint("GOLD", false, 9, 0, 0)
	emb := e.mint("EMB", true, 6, 100, 10_000_000) // 1%, at most 10 EMB
	for _, m := range []solana.PublicKey{usd, gold, emb} {
		e.holding(creator, m, 1e15)
		e.holding(trader, m, 1e15)
	}

	// initialize
	feeBefore := e.svm.Account(createPoolFees).Lamports
	p := e.initialize(creator, cfg, usd, gold, 2_000_000_000_000, 500_000_000_000_000)
	st := e.data(p.state)
	v0, v1 := e.balance(p.vault0), e.balance(p.vault1)
	liquidity := new(big.Int).Sqrt(new(big.Int).Mul(bi(v0), bi(v1))).Uint64()
	lp, _, _ := solana.FindAssociatedTokenAddress(creator, p.lpMint)
	if !bytes.Equal(st[:8], disc("account:PoolState")) || len(st) != 637 || u64at(st, 333) != liquidity || e.balance(lp) != liquidity-100 ||
		!bytes.Equal(st[72:104], p.vault0.Bytes()) || !bytes.Equal(st[136:168], p.lpMint.Bytes()) || !bytes.Equal(st[296:328], p.observation.Bytes()) ||
		!bytes.Equal(st[232:264], p.prog0.Bytes()) || st[330] != 9 || u64at(st, 373) != 1_700_000_001 {
		t.Fatalf("PoolState after initialize: %x", st)
	}
	if obs := e.data(p.observation); !bytes.Equal(obs[:8], disc("account:ObservationState")) || len(obs) != 4075 || !bytes.Equal(obs[11:43], p.state.Bytes()) {
		t.Fatalf("ObservationState: %x", obs[:43])
	}
	if got := e.svm.Account(createPoolFees).Lamports - feeBefore; got != 150_000_000 || e.balance(createPoolFees) != 150_000_000 {
		t.Fatalf("create pool fee: %d lamports, token amount %d", got, e.balance(createPoolFees))
	}
	e.svm.SetClock(1100, 3, 1_700_000_100)

	// swap base input, token 0 for token 1
	x, y := e.balance(p.vault0), e.balance(p.vault1)
	in0 := e.balance(e.holdingOf(trader, p.mint0))
	out1 := e.balance(e.holdingOf(trader, p.mint1))
	wantOut, fee := refSwapIn(1_000_000_000, x, y, trade)
	r := e.send(trader, e.swapIx(p, trader, true, "swap_base_input", 1_000_000_000, wantOut))
	if got := e.balance(e.holdingOf(trader, p.mint1)) - out1; got != wantOut {
		t.Fatalf("swap_base_input: out %d, want %d", got, wantOut)
	}
	if in0-e.balance(e.holdingOf(trader, p.mint0)) != 1_000_000_000 || !hasEvent(r.Logs, "SwapEvent") {
		t.Fatalf("swap_base_input: input or event wrong\n%s", strings.Join(r.Logs, "\n"))
	}
	st = e.data(p.state)
	if u64at(st, 341) != fee*protocol/million || u64at(st, 357) != fee*fund/million {
		t.Fatalf("protocol/fund fees %d/%d, want %d/%d", u64at(st, 341), u64at(st, 357), fee*protocol/million, fee*fund/million)
	}
	t.Logf("swap_base_input: %d compute units", r.Units)

	// slippage: asking one more than the curve gives
	e.sendErr(trader, e.swapIx(p, trader, true, "swap_base_input", 1_000_000_000, wantOut+1_000_000), 6005)

	// swap base output, token 1 for token 0 (fees owed are not the pool's)
	st = e.data(p.state)
	x = e.balance(p.vault1) - u64at(st, 349) - u64at(st, 365) - u64at(st, 405)
	y = e.balance(p.vault0) - u64at(st, 341) - u64at(st, 357) - u64at(st, 397)
	wantIn, _ := refSwapOut(777_777, x, y, trade)
	in1 := e.balance(e.holdingOf(trader, p.mint1))
	out0 := e.balance(e.holdingOf(trader, p.mint0))
	r = e.send(trader, e.swapIx(p, trader, false, "swap_base_output", wantIn, 777_777))
	if got := in1 - e.balance(e.holdingOf(trader, p.mint1)); got != wantIn || e.balance(e.holdingOf(trader, p.mint0))-out0 != 777_777 {
		t.Fatalf("swap_base_output: in %d, want %d", got, wantIn)
	}
	e.sendErr(trader, e.swapIx(p, trader, false, "swap_base_output", wantIn-1, 777_777), 6005)
	t.Logf("swap_base_output: %d compute units", r.Units)

	// deposit: rounded up; withdraw: rounded down
	st = e.data(p.state)
	supply := u64at(st, 333)
	n0 := e.balance(p.vault0) - u64at(st, 341) - u64at(st, 357) - u64at(st, 397)
	n1 := e.balance(p.vault1) - u64at(st, 349) - u64at(st, 365) - u64at(st, 405)
	const lpAmount = 123_456_789
	want0 := ceilDiv(new(big.Int).Mul(bi(lpAmount), bi(n0)), bi(supply)).Uint64()
	want1 := ceilDiv(new(big.Int).Mul(bi(lpAmount), bi(n1)), bi(supply)).Uint64()
	a0, a1 := e.balance(e.holdingOf(creator, p.mint0)), e.balance(e.holdingOf(creator, p.mint1))
	r = e.send(creator, solana.NewInstruction(ID, e.lpAccounts(p, creator, lp, false), append(disc("global:deposit"), u64le(lpAmount, want0, want1)...)))
	if a0-e.balance(e.holdingOf(creator, p.mint0)) != want0 || a1-e.balance(e.holdingOf(creator, p.mint1)) != want1 ||
		u64at(e.data(p.state), 333) != supply+lpAmount || e.balance(lp) != liquidity-100+lpAmount || !hasEvent(r.Logs, "LpChangeEvent") {
		t.Fatalf("deposit: paid %d/%d, want %d/%d", a0-e.balance(e.holdingOf(creator, p.mint0)), a1-e.balance(e.holdingOf(creator, p.mint1)), want0, want1)
	}
	e.sendErr(creator, solana.NewInstruction(ID, e.lpAccounts(p, creator, lp, false), append(disc("global:deposit"), u64le(lpAmount, want0-1, want1)...)), 6005)
	st = e.data(p.state)
	supply = u64at(st, 333)
	n0 = e.balance(p.vault0) - u64at(st, 341) - u64at(st, 357) - u64at(st, 397)
	n1 = e.balance(p.vault1) - u64at(st, 349) - u64at(st, 365) - u64at(st, 405)
	want0 = new(big.Int).Quo(new(big.Int).Mul(bi(lpAmount), bi(n0)), bi(supply)).Uint64()
	want1 = new(big.Int).Quo(new(big.Int).Mul(bi(lpAmount), bi(n1)), bi(supply)).Uint64()
	a0, a1 = e.balance(e.holdingOf(creator, p.mint0)), e.balance(e.holdingOf(creator, p.mint1))
	e.send(creator, solana.NewInstruction(ID, e.lpAccounts(p, creator, lp, true), append(disc("global:withdraw"), u64le(lpAmount, want0, want1)...)))
	if e.balance(e.holdingOf(creator, p.mint0))-a0 != want0 || e.balance(e.holdingOf(creator, p.mint1))-a1 != want1 || u64at(e.data(p.state), 333) != supply-lpAmount {
		t.Fatalf("withdraw: got %d/%d, want %d/%d", e.balance(e.holdingOf(creator, p.mint0))-a0, e.balance(e.holdingOf(creator, p.mint1))-a1, want0, want1)
	}

	// a Token-2022 pool with a 1% transfer fee (at most 10 tokens): CPMM swaps what arrives
	q := e.initialize(creator, cfg, emb, usd, 5_000_000_000_000, 5_000_000_000_000)
	e.svm.SetClock(1200, 3, 1_700_000_200)
	embIs0 := q.mint0 == emb
	x, y = e.balance(q.vault0), e.balance(q.vault1)
	if !embIs0 {
		x, y = y, x
	}
	const amountIn = 500_000_000
	tf := refTransferFee(amountIn, 100, 10_000_000)
	wantOut, _ = refSwapIn(amountIn-tf, x, y, trade)
	usdBefore := e.balance(e.holdingOf(trader, usd))
	e.send(trader, e.swapIx(q, trader, embIs0, "swap_base_input", amountIn, wantOut))
	if got := e.balance(e.holdingOf(trader, usd)) - usdBefore; got != wantOut {
		t.Fatalf("Token-2022 swap_base_input: out %d, want %d", got, wantOut)
	}
	// and out: the trader receives exactly what it asks, the pool sends that plus the fee
	st = e.data(q.state)
	x, y = e.balance(q.vault0)-u64at(st, 341)-u64at(st, 357), e.balance(q.vault1)-u64at(st, 349)-u64at(st, 365)
	if embIs0 {
		x, y = y, x
	}
	const want = 100_000_000
	gross := want + refTransferFee(want*10000/9900+1, 100, 10_000_000) // Token-2022's pre-fee amount, checked below
	for refTransferFee(gross, 100, 10_000_000) != gross-want {
		gross--
	}
	wantIn, _ = refSwapOut(gross, x, y, trade)
	embBefore := e.balance(e.holdingOf(trader, emb))
	e.send(trader, e.swapIx(q, trader, !embIs0, "swap_base_output", wantIn, want))
	if got := e.balance(e.holdingOf(trader, emb)) - embBefore; got != want {
		t.Fatalf("Token-2022 swap_base_output: received %d, want %d", got, want)
	}

	// errors: an unknown instruction, a config not by the admin
	e.sendErr(trader, solana.NewInstruction(ID, solana.AccountMetaSlice{solana.Meta(trader)}, []byte{1, 2, 3, 4, 5, 6, 7, 8}), 101)
	bad := append(disc("global:create_amm_config"), 1, 0)
	bad = append(bad, u64le(1, 2, 3, 4, 5)...)
	e.sendErr(trader, solana.NewInstruction(ID, solana.AccountMetaSlice{
		solana.Meta(trader).WRITE().SIGNER(), solana.Meta(pda([]byte("amm_config"), []byte{0, 1})).WRITE(), solana.Meta(solana.SystemProgramID),
	}, bad), 6001)
}
