package raydium

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// PlanQuote and Snapshots on synthetic accounts laid out as the programs write them.

// qrPut writes little-endian values into b from off on; values are uint8, uint16, uint64, int64,
// bool or Pubkey.
func qrPut(b []byte, off int, vs ...any) int {
	for _, v := range vs {
		switch v := v.(type) {
		case uint8:
			b[off] = v
			off++
		case bool:
			if v {
				b[off] = 1
			}
			off++
		case uint16:
			binary.LittleEndian.PutUint16(b[off:], v)
			off += 2
		case uint64:
			binary.LittleEndian.PutUint64(b[off:], v)
			off += 8
		case int64:
			binary.LittleEndian.PutUint64(b[off:], uint64(v))
			off += 8
		case Pubkey:
			off += copy(b[off:], v[:])
		default:
			panic("qrPut: unsupported value")
		}
	}
	return off
}

func qrClockData(c Clock) []byte {
	b := make([]byte, ClockSize)
	qrPut(b, 0, c.Slot, c.EpochStartTimestamp, c.Epoch, c.LeaderScheduleEpoch, c.UnixTimestamp)
	return b
}

func qrConfigData(c AmmConfig) []byte {
	b := make([]byte, AmmConfigSize)
	copy(b, AmmConfigDiscriminator[:])
	qrPut(b, 8, c.Bump, c.DisableCreatePool, c.Index, c.TradeFeeRate, c.ProtocolFeeRate, c.FundFeeRate, c.CreatePoolFee,
		c.ProtocolOwner, c.FundOwner, c.CreatorFeeRate)
	return b
}

func qrPoolData(p PoolState) []byte {
	b := make([]byte, PoolStateSize)
	copy(b, PoolStateDiscriminator[:])
	off := qrPut(b, 8, p.AmmConfig, p.PoolCreator, p.Token0Vault, p.Token1Vault, p.LPMint, p.Token0Mint, p.Token1Mint,
		p.Token0Program, p.Token1Program, p.ObservationKey, p.AuthBump, p.Status, p.LPMintDecimals, p.Mint0Decimals,
		p.Mint1Decimals, p.LPSupply, p.ProtocolFeesToken0, p.ProtocolFeesToken1, p.FundFeesToken0, p.FundFeesToken1,
		p.OpenTime, p.RecentEpoch, p.CreatorFeeOn, p.EnableCreatorFee)
	qrPut(b, off+6, p.CreatorFeesToken0, p.CreatorFeesToken1)
	return b
}

// qrMintData is a mint: an SPL Token one (82 bytes) when exts is empty, else a Token-2022 one with
// the extensions (type, value) and a zero fill of 8 bytes after them.
func qrMintData(decimals uint8, exts ...qrExt) []byte {
	b := make([]byte, mintSize)
	qrPut(b, 36, uint64(1_000_000_000), decimals, true)
	if len(exts) == 0 {
		return b
	}
	b = append(b, make([]byte, tokenAccountSize-mintSize)...)
	b = append(b, accountTypeMint)
	for _, e := range exts {
		b = binary.LittleEndian.AppendUint16(b, e.typ)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e.value)))
		b = append(b, e.value...)
	}
	return append(b, make([]byte, 8)...)
}

type qrExt struct {
	typ   uint16
	value []byte
}

// qrTransferFee is a TransferFeeConfig extension with the older and newer schedules.
func qrTransferFee(older, newer svm.FeeSchedule) qrExt {
	v := make([]byte, transferFeeConfigSize)
	qrPut(v, 0, Pubkey{9}, Pubkey{9}, uint64(55), older.Epoch, older.MaximumFee, older.BasisPoints, newer.Epoch,
		newer.MaximumFee, newer.BasisPoints)
	return qrExt{extTransferFeeConfig, v}
}

// qrPointer is a MetadataPointer extension (type 18): one before the transfer fee to walk past.
var qrPointer = qrExt{18, make([]byte, 64)}

