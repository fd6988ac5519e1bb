package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/auditentry"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// The store-fault part of the reliability suite (issue 12): the database refuses the replicas'
// connections, or Redis stops, while clients call; then the store comes back. Authenticated calls
// answer 503 unavailable while the store is down (never 200 without the store, never 500), succeed
// again without a restart, and nothing is half-written.

// Bounds of the store-fault tests.
const (
	// faultDetectBound: how long after the database starts refusing a replica may still answer a
	// call 200. Every call started later, until the database is back, is refused. The store
	// health watcher probes every 250 ms and a refusal ends its probe, but on a loaded machine
	// PostgreSQL can take most of a second to refuse a connection: the bound is the README's for
	// a server slow to answer, the probe interval plus the probe's timeout.
	faultDetectBound = store.HealthInterval + store.HealthTimeout
	// faultRecoveryBound: how long after the database (or Redis) is back the first call succeeds
	// again (documented in the README: the watcher's next probe, 250 ms, plus a reconnect).
	faultRecoveryBound = 2 * time.Second
	// faultHold is how long each fault lasts.
	faultHold = 3 * time.Second
)

// faultCall is one call of a faultLoad and its answer.
type faultCall struct {
	replica    int
	kind       string // price (a cached read), invalid (a 400) or build
	idemKey    string // builds: the Idempotency-Key
	start, end time.Time
	err        error // no answer (transport error)
	status     int
	code       string
	requestID  string
	retryAfter string
	admitted   bool // X-RateLimit-Remaining was sent: the call was admitted
	body       []byte
}

// faultLoad is clients calling every replica in a loop until stopped.
type faultLoad struct {
	stop func() []faultCall
}

// buildBody is the transfer every build of the store-fault tests asks for.
func (rs *replicaSet) buildBody() []byte {
	a := rs.local.Accounts()
	b, _ := json.Marshal(map[string]any{"chain": "base", "user": a[5].Address.Hex(), "to": a[6].Address.Hex(), "token": "native", "amount": "0.1"})
	return b
}

// doFault sends one call for a faultLoad (body nil: GET).
func (rs *replicaSet) doFault(client *http.Client, replica int, kind, method, path string, body []byte, idemKey string) faultCall {
	c := faultCall{replica: replica, kind: kind, idemKey: idemKey, start: time.Now()}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(context.WithoutCancel(rs.t.Context()), method, rs.replicas[replica].base+path, rd)
	req.Header.Set("X-API-Key", rs.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	res, err := client.Do(req)
	if err != nil {
		c.err, c.end = err, time.Now()
		return c
	}
	c.body, c.err = io.ReadAll(res.Body)
	res.Body.Close()
	c.end = time.Now()
	c.status = res.StatusCode
	c.requestID = res.Header.Get("X-Request-Id")
	c.retryAfter = res.Header.Get("Retry-After")
	c.admitted = res.Header.Get("X-RateLimit-Remaining") != ""
	var e struct{ Code string }
	_ = json.Unmarshal(c.body, &e)
	c.code = e.Code
	return c
}

// startFaultLoad runs clients per replica calling it in a loop: cached price reads of weth and, one
// in five, a 400; with builds, one more client per replica asks for transfer builds, each under an
// Idempotency-Key of its own.
func (rs *replicaSet) startFaultLoad(clientsPerReplica int, weth string, builds bool) faultLoad {
	ctx, cancel := context.WithCancel(rs.t.Context())
	var mu sync.Mutex
	var calls []faultCall
	var wg sync.WaitGroup
	add := func(c faultCall) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
	}
	body := rs.buildBody()
	for r := range rs.replicas {
		for range clientsPerReplica {
			wg.Go(func() {
				client := &http.Client{Timeout: 10 * time.Second}
				defer client.CloseIdleConnections()
				for i := 0; ctx.Err() == nil; i++ {
					kind, path := "price", "/v1/tokens/"+weth+"/price?chain=base"
					if i%5 == 0 {
						kind, path = "invalid", "/v1/tokens/not-an-address/price?chain=base"
					}
					add(rs.doFault(client, r, kind, http.MethodGet, path, nil, ""))
					time.Sleep(2 * time.Millisecond)
				}
			})
		}
		if builds {
			wg.Go(func() {
				client := &http.Client{Timeout: 10 * time.Second}
				defer client.CloseIdleConnections()
				for i := 0; ctx.Err() == nil; i++ {
					add(rs.doFault(client, r, "build", http.MethodPost, "/v1/build/transfer", body, fmt.Sprintf("fault-%d-%d", r, i)))
					time.Sleep(20 * time.Millisecond)
				}
			})
		}
	}
	return faultLoad{stop: func() []faultCall {
		cancel()
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		slices.SortFunc(calls, func(a, b faultCall) int { return a.start.Compare(b.start) })
		return calls
	}}
}

