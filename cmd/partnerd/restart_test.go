package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
)

// logLine is one line of the service's JSON log.
type logLine struct {
	Level string `json:"level"`
	Msg   string `json:"msg"`
	Raw   string `json:"-"`
}

// logLines parses a JSON log.
func logLines(t *testing.T, log string) []logLine {
	t.Helper()
	var out []logLine
	for _, raw := range strings.Split(strings.TrimSpace(log), "\n") {
		if raw == "" {
			continue
		}
		var l logLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("log line %q is not JSON: %v", raw, err)
		}
		l.Raw = raw
		out = append(out, l)
	}
	return out
}

// startLogged runs the service with cfg, its JSON log (INFO and up) in the returned buffer; stop
// closes it (also done when the test ends).
func startLogged(t *testing.T, cfg Config) (m *Main, log *lockedBuffer, stop func()) {
	t.Helper()
	log = &lockedBuffer{}
	m = &Main{Config: cfg, Log: slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v\nlog:\n%s", err, log)
	}
	closed := false
	stop = func() {
		t.Helper()
		if closed {
			return
		}
		closed = true
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	}
	t.Cleanup(stop)
	return m, log, stop
}

// indexedToHead waits until m's index of base follows the chain m reads (the genesis it serves)
// up to the chain's head when called.
func indexedToHead(t *testing.T, m *Main, within time.Duration) {
	t.Helper()
	ctx := t.Context()
	head, genesis, err := chainHead(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(within)
	var last string
	for time.Now().Before(deadline) {
		if cur, ok, err := m.chains.index.Cursor(ctx, "base"); err != nil {
			last = err.Error()
		} else if !ok || cur.Genesis != genesis || cur.Block < int64(head) {
			last = fmt.Sprintf("cursor %+v (indexed %v)", cur, ok)
		} else {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the index never reached block %d of the chain with genesis %s: %s", head, genesis, last)
}

// chainHead is the head and genesis hash of the chain m's devnet serves.
func chainHead(ctx context.Context, m *Main) (uint64, string, error) {
	c := m.chains.devnet.Client()
	head, err := c.BlockNumber(ctx)
	if err != nil {
		return 0, "", err
	}
	g, err := c.HeaderByNumber(ctx, big.NewInt(0))
	if err != nil {
		return 0, "", err
	}
	return head, strings.ToLower(g.Hash().Hex()), nil
}

// TestRestartLocalMode: `partnerd serve` in local mode, stopped and started again on the same
// SQLite file, indexes the new devnet (a new chain: its block 0 differs) from the start, quietly:
// neither run logs an ERROR, nor a WARN other than local mode's own banner (localModeBanner) (nothing blaming the
// configuration, no "reorg deeper than the kept block hashes"), and the price reads answer from
// the new chain's index.
func TestRestartLocalMode(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	cfg := Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: 500 * time.Millisecond, Chains: chain.Config{},
		DevnetChain: "base", DevnetTradeInterval: 200 * time.Millisecond}
	cons := c.createConsumer("Partner", "--scopes", "market:read", "--rpm", "100000", "--burst", "10000", "--enable")
	key := c.createKey(cons.ID, "k").Key
	var logs []string
	for run := range 2 {
		m, log, stop := startLogged(t, cfg)
		indexedToHead(t, m, 20*time.Second)
		time.Sleep(time.Second) // a few trades more, indexed as they come
		indexedToHead(t, m, 10*time.Second)
		weth := m.chains.devnet.Market().Core.WrappedNative.Hex()
		deadline := time.Now().Add(10 * time.Second)
		for {
			status, body := getWith(t, m, key, "/v1/tokens/"+weth+"/price?chain=base")
			if status == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("run %d: WETH price: %d %s", run+1, status, body)
			}
			time.Sleep(100 * time.Millisecond)
		}
		stop()
		logs = append(logs, log.String())
	}
	for run, log := range logs {
		for _, l := range logLines(t, log) {
			if l.Level == "ERROR" || (l.Level == "WARN" && !localModeBanner(l.Msg)) {
				t.Errorf("run %d logged %s", run+1, l.Raw)
			}
		}
	}
	if !strings.Contains(logs[1], "the RPC serves a new chain") {
		t.Errorf("the restart did not say that it indexes the new devnet from the start:\n%s", logs[1])
	}
}

// localModeBanner tells the WARN lines of local mode's banner (what the devnet is, its public test
// keys, contracts, tokens, pools and farms), loud on purpose.
func localModeBanner(msg string) bool {
	return strings.HasPrefix(msg, "LOCAL MODE") || strings.HasPrefix(msg, "devnet ") || strings.HasPrefix(msg, "LOCAL DEVNET")
}

// getWith calls m's API with key.
func getWith(t *testing.T, m *Main, key, path string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://"+m.Addr()+path, nil)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}
