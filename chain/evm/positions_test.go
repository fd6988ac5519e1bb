package evm

import (
	"crypto/ecdsa"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// TestFarmsAndPositions: on the seeded devnet, Farms enumerates the StakingRewardsFactory's farms
// exactly as the seeding deployed them, in two round trips (and from a later index, only those);
// Positions reads an owner's wallet LP and its stake and earned in every farm at one block, in one
// round trip, equal to the farm's own balanceOf and earned at that block.
func TestFarmsAndPositions(t *testing.T) {
	ctx := t.Context()
	local, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = local.Close() })
	m := local.Market()
	rt := &countingTransport{base: http.DefaultTransport}
	c, err := rpc.DialOptions(ctx, local.RPCURL(), rpc.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	r, err := New(c, m.Core.Multicall3)
	if err != nil {
		t.Fatal(err)
	}

	farms, err := r.Farms(ctx, m.Core.StakingRewardsFactory, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := rt.n.Load(); n != 2 {
		t.Errorf("enumerating %d farms took %d round trips, want 2", len(farms), n)
	}
	if len(farms) != len(m.Farms) {
		t.Fatalf("%d farms, the seeding deployed %d", len(farms), len(m.Farms))
	}
	for i, f := range farms {
		s := m.Farms[i]
		if f.Address != s.Address || f.StakingToken != s.StakingToken || f.RewardToken != s.RewardToken {
			t.Errorf("farm %d: %+v, want %+v", i, f, s)
		}
	}
	later, err := r.Farms(ctx, m.Core.StakingRewardsFactory, 4)
	if err != nil || len(later) != len(m.Farms)-4 || later[0] != farms[4] {
		t.Errorf("farms from the 5th: %+v (%v), want %+v", later, err, farms[4:])
	}
	if none, err := r.Farms(ctx, m.Core.Router, 0); err != nil || len(none) != 0 {
		t.Errorf("farms of a contract that is not a factory: %+v (%v), want none", none, err)
	}

	// User 5 stakes half of the LP it gets from the deployer in the first pool's farm.
	pool, farm := m.Pools[0].Address, m.Farms[0].Address
	deployer, err := devnet.NewAccount(ctx, local.Client(), mustKey(t, local.Accounts()[0].PrivateKeyHex))
	if err != nil {
		t.Fatal(err)
	}
	user, err := devnet.NewAccount(ctx, local.Client(), mustKey(t, local.Accounts()[5].PrivateKeyHex))
	if err != nil {
		t.Fatal(err)
	}
	lp := big.NewInt(4e15)
	for _, tx := range []struct {
		from *devnet.Account
		to   common.Address
		data []byte
	}{
		{deployer, pool, tokenB.PackTransfer(user.Address, lp)},
		{user, pool, tokenB.PackApprove(farm, lp)},
		{user, farm, bindings.NewStakingRewards().PackStake(big.NewInt(3e15))},
	} {
		if _, err := tx.from.Transact(ctx, local, tx.to, nil, tx.data); err != nil {
			t.Fatal(err)
		}
	}
	local.Commit()
	local.Commit()

	before := rt.n.Load()
	owners := []common.Address{user.Address, common.HexToAddress("0x000000000000000000000000000000000000dEaD")}
	st, err := r.Positions(ctx, owners, [][]common.Address{{pool}, {}}, farms, []FactoryProbe{{Factory: m.Core.StakingRewardsFactory, Known: len(farms)}})
	if err != nil {
		t.Fatal(err)
	}
	if n := rt.n.Load() - before; n != 1 {
		t.Errorf("positions took %d round trips, want 1", n)
	}
	at := new(big.Int).SetUint64(st.Block)
	call := func(to common.Address, data []byte) *big.Int {
		t.Helper()
		out, err := local.Client().CallContract(ctx, callMsg(to, data), at)
		if err != nil {
			t.Fatal(err)
		}
		return new(big.Int).SetBytes(out)
	}
	if st.Held[0][0].Cmp(big.NewInt(1e15)) != 0 || len(st.Held[1]) != 0 {
		t.Errorf("held %v, want the 1e15 LP left in the wallet", st.Held)
	}
	for k, f := range farms {
		s := st.Stakes[0][k]
		staked, earned := call(f.Address, tokenB.PackBalanceOf(user.Address)), call(f.Address, bindings.NewStakingRewards().PackEarned(user.Address))
		if !s.OK || s.Staked.Cmp(staked) != 0 || s.Earned.Cmp(earned) != 0 {
			t.Errorf("stake in farm %d: %+v, the farm says %s staked and %s earned at block %d", k, s, staked, earned, st.Block)
		}
		if k == 0 && (staked.Cmp(big.NewInt(3e15)) != 0 || earned.Sign() == 0) {
			t.Errorf("the farm staked in: %s staked, %s earned", staked, earned)
		}
		if o := st.Stakes[1][k]; !o.OK || o.Staked.Sign() != 0 || o.Earned.Sign() != 0 {
			t.Errorf("an owner with nothing has %+v in farm %d", o, k)
		}
	}
	if len(st.Pairs) != len(farms) || len(st.Next) != 1 || st.Next[0] != (common.Address{}) {
		t.Errorf("%d pairs read (want the %d farms' pools), next farm %v (want none)", len(st.Pairs), len(farms), st.Next)
	}
	for _, p := range st.Pairs {
		if !p.OK() || p.Block != st.Block {
			t.Errorf("pair %+v", p)
		}
	}
	// A probe one short of the farms sees the last one.
	st, err = r.Positions(ctx, owners[:1], [][]common.Address{nil}, farms[:len(farms)-1], []FactoryProbe{{Factory: m.Core.StakingRewardsFactory, Known: len(farms) - 1}})
	if err != nil || st.Next[0] != farms[len(farms)-1].StakingToken {
		t.Errorf("probe past %d farms: %v (%v), want %s", len(farms)-1, st.Next, err, farms[len(farms)-1].StakingToken)
	}
}

func mustKey(t *testing.T, hexKey string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}