// pgFault makes the PostgreSQL server refuse every connection to one database and drops the open
// ones, from a connection to another database of the same server.
type pgFault struct {
	t     *testing.T
	admin *pgx.Conn
	name  string
}

func newPGFault(t *testing.T, rs *replicaSet) *pgFault {
	t.Helper()
	var name string
	if err := rs.db.DB.QueryRowContext(t.Context(), "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	server := os.Getenv("PARTNER_TEST_POSTGRES_URL")
	if server == "" {
		server = storetest.DefaultPostgresURL
	}
	admin, err := pgx.Connect(t.Context(), server)
	if err != nil {
		t.Fatalf("connect to the PostgreSQL server as admin: %v", err)
	}
	f := &pgFault{t: t, admin: admin, name: name}
	t.Cleanup(func() {
		f.heal() // the database is dropped WITH (FORCE) anyway; let nothing wait on it meanwhile
		admin.Close(context.Background())
	})
	return f
}

// down refuses new connections to the database and terminates the open ones.
func (f *pgFault) down() {
	f.t.Helper()
	ctx := context.Background()
	if _, err := f.admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{f.name}.Sanitize()+" ALLOW_CONNECTIONS false"); err != nil {
		f.t.Fatalf("refuse connections: %v", err)
	}
	if _, err := f.admin.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", f.name); err != nil {
		f.t.Fatalf("terminate connections: %v", err)
	}
}

// heal allows connections again.
func (f *pgFault) heal() {
	if _, err := f.admin.Exec(context.Background(), "ALTER DATABASE "+pgx.Identifier{f.name}.Sanitize()+" ALLOW_CONNECTIONS true"); err != nil {
		f.t.Errorf("allow connections: %v", err)
	}
}

// tryCLI runs an admin command that may fail; it returns stdout and the error (with stderr).
func tryCLI(e *e2e, args ...string) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Env = e.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// faultFigures is what a store-fault test found, per replica.
type faultFigures struct {
	before, during, after map[string]int // "<status> <code>" -> calls
	noRetryAfter          int            // 503s during the fault without Retry-After
	lastServed            time.Duration  // the last 200 started during the fault, from its start
	firstRefused          time.Duration  // the first 503 during the fault, from its start
	recovered             time.Duration  // the first 200 after the store is back, from then
}

func (f faultFigures) String() string {
	return fmt.Sprintf("before %v; during %v (first 503 after %v, last 200 started %v in, %d 503s without Retry-After); after %v (first 200 %v after the store was back)",
		f.before, f.during, f.firstRefused.Round(time.Millisecond), f.lastServed.Round(time.Millisecond), f.noRetryAfter, f.after, f.recovered.Round(time.Millisecond))
}

