package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet"
	"github.com/partner-platform/partnerd/index"
)

// chainsConfig is cc as base in a PARTNER_CHAINS file, loaded as serve loads it.
func chainsConfig(t *testing.T, cc chain.ChainConfig) chain.Config {
	t.Helper()
	raw, err := json.Marshal(chain.Config{Chains: map[string]chain.ChainConfig{"base": cc}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chains.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := chain.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// localUsers are the devnet's user accounts, whose nonces the test owns.
func localUsers(t *testing.T, local *devnet.Local) []*devnet.Account {
	t.Helper()
	var users []*devnet.Account
	for _, a := range local.Accounts() {
		if a.Role != devnet.RoleUser {
			continue
		}
		k, err := crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKeyHex, "0x"))
		if err != nil {
			t.Fatal(err)
		}
		acct, err := devnet.NewAccount(t.Context(), local.Client(), k)
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, acct)
	}
	return users
}

// logged counts the lines of a JSON log with the message prefix msg and the attribute lease.
func logged(t *testing.T, log *lockedBuffer, msg, lease string) int {
	t.Helper()
	n := 0
	for _, l := range logLines(t, log.String()) {
		if strings.HasPrefix(l.Msg, msg) && strings.Contains(l.Raw, `"lease":"`+lease+`"`) {
			n++
		}
	}
	return n
}

// checkTradesAndPrice: ZETA's trades read from the index are the trades sent, and its price is
// the pool's on the chain.
func checkTradesAndPrice(t *testing.T, w *marketWorld, who string) {
	t.Helper()
	zeta := w.zeta.Hex()
	w.eventually(who+": trades indexed", func() string {
		var trades struct {
			Trades []struct{ Side, Trader, TokenAmount, OtherAmount string }
		}
		status, body := w.getRaw("/v1/tokens/" + zeta + "/trades?chain=base")
		if status != http.StatusOK {
			return fmt.Sprintf("%d %s", status, body)
		}
		if err := json.Unmarshal(body, &trades); err != nil {
			return err.Error()
		}
		if len(trades.Trades) != len(w.trades) {
			return fmt.Sprintf("%d trades, want %d", len(trades.Trades), len(w.trades))
		}
		for i, want := range w.trades {
			got := trades.Trades[len(trades.Trades)-1-i]
			if got.Side != want.side || got.Trader != want.trader.Hex() || got.TokenAmount != human(want.zeta, 18) || got.OtherAmount != human(want.other, 6) {
				return fmt.Sprintf("trade %d = %+v, want %s %s ZETA for %s USD by %s", i, got, want.side, human(want.zeta, 18), human(want.other, 6), want.trader)
			}
		}
		return ""
	})
	price := ratioOf(w.balance(w.usd, w.pool), 6, w.balance(w.zeta, w.pool), 18)
	w.eventually(who+": price", func() string {
		var p struct{ PriceUsd, Pool string }
		status, body := w.getRaw("/v1/tokens/" + zeta + "/price?chain=base")
		if status != http.StatusOK {
			return fmt.Sprintf("%d %s", status, body)
		}
		if err := json.Unmarshal(body, &p); err != nil {
			return err.Error()
		}
		if !near(p.PriceUsd, price) || p.Pool != w.pool.Hex() {
			return fmt.Sprintf("price %s from %s, chain says %v from %s", p.PriceUsd, p.Pool, price, w.pool.Hex())
		}
		return ""
	})
}

