package trade

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/venue/raydium"
)

// Raydium CPMM liquidity builds through the trade service against the local validator (no
// background trader): each build is signed by a seeded keypair and sent, and the wallet's and the
// vaults' balances after must move by exactly the build's metadata and fee rows.

// lpPoolRef is a pool under test: its address, mints and vaults.
type lpPoolRef struct {
	address, mint0, mint1, vault0, vault1, lpMint string
}

func lpRefOf(p localnet.Pool) lpPoolRef {
	return lpPoolRef{p.Address, p.Token0.Mint, p.Token1.Mint, p.Token0.Vault, p.Token1.Vault, p.LPMint}
}

// vaults reads a pool's vaults' amounts (0 for a vault not created yet).
func (e *solEnv) vaults(t *testing.T, p lpPoolRef) [2]uint64 {
	t.Helper()
	accs, _, err := solana.NewSource(e.c).Accounts(t.Context(), []string{p.vault0, p.vault1})
	if err != nil {
		t.Fatal(err)
	}
	var out [2]uint64
	for i, a := range accs {
		n, ok := raydium.TokenBalance(a)
		if !ok && a.Exists { // a pool not created yet has no vaults: 0
			t.Fatalf("vault %s is not a token account", a.Address)
		}
		out[i] = n
	}
	return out
}

func mdU64(t *testing.T, b Build, key string) uint64 {
	t.Helper()
	s, ok := b.Metadata[key].(string)
	if !ok {
		t.Fatalf("metadata %s = %v, want a base-unit string", key, b.Metadata[key])
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("metadata %s = %q: %v", key, s, err)
	}
	return n
}

// lpBuild builds an LP operation, counting its round trips.
func (e *solEnv) lpBuild(t *testing.T, op string, r LPRequest, roundTrips int64) Build {
	t.Helper()
	r.Chain = "solana"
	if r.Venue == "" {
		r.Venue = raydium.VenueName
	}
	before := e.rt.n.Load()
	var b Build
	var err error
	switch op {
	case "add":
		b, err = e.svc.BuildLPAdd(t.Context(), consumer, r)
	case "remove":
		b, err = e.svc.BuildLPRemove(t.Context(), consumer, r)
	case "create":
		b, err = e.svc.BuildLPCreate(t.Context(), consumer, r)
	}
	if err != nil {
		t.Fatalf("build lp %s: %v", op, err)
	}
	if n := e.rt.n.Load() - before; n != roundTrips {
		t.Errorf("the lp %s build took %d round trips, want %d", op, n, roundTrips)
	}
	if b.ConfirmationToken == "" || len(b.Transactions) != 1 || b.Metadata["lastValidBlockHeight"] == nil {
		t.Errorf("build %+v", b)
	}
	if err := b.Keep(t.Context(), e.db); err != nil {
		t.Fatal(err)
	}
	return b
}