// checkFaultCalls checks the answers of a fault's load on one replica: no 500 ever, every 503 is
// unavailable, a call started after faultDetectBound into the fault (plus settle, the time the
// fault itself took to be in place) and before it healed is never 200, and after the heal a price
// read succeeds within faultRecoveryBound and none fails later.
func checkFaultCalls(t *testing.T, calls []faultCall, replica int, faultAt, healAt time.Time, settle time.Duration, wantRetryAfter bool) faultFigures {
	t.Helper()
	f := faultFigures{before: map[string]int{}, during: map[string]int{}, after: map[string]int{}, recovered: -1, firstRefused: -1}
	var recoveredAt time.Time
	for _, c := range calls {
		if c.replica != replica || c.err != nil {
			continue
		}
		label := fmt.Sprintf("%d %s", c.status, c.code)
		switch {
		case c.status >= 500 && c.status != http.StatusServiceUnavailable:
			t.Errorf("replica %d: %s %s answered %d at %v into the fault: never 500 (%s)", replica, c.kind, c.requestID, c.status, c.start.Sub(faultAt).Round(time.Millisecond), c.body)
		case c.status == http.StatusServiceUnavailable && c.code != "unavailable":
			t.Errorf("replica %d: 503 with code %q, want unavailable: %s", replica, c.code, c.body)
		}
		switch {
		case c.end.Before(faultAt):
			f.before[label]++
			if c.status >= 500 {
				t.Errorf("replica %d: %s answered %d before the fault: %s", replica, c.kind, c.status, c.body)
			}
		case c.start.Before(healAt):
			f.during[label]++
			in := c.start.Sub(faultAt)
			if c.status == http.StatusServiceUnavailable && f.firstRefused < 0 && in >= 0 {
				f.firstRefused = in
			}
			if c.status/100 == 2 {
				f.lastServed = max(f.lastServed, in)
				if in > faultDetectBound+settle {
					t.Errorf("replica %d: %s %s started %v into the fault answered %d: the store is down, want 503", replica, c.kind, c.requestID, in.Round(time.Millisecond), c.status)
				}
			}
			if c.status == http.StatusServiceUnavailable && c.retryAfter == "" {
				f.noRetryAfter++
				if wantRetryAfter && in > faultDetectBound+settle {
					t.Errorf("replica %d: 503 during the fault without Retry-After: %s", replica, c.body)
				}
			}
		default:
			f.after[label]++
			if c.kind == "price" && c.status == http.StatusOK && recoveredAt.IsZero() {
				recoveredAt = c.end
				f.recovered = c.end.Sub(healAt)
			}
			if !recoveredAt.IsZero() && c.start.After(recoveredAt) && c.kind != "build" && c.status >= 500 {
				t.Errorf("replica %d: %s answered %d %v after it had recovered: %s", replica, c.kind, c.status, c.start.Sub(recoveredAt).Round(time.Millisecond), c.body)
			}
		}
	}
	switch {
	case f.recovered < 0:
		t.Errorf("replica %d: no price read succeeded after the store came back", replica)
	case f.recovered > faultRecoveryBound:
		t.Errorf("replica %d: first success %v after the store came back, want within %v", replica, f.recovered, faultRecoveryBound)
	}
	return f
}

// logCauses logs what replica's log says of each call it answered with a 5xx other than 503, so a
// failure shows its cause.
func logCauses(t *testing.T, replica *e2e, calls []faultCall, i int) {
	t.Helper()
	for _, c := range calls {
		if c.replica != i || c.status < 500 || c.status == http.StatusServiceUnavailable || c.requestID == "" {
			continue
		}
		for line := range strings.Lines(replica.stderr.String()) {
			if strings.Contains(line, c.requestID) {
				t.Logf("replica %d logged of %s: %s", i, c.requestID, strings.TrimSpace(line))
			}
		}
	}
}

// answered is the calls a client got a 2xx or 4xx for: each must be in the usage records.
func answered(calls []faultCall) []answeredCall {
	var out []answeredCall
	for _, c := range calls {
		if c.err == nil && c.requestID != "" && c.status < 500 {
			out = append(out, answeredCall{id: c.requestID, at: c.end})
		}
	}
	return out
}

