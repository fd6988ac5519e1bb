package raydium

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/partner-platform/partnerd/chain/svm"
)

// TestDepositForIsTheLargest: DepositFor's LP is affordable within the maximums and one LP more
// is not (or fails as the program would), on random pools with and without a Token-2022 fee.
func TestDepositForIsTheLargest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fees := []*svm.FeeSchedule{nil, {BasisPoints: 100, MaximumFee: 10_000_000}, {BasisPoints: 37, MaximumFee: 5}}
	for i := range 3000 {
		s := Snapshot{Pool: PoolState{LPSupply: 1 + r.Uint64N(1<<40), ProtocolFeesToken0: r.Uint64N(1000), FundFeesToken1: r.Uint64N(1000)},
			Vault0: 1000 + r.Uint64N(1<<45), Vault1: 1000 + r.Uint64N(1<<50), TransferFee0: fees[i%3], TransferFee1: fees[(i/3)%3]}
		max0, max1 := r.Uint64N(1<<(10+r.IntN(40))), r.Uint64N(1<<(10+r.IntN(45)))
		q, err := s.DepositFor(max0, max1)
		if errors.Is(err, ErrTooLittle) {
			if q1, err1 := s.Deposit(1); err1 == nil && q1.Pay0 <= max0 && q1.Pay1 <= max1 {
				t.Fatalf("case %d: too little, but 1 LP costs %d, %d within %d, %d", i, q1.Pay0, q1.Pay1, max0, max1)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if q.Pay0 > max0 || q.Pay1 > max1 {
			t.Fatalf("case %d: LP %d costs %d, %d over the maximums %d, %d", i, q.LP, q.Pay0, q.Pay1, max0, max1)
		}
		if want, _ := s.Deposit(q.LP); want != q {
			t.Fatalf("case %d: %+v is not Deposit's %+v", i, q, want)
		}
		if more, err := s.Deposit(q.LP + 1); err == nil && more.Pay0 <= max0 && more.Pay1 <= max1 {
			t.Fatalf("case %d: LP %d also fits (%d, %d within %d, %d)", i, q.LP+1, more.Pay0, more.Pay1, max0, max1)
		}
	}
	s := Snapshot{Pool: PoolState{LPSupply: 1000, Status: StatusDepositDisabled}, Vault0: 1000, Vault1: 1000}
	if _, err := s.DepositFor(10, 10); !errors.Is(err, ErrNotApproved) {
		t.Errorf("deposits disabled: %v", err)
	}
}

func programIDs(ixs []Instruction) []Pubkey {
	var out []Pubkey
	for _, ix := range ixs {
		out = append(out, ix.ProgramID)
	}
	return out
}

func equalKeys(a, b []Pubkey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLiquidityBuilds: the instructions of deposit, withdraw and initialize builds, with and
// without the owner's wrapped SOL account.
func TestLiquidityBuilds(t *testing.T) {
	owner, usdc := Pubkey{7}, Pubkey{200}
	m0, m1 := NativeMint, usdc
	if m1.Less(m0) {
		m0, m1 = m1, m0
	}
	pool := PoolAddress(AmmConfigAddress(0), m0, m1)
	p := PoolState{Token0Mint: m0, Token1Mint: m1, Token0Program: TokenProgram, Token1Program: TokenProgram, LPMint: LPMintAddress(pool),
		Token0Vault: VaultAddress(pool, m0), Token1Vault: VaultAddress(pool, m1)}
	q := DepositQuote{LP: 10, Pay0: 100, Pay1: 200}
	if m0 != NativeMint {
		q.Pay0, q.Pay1 = q.Pay1, q.Pay0
	}
	wsolATA := AssociatedTokenAccount(owner, NativeMint, TokenProgram)
	lpATA := AssociatedTokenAccount(owner, p.LPMint, TokenProgram)
	none := func(Pubkey) bool { return false }
	all := func(Pubkey) bool { return true }

	// No wrapped SOL account: created, funded with the maximum, closed at the end.
	b := DepositBuild(p, pool, owner, q, 150, 250, none)
	want := []Pubkey{AssociatedTokenProgram, AssociatedTokenProgram, SystemProgram, TokenProgram, ProgramID, TokenProgram}
	if !equalKeys(programIDs(b.Instructions), want) || !equalKeys(b.Creates, []Pubkey{lpATA}) {
		t.Errorf("deposit without wrapped SOL: programs %v, creates %v", programIDs(b.Instructions), b.Creates)
	}
	wsolMax := uint64(150)
	if m0 != NativeMint {
		wsolMax = 250
	}
	if b.WrapLamports != wsolMax || binary.LittleEndian.Uint64(b.Instructions[2].Data[4:]) != wsolMax {
		t.Errorf("wrapped %d, want the maximum %d", b.WrapLamports, wsolMax)
	}
	dep := b.Instructions[4]
	if [8]byte(dep.Data[:8]) != ixDeposit || binary.LittleEndian.Uint64(dep.Data[8:]) != 10 || dep.Accounts[3].Pubkey != lpATA {
		t.Errorf("deposit %+v", dep)
	}
	// With the accounts: only the exact payment wrapped, nothing closed or created.
	b = DepositBuild(p, pool, owner, q, 150, 250, all)
	if len(b.Instructions) != 5 || len(b.Creates) != 0 || b.WrapLamports != 100 {
		t.Errorf("deposit with the accounts: %d instructions, creates %v, wrapped %d", len(b.Instructions), b.Creates, b.WrapLamports)
	}

	// Withdraw: both receiving accounts created idempotently; wrapped SOL closed when created.
	b = WithdrawBuild(p, pool, owner, 10, 1, 2, none)
	want = []Pubkey{AssociatedTokenProgram, AssociatedTokenProgram, ProgramID, TokenProgram}
	if !equalKeys(programIDs(b.Instructions), want) || len(b.Creates) != 1 || b.Creates[0] != AssociatedTokenAccount(owner, usdc, TokenProgram) {
		t.Errorf("withdraw: programs %v, creates %v", programIDs(b.Instructions), b.Creates)
	}
	if b.Instructions[3].Accounts[0].Pubkey != wsolATA || [8]byte(b.Instructions[2].Data[:8]) != ixWithdraw {
		t.Errorf("withdraw instructions %+v", b.Instructions)
	}
	if b = WithdrawBuild(p, pool, owner, 10, 1, 2, all); len(b.Instructions) != 3 || len(b.Creates) != 0 {
		t.Errorf("withdraw with the accounts: %+v", b)
	}

	// Initialize: the pool's accounts and the LP account created; wrapped SOL funded and closed.
	a := InitializeAccounts{Creator: owner, Config: AmmConfigAddress(0), Mint0: m0, Mint1: m1, Token0Program: TokenProgram, Token1Program: TokenProgram,
		Creator0: AssociatedTokenAccount(owner, m0, TokenProgram), Creator1: AssociatedTokenAccount(owner, m1, TokenProgram)}
	k, b, err := InitializeBuild(a, 1000, 2000, none)
	if err != nil {
		t.Fatal(err)
	}
	if k.Pool != pool || len(b.Creates) != 6 || b.Creates[5] != AssociatedTokenAccount(owner, k.LPMint, TokenProgram) {
		t.Errorf("initialize: keys %+v, creates %v", k, b.Creates)
	}
	want = []Pubkey{AssociatedTokenProgram, SystemProgram, TokenProgram, ProgramID, TokenProgram}
	if !equalKeys(programIDs(b.Instructions), want) {
		t.Errorf("initialize programs %v", programIDs(b.Instructions))
	}
	a.Mint0, a.Mint1 = a.Mint1, a.Mint0
	if _, _, err := InitializeBuild(a, 1, 1, none); !errors.Is(err, ErrUnsortedMints) {
		t.Errorf("unsorted mints: %v", err)
	}
}

// TestPlanLiquidity: the plan's keys in their documented order, the mints sorted.
func TestPlanLiquidity(t *testing.T) {
	owner, a, b := Pubkey{1}, Pubkey{9}, Pubkey{3}
	pool := Pubkey{5}
	p, err := PlanLiquidity(pool, a, b, owner)
	if err != nil {
		t.Fatal(err)
	}
	if p.Mint0 != b || p.Mint1 != a || p.Vault0 != VaultAddress(pool, b) || p.LPMint != LPMintAddress(pool) {
		t.Errorf("plan %+v", p)
	}
	want := []Pubkey{ClockSysvar, pool, b, a, p.Vault0, p.Vault1, AssociatedTokenAccount(owner, p.LPMint, TokenProgram),
		AssociatedTokenAccount(owner, b, TokenProgram), AssociatedTokenAccount(owner, b, Token2022Program),
		AssociatedTokenAccount(owner, a, TokenProgram), AssociatedTokenAccount(owner, a, Token2022Program)}
	if !equalKeys(p.Keys, want) || len(p.Addresses) != len(want) || p.Addresses[1] != pool.String() {
		t.Errorf("keys %v", p.Keys)
	}
	if _, err := PlanLiquidity(pool, a, a, owner); !errors.Is(err, ErrSameMint) {
		t.Errorf("the same mint twice: %v", err)
	}
}
