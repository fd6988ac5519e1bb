package api

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/market"
)

// The LP builders on uniswap-v2, proven on the devnet through the HTTP pipeline: each build is
// signed and sent by the test wallet (a seeded user that starts with no LP and no stake), and the
// chain is checked against what the build's metadata promised; then confirm answers confirmed once
// the chain's confirmation depth is mined. Every answer is validated against its schema
// (tradeEnv.checked).

// lpBuilt is a 200 LP build.
type lpBuilt struct {
	raw   string
	built BuildResponse
}

// lpBody is an LP body on base's uniswap-v2 for the wallet, with the fields given.
func (te *tradeEnv) lpBody(fields map[string]any) map[string]any {
	body := map[string]any{"chain": "base", "venue": "uniswap-v2", "version": "2", "user": te.wallet.Address.Hex()}
	for k, v := range fields {
		body[k] = v
	}
	return body
}

// lp builds an LP operation and fails the test unless it answers 200.
func (te *tradeEnv) lp(op string, fields map[string]any) lpBuilt {
	te.t.Helper()
	r := te.build("/v1/build/lp/"+op, te.lpBody(fields))
	if r.status != http.StatusOK {
		te.t.Fatalf("lp/%s %v: %d %s", op, fields, r.status, r.rawBody)
	}
	var b BuildResponse
	if err := json.Unmarshal([]byte(r.rawBody), &b); err != nil {
		te.t.Fatal(err)
	}
	if b.Signing.Mode != "sequential" || b.ConfirmationToken == "" || b.Metadata["venue"] != "uniswap-v2" {
		te.t.Fatalf("lp/%s: signing %q, token %q, metadata %v", op, b.Signing.Mode, b.ConfirmationToken, b.Metadata)
	}
	return lpBuilt{raw: r.rawBody, built: b}
}

// ids lists the build's transaction ids in order.
func (b lpBuilt) ids() []string {
	var out []string
	for _, tx := range b.built.Transactions {
		out = append(out, tx.EVM.ID)
	}
	return out
}

