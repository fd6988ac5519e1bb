package program

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain/solana/program/vectors"
)

// TestSDKVectors runs every vector of vectors/cpmm_sdk_vectors.json through the program in
// LiteSVM and requires the SDK's figure (@raydium-io/raydium-sdk-v2's CurveCalculator and
// ConstantProductCurve), or the program's documented figure for the vector's case class.
//
// One LiteSVM holds one pool per token layout (SPL Token on both sides, Token-2022 with a transfer
// fee on token 0, on token 1, on both), made by the real create_amm_config and initialize. Before
// each swap, deposit or withdraw the vector's state is written into those accounts (the config's
// rates, the pool's creator-fee mode, fees owed and LP supply, the vault balances, the mints'
// transfer fees, the payer's holdings); then the instruction runs as a transaction and what it did
// is read back: balances, the pool's fee counters and LP supply, and the SwapEvent/LpChangeEvent.
// Each initialize vector makes a new pool at a fresh keypair address.
func TestSDKVectors(t *testing.T) {
	f, err := vectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	h := newVectorHarness(t)
	setup := time.Since(start)

	counts := map[string]int{}
	failures := 0
	for i := range f.Vectors {
		v := &f.Vectors[i]
		var problems []string
		switch v.Op {
		case vectors.SwapBaseInput, vectors.SwapBaseOutput:
			problems = h.swap(v)
		case vectors.Deposit, vectors.Withdraw:
			problems = h.lp(v)
		case vectors.Initialize:
			problems = h.initialize(v)
		default:
			t.Fatalf("%s: unknown op %q", v.ID, v.Op)
		}
		cls := v.Class
		if cls == "" {
			cls = "sdk"
		}
		counts[v.Op+"/"+cls]++
		if len(problems) > 0 {
			failures++
			in, _ := json.Marshal(v)
			t.Errorf("%s (%s): %s\n  vector: %s", v.ID, cls, strings.Join(problems, "; "), in)
			if failures >= 20 {
				t.Fatalf("stopping after %d failing vectors", failures)
			}
		}
	}
	for k, n := range f.Counts.ByOpAndClass {
		if counts[k] != n {
			t.Errorf("ran %d vectors of %s, the file counts %d", counts[k], k, n)
		}
	}
	// the bar: at least 1,000 cases where the program does exactly what the SDK says,
	// and every documented class exercised
	if n := f.Counts.ByClass["sdk"]; n < 1000 {
		t.Errorf("only %d vectors hold the program to the SDK's own figure, want at least 1,000", n)
	}
	for cls := range f.Classes {
		if f.Counts.ByClass[cls] == 0 {
			t.Errorf("class %s has no vector", cls)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, counts[k])
	}
	t.Logf("%d vectors (SDK %s, seed %d) in %s (setup %s):%s", len(f.Vectors), f.Packages["@raydium-io/raydium-sdk-v2"].Version,
		f.Seed, time.Since(start).Round(time.Millisecond), setup.Round(time.Millisecond), b.String())
}

// vectorHarness is the LiteSVM, the config and the pools the vectors run on.
type vectorHarness struct {
	e              *env
	cfg            solana.PublicKey
	creator, payer solana.PublicKey
	pools          map[[2]bool]pool // by (token 0 is Token-2022, token 1 is Token-2022)
	labels         map[solana.PublicKey]string
}

const u64Max = math.MaxUint64