// lpSendAndCheck sends b signed by key and checks the wallet's and the vaults' balances moved by
// exactly its metadata: sign is +1 when tokens go into the pool (add, create), -1 out (remove).
func (e *solEnv) lpSendAndCheck(t *testing.T, b Build, key localnet.Keypair, p lpPoolRef, sign int64) {
	t.Helper()
	if b.Metadata["poolId"] != p.address || b.Metadata["token0"] != p.mint0 || b.Metadata["token1"] != p.mint1 || b.Metadata["lpMint"] != p.lpMint {
		t.Errorf("metadata %v, want pool %+v", b.Metadata, p)
	}
	before, vBefore := e.balancesOf(t, key.Address)[0], e.vaults(t, p)
	sig := e.send(t, b, key)
	e.waitStatus(t, sig, "confirmed")
	after, vAfter := e.balancesOf(t, key.Address)[0], e.vaults(t, p)
	e.confirmFinal(t, b, sig)

	wsol := raydium.NativeMint.String()
	fees := int64(feeSum(t, b, "network", 9) + feeSum(t, b, FeePriority, 9) + feeSum(t, b, FeeRent, 9) + feeSum(t, b, "venue", 9))
	wantSOL := -fees
	for i, mint := range []string{p.mint0, p.mint1} {
		amount := int64(mdU64(t, b, "amount"+strconv.Itoa(i)))
		vault := int64(mdU64(t, b, "vaultAmount"+strconv.Itoa(i)))
		if got := int64(vAfter[i]) - int64(vBefore[i]); got != sign*vault {
			t.Errorf("vault %d moved %d, want %d", i, got, sign*vault)
		}
		got := int64(after.tokens[mint]) - int64(before.tokens[mint])
		want := -sign * amount
		// SOL in is wrapped and spent; SOL out lands in the wrapped SOL account the wallet has, or,
		// when the build creates that account, is unwrapped (the account closed).
		if _, hasWSOL := before.tokens[wsol]; mint == wsol && (sign > 0 || !hasWSOL) {
			wantSOL -= sign * amount
			want = 0
		}
		if got != want {
			t.Errorf("the wallet's %s moved %d, want %d", mint, got, want)
		}
		if fee := mdU64(t, b, "transferFee"+strconv.Itoa(i)); (sign > 0 && amount-vault != int64(fee)) || (sign < 0 && vault-amount != int64(fee)) {
			t.Errorf("side %d: sent %d, vault %d, transfer fee %d", i, amount, vault, fee)
		}
	}
	if got := int64(after.lamports) - int64(before.lamports); got != wantSOL {
		t.Errorf("SOL moved %d lamports, want %d (fees %d)", got, wantSOL, fees)
	}
	lp := int64(mdU64(t, b, "lpAmount"))
	if got := int64(after.tokens[p.lpMint]) - int64(before.tokens[p.lpMint]); got != sign*lp || lp == 0 {
		t.Errorf("the wallet's LP moved %d, want %d", got, sign*lp)
	}
}

