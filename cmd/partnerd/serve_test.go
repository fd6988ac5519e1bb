package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"testing"
	"time"
)

// startMain runs the service in-process on a free port against the cli's database.
func startMain(t *testing.T, c *cli, syncInterval time.Duration) *Main {
	t.Helper()
	m := &Main{
		Config: Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, SyncInterval: syncInterval},
		Log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("Main.Run: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("Main.Close: %v", err)
		}
	})
	return m
}

// TestNewConsumerCallsAtOnce: a consumer and key created right after the server (re)loaded its
// policy work on the very first call, without waiting for the next sync poll. The sync interval is
// long here, so only the on-demand reload can admit the call; it must not be skipped because a
// reload that predates the consumer finished a moment ago.
func TestNewConsumerCallsAtOnce(t *testing.T) {
	t.Parallel()
	c := sqliteCLI(t)
	m := startMain(t, c, 4*time.Second)
	cons := c.createConsumer("Fresh", "--scopes", "market:read", "--enable")
	k := c.createKey(cons.ID, "first")

	req, err := http.NewRequest(http.MethodGet, "http://"+m.Addr()+"/v1/markets/trending", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", k.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET trending: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("first call of a consumer created just after start: %d %s, want 200", resp.StatusCode, body)
	}
}

// TestTuneGC: serve sets the collector's target to defaultGCPercent, unless GOGC says otherwise.
func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", defaultGCPercent}, {"50", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		tuneGC(func(name string) string {
			if name == "GOGC" {
				return tc.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: the collector's target is %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
