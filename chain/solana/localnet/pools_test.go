package localnet_test

import (
	"encoding/binary"
	"math/big"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// The seeded CPMM pools read with venue/raydium's layouts and derivations: what Node reports is
// what the chain holds, and the background trader's swaps land.

// read returns accounts' owners and data from one slot at a commitment; a missing account fails.
func read(t *testing.T, c *rpc.Client, commitment rpc.CommitmentType, keys ...string) (owners []string, data [][]byte) {
	t.Helper()
	ks := make([]solana.PublicKey, len(keys))
	for i, k := range keys {
		ks[i] = solana.MustPublicKeyFromBase58(k)
	}
	r, err := c.GetMultipleAccountsWithOpts(t.Context(), ks, &rpc.GetMultipleAccountsOpts{Commitment: commitment, Encoding: solana.EncodingBase64})
	if err != nil {
		t.Fatalf("getMultipleAccounts: %v", err)
	}
	for i, a := range r.Value {
		if a == nil {
			t.Fatalf("account %s does not exist", keys[i])
		}
		owners = append(owners, a.Owner.String())
		data = append(data, a.Data.GetBinary())
	}
	return owners, data
}

func amountOf(data []byte) uint64 { return binary.LittleEndian.Uint64(data[64:72]) }

func rkey(t *testing.T, s string) raydium.Pubkey {
	t.Helper()
	k, err := raydium.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSeededPools: each seeded config and pool, read from the chain, decodes with venue/raydium's
// layouts to what Node reports; its addresses are the ones raydium derives (pool PDA, LP mint,
// vaults, observation, authority, config) and every seeded associated token account the one
// chain/svm derives; its vaults hold the reserves Node reports (no fees owed yet, so the curve's
// reserves too); its LP mint's supply is the pool's LP supply less the locked 100.
func TestSeededPools(t *testing.T) {
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 100 * time.Millisecond, FinalizeDepth: 4})
	c := rpc.New(n.URL)
	program := raydium.ProgramID.String()
	if len(n.Pools) != 5 || len(n.AmmConfigs) != 4 {
		t.Fatalf("%d pools, %d configs", len(n.Pools), len(n.AmmConfigs))
	}

	configs := map[string]raydium.AmmConfig{}
	for _, cfg := range n.AmmConfigs {
		owners, data := read(t, c, rpc.CommitmentFinalized, cfg.Address)
		got, err := raydium.DecodeAmmConfig(data[0])
		if err != nil {
			t.Fatalf("config %d: %v", cfg.Index, err)
		}
		_, bump, _ := svm.FindProgramAddress([][]byte{[]byte("amm_config"), {byte(cfg.Index >> 8), byte(cfg.Index)}}, raydium.ProgramID)
		want := raydium.AmmConfig{Bump: bump, Index: cfg.Index, TradeFeeRate: cfg.TradeFeeRate, ProtocolFeeRate: cfg.ProtocolFeeRate,
			FundFeeRate: cfg.FundFeeRate, CreatePoolFee: cfg.CreatePoolFee, ProtocolOwner: rkey(t, cfg.ProtocolOwner),
			FundOwner: rkey(t, cfg.FundOwner), CreatorFeeRate: cfg.CreatorFeeRate}
		if got != want || owners[0] != program || raydium.AmmConfigAddress(cfg.Index).String() != cfg.Address {
			t.Errorf("config %d at %s (owner %s):\n  decoded %+v\n  Node    %+v", cfg.Index, cfg.Address, owners[0], got, want)
		}
		configs[cfg.Address] = got
	}

	for _, p := range n.Pools {
		owners, data := read(t, c, rpc.CommitmentFinalized, p.Address, p.Token0.Vault, p.Token1.Vault, p.LPMint, p.Observation)
		st, err := raydium.DecodePoolState(data[0])
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		cfg := configs[p.AmmConfig]
		m0, m1 := rkey(t, p.Token0.Mint), rkey(t, p.Token1.Mint)
		k := raydium.DerivePoolKeys(rkey(t, p.AmmConfig), m0, m1, raydium.Pubkey{})
		for _, f := range []struct {
			what      string
			got, want any
		}{
			{"owner", owners[0], program}, {"program", p.Program, program},
			{"address (the pool PDA)", k.Pool.String(), p.Address}, {"authority", k.Authority.String(), p.Authority},
			{"LP mint", k.LPMint.String(), p.LPMint}, {"vault 0", k.Vault0.String(), p.Token0.Vault},
			{"vault 1", k.Vault1.String(), p.Token1.Vault}, {"observation", k.Observation.String(), p.Observation},
			{"state's config", st.AmmConfig.String(), p.AmmConfig}, {"state's creator", st.PoolCreator.String(), p.Creator},
			{"state's vault 0", st.Token0Vault, k.Vault0}, {"state's vault 1", st.Token1Vault, k.Vault1},
			{"state's LP mint", st.LPMint, k.LPMint}, {"state's observation", st.ObservationKey, k.Observation},
			{"state's mint 0", st.Token0Mint, m0}, {"state's mint 1", st.Token1Mint, m1},
			{"state's program 0", st.Token0Program.String(), p.Token0.Program}, {"state's program 1", st.Token1Program.String(), p.Token1.Program},
			{"state's decimals 0", st.Mint0Decimals, p.Token0.Decimals}, {"state's decimals 1", st.Mint1Decimals, p.Token1.Decimals},
			{"state's LP decimals", st.LPMintDecimals, p.LPDecimals}, {"state's LP supply", st.LPSupply, p.LPSupply},
			{"state's open time", int64(st.OpenTime), p.OpenTime}, {"state's authority bump", st.AuthBump, raydium.AuthorityBump()},
			{"state's status", st.Status, uint8(0)}, {"creator fee on", st.EnableCreatorFee, false},
			{"config index", cfg.Index, p.AmmConfigIndex}, {"trade fee rate", cfg.TradeFeeRate, p.TradeFeeRate},
			{"protocol fee rate", cfg.ProtocolFeeRate, p.ProtocolFeeRate}, {"fund fee rate", cfg.FundFeeRate, p.FundFeeRate},
			{"creator fee rate", cfg.CreatorFeeRate, p.CreatorFeeRate}, {"locked LP", uint64(raydium.LockedLP), p.LockedLP},
			{"vault 0 balance", amountOf(data[1]), p.Token0.Reserve}, {"vault 1 balance", amountOf(data[2]), p.Token1.Reserve},
			{"LP mint supply", binary.LittleEndian.Uint64(data[3][36:44]), p.LPSupply - p.LockedLP},
			{"mint order", m0.Less(m1), true},
		} {
			if f.got != f.want {
				t.Errorf("%s: %s %v, Node says %v", p.Name, f.what, f.got, f.want)
			}
		}
		r0, r1, err := st.Reserves(amountOf(data[1]), amountOf(data[2]))
		if err != nil || r0 != p.Token0.Reserve || r1 != p.Token1.Reserve {
			t.Errorf("%s: curve reserves %d/%d (%v), Node says %d/%d", p.Name, r0, r1, err, p.Token0.Reserve, p.Token1.Reserve)
		}
		obs, err := raydium.DecodeObservationState(data[4])
		if err != nil || obs.PoolID != k.Pool || owners[4] != program {
			t.Errorf("%s: observation %+v, %v (owner %s)", p.Name, obs.PoolID, err, owners[4])
		}
	}

	// every associated account of the seed is the one chain/svm derives; the vaults are not associated
	mints := map[string]string{}
	for _, m := range n.Mints {
		mints[m.Address] = m.Program
	}
	for _, p := range n.Pools {
		mints[p.LPMint] = svm.EncodeAddress(svm.TokenProgram)
	}
	associated := 0
	for _, h := range n.Holdings {
		prog, ok := mints[h.Mint]
		if !ok {
			t.Fatalf("holding %+v of an unknown mint", h)
		}
		derived := svm.EncodeAddress(svm.AssociatedTokenAccount(svm.MustAddress(h.Address), svm.MustAddress(h.Mint), svm.MustAddress(prog)))
		if h.Associated {
			associated++
			if derived != h.Account {
				t.Errorf("%s's %s account %s, chain/svm derives %s", h.Owner, h.Symbol, h.Account, derived)
			}
		} else if derived == h.Account {
			t.Errorf("%s's %s account %s is said not associated but is", h.Owner, h.Symbol, h.Account)
		}
	}
	if associated < 20 {
		t.Errorf("only %d associated accounts", associated)
	}
}