func newVectorHarness(t *testing.T) *vectorHarness {
	e := newEnv(t)
	h := &vectorHarness{e: e, creator: key("creator"), payer: key("trader"), pools: map[[2]bool]pool{}, labels: map[solana.PublicKey]string{}}
	h.cfg = e.createConfig(20, 2500, 120000, 40000, 0, 0)
	// two Token-2022 mints with a transfer fee, and SPL Token mints on either side of the first
	t22a, t22b := h.mint("vec-t22-a", true), h.mint("vec-t22-b", true)
	var splLow, splHigh solana.PublicKey
	for i := 0; splLow.IsZero() || splHigh.IsZero(); i++ {
		label := fmt.Sprintf("vec-spl-%d", i)
		k := key("mint/" + label)
		switch c := bytes.Compare(k.Bytes(), t22a.Bytes()); {
		case c < 0 && splLow.IsZero():
			splLow = h.mint(label, false)
		case c > 0 && splHigh.IsZero():
			splHigh = h.mint(label, false)
		}
	}
	for _, m := range []solana.PublicKey{t22a, t22b, splLow, splHigh} {
		e.holding(h.creator, m, 1e15)
	}
	for _, pair := range [][2]solana.PublicKey{{splLow, splHigh}, {t22a, splHigh}, {splLow, t22a}, {t22a, t22b}} {
		p := e.initialize(h.creator, h.cfg, pair[0], pair[1], 1_000_000_000, 1_000_000_000)
		layout := [2]bool{p.prog0 == token2022, p.prog1 == token2022}
		if _, dup := h.pools[layout]; dup {
			t.Fatalf("two pools of layout %v", layout)
		}
		h.pools[layout] = p
	}
	if len(h.pools) != 4 {
		t.Fatalf("pool layouts: %v", h.pools)
	}
	e.svm.SetClock(2000, 3, 1_700_001_000) // past every pool's open time
	return h
}

func (h *vectorHarness) mint(label string, t22 bool) solana.PublicKey {
	m := h.e.mint(label, t22, 6, 100, 1_000_000)
	h.labels[m] = label
	return m
}

// setTransferFee rewrites a Token-2022 mint with the vector's fee (epoch 0 on, so in force).
func (h *vectorHarness) setTransferFee(m solana.PublicKey, f *vectors.TransferFee) {
	if f == nil {
		h.e.t.Fatalf("mint %s is Token-2022 but the vector gives it no transfer fee", m)
	}
	h.e.mint(h.labels[m], true, 6, f.BasisPoints, f.MaximumFee)
}

func (h *vectorHarness) poolFor(v *vectors.Vector) pool {
	p, ok := h.pools[[2]bool{v.TransferFee0 != nil, v.TransferFee1 != nil}]
	if !ok {
		h.e.t.Fatalf("%s: no pool for its token layout", v.ID)
	}
	if v.TransferFee0 != nil {
		h.setTransferFee(p.mint0, v.TransferFee0)
	}
	if v.TransferFee1 != nil {
		h.setTransferFee(p.mint1, v.TransferFee1)
	}
	return p
}

// patch rewrites an account's data in place.
func (h *vectorHarness) patch(a solana.PublicKey, f func(d []byte)) {
	acc := h.e.svm.Account(a)
	if acc == nil {
		h.e.t.Fatalf("no account %s", a)
	}
	f(acc.Data)
	h.e.svm.SetAccount(a, *acc)
}

// setVault sets a token account's amount and clears the transfer fee it withholds.
func (h *vectorHarness) setVault(a solana.PublicKey, amount uint64) {
	h.patch(a, func(d []byte) {
		binary.LittleEndian.PutUint64(d[64:], amount)
		for off := 166; off+4 <= len(d); { // Token-2022 extensions: type u16, length u16, value
			typ, n := binary.LittleEndian.Uint16(d[off:]), int(binary.LittleEndian.Uint16(d[off+2:]))
			if typ == 2 && n == 8 { // TransferFeeAmount.withheld_amount
				binary.LittleEndian.PutUint64(d[off+4:], 0)
			}
			off += 4 + n
		}
	})
}