// TestLeaseTwoReplicas: two replicas on one PostgreSQL database, configured with one chain (a
// devnet the test runs, through PARTNER_CHAINS): exactly one indexes it (it holds the lease
// "index:base" and says so at INFO; the other stands by), both answer the market reads correctly
// from the shared index, and when the indexer shuts down the other takes the lease over and
// indexes what comes next.
func TestLeaseTwoReplicas(t *testing.T) {
	t.Parallel()
	c := postgresCLI(t)
	local, err := devnet.StartLocal(t.Context(), devnet.LocalOptions{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	cfg := Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: 500 * time.Millisecond,
		Chains: chainsConfig(t, local.ChainConfig()), DevnetChain: "base"}
	type replica struct {
		m    *Main
		log  *lockedBuffer
		stop func()
		w    *marketWorld
	}
	var rs [2]*replica
	for i := range rs {
		m, log, stop := startLogged(t, cfg)
		if m.chains.devnet != nil {
			t.Fatal("local mode started although PARTNER_CHAINS configures base")
		}
		rs[i] = &replica{m: m, log: log, stop: stop}
	}
	cons := c.createConsumer("Partner", "--scopes", "market:read,portfolio:read", "--rpm", "100000", "--burst", "10000", "--enable")
	key := c.createKey(cons.ID, "k").Key

	first := &marketWorld{t: t, ctx: t.Context(), m: rs[0].m, chain: local, market: local.Market(), key: key}
	first.tradeZeta(localUsers(t, local))
	for i, r := range rs {
		w := *first
		w.m = r.m
		r.w = &w
		checkTradesAndPrice(t, r.w, fmt.Sprintf("replica %d", i))
	}

	// Exactly one indexes: the lease's holder, who said so; the other stood by.
	cur, ok, err := rs[0].m.chains.leases.Current(t.Context(), "index:base")
	if err != nil || !ok {
		t.Fatalf("lease index:base: %+v %v %v", cur, ok, err)
	}
	var holder, standby *replica
	for _, r := range rs {
		if r.m.chains.leases.Holder() == cur.Holder {
			holder = r
		} else {
			standby = r
		}
	}
	if holder == nil {
		t.Fatalf("lease index:base held by %q, neither replica", cur.Holder)
	}
	if n := logged(t, holder.log, "lease taken", "index:base"); n != 1 {
		t.Errorf("the indexer logged taking the lease %d times, want 1:\n%s", n, holder.log)
	}
	if n := logged(t, standby.log, "lease taken", "index:base"); n != 0 {
		t.Errorf("the other replica logged taking the lease too:\n%s", standby.log)
	}
	if n := logged(t, standby.log, "lease held by another replica", "index:base"); n != 1 {
		t.Errorf("the other replica did not say it stands by:\n%s", standby.log)
	}

	// The indexer shuts down (releasing the lease): the other takes over within the renewal
	// interval and indexes the next trade.
	holder.stop()
	released := time.Now()
	deadline := released.Add(index.DefaultLeaseTimings.Renew + 3*time.Second)
	for {
		cur, _, err := standby.m.chains.leases.Current(t.Context(), "index:base")
		if err != nil {
			t.Fatal(err)
		}
		if cur.Holder == standby.m.chains.leases.Holder() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other replica did not take the released lease within %v (holder %q)", time.Since(released), cur.Holder)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("took over %v after the indexer shut down", time.Since(released).Round(time.Millisecond))
	if n := logged(t, holder.log, "lease released", "index:base"); n != 1 {
		t.Errorf("the indexer did not log releasing its lease:\n%s", holder.log)
	}
	// The store shows the new holder a moment before its log line is written.
	for start := time.Now(); logged(t, standby.log, "lease taken", "index:base") != 1; time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 5*time.Second {
			t.Errorf("the new indexer did not log taking the lease:\n%s", standby.log)
			break
		}
	}
	w := standby.w
	w.swap(w.users[0], "buy", units(300, 6))
	checkTradesAndPrice(t, w, "the new indexer")
	for _, r := range rs {
		for _, l := range logLines(t, r.log.String()) {
			if l.Level == "ERROR" {
				t.Errorf("logged %s", l.Raw)
			}
		}
	}
}

// TestLeaseLocalModeOnPostgres: a replica in local mode on PostgreSQL owns the devnet (the lease
// "devnet"); a second replica in local mode on that database is refused at start, naming the
// first; once the first shuts down, local mode starts again there.
func TestLeaseLocalModeOnPostgres(t *testing.T) {
	t.Parallel()
	c := postgresCLI(t)
	cfg := Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: 500 * time.Millisecond, Chains: chain.Config{}, DevnetChain: "base"}
	first, _, stop := startLogged(t, cfg)
	if first.chains.devnet == nil {
		t.Fatal("local mode did not start")
	}
	second := &Main{Config: cfg, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	start := time.Now()
	err := second.Run(t.Context())
	if err == nil {
		second.Close()
		t.Fatal("a second replica started local mode on the same PostgreSQL")
	}
	want := "local mode on a shared PostgreSQL: another replica (" + first.chains.leases.Holder() + ") runs the devnet"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "PARTNER_CHAINS") {
		t.Errorf("refusal: %v\nwant it to contain %q and say how to configure PARTNER_CHAINS", err, want)
	}
	t.Logf("refused after %v: %v", time.Since(start).Round(time.Millisecond), err)
	stop()
	again, _, _ := startLogged(t, cfg)
	if again.chains.devnet == nil {
		t.Fatal("local mode did not start after the devnet's replica shut down")
	}
}
