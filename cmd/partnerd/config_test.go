package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestServeConfigRedisURL: PARTNER_REDIS_URL selects Redis for rate limits; a URL that does not
// parse is refused with a message naming the variable (and never repeating a password).
func TestServeConfigRedisURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		want string // empty: accepted
	}{
		{"", ""},
		{"redis://127.0.0.1:6379/0", ""},
		{"redis://x", ""}, // refused before Redis was supported; now accepted (whether it answers is checked at start)
		{"redis://:secret@redis.internal:6380/2", ""},
		{"rediss://redis.internal:6380/0", ""},
		{"127.0.0.1:6379", "PARTNER_REDIS_URL"},
		{"http://127.0.0.1:6379", "PARTNER_REDIS_URL"},
		{"redis://127.0.0.1:port/0", "PARTNER_REDIS_URL"},
		{"redis://:secret@127.0.0.1:6379/db", "PARTNER_REDIS_URL"},
		{"redis://127.0.0.1:6379/0/1", "PARTNER_REDIS_URL"},
	} {
		cfg, err := serveConfig(nil, func(name string) string {
			if name == "PARTNER_REDIS_URL" {
				return tc.url
			}
			return ""
		})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("PARTNER_REDIS_URL=%q: %v, want accepted", tc.url, err)
		case tc.want == "" && cfg.RedisURL != tc.url:
			t.Errorf("PARTNER_REDIS_URL=%q: RedisURL %q", tc.url, cfg.RedisURL)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("PARTNER_REDIS_URL=%q: %v, want an error mentioning %s", tc.url, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("PARTNER_REDIS_URL=%q: error %q repeats the password", tc.url, err)
		}
	}
}

// privateRedis runs a redis-server of the test's own on a free port (nothing on disk); it skips
// when the binary is missing, or fails under PARTNER_TEST_REQUIRE_ALL=1.
type privateRedis struct {
	t    *testing.T
	port string
	cmd  *exec.Cmd
}

func startPrivateRedis(t *testing.T) *privateRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("redis-server is required (PARTNER_TEST_REQUIRE_ALL=1) but not installed: %v", err)
		}
		t.Skipf("skipping: redis-server not installed (set PARTNER_TEST_REQUIRE_ALL=1 to fail): %v", err)
	}
	_, port, _ := net.SplitHostPort(freeAddr(t))
	r := &privateRedis{t: t, port: port}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *privateRedis) url() string { return "redis://127.0.0.1:" + r.port + "/0" }

func (r *privateRedis) start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", r.port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + r.port, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on port %s does not answer after 10s", r.port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *privateRedis) stop() {
	if r.cmd != nil {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		r.cmd = nil
	}
}

// TestRedisReadyAndFailClosed runs the service on a private Redis: it starts with Redis rate
// limits (and says so in its start line), answers calls with them, and while Redis is down fails
// /readyz and answers calls 503 unavailable (never admitting one); once Redis is back both recover
// without a restart. A Redis that does not answer at start stops the start.
func TestRedisReadyAndFailClosed(t *testing.T) {
	t.Parallel()
	rd := startPrivateRedis(t)
	c := sqliteCLI(t)
	cons := c.createConsumer("Shared", "--scopes", "market:read", "--enable")
	key := c.createKey(cons.ID, "k")
	m, log, _ := startLogged(t, Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, RedisURL: rd.url(), SyncInterval: time.Second})
	if !strings.Contains(log.String(), `"rateLimits":"redis"`) {
		t.Errorf("start line does not say rateLimits redis:\n%s", log)
	}
	base := "http://" + m.Addr()
	get := func(path string, withKey bool) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if withKey {
			req.Header.Set("X-API-Key", key.Key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if withKey && resp.StatusCode == http.StatusOK && resp.Header.Get("X-RateLimit-Remaining") == "" {
			t.Errorf("GET %s: 200 without X-RateLimit-Remaining", path)
		}
		return resp.StatusCode, string(body)
	}
	code := func(body string) string {
		var e struct{ Code string }
		_ = json.Unmarshal([]byte(body), &e)
		return e.Code
	}
	// eventually polls until path answers want, for at most 10 s (the client reconnects by itself).
	eventually := func(path string, withKey bool, want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got, body := get(path, withKey)
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s: %d %s, want %d within 10s", path, got, body, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	if got, body := get("/readyz", false); got != http.StatusOK {
		t.Fatalf("/readyz with Redis up: %d %s", got, body)
	}
	if got, body := get("/v1/markets/trending", true); got != http.StatusOK {
		t.Fatalf("call with Redis up: %d %s", got, body)
	}

	rd.stop()
	if got, body := get("/readyz", false); got != http.StatusServiceUnavailable {
		t.Errorf("/readyz with Redis down: %d %s, want 503", got, body)
	}
	for range 3 {
		if got, body := get("/v1/markets/trending", true); got != http.StatusServiceUnavailable || code(body) != "unavailable" {
			t.Fatalf("call with Redis down: %d %s, want 503 unavailable (fail closed)", got, body)
		}
	}

	rd.start()
	eventually("/readyz", false, http.StatusOK)
	eventually("/v1/markets/trending", true, http.StatusOK)

	// A Redis that does not answer at start: the service refuses to start.
	dead := freeAddr(t)
	bad := &Main{Config: Config{Addr: "127.0.0.1:0", DatabaseURL: c.url, RedisURL: "redis://" + dead + "/0", SyncInterval: time.Second}, Log: m.Log}
	err := bad.Run(context.Background())
	if err == nil {
		bad.Close()
		t.Fatal("Main.Run with an unreachable Redis started, want a refusal")
	}
	if !strings.Contains(err.Error(), "PARTNER_REDIS_URL") {
		t.Errorf("Main.Run with an unreachable Redis: %v, want a message naming PARTNER_REDIS_URL", err)
	}
}