// md is a metadata entry, as a string.
func (b lpBuilt) md(key string) string {
	switch v := b.built.Metadata[key].(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// mdBig is a base-unit metadata entry.
func (b lpBuilt) mdBig(t testing.TB, key string) *big.Int {
	t.Helper()
	return bigOf(t, b.md(key))
}

// send signs and sends the build; every transaction must succeed. It returns the hashes and the
// gas the transactions paid.
func (te *tradeEnv) send(b lpBuilt) ([]common.Hash, *big.Int) {
	te.t.Helper()
	hashes, receipts := te.wallet.sendBuild(b.raw)
	if len(receipts) != len(b.built.Transactions) {
		te.t.Fatalf("%v: %d of %d transactions sent", b.ids(), len(receipts), len(b.built.Transactions))
	}
	for i, rc := range receipts {
		if rc.Status != types.ReceiptStatusSuccessful {
			te.t.Fatalf("%v: %s reverted", b.ids(), b.built.Transactions[i].EVM.ID)
		}
	}
	return hashes, gasPaid(receipts)
}

// confirmAll mines the confirmation depth and confirms each sent build.
func (te *tradeEnv) confirmAll(sent map[string][]common.Hash) {
	te.t.Helper()
	te.finalize()
	for raw, hashes := range sent {
		if c := te.confirm(raw, hashes); c.status != http.StatusOK || c.body["confirmed"] != true || c.body["updated"] != true {
			te.t.Errorf("confirm: %d %s", c.status, c.rawBody)
		}
	}
}

// allowance is owner's ERC-20 (or LP) allowance to spender.
func (te *tradeEnv) allowance(token, owner, spender common.Address) *big.Int {
	te.t.Helper()
	out, err := te.wallet.Client.CallContract(te.t.Context(), ethereum.CallMsg{To: &token, Data: bindings.NewToken().PackAllowance(owner, spender)}, nil)
	if err != nil {
		te.t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

// seededPool is the seeded pool of two symbols, and its farm.
func (te *tradeEnv) seededPool(a, b string) (devnet.SeededPool, devnet.SeededFarm) {
	te.t.Helper()
	ta, tb := te.token(a), te.token(b)
	for i, p := range te.market.Pools {
		if (p.Token0 == ta && p.Token1 == tb) || (p.Token0 == tb && p.Token1 == ta) {
			return p, te.market.Farms[i]
		}
	}
	te.t.Fatalf("no seeded %s/%s pool", a, b)
	return devnet.SeededPool{}, devnet.SeededFarm{}
}

// side is the metadata index (0 or 1) of a token in a pool.
func side(p devnet.SeededPool, token common.Address) string {
	if p.Token0 == token {
		return "0"
	}
	return "1"
}

func units(whole int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func sub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }

// TestLPCreateAndSeedOnDevnet: lp/create is createPair alone at the CREATE2 address it names
// (seeded false), a second create is refused naming the pool, and lp/add into the new pool seeds
// it (seeded true) with exactly the amounts asked, minting exactly lpAmount (sqrt(a*b) - 1000);
// the new pool has no farm (404).
func TestLPCreateAndSeedOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user := te.wallet.Address
	aur, qrtz := te.token("AUR"), te.token("QRTZ")
	want, err := chain.UniswapV2PairAddress(te.market.Core.Factory.Hex(), chain.UniswapV2InitCodeHash, aur.Hex(), qrtz.Hex())
	if err != nil {
		t.Fatal(err)
	}
	create := te.lp("create", map[string]any{"tokenA": aur.Hex(), "tokenB": qrtz.Hex()})
	if got := create.ids(); fmt.Sprint(got) != "[createPair]" || create.md("poolId") != want || create.md("seeded") != "false" ||
		!strings.EqualFold(create.built.Transactions[0].EVM.To, te.market.Core.Factory.Hex()) {
		t.Fatalf("create: %v, metadata %v; want createPair on the factory, poolId %s, seeded false", got, create.built.Metadata, want)
	}
	sent := map[string][]common.Hash{}
	sent[create.raw], _ = te.send(create)
	pool := common.HexToAddress(want)
	if code, err := te.wallet.Client.CodeAt(t.Context(), pool, nil); err != nil || len(code) == 0 {
		t.Fatalf("no pair at %s after createPair (%v)", want, err)
	}
	again := te.build("/v1/build/lp/create", te.lpBody(map[string]any{"tokenA": qrtz.Hex(), "tokenB": aur.Hex()}))
	if again.status != http.StatusBadRequest || again.code() != "invalid_request" || !strings.Contains(again.rawBody, "pool already exists: "+want) {
		t.Errorf("create of an existing pool: %d %s", again.status, again.rawBody)
	}

	// Seed it: 2,500 QRTZ (9 decimals) and 100 AUR (18), named as tokenA/tokenB in the other order.
	add := te.lp("add", map[string]any{"pool": want, "tokenA": qrtz.Hex(), "tokenB": aur.Hex(), "amountA": "2500", "amountB": "100"})
	if got := add.ids(); fmt.Sprint(got) != "[approveToken0 approveToken1 addLiquidity]" || add.md("seeded") != "true" || add.md("poolId") != want {
		t.Fatalf("seeding add: %v, metadata %v", got, add.built.Metadata)
	}
	amountAUR, amountQRTZ := units(100, 18), units(2500, 9)
	p := devnet.SeededPool{Address: pool, Token0: common.HexToAddress(add.md("token0")), Token1: common.HexToAddress(add.md("token1"))}
	lp := new(big.Int).Sqrt(new(big.Int).Mul(amountAUR, amountQRTZ))
	lp.Sub(lp, big.NewInt(1000))
	if add.md("amount"+side(p, aur)) != amountAUR.String() || add.md("amount"+side(p, qrtz)) != amountQRTZ.String() || add.md("lpAmount") != lp.String() {
		t.Fatalf("seeding add metadata %v; want all of both amounts and lpAmount %s", add.built.Metadata, lp)
	}
	sent[add.raw], _ = te.send(add)
	if got := te.balance(pool, user); got.Cmp(lp) != 0 {
		t.Errorf("LP minted %s, want lpAmount %s", got, lp)
	}
	if a, q := te.balance(aur, pool), te.balance(qrtz, pool); a.Cmp(amountAUR) != 0 || q.Cmp(amountQRTZ) != 0 {
		t.Errorf("the pool holds %s AUR and %s QRTZ base units, want %s and %s", a, q, amountAUR, amountQRTZ)
	}
	for _, tok := range []common.Address{aur, qrtz} {
		if a := te.allowance(tok, user, te.market.Core.Router); a.Sign() != 0 {
			t.Errorf("allowance of %s to the router left: %s", tok, a)
		}
	}
	r := te.build("/v1/build/lp/harvest", te.lpBody(map[string]any{"pool": want}))
	if r.status != http.StatusNotFound || r.code() != "not_found" || !strings.Contains(r.rawBody, "no farm for this pool") {
		t.Errorf("harvest of a pool without a farm: %d %s", r.status, r.rawBody)
	}
	te.confirmAll(sent)
}

// TestLPAddRemoveOnDevnet: lp/add takes exactly the amounts it names (the most of both at the
// pool's ratio; the rest stays in the wallet) with exact approvals, and mints exactly lpAmount;
// the native variant pays the wrapped native side in ETH; lp/remove burns bps of the LP held and
// returns exactly the pro-rata amounts it names (native out too).
func TestLPAddRemoveOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user, router := te.wallet.Address, te.market.Core.Router
	aur, usd, weth := te.token("AUR"), te.token("USDD"), te.token("WETH")
	sent := map[string][]common.Hash{}

	// 10 AUR and up to 100 USDD into AUR/USDD (1 AUR = 1.5 USDD): all the AUR, about 15 USDD.
	pu, _ := te.seededPool("AUR", "USDD")
	add := te.lp("add", map[string]any{"pool": pu.Address.Hex(), "tokenA": aur.Hex(), "tokenB": usd.Hex(), "amountA": "10", "amountB": "100"})
	ia, iu := side(pu, aur), side(pu, usd)
	if fmt.Sprint(add.ids()) != "[approveToken0 approveToken1 addLiquidity]" || add.md("seeded") != "false" || add.md("amount"+ia) != units(10, 18).String() {
		t.Fatalf("add: %v, metadata %v", add.ids(), add.built.Metadata)
	}
	usedUSD := add.mdBig(t, "amount"+iu)
	if usedUSD.Cmp(units(14, 6)) < 0 || usedUSD.Cmp(units(16, 6)) > 0 || sub(units(100, 6), usedUSD).String() != add.md("unused"+iu) {
		t.Fatalf("add takes %s USDD base units (unused %s); want about 15 USDD", usedUSD, add.md("unused"+iu))
	}
	for _, entry := range add.built.Transactions[:2] {
		tx := entry.EVM
		exp := tx.Payload.Expect.Allowance
		want := add.md("amount" + tx.ID[len(tx.ID)-1:])
		if exp.Amount != want || !strings.EqualFold(exp.Spender, router.Hex()) {
			t.Errorf("%s expects %+v, want exactly %s for the router", tx.ID, exp, want)
		}
	}
	beforeA, beforeU := te.balance(aur, user), te.balance(usd, user)
	sent[add.raw], _ = te.send(add)
	lpHeld := te.balance(pu.Address, user)
	if lpHeld.String() != add.md("lpAmount") || lpHeld.Sign() == 0 {
		t.Errorf("LP minted %s, want lpAmount %s", lpHeld, add.md("lpAmount"))
	}
	if sa, su := sub(beforeA, te.balance(aur, user)), sub(beforeU, te.balance(usd, user)); sa.String() != add.md("amount"+ia) || su.Cmp(usedUSD) != 0 {
		t.Errorf("add spent %s AUR and %s USDD base units, want %s and %s", sa, su, add.md("amount"+ia), usedUSD)
	}
	for _, tok := range []common.Address{aur, usd} {
		if a := te.allowance(tok, user, router); a.Sign() != 0 {
			t.Errorf("allowance of %s to the router left: %s", tok, a)
		}
	}

	// Native: 0.01 ETH and up to 1,000 AUR into AUR/WETH (1 ETH = 2,000 AUR): about 20 AUR.
	pw, _ := te.seededPool("AUR", "WETH")
	addN := te.lp("add", map[string]any{"pool": pw.Address.Hex(), "tokenA": "native", "tokenB": aur.Hex(), "amountA": "0.01", "amountB": "1000"})
	iw, iaw := side(pw, weth), side(pw, aur)
	if fmt.Sprint(addN.ids()) != "[approveToken"+iaw+" addLiquidity]" || addN.md("native") != "true" ||
		addN.built.Transactions[1].EVM.Value != units(1, 16).String() || addN.md("amount"+iw) != units(1, 16).String() {
		t.Fatalf("native add: %v (value %s), metadata %v", addN.ids(), addN.built.Transactions[1].EVM.Value, addN.built.Metadata)
	}
	beforeETH, beforeA := te.balance(common.Address{}, user), te.balance(aur, user)
	var gas *big.Int
	sent[addN.raw], gas = te.send(addN)
	if got := te.balance(pw.Address, user); got.String() != addN.md("lpAmount") {
		t.Errorf("native add minted %s LP, want %s", got, addN.md("lpAmount"))
	}
	if se, sa := sub(sub(beforeETH, te.balance(common.Address{}, user)), gas), sub(beforeA, te.balance(aur, user)); se.String() != addN.md("amount"+iw) || sa.String() != addN.md("amount"+iaw) {
		t.Errorf("native add spent %s wei and %s AUR base units, want %s and %s", se, sa, addN.md("amount"+iw), addN.md("amount"+iaw))
	}

	// Remove 25 % of the AUR/USDD LP.
	rm := te.lp("remove", map[string]any{"pool": pu.Address.Hex(), "bps": 2500})
	quarter := new(big.Int).Quo(lpHeld, big.NewInt(4))
	if fmt.Sprint(rm.ids()) != "[approveLP removeLiquidity]" || rm.md("lpAmount") != quarter.String() {
		t.Fatalf("remove: %v, metadata %v; want lpAmount %s", rm.ids(), rm.built.Metadata, quarter)
	}
	reserveA, reserveU, supply := te.balance(aur, pu.Address), te.balance(usd, pu.Address), te.totalSupply(pu.Address)
	beforeA, beforeU = te.balance(aur, user), te.balance(usd, user)
	sent[rm.raw], _ = te.send(rm)
	gotA, gotU := sub(te.balance(aur, user), beforeA), sub(te.balance(usd, user), beforeU)
	wantA := new(big.Int).Quo(new(big.Int).Mul(quarter, reserveA), supply)
	wantU := new(big.Int).Quo(new(big.Int).Mul(quarter, reserveU), supply)
	if gotA.Cmp(wantA) != 0 || gotU.Cmp(wantU) != 0 || gotA.String() != rm.md("amount"+ia) || gotU.String() != rm.md("amount"+iu) {
		t.Errorf("remove returned %s AUR and %s USDD base units; pro rata %s and %s; metadata %v", gotA, gotU, wantA, wantU, rm.built.Metadata)
	}
	if left := te.balance(pu.Address, user); left.Cmp(sub(lpHeld, quarter)) != 0 {
		t.Errorf("%s LP left, want %s", left, sub(lpHeld, quarter))
	}

	// Remove all the AUR/WETH LP, the WETH side as ETH.
	rmN := te.lp("remove", map[string]any{"pool": pw.Address.Hex(), "bps": 10000, "native": true})
	if fmt.Sprint(rmN.ids()) != "[approveLP removeLiquidity]" || rmN.md("native") != "true" {
		t.Fatalf("native remove: %v, metadata %v", rmN.ids(), rmN.built.Metadata)
	}
	beforeETH, beforeA = te.balance(common.Address{}, user), te.balance(aur, user)
	sent[rmN.raw], gas = te.send(rmN)
	if ge, ga := new(big.Int).Add(sub(te.balance(common.Address{}, user), beforeETH), gas), sub(te.balance(aur, user), beforeA); ge.String() != rmN.md("amount"+iw) || ga.String() != rmN.md("amount"+iaw) {
		t.Errorf("native remove returned %s wei and %s AUR base units, want %s and %s", ge, ga, rmN.md("amount"+iw), rmN.md("amount"+iaw))
	}
	if left := te.balance(pw.Address, user); left.Sign() != 0 {
		t.Errorf("%s AUR/WETH LP left after removing 10000 bps", left)
	}
	if a := te.allowance(pu.Address, user, router); a.Sign() != 0 {
		t.Errorf("LP allowance to the router left: %s", a)
	}
	te.confirmAll(sent)
}

// totalSupply is an ERC-20's (a pair's LP) total supply.
func (te *tradeEnv) totalSupply(token common.Address) *big.Int {
	te.t.Helper()
	out, err := te.wallet.Client.CallContract(te.t.Context(), ethereum.CallMsg{To: &token, Data: bindings.NewToken().PackTotalSupply()}, nil)
	if err != nil {
		te.t.Fatal(err)
	}
	return new(big.Int).SetBytes(out)
}

// TestLPFarmOnDevnet: lp/farm stakes the LP held in the pool's farm; lp/harvest claims at least
// what was earned; lp/compound claims, swaps, adds and stakes in one ordered build, ending with
// exactly lpAmount more staked and no allowance left, both when the reward is not one of the
// pool's tokens (AUR/USDD: two swaps, one crossing the pool itself) and when it is (HRV/USDD: one
// swap, the rest kept); lp/farm with action unstake withdraws a given amount, then the rest.
func TestLPFarmOnDevnet(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	user, router := te.wallet.Address, te.market.Core.Router
	aur, usd, hrv := te.token("AUR"), te.token("USDD"), te.token("HRV")
	sent := map[string][]common.Hash{}
	pool, farm := te.seededPool("AUR", "USDD")

	add := te.lp("add", map[string]any{"pool": pool.Address.Hex(), "amountA": "100", "amountB": "1000", "tokenA": aur.Hex(), "tokenB": usd.Hex()})
	sent[add.raw], _ = te.send(add)
	lp := te.balance(pool.Address, user)

	stake := te.lp("farm", map[string]any{"pool": pool.Address.Hex()})
	if fmt.Sprint(stake.ids()) != "[approveLP stake]" || stake.md("action") != "stake" || stake.md("lpAmount") != lp.String() ||
		!strings.EqualFold(stake.md("farm"), farm.Address.Hex()) || !strings.EqualFold(stake.md("rewardToken"), hrv.Hex()) {
		t.Fatalf("stake: %v, metadata %v", stake.ids(), stake.built.Metadata)
	}
	sent[stake.raw], _ = te.send(stake)
	if staked := te.balance(farm.Address, user); staked.Cmp(lp) != 0 || te.balance(pool.Address, user).Sign() != 0 {
		t.Fatalf("staked %s, want all %s LP", staked, lp)
	}
	te.finalize() // time passes: the lone staker earns 1 HRV a second

	harvest := te.lp("harvest", map[string]any{"pool": pool.Address.Hex()})
	earned := harvest.mdBig(t, "earned")
	if fmt.Sprint(harvest.ids()) != "[getReward]" || earned.Sign() == 0 {
		t.Fatalf("harvest: %v, metadata %v", harvest.ids(), harvest.built.Metadata)
	}
	before := te.balance(hrv, user)
	sent[harvest.raw], _ = te.send(harvest)
	if got := sub(te.balance(hrv, user), before); got.Cmp(earned) < 0 {
		t.Errorf("harvest paid %s HRV base units, less than the %s earned when built", got, earned)
	}
	te.finalize()

	// Compound AUR/USDD: HRV is neither side.
	stakedBefore := te.balance(farm.Address, user)
	comp := te.lp("compound", map[string]any{"pool": pool.Address.Hex()})
	wantIDs := "[getReward approveReward swapToken0 swapToken1 approveToken0 approveToken1 addLiquidity approveLP stake]"
	if fmt.Sprint(comp.ids()) != wantIDs || comp.mdBig(t, "lpAmount").Sign() == 0 {
		t.Fatalf("compound: %v, want %s; metadata %v", comp.ids(), wantIDs, comp.built.Metadata)
	}
	t.Logf("compound AUR/USDD: %v", comp.built.Metadata)
	before = te.balance(hrv, user)
	sent[comp.raw], _ = te.send(comp)
	if got := sub(te.balance(farm.Address, user), stakedBefore); got.String() != comp.md("lpAmount") {
		t.Errorf("compound staked %s more LP, want lpAmount %s", got, comp.md("lpAmount"))
	}
	if got := sub(te.balance(hrv, user), before); got.Sign() < 0 {
		t.Errorf("compound spent %s more HRV than it claimed", new(big.Int).Neg(got))
	}
	te.noAllowances(map[common.Address]common.Address{hrv: router, aur: router, usd: router, pool.Address: farm.Address})

	// Unstake half by amount, then the rest.
	staked := te.balance(farm.Address, user)
	half := new(big.Int).Quo(staked, big.NewInt(2))
	un := te.lp("farm", map[string]any{"pool": pool.Address.Hex(), "action": "unstake", "amount": market.Units(half, 18)})
	if fmt.Sprint(un.ids()) != "[withdraw]" || un.md("action") != "unstake" || un.md("lpAmount") != half.String() {
		t.Fatalf("unstake: %v, metadata %v", un.ids(), un.built.Metadata)
	}
	sent[un.raw], _ = te.send(un)
	if got := te.balance(pool.Address, user); got.Cmp(half) != 0 {
		t.Errorf("unstaking %s gave back %s LP", half, got)
	}
	rest := te.lp("farm", map[string]any{"pool": pool.Address.Hex(), "action": "unstake"})
	sent[rest.raw], _ = te.send(rest)
	if te.balance(farm.Address, user).Sign() != 0 || te.balance(pool.Address, user).Cmp(staked) != 0 {
		t.Errorf("after unstaking all: %s staked, %s LP held; want 0 and %s", te.balance(farm.Address, user), te.balance(pool.Address, user), staked)
	}

	// HRV/USDD: the reward is a pool token; seed a position with the HRV harvested.
	ph, fh := te.seededPool("HRV", "USDD")
	addH := te.lp("add", map[string]any{"pool": ph.Address.Hex(), "tokenA": hrv.Hex(), "tokenB": usd.Hex(), "amountA": "2", "amountB": "100"})
	sent[addH.raw], _ = te.send(addH)
	stakeH := te.lp("farm", map[string]any{"pool": ph.Address.Hex()})
	sent[stakeH.raw], _ = te.send(stakeH)
	te.finalize()
	stakedBefore = te.balance(fh.Address, user)
	compH := te.lp("compound", map[string]any{"pool": ph.Address.Hex()})
	kept, other := side(devnet.SeededPool{Token0: ph.Token0}, hrv), side(devnet.SeededPool{Token0: ph.Token0}, usd)
	wantIDs = "[getReward approveReward swapToken" + other + " approveToken" + other + " addLiquidity approveLP stake]"
	if fmt.Sprint(compH.ids()) != wantIDs {
		t.Fatalf("compound HRV/USDD: %v, want %s; metadata %v", compH.ids(), wantIDs, compH.built.Metadata)
	}
	// The balancing share leaves next to nothing over: at most a few base units of the kept side's
	// worth of rounding (the swap's own output is entirely used, or nearly).
	if lo := compH.mdBig(t, "leftover"+kept); lo.Cmp(new(big.Int).Quo(compH.mdBig(t, "reward"), big.NewInt(1000))) > 0 {
		t.Errorf("compound HRV/USDD leaves %s of %s HRV unused", lo, compH.md("reward"))
	}
	t.Logf("compound HRV/USDD: %v", compH.built.Metadata)
	sent[compH.raw], _ = te.send(compH)
	if got := sub(te.balance(fh.Address, user), stakedBefore); got.String() != compH.md("lpAmount") {
		t.Errorf("compound HRV/USDD staked %s more LP, want lpAmount %s", got, compH.md("lpAmount"))
	}
	te.noAllowances(map[common.Address]common.Address{hrv: router, usd: router, ph.Address: fh.Address})
	te.confirmAll(sent)
}

// noAllowances checks that no allowance of the wallet's is left to the spenders.
func (te *tradeEnv) noAllowances(spenders map[common.Address]common.Address) {
	te.t.Helper()
	for token, spender := range spenders {
		if a := te.allowance(token, te.wallet.Address, spender); a.Sign() != 0 {
			te.t.Errorf("allowance of %s to %s left: %s", token, spender, a)
		}
	}
}

// TestLPBadInput: malformed or impossible LP builds answer their status and code before anything is
// built (no confirmation token is written). An address that is not a pair is 404 not_found.
func TestLPBadInput(t *testing.T) {
	t.Parallel()
	te := newTradeEnv(t, 5)
	aur, usd, qrtz := te.token("AUR").Hex(), te.token("USDD").Hex(), te.token("QRTZ").Hex()
	pu, _ := te.seededPool("AUR", "USDD")
	pq, _ := te.seededPool("QRTZ", "WETH")
	pool := pu.Address.Hex()
	noCode := "0x00000000000000000000000000000000000c0de0"
	with := func(base map[string]any, edit func(m map[string]any)) map[string]any {
		m := te.lpBody(base)
		edit(m)
		return m
	}
	add := map[string]any{"pool": pool, "tokenA": aur, "tokenB": usd, "amountA": "1", "amountB": "2"}
	cases := []struct {
		name, op string
		body     map[string]any
		status   int
		code     string
		says     string
	}{
		{"add without pool", "add", with(add, func(m map[string]any) { delete(m, "pool") }), 400, "invalid_request", "take pool"},
		{"add without amountB", "add", with(add, func(m map[string]any) { delete(m, "amountB") }), 400, "invalid_amount", "amountA and amountB"},
		{"add, tokenA without tokenB", "add", with(add, func(m map[string]any) { delete(m, "tokenB") }), 400, "invalid_request", "tokenA and tokenB"},
		{"add, a token not of the pool", "add", with(add, func(m map[string]any) { m["tokenB"] = qrtz }), 400, "invalid_request", "pool's tokens"},
		{"add, zero amount", "add", with(add, func(m map[string]any) { m["amountA"] = "0" }), 400, "invalid_amount", ""},
		{"add, exponent", "add", with(add, func(m map[string]any) { m["amountA"] = "1e3" }), 400, "invalid_amount", ""},
		{"add, 7 decimals of a 6-decimal token", "add", with(add, func(m map[string]any) { m["amountB"] = "1.0000001" }), 400, "invalid_amount", "at most 6 decimals"},
		{"add, 10 decimals of a 9-decimal token", "add", te.lpBody(map[string]any{"pool": pq.Address.Hex(), "tokenA": qrtz, "tokenB": "native", "amountA": "1.0000000001", "amountB": "1"}), 400, "invalid_amount", "at most 9 decimals"},
		{"add, more than held", "add", with(add, func(m map[string]any) { m["amountA"] = "1000000"; m["amountB"] = "10000000" }), 422, "prerequisite_failed", "insufficient balance"},
		{"add, native on a pool without WETH", "add", with(add, func(m map[string]any) { m["native"] = true }), 400, "invalid_request", "no wrapped native side"},
		{"add, pool not a pair (a token)", "add", with(add, func(m map[string]any) { m["pool"] = aur }), 404, "not_found", "not a uniswap-v2 pair"},
		{"add, pool without code", "add", with(add, func(m map[string]any) { m["pool"] = noCode }), 404, "not_found", "not a uniswap-v2 pair"},
		{"add, signer not an address", "add", with(add, func(m map[string]any) { m["user"] = "alice" }), 400, "invalid_address", ""},
		{"add, pool not an address", "add", with(add, func(m map[string]any) { m["pool"] = "0x1234" }), 400, "invalid_address", ""},
		{"add, Solana venue on base", "add", with(add, func(m map[string]any) { m["venue"] = "orca" }), 400, "operation_not_supported", "does not trade on base"},
		{"farm, uniswap-v3 with a pool", "farm", with(map[string]any{"pool": pool}, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 400, "invalid_request", "exactly one position id"},
		{"migrate, uniswap-v3 without feeTier", "migrate", with(map[string]any{"pool": pool, "bps": 100, "tickLower": -600, "tickUpper": 600}, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 400, "invalid_request", "feeTier"},
		{"migrate, uniswap-v3 with no LP held", "migrate", with(map[string]any{"pool": pool, "bps": 100, "feeTier": 3000, "tickLower": -600, "tickUpper": 600}, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 422, "prerequisite_failed", "holds no LP tokens"},
		{"add, uniswap-v3 without a range", "add", with(add, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 400, "invalid_request", "tickLower and tickUpper, or as priceLower and priceUpper"},
		{"add, uniswap-v3 on a V2 pair", "add", with(add, func(m map[string]any) {
			m["venue"], m["version"], m["tickLower"], m["tickUpper"] = "uniswap-v3", "3", -600, 600
		}), 404, "not_found", "not a Uniswap V3 pool"},
		{"increase, uniswap-v3 with two positions", "increase", with(map[string]any{"positionIds": []string{"1", "2"}, "amountA": "1", "amountB": "1"}, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 400, "invalid_request", "exactly one position id"},
		{"remove, uniswap-v3 without bps", "remove", with(map[string]any{"positionIds": []string{"1"}}, func(m map[string]any) { m["venue"] = "uniswap-v3"; m["version"] = "3" }), 400, "invalid_request", "bps"},
		{"add, version 3 on uniswap-v2", "add", with(add, func(m map[string]any) { m["version"] = "3" }), 400, "invalid_request", "version 2"},
		{"add, positionIds on uniswap-v2", "add", with(add, func(m map[string]any) { m["positionIds"] = []string{"7"} }), 400, "invalid_request", "fungible"},
		{"add, slippage over 50 %", "add", with(add, func(m map[string]any) { m["slippageBps"] = 5001 }), 400, "invalid_request", ""},
		{"remove without bps", "remove", te.lpBody(map[string]any{"pool": pool}), 400, "invalid_request", "bps"},
		{"remove, bps 0", "remove", te.lpBody(map[string]any{"pool": pool, "bps": 0}), 400, "invalid_request", ""},
		{"remove, bps 10001", "remove", te.lpBody(map[string]any{"pool": pool, "bps": 10001}), 400, "invalid_request", ""},
		{"remove, no LP held", "remove", te.lpBody(map[string]any{"pool": pool, "bps": 10000}), 422, "prerequisite_failed", "no LP tokens"},
		{"remove, unknown chain", "remove", te.lpBody(map[string]any{"pool": pool, "bps": 100, "chain": "dogechain"}), 400, "invalid_chain", ""},
		{"create without tokenB", "create", te.lpBody(map[string]any{"tokenA": aur}), 400, "invalid_request", "tokenA and tokenB"},
		{"create, an existing pool", "create", te.lpBody(map[string]any{"tokenA": usd, "tokenB": aur}), 400, "invalid_request", "pool already exists: " + strings.ToLower(pool)},
		{"create, the same token twice", "create", te.lpBody(map[string]any{"tokenA": aur, "tokenB": strings.ToLower(aur)}), 400, "invalid_request", "different"},
		{"create, not a token", "create", te.lpBody(map[string]any{"tokenA": aur, "tokenB": noCode}), 400, "invalid_request", "not an ERC-20"},
		{"farm, unknown action", "farm", te.lpBody(map[string]any{"pool": pool, "action": "restake"}), 400, "invalid_request", ""},
		{"farm, nothing to stake", "farm", te.lpBody(map[string]any{"pool": pool}), 422, "prerequisite_failed", "no LP tokens"},
		{"farm, nothing to unstake", "farm", te.lpBody(map[string]any{"pool": pool, "action": "unstake"}), 422, "prerequisite_failed", "nothing staked"},
		{"farm, 19 decimals of LP", "farm", te.lpBody(map[string]any{"pool": pool, "amount": "0.0000000000000000001"}), 400, "invalid_amount", ""},
		{"harvest, nothing earned", "harvest", te.lpBody(map[string]any{"pool": pool}), 422, "prerequisite_failed", "nothing earned"},
		{"compound, nothing earned", "compound", te.lpBody(map[string]any{"pool": pool}), 422, "prerequisite_failed", "nothing earned"},
		{"harvest, pool not a pair", "harvest", te.lpBody(map[string]any{"pool": usd}), 404, "not_found", ""},
	}
	for _, op := range []string{"increase", "rebalance", "migrate"} {
		cases = append(cases, struct {
			name, op string
			body     map[string]any
			status   int
			code     string
			says     string
		}{op + " on uniswap-v2", op, te.lpBody(map[string]any{"pool": pool}), 400, "operation_not_supported", map[string]string{
			"increase": "uniswap-v3 supports lp/increase"}[op] + map[string]string{"rebalance": "uniswap-v3 supports lp/rebalance",
			"migrate": "uniswap-v3 supports lp/migrate"}[op]})
	}
	for _, tc := range cases {
		r := te.build("/v1/build/lp/"+tc.op, tc.body)
		if r.status != tc.status || r.code() != tc.code || !strings.Contains(r.rawBody, tc.says) {
			t.Errorf("%s: %d %s, want %d %s saying %q", tc.name, r.status, r.rawBody, tc.status, tc.code, tc.says)
		}
	}
	if n := te.tokenRows(); n != 0 {
		t.Errorf("bad input wrote %d confirmation tokens", n)
	}
	// The served operations are listed for base (increase, rebalance and migrate on uniswap-v3).
	r := te.get("/v1/chains")
	var ops []string
	for _, c := range r.body["chains"].([]any) {
		if c := c.(map[string]any); c["id"] == "base" {
			for _, op := range c["operations"].([]any) {
				ops = append(ops, op.(string))
			}
		}
	}
	for _, op := range []string{"buildLPCreate", "buildLPAdd", "buildLPIncrease", "buildLPRemove", "buildLPFarm", "buildLPHarvest", "buildLPCompound", "buildLPRebalance",
		"buildLPMigrate"} {
		if !slices.Contains(ops, op) {
			t.Errorf("base's operations %v lack %s", ops, op)
		}
	}
}
