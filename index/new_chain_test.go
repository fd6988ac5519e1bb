package index_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/chain/evm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/market"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
	"github.com/partner-platform/partnerd/venue"
)

// logBuffer collects log lines written from several goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestFollowRestartedDevnet is `make run` started again: the index in the store holds the chain of
// a devnet that is gone, and a new devnet (same deterministic contracts and accounts, a new chain)
// serves the RPC. The follower says at INFO that this is a new chain and indexes it from the start,
// logging no error or warning; the index and the market snapshot (the same service, warm on the
// old chain) hold the new chain only.
func TestFollowRestartedDevnet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := t.Context()
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		var logs logBuffer
		log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

		var ix *index.Store
		var pricing index.Pricing
		start := func() (*devnet.Local, *evm.Adapter) {
			t.Helper()
			l, err := devnet.StartLocal(ctx, devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = l.Close() })
			if ix == nil {
				pricing = index.PricingOf("base", l.ChainConfig())
				ix = index.New(st.Client, st.Dialect, map[string]index.Pricing{"base": pricing})
			}
			a, err := evm.Open(ctx, "base", l.ChainConfig(), venue.All(), ix, log)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(a.Close)
			return l, a
		}
		follow := func(a *evm.Adapter) {
			t.Helper()
			for caughtUp := false; !caughtUp; {
				var err error
				if caughtUp, err = a.Follower.Step(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		buy := func(l *devnet.Local, token common.Address) {
			t.Helper()
			a := l.Accounts()[5] // a user account: the devnet never signs for it
			key, err := crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKeyHex, "0x"))
			if err != nil {
				t.Fatal(err)
			}
			user, err := devnet.NewAccount(ctx, l.Client(), key)
			if err != nil {
				t.Fatal(err)
			}
			m := l.Market()
			swap := routerABI.PackSwapExactETHForTokens(big.NewInt(0), []common.Address{m.Core.WrappedNative, token}, user.Address, big.NewInt(math.MaxInt64))
			if _, err := user.Transact(ctx, l, m.Core.Router, units(1, 18), swap); err != nil {
				t.Fatal(err)
			}
		}

		// The first run: one AUR buy, indexed, and the market snapshot warm with it.
		old, oldAdapter := start()
		seeded := old.Market()
		aur, qrtz := seeded.Tokens[0], seeded.Tokens[2]
		if aur.Symbol != "AUR" || qrtz.Symbol != "QRTZ" {
			t.Fatalf("seeded tokens %+v", seeded.Tokens)
		}
		aurPool, qrtzPool := lowerHex(pairOf(t, seeded, aur.Address)), lowerHex(pairOf(t, seeded, qrtz.Address))
		buy(old, aur.Address)
		follow(oldAdapter)
		mkt := market.New(ix, []*market.Chain{{Name: "base", Source: oldAdapter.Source, Pricing: pricing}}, quiet)
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		go mkt.Run(runCtx)
		trades := func() map[string]int {
			hot, err := mkt.Pools(ctx, "base", market.ListHot, "")
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]int{}
			for _, p := range hot {
				out[strings.ToLower(p.Address)] = p.Figures.Buys[3] + p.Figures.Sells[3]
			}
			return out
		}
		eventually(t, "the AUR buy in the hot pools", func() string {
			if got := trades(); got[aurPool] != 1 || len(got) != 1 {
				return fmt.Sprintf("hot pools' trades %v, want 1 in the AUR pool %s", got, aurPool)
			}
			return ""
		})
		if err := old.Close(); err != nil {
			t.Fatal(err)
		}

		// The second run: a new devnet, longer than the first (two QRTZ buys), and the same store.
		fresh, freshAdapter := start()
		if fresh.Market().Core != seeded.Core {
			t.Fatalf("the devnet's contracts moved: %+v, then %+v", seeded.Core, fresh.Market().Core)
		}
		buy(fresh, qrtz.Address)
		buy(fresh, qrtz.Address)
		follow(freshAdapter)

		out := logs.String()
		if !strings.Contains(out, "level=INFO") || !strings.Contains(out, "new chain") {
			t.Errorf("no INFO line says the chain is a new one:\n%s", out)
		}
		if strings.Contains(out, "level=ERROR") || strings.Contains(out, "level=WARN") {
			t.Errorf("a new chain is no error nor warning:\n%s", out)
		}
		genesis, err := fresh.Client().HeaderByNumber(ctx, big.NewInt(0))
		if err != nil {
			t.Fatal(err)
		}
		if c, ok, err := ix.Cursor(ctx, "base"); err != nil || !ok || c.Genesis != strings.ToLower(genesis.Hash().Hex()) {
			t.Errorf("cursor %+v (%v, %v), want the new chain's genesis %s", c, ok, err, genesis.Hash())
		}
		for pool, want := range map[string]int{aurPool: 0, qrtzPool: 2} {
			got, err := ix.Trades(ctx, "base", []string{pool}, index.Page{Limit: 10})
			if err != nil || len(got) != want {
				t.Errorf("pool %s: %d trades indexed (%v), the new chain has %d", pool, len(got), err, want)
			}
		}
		eventually(t, "the market snapshot on the new chain", func() string {
			if got := trades(); got[qrtzPool] != 2 || len(got) != 1 {
				return fmt.Sprintf("hot pools' trades %v, want 2 in the QRTZ pool %s and none elsewhere", got, qrtzPool)
			}
			return ""
		})
		s, err := mkt.Summary(ctx, "base", aurPool)
		if err != nil {
			t.Fatal(err)
		}
		if want := market.Units(units(400_000, 18), 18); s.BaseReserve != want {
			t.Errorf("AUR pool's AUR reserve %s in the snapshot, the new chain's is the seeded %s", s.BaseReserve, want)
		}
	})
}

// pairOf returns the seeded pool of token against the wrapped native token.
func pairOf(t *testing.T, m devnet.Market, token common.Address) common.Address {
	t.Helper()
	for _, p := range m.Pools {
		if (p.Token0 == token && p.Token1 == m.Core.WrappedNative) || (p.Token1 == token && p.Token0 == m.Core.WrappedNative) {
			return p.Address
		}
	}
	t.Fatalf("no seeded pool of %s against WETH", token)
	return common.Address{}
}

// eventually retries check (which reports what is still wrong) for up to 15 seconds.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		problem := check()
		if problem == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, problem)
		}
	}
}
