package raydium_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// PlanQuote and Snapshots against the local validator: every account a quote needs read in one
// getMultipleAccounts, the snapshots decoded from it, BestRoute's route sent as it describes it
// (one swap_base_input per hop, in one transaction, each hop's minimum out its exact Received), and
// the payer's accounts moved by exactly the route's AmountIn and Received.

// readQuote reads the plan's accounts in one getMultipleAccounts at the head (processed).
func (e *execEnv) readQuote(p *raydium.QuotePlan) []chain.SVMAccount {
	t := e.t
	t.Helper()
	if b := p.Batches(); len(b) != 1 || len(p.Keys) > raydium.MaxMultipleAccounts {
		t.Fatalf("%d keys need %d calls", len(p.Keys), len(b))
	}
	keys := make([]solana.PublicKey, len(p.Keys))
	for i, k := range p.Keys {
		keys[i] = solana.PublicKey(k)
	}
	r, err := e.rpc.GetMultipleAccountsWithOpts(t.Context(), keys, &rpc.GetMultipleAccountsOpts{Commitment: rpc.CommitmentProcessed, Encoding: solana.EncodingBase64})
	if err != nil {
		t.Fatalf("getMultipleAccounts: %v", err)
	}
	out := make([]chain.SVMAccount, len(keys))
	for i, a := range r.Value {
		out[i] = chain.SVMAccount{Address: keys[i].String()}
		if a != nil {
			out[i] = chain.SVMAccount{Address: keys[i].String(), Exists: true, Owner: a.Owner.String(), Lamports: a.Lamports, Data: a.Data.GetBinary()}
		}
	}
	return out
}

// wrapSOL gives owner an associated wrapped SOL account holding lamports.
func (e *execEnv) wrapSOL(owner solana.PrivateKey, lamports uint64) {
	o, wsol := pub(owner), raydium.Pubkey(solana.WrappedSol)
	ata := raydium.AssociatedTokenAccount(o, wsol, raydium.TokenProgram)
	create := raydium.Instruction{ProgramID: raydium.AssociatedTokenProgram, Data: []byte{1}, Accounts: []raydium.AccountMeta{ // CreateIdempotent
		{Pubkey: o, IsSigner: true, IsWritable: true}, {Pubkey: ata, IsWritable: true}, {Pubkey: o},
		{Pubkey: wsol}, {Pubkey: raydium.SystemProgram}, {Pubkey: raydium.TokenProgram}}}
	transfer := raydium.Instruction{ProgramID: raydium.SystemProgram, Data: binary.LittleEndian.AppendUint64([]byte{2, 0, 0, 0}, lamports),
		Accounts: []raydium.AccountMeta{{Pubkey: o, IsSigner: true, IsWritable: true}, {Pubkey: ata, IsWritable: true}}}
	syncNative := raydium.Instruction{ProgramID: raydium.TokenProgram, Data: []byte{17}, Accounts: []raydium.AccountMeta{{Pubkey: ata, IsWritable: true}}}
	e.mustSend("wrap SOL", owner, nil, create, transfer, syncNative)
}

// quoteCase is a trade TestQuoteRead quotes and sends: whole tokens of in for out, and the pools
// (by name) the best route must go through.
type quoteCase struct {
	in, out string
	whole   uint64
	route   []string
}