// awaitWETHPrice waits until every replica answers the WETH price (the index has the pool).
func (rs *replicaSet) awaitWETHPrice() string {
	weth := rs.local.Market().Core.WrappedNative.Hex()
	for _, r := range rs.replicas {
		deadline := time.Now().Add(20 * time.Second)
		for {
			got := r.call(http.MethodGet, "/v1/tokens/"+weth+"/price?chain=base", rs.key, nil)
			if got.status == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				r.fatalf("WETH price: %d %s", got.status, got.raw)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return weth
}

// TestStoreFaultPostgres: two replicas on PostgreSQL under load (cached price reads, 400s and
// idempotent builds) while the database refuses their connections for 3 s, then allows them again.
// During the fault every authenticated call is 503 unavailable with Retry-After once the replica
// noticed (within faultDetectBound), /readyz fails, and the CLI cannot create a key; never a 500.
// Afterwards the replicas serve again within faultRecoveryBound without a restart, and nothing is
// half-written: every call answered 2xx or 4xx is in the usage records, every build retried under
// its Idempotency-Key replays its answer or runs once (one confirmation token per key), and a key
// created while the fault began exists with its audit entry or not at all.
func TestStoreFaultPostgres(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	rs := startReplicas(t, 2, 1_000_000, 1_000_000, false)
	fault := newPGFault(t, rs)
	weth := rs.awaitWETHPrice()
	t.Logf("replicas serving %v after the start of the test", time.Since(begin).Round(time.Millisecond))
	cons := rs.replicas[0]

	load := rs.startFaultLoad(2, weth, true)
	time.Sleep(1500 * time.Millisecond)

	// The fault begins while keys are being created: four CLI runs started 100 to 25 ms before it.
	type created struct {
		name string
		out  json.RawMessage
		err  error
	}
	racing := make(chan created, 4)
	names := []string{"during"}
	for i := range 4 {
		name := fmt.Sprintf("racing-%d", i)
		names = append(names, name)
		go func() {
			out, err := tryCLI(cons, "key", "create", "--consumer", "1", "--name", name)
			racing <- created{name, out, err}
		}()
		time.Sleep(25 * time.Millisecond)
	}
	// The fault begins with refusing new connections; it is wholly in place once the open ones
	// are terminated too (settle later): calls may fail from the start, detection is timed from the end.
	faultAt := time.Now()
	fault.down()
	settle := time.Since(faultAt)
	t.Logf("database %s refuses connections (refusing and terminating took %v)", fault.name, settle.Round(time.Millisecond))

	time.Sleep(faultDetectBound)
	for i, r := range rs.replicas {
		got := r.call(http.MethodGet, "/readyz", "", nil)
		if got.status != http.StatusServiceUnavailable {
			t.Errorf("replica %d: /readyz with the database down: %d %s, want 503", i, got.status, got.raw)
		}
	}
	cliStart := time.Now()
	if out, err := tryCLI(cons, "key", "create", "--consumer", "1", "--name", "during"); err == nil {
		t.Errorf("key create with the database down succeeded: %s", out)
	} else {
		t.Logf("key create with the database down failed after %v: %v", time.Since(cliStart).Round(time.Millisecond), err)
	}
	time.Sleep(time.Until(faultAt.Add(faultHold)))

	healAt := time.Now()
	fault.heal()
	time.Sleep(3 * time.Second)
	calls := load.stop()
	var issued []created
	for range 4 {
		c := <-racing
		if c.err != nil {
			t.Logf("key create %q as the fault began: failed: %v", c.name, c.err)
			continue
		}
		t.Logf("key create %q as the fault began: succeeded", c.name)
		issued = append(issued, c)
	}

	for i, r := range rs.replicas {
		f := checkFaultCalls(t, calls, i, faultAt, healAt, settle, true)
		t.Logf("replica %d: %s", i, f)
		logCauses(t, r, calls, i)
	}
	for i, r := range rs.replicas {
		if got := r.call(http.MethodGet, "/readyz", "", nil); got.status != http.StatusOK {
			t.Errorf("replica %d: /readyz after the fault: %d %s", i, got.status, got.raw)
		}
	}

	// Usage: every call answered 2xx or 4xx is recorded, those of the fault included.
	ans := answered(calls)
	if lost := rs.awaitRecorded(ans, 0); len(lost) > 0 {
		t.Errorf("%d calls answered, %d not in the usage records after the fault", len(ans), len(lost))
	} else {
		t.Logf("%d calls answered 2xx/4xx, all in the usage records", len(ans))
	}

	checkFaultBuilds(t, rs, calls)
	checkFaultKeys(t, rs, names...)
	// A key the CLI handed out works on every replica.
	for _, c := range issued {
		var k struct{ Key string }
		if err := json.Unmarshal(c.out, &k); err != nil || k.Key == "" {
			t.Errorf("key create %q printed %s", c.name, c.out)
			continue
		}
		for _, r := range rs.replicas {
			r.await("key "+c.name+" on "+r.base, http.StatusOK, "", func() response {
				return r.call(http.MethodGet, "/v1/tokens/"+weth+"/price?chain=base", k.Key, nil)
			})
		}
	}
}

// checkFaultBuilds retries every build of the load under its Idempotency-Key with the same body:
// one answered 200 is replayed byte for byte (the answer goes out only once its record is stored);
// any other runs now. The exception is a build answered 503 because the database went away while it
// was in flight: its record could be neither finished nor released, so it stays pending
// (409 idempotency_pending) until its lease ends; that is logged, and never a second token.
// Afterwards no key has two confirmation tokens, and the store holds exactly the tokens answered.
func checkFaultBuilds(t *testing.T, rs *replicaSet, calls []faultCall) {
	t.Helper()
	body := rs.buildBody()
	client := &http.Client{Timeout: 20 * time.Second}
	defer client.CloseIdleConnections()
	tokenOf := func(c faultCall) string {
		if c.err != nil || c.status != http.StatusOK {
			return ""
		}
		var v struct{ ConfirmationToken string }
		_ = json.Unmarshal(c.body, &v)
		if v.ConfirmationToken == "" {
			t.Errorf("build %s: 200 without a confirmation token: %s", c.idemKey, c.body)
		}
		return v.ConfirmationToken
	}
	first := map[string]faultCall{}
	for _, c := range calls {
		if c.kind == "build" && c.err == nil {
			first[c.idemKey] = c
		}
	}
	tokens := map[string]string{} // confirmation token -> Idempotency-Key
	answer := func(k, tok string) {
		if other, ok := tokens[tok]; tok != "" && ok && other != k {
			t.Errorf("builds %s and %s answered the same confirmation token", other, k)
		}
		if tok != "" {
			tokens[tok] = k
		}
	}
	// Retry every key, 16 at a time (a key still pending takes the server's pending wait, 5 s).
	retries := map[string]faultCall{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for k, a := range first {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var retry faultCall
			for attempt := 0; ; attempt++ {
				retry = rs.doFault(client, a.replica, "build", http.MethodPost, "/v1/build/transfer", body, k)
				if retry.err != nil || retry.status != http.StatusServiceUnavailable || attempt == 20 {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			mu.Lock()
			retries[k] = retry
			mu.Unlock()
		})
	}
	wg.Wait()
	outcomes := map[string]int{}
	for _, k := range slices.Sorted(maps.Keys(first)) {
		a, retry := first[k], retries[k]
		answer(k, tokenOf(a))
		switch {
		case retry.err == nil && retry.status == http.StatusConflict && retry.code == "idempotency_pending" && a.status == http.StatusOK:
			t.Errorf("build %s answered 200 but its record was not kept: the retry is pending", k)
			outcomes["200, retry pending"]++
			continue
		case retry.err == nil && retry.status == http.StatusConflict && retry.code == "idempotency_pending":
			t.Logf("build %s (first answer %d %s at %v) stays pending after the fault: in flight when the database went away, its record waits for its lease to end",
				k, a.status, a.code, a.start.Format("15:04:05.000"))
			outcomes[fmt.Sprintf("%d %s, retry still pending", a.status, a.code)]++
			continue
		case retry.err != nil || retry.status != http.StatusOK:
			t.Errorf("build %s (first answer %d %s) retried after the fault: %d %s %v", k, a.status, a.code, retry.status, retry.body, retry.err)
			outcomes[fmt.Sprintf("retry %d %s", retry.status, retry.code)]++
			continue
		}
		tok := tokenOf(retry)
		switch {
		case a.status == http.StatusOK && !bytes.Equal(retry.body, a.body):
			t.Errorf("build %s answered 200 and its retry answered other bytes (tokens %s, %s)", k, tokenOf(a), tok)
			outcomes["200, retry differs"]++
		case a.status == http.StatusOK:
			outcomes["200, replayed"]++
		default:
			outcomes[fmt.Sprintf("%d %s, retry ran", a.status, a.code)]++
		}
		answer(k, tok)
	}
	stored, err := rs.db.Client.ConfirmationToken.Query().Count(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d builds, retried after the fault: %v; %d confirmation tokens stored, %d answered", len(first), outcomes, stored, len(tokens))
	if stored != len(tokens) {
		t.Errorf("%d confirmation tokens stored, but %d distinct ones answered for %d Idempotency-Keys: a build ran twice or half", stored, len(tokens), len(first))
	}
}

// checkFaultKeys: each key created (or attempted) through the CLI around the fault exists with its
// key.create audit entry, and works, or does not exist at all.
func checkFaultKeys(t *testing.T, rs *replicaSet, names ...string) {
	t.Helper()
	ctx := t.Context()
	for _, name := range names {
		keys, err := rs.db.Client.APIKey.Query().Where(apikey.Name(name)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch len(keys) {
		case 0:
			t.Logf("key %q: not created", name)
		case 1:
			k := keys[0]
			n, err := rs.db.Client.AuditEntry.Query().Where(auditentry.Action("key.create"), auditentry.Target(fmt.Sprintf("key %d", k.ID))).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 || len(k.Hash) != 32 || k.Prefix == "" {
				t.Errorf("key %q is half-written: %d audit entries, hash of %d bytes, prefix %q", name, n, len(k.Hash), k.Prefix)
			}
			t.Logf("key %q: created, with its audit entry", name)
		default:
			t.Errorf("key %q created %d times", name, len(keys))
		}
	}
}

// TestStoreFaultRedis: a replica on PostgreSQL with rate limits on a private Redis, under load,
// while that Redis is stopped for 3 s and started again (empty: nothing on disk). During the stop
// every authenticated call is 503 unavailable and nothing is answered 200 without admission; when
// Redis is back the replica serves again within faultRecoveryBound without a restart, and every call
// answered 2xx or 4xx is in the usage records. (TestRedisReadyAndFailClosed checks /readyz and the
// same fail-closed answers on SQLite, in-process.)
func TestStoreFaultRedis(t *testing.T) {
	t.Parallel()
	begin := time.Now()
	rd := startPrivateRedis(t)
	rs := startReplicas(t, 1, 1_000_000, 1_000_000, false, "PARTNER_REDIS_URL="+rd.url())
	weth := rs.awaitWETHPrice()
	t.Logf("replica serving %v after the start of the test", time.Since(begin).Round(time.Millisecond))

	load := rs.startFaultLoad(4, weth, false)
	time.Sleep(1500 * time.Millisecond)
	faultAt := time.Now()
	rd.stop()
	time.Sleep(faultHold)
	healAt := time.Now()
	rd.start()
	time.Sleep(3 * time.Second)
	calls := load.stop()

	f := checkFaultCalls(t, calls, 0, faultAt, healAt, 0, false)
	t.Logf("replica 0: %s", f)
	var unadmitted int
	for _, c := range calls {
		if c.err == nil && c.status == http.StatusOK && !c.admitted {
			unadmitted++
		}
	}
	if unadmitted > 0 {
		t.Errorf("%d calls answered 200 without admission (no X-RateLimit-Remaining)", unadmitted)
	}
	ans := answered(calls)
	if lost := rs.awaitRecorded(ans, 0); len(lost) > 0 {
		t.Errorf("%d calls answered, %d not in the usage records", len(ans), len(lost))
	} else {
		t.Logf("%d calls answered 2xx/4xx, all in the usage records", len(ans))
	}
}