// TestSolanaLP adds to SOL/USDC and EMB/USDC (Token-2022, 1 % transfer fee), removes 50 % and
// then all of it, creates QRTZ/AUR and adds to it, each checked to the base unit; then the errors.
func TestSolanaLP(t *testing.T) {
	e := newSolEnv(t)
	holder := e.keypair(t, "holder-0")
	sol, emb := e.pool(t, "SOL/USDC"), e.pool(t, "EMB/USDC")
	usdc := e.mint(t, "USDC").Address

	t.Run("add SOL/USDC", func(t *testing.T) {
		b := e.lpBuild(t, "add", LPRequest{User: holder.Address, Pool: sol.address, TokenA: Native, TokenB: usdc, AmountA: "1", AmountB: "200", SlippageBps: 50}, 2)
		if b.Metadata["wrappedSOL"] == "0" || b.Metadata["seeded"] != false {
			t.Errorf("metadata %v", b.Metadata)
		}
		// 1 SOL buys ~150 USDC of liquidity: SOL is the limit, nearly all of it sent.
		if mdU64(t, b, "unused"+strconv.Itoa(sideOf(sol, raydium.NativeMint.String()))) > 1 {
			t.Errorf("SOL left unused: %v", b.Metadata)
		}
		e.lpSendAndCheck(t, b, holder, sol, 1)
	})
	t.Run("add EMB/USDC", func(t *testing.T) {
		b := e.lpBuild(t, "add", LPRequest{User: holder.Address, Pool: emb.address, TokenA: e.mint(t, "EMB").Address, TokenB: usdc, AmountA: "10", AmountB: "500"}, 2)
		if feeSum(t, b, FeeTransferFee, 6) == 0 {
			t.Errorf("no transfer fee row: %+v", b.Fees)
		}
		e.lpSendAndCheck(t, b, holder, emb, 1)
	})
	t.Run("add EMB/USDC naming only the pool", func(t *testing.T) {
		// The index does not run here: the pool is read first (a third round trip).
		amounts := map[string]string{e.mint(t, "EMB").Address: "5", usdc: "300"}
		b := e.lpBuild(t, "add", LPRequest{User: holder.Address, Pool: emb.address, AmountA: amounts[emb.mint0], AmountB: amounts[emb.mint1]}, 3)
		e.lpSendAndCheck(t, b, holder, emb, 1)
	})
	for _, p := range []struct {
		name string
		ref  lpPoolRef
	}{{"SOL/USDC", sol}, {"EMB/USDC", emb}} {
		t.Run("remove half of "+p.name, func(t *testing.T) {
			held := e.balancesOf(t, holder.Address)[0].tokens[p.ref.lpMint]
			b := e.lpBuild(t, "remove", LPRequest{User: holder.Address, Pool: p.ref.address, TokenA: p.ref.mint0, TokenB: p.ref.mint1, Bps: 5000, SlippageBps: 100}, 2)
			if mdU64(t, b, "lpAmount") != held/2 || mdU64(t, b, "lpBalance") != held {
				t.Errorf("lpAmount %v of %d held", b.Metadata["lpAmount"], held)
			}
			if mdU64(t, b, "minAmount0") > mdU64(t, b, "amount0") || mdU64(t, b, "minAmount1") > mdU64(t, b, "amount1") {
				t.Errorf("minimums %v", b.Metadata)
			}
			e.lpSendAndCheck(t, b, holder, p.ref, -1)
		})
		t.Run("remove all of "+p.name, func(t *testing.T) {
			b := e.lpBuild(t, "remove", LPRequest{User: holder.Address, Pool: p.ref.address, TokenA: p.ref.mint1, TokenB: p.ref.mint0, Bps: 10000}, 2)
			e.lpSendAndCheck(t, b, holder, p.ref, -1)
			if left := e.balancesOf(t, holder.Address)[0].tokens[p.ref.lpMint]; left != 0 {
				t.Errorf("%d LP left after removing all", left)
			}
		})
	}

	// holder-3 has no wrapped SOL account: the builds create it and close it again.
	third := e.keypair(t, "holder-3")
	t.Run("add SOL/USDC without a wrapped SOL account", func(t *testing.T) {
		b := e.lpBuild(t, "add", LPRequest{User: third.Address, Pool: sol.address, TokenA: usdc, TokenB: Native, AmountA: "100", AmountB: "2"}, 2)
		i := sideOf(sol, raydium.NativeMint.String())
		if mdU64(t, b, "wrappedSOL") != mdU64(t, b, "maxAmount"+strconv.Itoa(i)) {
			t.Errorf("wrapped %v, want the maximum: %v", b.Metadata["wrappedSOL"], b.Metadata)
		}
		e.lpSendAndCheck(t, b, third, sol, 1)
	})
	t.Run("remove it all, received in SOL", func(t *testing.T) {
		b := e.lpBuild(t, "remove", LPRequest{User: third.Address, Pool: sol.address, TokenA: sol.mint0, TokenB: sol.mint1, Bps: 10000}, 2)
		e.lpSendAndCheck(t, b, third, sol, -1)
		if _, has := e.balancesOf(t, third.Address)[0].tokens[raydium.NativeMint.String()]; has {
			t.Error("the wrapped SOL account the build created is still open")
		}
	})

	qrtz, aur := e.mint(t, "QRTZ").Address, e.mint(t, "AUR").Address
	var created lpPoolRef
	t.Run("create QRTZ/AUR", func(t *testing.T) {
		b := e.lpBuild(t, "create", LPRequest{User: holder.Address, TokenA: qrtz, TokenB: aur, AmountA: "100000", AmountB: "4000"}, 2)
		m0, m1 := raydium.MustPubkey(qrtz), raydium.MustPubkey(aur)
		if m1.Less(m0) {
			m0, m1 = m1, m0
		}
		k := raydium.DerivePoolKeys(raydium.AmmConfigAddress(0), m0, m1, raydium.Pubkey{})
		created = lpPoolRef{k.Pool.String(), m0.String(), m1.String(), k.Vault0.String(), k.Vault1.String(), k.LPMint.String()}
		if b.Metadata["seeded"] != true || b.Metadata["feeTier"] != 0 || feeSum(t, b, "venue", 9) != 150_000_000 {
			t.Errorf("metadata %v, fees %+v", b.Metadata, b.Fees)
		}
		if len(b.Fees) != 2+6+1 { // network, priority, rent of the pool's five accounts and the LP account, the creation fee
			t.Errorf("fee rows %+v", b.Fees)
		}
		lockedLP := mdU64(t, b, "lpSupply") - mdU64(t, b, "lpAmount")
		if lockedLP != raydium.LockedLP {
			t.Errorf("locked %d LP", lockedLP)
		}
		e.lpSendAndCheck(t, b, holder, created, 1)
	})
	t.Run("add to the new pool", func(t *testing.T) {
		b := e.lpBuild(t, "add", LPRequest{User: holder.Address, Pool: created.address, TokenA: qrtz, TokenB: aur, AmountA: "1000", AmountB: "100", SlippageBps: 50}, 2)
		e.lpSendAndCheck(t, b, holder, created, 1)
	})

	t.Run("errors", func(t *testing.T) {
		other := e.keypair(t, "holder-1")
		for _, tc := range []struct {
			name string
			op   string
			r    LPRequest
			want error
			says string
		}{
			{"nothing to remove", "remove", LPRequest{User: other.Address, Pool: sol.address, TokenA: sol.mint0, TokenB: sol.mint1, Bps: 10000}, ErrPrerequisite, "nothing to remove"},
			{"pool exists", "create", LPRequest{User: holder.Address, TokenA: Native, TokenB: usdc, AmountA: "1", AmountB: "150"}, ErrInvalid, sol.address},
			{"bps 0", "remove", LPRequest{User: holder.Address, Pool: sol.address, Bps: 0}, ErrInvalid, "bps"},
			{"bps 10001", "remove", LPRequest{User: holder.Address, Pool: sol.address, Bps: 10001}, ErrInvalid, "bps"},
			{"tokens not the pool's", "add", LPRequest{User: holder.Address, Pool: sol.address, TokenA: qrtz, TokenB: usdc, AmountA: "1", AmountB: "1"}, ErrInvalid, "not a pool of"},
			{"not a pool", "add", LPRequest{User: holder.Address, Pool: usdc, TokenA: Native, TokenB: usdc, AmountA: "1", AmountB: "1"}, ErrNotFound, "not a Raydium CPMM pool"},
			{"more than held", "add", LPRequest{User: other.Address, Pool: emb.address, TokenA: emb.mint0, TokenB: emb.mint1, AmountA: "1000000", AmountB: "1000000"}, ErrPrerequisite, "insufficient"},
			{"no such fee tier", "create", LPRequest{User: holder.Address, TokenA: qrtz, TokenB: aur, AmountA: "1", AmountB: "1", FeeTier: 9}, ErrInvalid, "fee tier 9"},
			{"another venue", "add", LPRequest{User: holder.Address, Venue: "orca", Pool: sol.address}, ErrNotSupported, "orca"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.r.Chain = "solana"
				if tc.r.Venue == "" {
					tc.r.Venue = raydium.VenueName
				}
				var err error
				switch tc.op {
				case "add":
					_, err = e.svc.BuildLPAdd(t.Context(), consumer, tc.r)
				case "remove":
					_, err = e.svc.BuildLPRemove(t.Context(), consumer, tc.r)
				case "create":
					_, err = e.svc.BuildLPCreate(t.Context(), consumer, tc.r)
				}
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
					t.Errorf("err %v, want %v saying %q", err, tc.want, tc.says)
				}
			})
		}
	})
}

func (e *solEnv) pool(t *testing.T, name string) lpPoolRef {
	t.Helper()
	p, ok := e.n.Pool(name)
	if !ok {
		t.Fatalf("no pool %s", name)
	}
	return lpRefOf(p)
}

// sideOf is 0 or 1: which side of the pool a mint is.
func sideOf(p lpPoolRef, mint string) int {
	if p.mint0 == mint {
		return 0
	}
	return 1
}