// qrTokenAccount is a token account of mint holding amount (Token-2022 ones carry an extension).
func qrTokenAccount(mint Pubkey, amount uint64, token2022 bool) []byte {
	b := make([]byte, tokenAccountSize)
	qrPut(b, 0, mint, Authority(), amount)
	b[108] = 1 // initialized
	if token2022 {
		b = append(b, 2, 7, 0, 0) // account type Account, ImmutableOwner (no value)
	}
	return b
}

// qrWorld is a chain: accounts by address, read as getMultipleAccounts answers.
type qrWorld map[Pubkey]chain.SVMAccount

func (w qrWorld) put(k, owner Pubkey, data []byte) {
	w[k] = chain.SVMAccount{Address: k.String(), Exists: true, Owner: owner.String(), Lamports: 1, Data: data}
}

func (w qrWorld) read(keys []Pubkey) []chain.SVMAccount {
	out := make([]chain.SVMAccount, len(keys))
	for i, k := range keys {
		a, ok := w[k]
		if !ok {
			a = chain.SVMAccount{Address: k.String()}
		}
		out[i] = a
	}
	return out
}

// qrAddPool writes a pool of a and b (any order) under config with its vaults holding r0 and r1
// of token 0 and token 1, and returns its state.
func (w qrWorld) addPool(config, a, b Pubkey, r0, r1 uint64, programs map[Pubkey]Pubkey) PoolState {
	if b.Less(a) {
		a, b = b, a
	}
	k := DerivePoolKeys(config, a, b, Pubkey{})
	p := PoolState{AmmConfig: config, PoolCreator: Pubkey{8}, Token0Vault: k.Vault0, Token1Vault: k.Vault1, LPMint: k.LPMint,
		Token0Mint: a, Token1Mint: b, Token0Program: programs[a], Token1Program: programs[b], ObservationKey: k.Observation,
		AuthBump: AuthorityBump(), LPMintDecimals: 9, Mint0Decimals: 6, Mint1Decimals: 6, LPSupply: 1_000_000_000,
		ProtocolFeesToken0: 11, FundFeesToken1: 7, OpenTime: 1_700_000_000}
	w.put(k.Pool, ProgramID, qrPoolData(p))
	w.put(k.Vault0, programs[a], qrTokenAccount(a, r0, programs[a] == Token2022Program))
	w.put(k.Vault1, programs[b], qrTokenAccount(b, r1, programs[b] == Token2022Program))
	return p
}

var (
	qrX, qrY, qrSOL, qrUSDC = Pubkey{0x50, 1}, Pubkey{0x20, 2}, Pubkey{0x90, 3}, Pubkey{0x40, 4}
	qrConfigs               = []Pubkey{AmmConfigAddress(0), AmmConfigAddress(1), AmmConfigAddress(2), AmmConfigAddress(3)}
)