// setPool writes the vector's pool state: the creator-fee mode, the fees owed, the LP supply, and
// the vaults holding the reserves plus the fees owed; the config gets the vector's rates.
func (h *vectorHarness) setPool(p pool, v *vectors.Vector, lpSupply uint64) {
	h.patch(h.cfg, func(d []byte) {
		binary.LittleEndian.PutUint64(d[12:], v.Rates.Trade)
		binary.LittleEndian.PutUint64(d[20:], v.Rates.Protocol)
		binary.LittleEndian.PutUint64(d[28:], v.Rates.Fund)
		binary.LittleEndian.PutUint64(d[108:], v.Rates.Creator)
	})
	owed := make([]uint64, 6)
	for i, o := range v.Owed {
		owed[i] = uint64(o)
	}
	h.patch(p.state, func(d []byte) {
		d[329] = 0 // status: everything enabled
		binary.LittleEndian.PutUint64(d[333:], lpSupply)
		for i, off := range []int{341, 349, 357, 365, 397, 405} {
			binary.LittleEndian.PutUint64(d[off:], owed[i])
		}
		d[389] = v.CreatorFeeOn
		d[390] = 0
		if v.EnableCreatorFee {
			d[390] = 1
		}
	})
	h.setVault(p.vault0, uint64(v.Reserve0)+owed[0]+owed[2]+owed[4])
	h.setVault(p.vault1, uint64(v.Reserve1)+owed[1]+owed[3]+owed[5])
}

// errorJSON is Solana's TransactionError for the program's instruction (index 1, after the
// compute budget) failing as the vector says.
func errorJSON(name string) string {
	codes := map[string]int{"RequireGtViolated": 2505, "EmptySupply": 6002, "InvalidInput": 6003, "ZeroTradingTokens": 6006,
		"InitLpAmountTooLess": 6009, "TransferFeeCalculateNotMatch": 6010, "InsufficientFunds": 1 /* SPL Token's and Token-2022's TokenError */}
	if name == "Panic" {
		return `{"InstructionError":[1,"ProgramFailedToComplete"]}`
	}
	code, ok := codes[name]
	if !ok {
		return "unknown error " + name
	}
	return fmt.Sprintf(`{"InstructionError":[1,{"Custom":%d}]}`, code)
}

// run sends the instruction; for an expected error it returns the problem if it did not fail so.
func (h *vectorHarness) run(v *vectors.Vector, payer solana.PublicKey, ix solana.Instruction) (logs []string, problems []string, done bool) {
	r := h.e.svm.Send(payer, cuLimit(1_400_000), ix)
	if want, ok := v.Expected()["error"]; ok {
		var got any
		_ = json.Unmarshal(r.Err, &got)
		gb, _ := json.Marshal(got)
		if r.OK || string(gb) != errorJSON(want) {
			return nil, []string{fmt.Sprintf("want error %s (%s), got ok=%v err=%s\n%s", want, errorJSON(want), r.OK, r.Err, strings.Join(r.Logs, "\n"))}, true
		}
		return nil, nil, true
	}
	if !r.OK {
		return nil, []string{fmt.Sprintf("failed: %s\n%s", r.Err, strings.Join(r.Logs, "\n"))}, true
	}
	return r.Logs, nil, false
}

// event returns the data of the named Anchor event in logs.
func event(logs []string, name string) []byte {
	d := disc("event:" + name)
	for _, l := range logs {
		if s, ok := strings.CutPrefix(l, "Program data: "); ok {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil && bytes.HasPrefix(b, d) {
				return b
			}
		}
	}
	return nil
}

// checker compares observed amounts with the expected figure.
type checker struct {
	want     map[string]string
	problems []string
}

func (c *checker) eq(what string, got uint64, want string) {
	w, err := strconv.ParseUint(want, 10, 64)
	if err != nil {
		c.problems = append(c.problems, fmt.Sprintf("%s: expected figure %q is not a u64", what, want))
		return
	}
	if got != w {
		c.problems = append(c.problems, fmt.Sprintf("%s = %d, want %d", what, got, w))
	}
}

// field is the expected figure's field, or def when the figure has none (the SDK's, where the
// program's own fields such as transfer fees are zero or its SDK twin).
func (c *checker) field(k, def string) string {
	if s, ok := c.want[k]; ok {
		return s
	}
	return def
}