// poolRead is a pool's state and vault balances from one slot.
type poolRead struct {
	state          raydium.PoolState
	vault0, vault1 uint64
}

func readPools(t *testing.T, c *rpc.Client, pools []localnet.Pool) []poolRead {
	t.Helper()
	var keys []string
	for _, p := range pools {
		keys = append(keys, p.Address, p.Token0.Vault, p.Token1.Vault)
	}
	_, data := read(t, c, rpc.CommitmentConfirmed, keys...)
	out := make([]poolRead, len(pools))
	for i := range pools {
		st, err := raydium.DecodePoolState(data[3*i])
		if err != nil {
			t.Fatalf("%s: %v", pools[i].Name, err)
		}
		out[i] = poolRead{st, amountOf(data[3*i+1]), amountOf(data[3*i+2])}
	}
	return out
}

// TestPoolTrader: with the background activity on, every seeded pool is swapped through within a
// few rounds of periods (one swap a period, round robin), and each change is swaps': the fees
// owed grow, the LP supply and the pool's keys stay, the curve's product of reserves does not
// shrink, the pool still decodes, and the pool's newest transaction (after its initialize)
// succeeded.
func TestPoolTrader(t *testing.T) {
	const period = 150 * time.Millisecond
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 50 * time.Millisecond, FinalizeDepth: 4, Activity: period})
	c := rpc.New(n.URL)
	start := readPools(t, c, n.Pools)
	changed := make([]bool, len(n.Pools))
	left := len(n.Pools)
	deadline := time.Now().Add(time.Duration(4*len(n.Pools))*period + 20*time.Second)
	for left > 0 {
		if time.Now().After(deadline) {
			for i, p := range n.Pools {
				if !changed[i] {
					t.Errorf("%s: no swap landed", p.Name)
				}
			}
			t.Fatalf("%d of %d pools unchanged after %s", left, len(n.Pools), time.Since(deadline.Add(-time.Duration(4*len(n.Pools))*period-20*time.Second)))
		}
		time.Sleep(period / 3)
		now := readPools(t, c, n.Pools)
		for i, p := range n.Pools {
			a, b := start[i], now[i]
			if changed[i] || (a.vault0 == b.vault0 && a.vault1 == b.vault1) {
				continue
			}
			changed[i] = true
			left--
			fees := func(s raydium.PoolState) uint64 {
				return s.ProtocolFeesToken0 + s.ProtocolFeesToken1 + s.FundFeesToken0 + s.FundFeesToken1
			}
			r0a, r1a, _ := a.state.Reserves(a.vault0, a.vault1)
			r0b, r1b, err := b.state.Reserves(b.vault0, b.vault1)
			ka := new(big.Int).Mul(new(big.Int).SetUint64(r0a), new(big.Int).SetUint64(r1a))
			kb := new(big.Int).Mul(new(big.Int).SetUint64(r0b), new(big.Int).SetUint64(r1b))
			switch {
			case fees(b.state) <= fees(a.state):
				t.Errorf("%s: fees owed %d -> %d after a swap", p.Name, fees(a.state), fees(b.state))
			case b.state.LPSupply != a.state.LPSupply:
				t.Errorf("%s: LP supply %d -> %d after a swap", p.Name, a.state.LPSupply, b.state.LPSupply)
			case err != nil || kb.Cmp(ka) < 0:
				t.Errorf("%s: reserves %d/%d -> %d/%d (%v): the product shrank", p.Name, r0a, r1a, r0b, r1b, err)
			case b.state.Token0Vault != a.state.Token0Vault || b.state.Token1Vault != a.state.Token1Vault || b.state.AmmConfig != a.state.AmmConfig:
				t.Errorf("%s: the pool's keys changed", p.Name)
			}
			sigs, err := c.GetSignaturesForAddressWithOpts(t.Context(), solana.MustPublicKeyFromBase58(p.Address), &rpc.GetSignaturesForAddressOpts{Commitment: rpc.CommitmentConfirmed})
			if err != nil {
				t.Fatalf("getSignaturesForAddress %s: %v", p.Name, err)
			}
			if len(sigs) < 2 {
				t.Errorf("%s: %d transactions: its initialize and no swap", p.Name, len(sigs))
			} else if sigs[0].Err != nil || sigs[len(sigs)-1].Signature.String() != p.Signature {
				t.Errorf("%s: the newest transaction failed (%v), or the first %s is not its initialize %s", p.Name, sigs[0].Err, sigs[len(sigs)-1].Signature, p.Signature)
			}
			t.Logf("%s: swapped: vaults %d -> %d, %d -> %d", p.Name, a.vault0, b.vault0, a.vault1, b.vault1)
		}
	}
}

