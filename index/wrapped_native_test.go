package index_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

var wethABI = bindings.NewWETH9()

// TestFollowWrappedNative: the devnet's wrapped native token is the official WETH9, whose deposit()
// and withdraw() emit Deposit and Withdrawal but no Transfer. Wrapping makes a holder and
// unwrapping takes the balance back, whether it happened before the token was found (backfilled)
// or after; a reorg takes them back like Transfers.
func TestFollowWrappedNative(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		// Before any pool exists (so before the index follows WETH): two users wrap, one unwraps part.
		w := newChainWorld(t, st, 3, func(w *chainWorld) {
			w.tx(w.users[0], w.addrs.WrappedNative, units(5, 18), wethABI.PackDeposit())
			w.tx(w.users[1], w.addrs.WrappedNative, units(3, 18), wethABI.PackDeposit())
			w.tx(w.users[1], w.addrs.WrappedNative, nil, wethABI.PackWithdraw(units(1, 18)))
		})
		weth := w.addrs.WrappedNative
		pool := w.pair(weth, w.addrs.USD)
		everyone := []common.Address{w.deployer.Address, pool, w.addrs.Router}
		for _, u := range w.users {
			everyone = append(everyone, u.Address)
		}
		check := func(when string) {
			t.Helper()
			w.checkBalances(weth, everyone...)
			holders := 0
			for _, a := range everyone {
				if w.balanceOf(weth, a).Sign() > 0 {
					holders++
				}
			}
			if n, err := w.ix.HolderCount(w.ctx, "base", lowerHex(weth)); err != nil || n != holders {
				t.Errorf("%s: %d WETH holders indexed (%v), the chain has %d", when, n, err, holders)
			}
		}
		w.sync()
		check("wrapped before the index followed WETH")

		// After: a third user wraps, the first unwraps everything, the second sends some on.
		w.tx(w.users[2], weth, units(2, 18), wethABI.PackDeposit())
		w.tx(w.users[0], weth, nil, wethABI.PackWithdraw(units(5, 18)))
		w.tx(w.users[1], weth, nil, wethABI.PackTransfer(w.users[2].Address, units(1, 18)))
		w.sync()
		check("wrapped, unwrapped and sent while followed")
		if w.balanceOf(weth, w.users[0].Address).Sign() != 0 {
			t.Fatal("the first user still holds WETH")
		}

		// A reorg orphans a wrap and an unwrap: the index takes both back.
		fork, err := w.sim.Client().HeaderByNumber(w.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.tx(w.users[0], weth, units(4, 18), wethABI.PackDeposit())
		w.tx(w.users[2], weth, nil, wethABI.PackWithdraw(units(3, 18)))
		w.sync()
		check("before the reorg")
		if err := w.sim.Fork(fork.Hash()); err != nil {
			t.Fatal(err)
		}
		w.sim.Rollback() // drop the orphaned transactions instead of mining them again
		for range 4 {
			w.sim.Commit()
		}
		w.sync()
		w.accounts()
		check("after the reorg")
		if w.balanceOf(weth, w.users[2].Address).Cmp(units(3, 18)) != 0 {
			t.Fatal("the reorg did not take the unwrap back on the chain")
		}
	})
}