func (h *vectorHarness) swap(v *vectors.Vector) []string {
	e := h.e
	p := h.poolFor(v)
	h.setPool(p, v, u64at(e.data(p.state), 333))
	inMint, outMint, inVault, outVault := p.mint0, p.mint1, p.vault0, p.vault1
	x, y := uint64(v.Reserve0), uint64(v.Reserve1)
	inSide, outSide := 0, 1
	if !v.ZeroForOne {
		inMint, outMint, inVault, outVault = p.mint1, p.mint0, p.vault1, p.vault0
		x, y = y, x
		inSide, outSide = 1, 0
	}
	// a mint's supply is a u64: the payer holds all of the input token the input vault does not
	vaultIn0, vaultOut0 := e.balance(inVault), e.balance(outVault)
	held := u64Max - vaultIn0
	e.holding(h.payer, inMint, held)
	e.holding(h.payer, outMint, 0)
	st0 := e.data(p.state)
	a, b := uint64(v.Amount), uint64(0) // swap_base_input: amount_in, minimum_amount_out
	if v.Op == vectors.SwapBaseOutput {
		a, b = u64Max, uint64(v.Amount) // max_amount_in, amount_out
	}
	logs, problems, done := h.run(v, h.payer, e.swapIx(p, h.payer, v.ZeroForOne, v.Op, a, b))
	if done {
		return problems
	}
	st := e.data(p.state)
	delta := func(off int) uint64 { return u64at(st, off) - u64at(st0, off) }
	owedOf := func(d []byte, side int) uint64 {
		return u64at(d, 341+8*side) + u64at(d, 357+8*side) + u64at(d, 397+8*side)
	}
	ev := event(logs, "SwapEvent")
	if len(ev) != 170 {
		return []string{fmt.Sprintf("no SwapEvent in\n%s", strings.Join(logs, "\n"))}
	}
	c := &checker{want: v.Expected()}
	paid := held - e.balance(e.holdingOf(h.payer, inMint))
	received := e.balance(e.holdingOf(h.payer, outMint))
	tradeFee, protocol, fund := u64at(ev, 153), delta(341+8*inSide), delta(357+8*inSide)
	creatorSide := outSide
	if v.CreatorFeeOnInput {
		creatorSide = inSide
	}
	netIn, netOut := e.balance(inVault)-owedOf(st, inSide), e.balance(outVault)-owedOf(st, outSide)
	c.eq("paid", paid, c.field("in", c.want["inputAmount"]))
	c.eq("received", received, c.field("out", c.want["outputAmount"]))
	c.eq("SwapEvent.input_vault_before", u64at(ev, 40), strconv.FormatUint(x, 10))
	c.eq("SwapEvent.output_vault_before", u64at(ev, 48), strconv.FormatUint(y, 10))
	c.eq("inputAmount (SwapEvent.input_amount)", u64at(ev, 56), c.want["inputAmount"])
	c.eq("outputAmount (SwapEvent.output_amount)", u64at(ev, 64), c.want["outputAmount"])
	c.eq("SwapEvent.input_transfer_fee", u64at(ev, 72), c.field("inputTransferFee", "0"))
	c.eq("SwapEvent.output_transfer_fee", u64at(ev, 80), c.field("outputTransferFee", "0"))
	c.eq("tradeFee (SwapEvent.trade_fee)", tradeFee, c.want["tradeFee"])
	c.eq("creatorFee (SwapEvent.creator_fee)", u64at(ev, 161), c.want["creatorFee"])
	c.eq("creatorFee (creator fees owed)", delta(397+8*creatorSide), c.want["creatorFee"])
	c.eq("protocolFee (protocol fees owed)", protocol, c.want["protocolFee"])
	c.eq("fundFee (fund fees owed)", fund, c.want["fundFee"])
	c.eq("input vault received", e.balance(inVault)-vaultIn0, strconv.FormatUint(paid-u64at(ev, 72), 10))
	c.eq("output vault sent", vaultOut0-e.balance(outVault), c.want["outputAmount"])
	// the curve's new vault amounts: the output vault as it stands net of fees owed, the input
	// vault net of fees owed less the LPs' share of the trade fee, which the curve leaves out
	c.eq("newInputVaultAmount", netIn-(tradeFee-protocol-fund), c.want["newInputVaultAmount"])
	c.eq("newOutputVaultAmount", netOut, c.want["newOutputVaultAmount"])
	if (ev[169] == 1) != v.CreatorFeeOnInput {
		c.problems = append(c.problems, fmt.Sprintf("SwapEvent.creator_fee_on_input = %d", ev[169]))
	}
	return c.problems
}