// TestQuoteRead: for each seeded pool's pair both ways, and for two-hop trades (EMB, Token-2022
// with a 1 % transfer fee, as input and as output), the plan's one read finds exactly the pools
// among its candidates, with the state the pool-by-pool reads of TestExecute see, and the best
// route, sent, delivers exactly what it quotes. Then with two pools more (created by initialize,
// at the addresses PlanQuote derives): AUR/USDC in a second fee tier, priced so that a small sale
// of AUR goes through it and a purchase through the seeded one, and EMB/SOL, priced so that EMB
// sells directly for SOL but is bought through USDC.
func TestQuoteRead(t *testing.T) {
	e := newExecEnv(t)
	trader := e.wallet("trader-0")
	e.wrapSOL(trader, 20_000_000_000)

	type mintInfo struct {
		key      raydium.Pubkey
		program  raydium.Pubkey
		decimals uint8
	}
	mints := map[string]mintInfo{}
	for _, m := range e.node.Mints {
		mints[m.Symbol] = mintInfo{pk(t, m.Address), pk(t, m.Program), m.Decimals}
	}
	units := func(symbol string, whole uint64) uint64 {
		for range mints[symbol].decimals {
			whole *= 10
		}
		return whole
	}
	var configs []raydium.Pubkey
	for _, c := range e.node.AmmConfigs {
		configs = append(configs, pk(t, c.Address))
	}
	poolName := map[raydium.Pubkey]string{}
	for _, p := range e.node.Pools {
		poolName[pk(t, p.Address)] = p.Name
	}
	mids := []raydium.Pubkey{mints["WSOL"].key, mints["USDC"].key}

	seeded := []quoteCase{
		{"WSOL", "USDC", 2, []string{"SOL/USDC"}},
		{"USDC", "WSOL", 300, []string{"SOL/USDC"}},
		{"AUR", "USDC", 1_000, []string{"AUR/USDC"}},
		{"USDC", "AUR", 500, []string{"AUR/USDC"}},
		{"NIM", "WSOL", 50_000, []string{"NIM/SOL"}},
		{"WSOL", "NIM", 1, []string{"NIM/SOL"}},
		{"QRTZ", "USDC", 100_000, []string{"QRTZ/USDC"}},
		{"USDC", "QRTZ", 1_000, []string{"QRTZ/USDC"}},
		{"EMB", "USDC", 20, []string{"EMB/USDC"}},
		{"USDC", "EMB", 1_000, []string{"EMB/USDC"}},
		{"AUR", "WSOL", 1_000, []string{"AUR/USDC", "SOL/USDC"}},
		{"NIM", "USDC", 100_000, []string{"NIM/SOL", "SOL/USDC"}},
		{"EMB", "WSOL", 10, []string{"EMB/USDC", "SOL/USDC"}},
		{"WSOL", "EMB", 1, []string{"SOL/USDC", "EMB/USDC"}},
		{"QRTZ", "EMB", 50_000, []string{"QRTZ/USDC", "EMB/USDC"}},
	}
	more := []quoteCase{
		{"AUR", "USDC", 10, []string{"AUR/USDC 0.25%"}},
		{"USDC", "AUR", 500, []string{"AUR/USDC"}},
		{"EMB", "WSOL", 10, []string{"EMB/SOL"}},
		{"WSOL", "EMB", 1, []string{"SOL/USDC", "EMB/USDC"}},
		{"AUR", "EMB", 10, []string{"AUR/USDC 0.25%", "EMB/USDC"}},
	}
	for phase, cases := range [][]quoteCase{seeded, more} {
		if phase == 1 {
			creator := e.wallet("trader-1")
			e.wrapSOL(creator, 40_000_000_000)
			mint := func(symbol string) localnet.Mint {
				m, _ := e.node.Mint(symbol)
				return m
			}
			for name, p := range map[string]raydium.Pubkey{
				"AUR/USDC 0.25%": e.initialize("AUR/USDC at 0.25 %", creator, mint("AUR"), mint("USDC"), 0, units("AUR", 1_000), units("USDC", 3_000), nil),
				"EMB/SOL":        e.initialize("EMB/SOL at 1 %", creator, mint("EMB"), mint("WSOL"), 1, units("EMB", 30), units("WSOL", 30), nil),
			} {
				poolName[p] = name
				for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
					if s := e.snapshot(p); s.Now >= s.Pool.OpenTime {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("pool %s not open", name)
					}
				}
			}
		}
		for _, c := range cases {
			name := fmt.Sprintf("%d %s to %s", c.whole, c.in, c.out)
			in, out := mints[c.in], mints[c.out]
			plan, err := raydium.PlanQuote(in.key, out.key, mids, configs)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			pools, err := plan.Snapshots(e.readQuote(plan))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}

			// exactly the pools (seeded or created here) among the candidates, as the pool-by-pool read sees them
			var found, want []string
			for _, s := range pools {
				found = append(found, poolName[s.Address])
				alone := e.snapshot(s.Address)
				if s.Pool != alone.Pool || s.Config != alone.Config || s.Vault0 != alone.Vault0 || s.Vault1 != alone.Vault1 ||
					!sameFee(s.TransferFee0, alone.TransferFee0) || !sameFee(s.TransferFee1, alone.TransferFee1) || s.Now < alone.Pool.OpenTime {
					t.Errorf("%s: pool %s read with the plan %+v, alone %+v", name, poolName[s.Address], s.Snapshot, *alone)
				}
			}
			for _, k := range plan.Candidates {
				if n, ok := poolName[k.Pool]; ok {
					want = append(want, n)
				}
			}
			if !slices.Equal(found, want) || len(found) == 0 {
				t.Errorf("%s: found pools %v, the existing candidates are %v", name, found, want)
			}

			amount := units(c.in, c.whole)
			r, err := raydium.BestRoute(pools, in.key, out.key, amount, plan.Mids)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var through []string
			for _, h := range r.Hops {
				through = append(through, poolName[h.Pool])
			}
			if !slices.Equal(through, c.route) {
				t.Fatalf("%s: route through %v, want %v", name, through, c.route)
			}
			first, last := r.Hops[0].Quote, r.Hops[len(r.Hops)-1].Quote
			if (first.InputTransferFee > 0) != (c.in == "EMB") || (last.OutputTransferFee > 0) != (c.out == "EMB") {
				t.Errorf("%s: transfer fees in %d out %d", name, first.InputTransferFee, last.OutputTransferFee)
			}

			// send the route: one swap_base_input per hop, each at its exact quote
			account := func(m raydium.Pubkey) raydium.Pubkey {
				for _, i := range mints {
					if i.key == m {
						return raydium.AssociatedTokenAccount(pub(trader), m, i.program)
					}
				}
				t.Fatalf("mint %s not seeded", m)
				return raydium.Pubkey{}
			}
			var ixs []raydium.Instruction
			watch := []raydium.Pubkey{account(in.key), account(out.key)}
			for i, h := range r.Hops {
				s := pools[slices.IndexFunc(pools, func(p raydium.PoolSnapshot) bool { return p.Address == h.Pool })]
				a := s.Pool.SwapAccounts(h.Pool, pub(trader), h.ZeroForOne, account(h.InputMint), account(h.OutputMint))
				ixs = append(ixs, raydium.SwapBaseInput(a, h.Quote.AmountIn, h.Quote.Received))
				if i > 0 {
					watch = append(watch, account(h.InputMint))
				}
			}
			before := e.balances(watch...)
			e.mustSend(name, trader, nil, ixs...)
			after := e.balances(watch...)
			if paid, got := before[0]-after[0], after[1]-before[1]; paid != r.AmountIn() || got != r.Received() {
				t.Errorf("%s: paid %d and received %d, the route says %d and %d", name, paid, got, r.AmountIn(), r.Received())
			}
			if len(watch) > 2 && after[2] != before[2] {
				t.Errorf("%s: the middle account went from %d to %d", name, before[2], after[2])
			}
			t.Logf("%s: %d keys in one read, %d pools found; through %s: paid %d, received %d (transfer fees in %d, out %d)",
				name, len(plan.Keys), len(pools), strings.Join(through, ", "), r.AmountIn(), r.Received(), first.InputTransferFee, last.OutputTransferFee)
		}
	}
}

// sameFee compares two fees in force by rate and cap: a schedule's epoch is when it started, which
// the seeded figures leave out.
func sameFee(a, b *svm.FeeSchedule) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.BasisPoints == b.BasisPoints && a.MaximumFee == b.MaximumFee
}