func TestPlanQuote(t *testing.T) {
	mids := []Pubkey{qrSOL, qrUSDC}
	p, err := PlanQuote(qrX, qrY, mids, qrConfigs)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Keys); n != 5+16*len(qrConfigs) || n != 69 {
		t.Fatalf("%d keys, want 5 + 16·configs = 69", n)
	}
	if len(p.Addresses) != len(p.Keys) || len(p.Candidates) != 5*len(qrConfigs) {
		t.Fatalf("%d addresses, %d candidates", len(p.Addresses), len(p.Candidates))
	}
	head := append(append([]Pubkey{ClockSysvar}, qrConfigs...), qrX, qrY, qrSOL, qrUSDC)
	if !slices.Equal(p.Keys[:len(head)], head) {
		t.Fatalf("keys start %v, want %v", p.Keys[:len(head)], head)
	}
	pairs := map[[2]Pubkey]int{}
	for i, c := range p.Candidates {
		if !c.Mint0.Less(c.Mint1) {
			t.Errorf("candidate %d: mints %s, %s out of CPMM's order", i, c.Mint0, c.Mint1)
		}
		k := DerivePoolKeys(c.Config, c.Mint0, c.Mint1, Pubkey{})
		if c.Pool != k.Pool || c.Vault0 != k.Vault0 || c.Vault1 != k.Vault1 {
			t.Errorf("candidate %d: %+v, derived %+v", i, c, k)
		}
		at := len(head) + 3*i
		if !slices.Equal(p.Keys[at:at+3], []Pubkey{c.Pool, c.Vault0, c.Vault1}) {
			t.Errorf("candidate %d: keys %v", i, p.Keys[at:at+3])
		}
		if c.Config != qrConfigs[i%len(qrConfigs)] {
			t.Errorf("candidate %d: config %s, want the configs in turn", i, c.Config)
		}
		pairs[[2]Pubkey{c.Mint0, c.Mint1}]++
	}
	for _, pair := range [][2]Pubkey{{qrY, qrX}, {qrX, qrSOL}, {qrY, qrSOL}, {qrUSDC, qrX}, {qrY, qrUSDC}} {
		if pairs[pair] != len(qrConfigs) {
			t.Errorf("pair %v: %d candidates, want one per config", pair, pairs[pair])
		}
	}
	for i, a := range p.Addresses {
		if a != p.Keys[i].String() {
			t.Fatalf("address %d is %s, key %s", i, a, p.Keys[i])
		}
	}

	// a middle that is the input or given twice, and a repeated config, are dropped
	p, err = PlanQuote(qrSOL, qrY, []Pubkey{qrSOL, qrUSDC, qrUSDC, qrY}, append(qrConfigs, qrConfigs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Mids, []Pubkey{qrUSDC}) || !slices.Equal(p.Configs, qrConfigs) || len(p.Keys) != 4+10*len(qrConfigs) {
		t.Fatalf("mids %v, configs %d, %d keys, want [USDC], 4, 44", p.Mids, len(p.Configs), len(p.Keys))
	}
	if b := p.Batches(); !slices.Equal(b, [][2]int{{0, len(p.Keys)}}) {
		t.Fatalf("batches %v, want one", b)
	}
	// both middles are the pair: the direct pools only
	if p, _ = PlanQuote(qrSOL, qrUSDC, []Pubkey{qrSOL, qrUSDC}, qrConfigs); len(p.Keys) != 3+4*len(qrConfigs) {
		t.Fatalf("%d keys for a pair of middles, want 19", len(p.Keys))
	}

	if _, err := PlanQuote(qrX, qrX, mids, qrConfigs); !errors.Is(err, ErrSameMint) {
		t.Fatalf("same mint: %v", err)
	}
}

// TestQuoteBatches: one call while the keys fit; beyond, calls of at most MaxMultipleAccounts
// keys, in order, covering every key once, never splitting a candidate's pool and vaults.
func TestQuoteBatches(t *testing.T) {
	configs := func(n int) []Pubkey {
		out := make([]Pubkey, n)
		for i := range out {
			out[i] = AmmConfigAddress(uint16(i))
		}
		return out
	}
	for _, c := range []struct {
		name    string
		mids    []Pubkey
		configs int
		calls   int
	}{
		{"2 middles, 5 configs: 85 keys", []Pubkey{qrSOL, qrUSDC}, 5, 1},
		{"2 middles, 6 configs: 101 keys", []Pubkey{qrSOL, qrUSDC}, 6, 2},
		{"2 middles, 20 configs: 325 keys", []Pubkey{qrSOL, qrUSDC}, 20, 4},
		{"no middle, 99 configs: shared keys alone pass the limit", nil, 99, 5},
		{"no middle, 96 configs: shared keys exactly fill a call", nil, 96, 4},
		{"no middle, no config", nil, 0, 1},
	} {
		p, err := PlanQuote(qrX, qrY, c.mids, configs(c.configs))
		if err != nil {
			t.Fatal(err)
		}
		b := p.Batches()
		if len(b) != c.calls {
			t.Errorf("%s: %d calls %v, want %d", c.name, len(b), b, c.calls)
		}
		next := 0
		for _, r := range b {
			if r[0] != next || r[1] <= r[0] || r[1]-r[0] > MaxMultipleAccounts {
				t.Fatalf("%s: calls %v", c.name, b)
			}
			if r[0] > p.shared() && (r[0]-p.shared())%3 != 0 {
				t.Errorf("%s: a call starts inside a candidate: %v", c.name, b)
			}
			next = r[1]
		}
		if next != len(p.Keys) {
			t.Errorf("%s: calls %v end at %d of %d keys", c.name, b, next, len(p.Keys))
		}
	}
}