// TestActivityCount: with ActivityCount 7, the traders swap exactly 7 times through the pools
// (round robin: the first two pools twice, the others once) and then stop, while blocks go on.
func TestActivityCount(t *testing.T) {
	const period, count = 20 * time.Millisecond, 7
	n := localnet.StartTestWith(t, localnet.Options{SlotTime: 20 * time.Millisecond, FinalizeDepth: 2, Activity: period, ActivityCount: count})
	c := rpc.New(n.URL)
	swaps := func() (total int) {
		for _, p := range n.Pools {
			sigs, err := c.GetSignaturesForAddressWithOpts(t.Context(), solana.MustPublicKeyFromBase58(p.Address), &rpc.GetSignaturesForAddressOpts{Commitment: rpc.CommitmentConfirmed})
			if err != nil {
				t.Fatalf("getSignaturesForAddress %s: %v", p.Name, err)
			}
			for _, s := range sigs {
				if s.Slot > 0 { // slot 0 holds the seeding: the pool's initialize and deposits
					total++
				}
			}
		}
		return total
	}
	deadline := time.Now().Add(30 * time.Second)
	for swaps() < count {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d swaps in 30 s", swaps(), count)
		}
		time.Sleep(period)
	}
	slot, err := c.GetSlot(t.Context(), rpc.CommitmentProcessed)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * period)
	if got := swaps(); got != count {
		t.Fatalf("%d swaps 20 periods after the %dth, want %d: the activity did not stop", got, count, count)
	}
	if later, err := c.GetSlot(t.Context(), rpc.CommitmentProcessed); err != nil || later <= slot {
		t.Fatalf("slot %d after slot %d (%v): the blocks stopped too", later, slot, err)
	}
}