// lp runs a deposit or a withdraw of v.LP against the vector's reserves and LP supply.
func (h *vectorHarness) lp(v *vectors.Vector) []string {
	e := h.e
	p := h.poolFor(v)
	supply, lpAmount := uint64(v.LPSupply), uint64(v.LP)
	h.setPool(p, v, supply)
	h.patch(p.lpMint, func(d []byte) { binary.LittleEndian.PutUint64(d[36:], supply) })
	withdraw := v.Op == vectors.Withdraw
	// deposit: the payer holds all of each token its vault does not (a mint's supply is a u64)
	v0, v1 := e.balance(p.vault0), e.balance(p.vault1)
	hold0, hold1, lpHeld := u64Max-v0, u64Max-v1, uint64(0)
	if withdraw {
		hold0, hold1, lpHeld = 0, 0, lpAmount
	}
	e.holding(h.payer, p.mint0, hold0)
	e.holding(h.payer, p.mint1, hold1)
	lpAccount := e.holding(h.payer, p.lpMint, lpHeld)
	args := u64le(lpAmount, u64Max, u64Max) // deposit: lp_token_amount, maximum_token_0_amount, maximum_token_1_amount
	name := "global:deposit"
	if withdraw {
		args, name = u64le(lpAmount, 0, 0), "global:withdraw"
	}
	logs, problems, done := h.run(v, h.payer, solana.NewInstruction(ID, e.lpAccounts(p, h.payer, lpAccount, withdraw), append(disc(name), args...)))
	if done {
		return problems
	}
	c := &checker{want: v.Expected()}
	amount0, amount1 := c.field("amount0", c.want["tokenAmount0"]), c.field("amount1", c.want["tokenAmount1"])
	fee0, fee1 := c.field("transferFee0", "0"), c.field("transferFee1", "0")
	ev := event(logs, "LpChangeEvent")
	if len(ev) != 97 {
		return []string{fmt.Sprintf("no LpChangeEvent in\n%s", strings.Join(logs, "\n"))}
	}
	c.eq("LpChangeEvent.lp_amount_before", u64at(ev, 40), v.LPSupply.String())
	c.eq("LpChangeEvent.token_0_vault_before", u64at(ev, 48), v.Reserve0.String())
	c.eq("LpChangeEvent.token_1_vault_before", u64at(ev, 56), v.Reserve1.String())
	c.eq("LpChangeEvent.token_0_transfer_fee", u64at(ev, 80), fee0)
	c.eq("LpChangeEvent.token_1_transfer_fee", u64at(ev, 88), fee1)
	f0, _ := strconv.ParseUint(fee0, 10, 64)
	f1, _ := strconv.ParseUint(fee1, 10, 64)
	if withdraw {
		c.eq("tokenAmount0 (vault 0 sent)", v0-e.balance(p.vault0), amount0)
		c.eq("tokenAmount1 (vault 1 sent)", v1-e.balance(p.vault1), amount1)
		c.eq("token 0 received + its transfer fee", e.balance(e.holdingOf(h.payer, p.mint0))+f0, amount0)
		c.eq("token 1 received + its transfer fee", e.balance(e.holdingOf(h.payer, p.mint1))+f1, amount1)
		c.eq("LP supply after", u64at(e.data(p.state), 333), strconv.FormatUint(supply-lpAmount, 10))
		c.eq("LP held after", e.balance(lpAccount), "0")
	} else {
		c.eq("tokenAmount0 (vault 0 received)", e.balance(p.vault0)-v0, amount0)
		c.eq("tokenAmount1 (vault 1 received)", e.balance(p.vault1)-v1, amount1)
		c.eq("LpChangeEvent.token_0_amount", u64at(ev, 64), amount0)
		c.eq("LpChangeEvent.token_1_amount", u64at(ev, 72), amount1)
		c.eq("token 0 paid - its transfer fee", hold0-e.balance(e.holdingOf(h.payer, p.mint0))-f0, amount0)
		c.eq("token 1 paid - its transfer fee", hold1-e.balance(e.holdingOf(h.payer, p.mint1))-f1, amount1)
		c.eq("LP supply after", u64at(e.data(p.state), 333), strconv.FormatUint(supply+lpAmount, 10))
		c.eq("LP minted", e.balance(lpAccount), v.LP.String())
	}
	return c.problems
}