func TestDecodeClock(t *testing.T) {
	want := Clock{Slot: 1234, EpochStartTimestamp: -5, Epoch: 77, LeaderScheduleEpoch: 78, UnixTimestamp: 1_760_000_123}
	got, err := DecodeClock(qrClockData(want))
	if err != nil || got != want {
		t.Fatalf("DecodeClock: %+v, %v; want %+v", got, err, want)
	}
	if _, err := DecodeClock(make([]byte, ClockSize-1)); !errors.Is(err, ErrLayout) {
		t.Fatalf("short clock: %v", err)
	}
}

func TestMintTransferFee(t *testing.T) {
	older := svm.FeeSchedule{Epoch: 10, BasisPoints: 100, MaximumFee: 10_000_000}
	newer := svm.FeeSchedule{Epoch: 20, BasisPoints: 250, MaximumFee: 5_000}
	withFee := qrMintData(6, qrPointer, qrTransferFee(older, newer))
	uninitialized := qrMintData(6)
	uninitialized[45] = 0
	for _, c := range []struct {
		name  string
		owner Pubkey
		data  []byte
		epoch uint64
		want  *svm.FeeSchedule
		err   bool
	}{
		{"SPL Token mint", TokenProgram, qrMintData(6), 30, nil, false},
		{"Token-2022 mint without extensions", Token2022Program, qrMintData(6), 30, nil, false},
		{"Token-2022 mint without the fee", Token2022Program, qrMintData(6, qrPointer), 30, nil, false},
		{"before the newer schedule", Token2022Program, withFee, 19, &older, false},
		{"at the newer schedule's epoch", Token2022Program, withFee, 20, &newer, false},
		{"after it", Token2022Program, withFee, 500, &newer, false},
		{"SPL Token owner, Token-2022 layout", TokenProgram, withFee, 20, nil, true},
		{"another owner", ProgramID, qrMintData(6), 20, nil, true},
		{"a token account", Token2022Program, qrTokenAccount(qrX, 5, false), 20, nil, true},
		{"a Token-2022 token account", Token2022Program, qrTokenAccount(qrX, 5, true), 20, nil, true},
		{"not initialized", TokenProgram, uninitialized, 20, nil, true},
		{"extension past the data", Token2022Program, withFee[:len(withFee)-20], 20, nil, true},
		{"short fee config", Token2022Program, qrMintData(6, qrExt{extTransferFeeConfig, make([]byte, 100)}), 20, nil, true},
	} {
		got, err := MintTransferFee(c.owner, c.data, c.epoch)
		switch {
		case c.err:
			if !errors.Is(err, ErrLayout) {
				t.Errorf("%s: %v, %v; want ErrLayout", c.name, got, err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case (got == nil) != (c.want == nil) || got != nil && *got != *c.want:
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestQuoteSnapshots: the pools that exist come back with their config, vaults, the fees in force
// and the Clock's time; candidates that do not exist, or not as the plan derived them, are left
// out; then BestRoute picks among them.
func TestQuoteSnapshots(t *testing.T) {
	programs := map[Pubkey]Pubkey{qrX: TokenProgram, qrY: Token2022Program, qrSOL: TokenProgram, qrUSDC: TokenProgram}
	cfg := func(i uint16, rate uint64) AmmConfig {
		return AmmConfig{Bump: 254, Index: i, TradeFeeRate: rate, ProtocolFeeRate: 120_000, FundFeeRate: 40_000}
	}
	w := qrWorld{}
	clock := Clock{Slot: 99, Epoch: 20, LeaderScheduleEpoch: 21, UnixTimestamp: 1_760_000_000}
	w.put(ClockSysvar, MustPubkey("Sysvar1111111111111111111111111111111111111"), qrClockData(clock))
	for i, rate := range []uint64{2500, 10_000, 20_000} { // config 3 does not exist
		w.put(qrConfigs[i], ProgramID, qrConfigData(cfg(uint16(i), rate)))
	}
	older := svm.FeeSchedule{Epoch: 0, BasisPoints: 50, MaximumFee: 1 << 40}
	newer := svm.FeeSchedule{Epoch: 20, BasisPoints: 100, MaximumFee: 10_000_000}
	for m, p := range programs {
		if p == Token2022Program {
			w.put(m, p, qrMintData(6, qrPointer, qrTransferFee(older, newer)))
		} else {
			w.put(m, p, qrMintData(6))
		}
	}
	direct := w.addPool(qrConfigs[0], qrX, qrY, 5_000_000_000, 9_000_000_000, programs)
	viaUSDC1 := w.addPool(qrConfigs[1], qrX, qrUSDC, 8_000_000_000_000, 4_000_000_000_000, programs)
	viaUSDC2 := w.addPool(qrConfigs[2], qrUSDC, qrY, 3_000_000_000_000, 6_000_000_000_000, programs)
	w.addPool(qrConfigs[3], qrX, qrSOL, 1e12, 1e12, programs) // its config does not exist

	// left out: a pool whose vault is missing, one owned by another program, one whose state names
	// another config, one whose vault is of another mint
	noVault := w.addPool(qrConfigs[1], qrSOL, qrY, 1e12, 1e12, programs)
	delete(w, noVault.Token1Vault)
	other := w.addPool(qrConfigs[2], qrX, qrSOL, 1e12, 1e12, programs)
	a := w[PoolAddress(qrConfigs[2], other.Token0Mint, other.Token1Mint)]
	a.Owner = TokenProgram.String()
	w[PoolAddress(qrConfigs[2], other.Token0Mint, other.Token1Mint)] = a
	moved := w.addPool(qrConfigs[0], qrX, qrUSDC, 1e12, 1e12, programs)
	moved.AmmConfig = qrConfigs[1]
	w.put(PoolAddress(qrConfigs[0], moved.Token0Mint, moved.Token1Mint), ProgramID, qrPoolData(moved))
	wrongMint := w.addPool(qrConfigs[0], qrUSDC, qrY, 1e12, 1e12, programs)
	w.put(wrongMint.Token0Vault, TokenProgram, qrTokenAccount(qrSOL, 1e12, false))

	p, err := PlanQuote(qrX, qrY, []Pubkey{qrSOL, qrUSDC}, qrConfigs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Snapshots(w.read(p.Keys))
	if err != nil {
		t.Fatal(err)
	}
	want := []PoolState{direct, viaUSDC1, viaUSDC2} // in the plan's order: direct, then X–USDC, USDC–Y
	if len(got) != len(want) {
		t.Fatalf("%d snapshots, want %d: %+v", len(got), len(want), got)
	}
	vaults := map[Pubkey][2]uint64{direct.Token0Vault: {5_000_000_000, 9_000_000_000}}
	for i, s := range got {
		wp := want[i]
		if s.Address != PoolAddress(wp.AmmConfig, wp.Token0Mint, wp.Token1Mint) || s.Pool != wp {
			t.Errorf("snapshot %d: pool %s %+v, want %+v", i, s.Address, s.Pool, wp)
		}
		if c := cfg(uint16(slices.Index(qrConfigs, wp.AmmConfig)), s.Config.TradeFeeRate); s.Config != c {
			t.Errorf("snapshot %d: config %+v", i, s.Config)
		}
		if s.Now != uint64(clock.UnixTimestamp) {
			t.Errorf("snapshot %d: now %d, want the Clock's %d", i, s.Now, clock.UnixTimestamp)
		}
		for j, m := range []Pubkey{wp.Token0Mint, wp.Token1Mint} {
			f := []*svm.FeeSchedule{s.TransferFee0, s.TransferFee1}[j]
			if m == qrY {
				if f == nil || *f != newer {
					t.Errorf("snapshot %d: token %d's fee %+v, want the newer %+v at epoch 20", i, j, f, newer)
				}
			} else if f != nil {
				t.Errorf("snapshot %d: token %d's fee %+v, want none", i, j, f)
			}
		}
	}
	if v := vaults[got[0].Pool.Token0Vault]; got[0].Vault0 != v[0] || got[0].Vault1 != v[1] {
		t.Errorf("direct pool's vaults %d, %d, want %v", got[0].Vault0, got[0].Vault1, v)
	}
	if got[0].Config.TradeFeeRate != 2500 || got[1].Config.TradeFeeRate != 10_000 || got[2].Config.TradeFeeRate != 20_000 {
		t.Errorf("configs: %d, %d, %d", got[0].Config.TradeFeeRate, got[1].Config.TradeFeeRate, got[2].Config.TradeFeeRate)
	}

	// BestRoute on them: the deep two-hop route beats the shallow direct pool for a large amount
	r, err := BestRoute(got, qrX, qrY, 1_000_000_000, p.Mids)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hops) != 2 || r.Hops[0].Pool != got[1].Address || r.Hops[1].Pool != got[2].Address {
		t.Fatalf("route %+v, want through USDC", r)
	}
	if r.Hops[1].Quote.OutputTransferFee == 0 {
		t.Errorf("Y's transfer fee not taken on the output: %+v", r.Hops[1].Quote)
	}

	// before the newer schedule's epoch, the older one
	w.put(ClockSysvar, MustPubkey("Sysvar1111111111111111111111111111111111111"), qrClockData(Clock{Epoch: 19, UnixTimestamp: 5}))
	got, err = p.Snapshots(w.read(p.Keys))
	if err != nil || len(got) != 3 || got[0].Pool.Token0Mint != qrY || *got[0].TransferFee0 != older || got[0].Now != 5 {
		t.Fatalf("at epoch 19: %v, %+v", err, got)
	}
	if _, err := BestRoute(got, qrX, qrY, 1_000_000, p.Mids); !errors.Is(err, ErrNotApproved) {
		t.Fatalf("before the pools open: %v, want ErrNotApproved", err)
	}
}

func TestQuoteSnapshotsErrors(t *testing.T) {
	p, err := PlanQuote(qrX, qrY, []Pubkey{qrSOL}, qrConfigs[:1])
	if err != nil {
		t.Fatal(err)
	}
	w := qrWorld{}
	w.put(ClockSysvar, Pubkey{}, qrClockData(Clock{Epoch: 1, UnixTimestamp: 1}))
	if got, err := p.Snapshots(w.read(p.Keys)); err != nil || len(got) != 0 {
		t.Fatalf("nothing but the clock: %v, %v", got, err)
	}
	swapped := w.read(p.Keys)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	short := w.read(p.Keys)
	short[0].Data = short[0].Data[:10]
	for name, accounts := range map[string][]chain.SVMAccount{
		"one account short":  w.read(p.Keys)[1:],
		"accounts reordered": swapped,
		"no clock":           qrWorld{}.read(p.Keys),
		"a short clock":      short,
	} {
		if _, err := p.Snapshots(accounts); !errors.Is(err, chain.ErrUpstreamBadResponse) {
			t.Errorf("%s: %v, want ErrUpstreamBadResponse", name, err)
		}
	}
}

func BenchmarkPlanQuote(b *testing.B) {
	for b.Loop() {
		if _, err := PlanQuote(qrX, qrY, []Pubkey{qrSOL, qrUSDC}, qrConfigs); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzMintTransferFee: any mint account data decodes or fails with ErrLayout, never panics.
func FuzzMintTransferFee(f *testing.F) {
	f.Add(true, qrMintData(6, qrPointer, qrTransferFee(svm.FeeSchedule{BasisPoints: 1}, svm.FeeSchedule{Epoch: 3, BasisPoints: 2})), uint64(3))
	f.Add(false, qrMintData(6), uint64(0))
	f.Fuzz(func(t *testing.T, token2022 bool, data []byte, epoch uint64) {
		owner := TokenProgram
		if token2022 {
			owner = Token2022Program
		}
		if _, err := MintTransferFee(owner, data, epoch); err != nil && !errors.Is(err, ErrLayout) {
			t.Fatalf("%v", err)
		}
	})
}