// initialize creates a new pool at a fresh keypair address with the vector's initial amounts.
func (h *vectorHarness) initialize(v *vectors.Vector) []string {
	e := h.e
	layout := h.poolFor(v) // sets the mints' transfer fees
	p := pool{config: h.cfg, mint0: layout.mint0, mint1: layout.mint1, prog0: layout.prog0, prog1: layout.prog1}
	p.state = key(fmt.Sprintf("vector pool/%s", v.ID))
	p.authority = pda([]byte("vault_and_lp_mint_auth_seed"))
	p.lpMint = pda([]byte("pool_lp_mint"), p.state.Bytes())
	p.vault0 = pda([]byte("pool_vault"), p.state.Bytes(), p.mint0.Bytes())
	p.vault1 = pda([]byte("pool_vault"), p.state.Bytes(), p.mint1.Bytes())
	p.observation = pda([]byte("observation"), p.state.Bytes())
	lp, _, err := solana.FindAssociatedTokenAddress(h.creator, p.lpMint)
	if err != nil {
		e.t.Fatal(err)
	}
	e.holding(h.creator, p.mint0, uint64(v.Amount0))
	e.holding(h.creator, p.mint1, uint64(v.Amount1))
	ix := solana.NewInstruction(ID, solana.AccountMetaSlice{
		solana.Meta(h.creator).WRITE().SIGNER(), solana.Meta(h.cfg), solana.Meta(p.authority), solana.Meta(p.state).WRITE().SIGNER(),
		solana.Meta(p.mint0), solana.Meta(p.mint1), solana.Meta(p.lpMint).WRITE(),
		solana.Meta(e.holdingOf(h.creator, p.mint0)).WRITE(), solana.Meta(e.holdingOf(h.creator, p.mint1)).WRITE(), solana.Meta(lp).WRITE(),
		solana.Meta(p.vault0).WRITE(), solana.Meta(p.vault1).WRITE(), solana.Meta(createPoolFees).WRITE(),
		solana.Meta(p.observation).WRITE(), solana.Meta(tokenProgram), solana.Meta(p.prog0), solana.Meta(p.prog1),
		solana.Meta(ataProgram), solana.Meta(solana.SystemProgramID), solana.Meta(solana.SysVarRentPubkey),
	}, append(disc("global:initialize"), u64le(uint64(v.Amount0), uint64(v.Amount1), 0)...))
	_, problems, done := h.run(v, h.creator, ix)
	if done {
		return problems
	}
	c := &checker{want: v.Expected()}
	c.eq("vault 0", e.balance(p.vault0), c.field("vault0", v.Amount0.String()))
	c.eq("vault 1", e.balance(p.vault1), c.field("vault1", v.Amount1.String()))
	c.eq("liquidity (PoolState.lp_supply)", u64at(e.data(p.state), 333), c.want["liquidity"])
	c.eq("creatorLp (the creator's LP tokens)", e.balance(lp), c.want["creatorLp"])
	return c.problems
}
