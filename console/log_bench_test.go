package console

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// logBenchEnv asks for BenchmarkLog10M: "sqlite" or "postgres" (its seeding takes minutes and GBs).
const logBenchEnv = "PARTNER_BENCH_LOG10M"

// logBenchCalls is how many calls the benchmark's consumer has.
const logBenchCalls = 10_000_000

// BenchmarkLog10M times the request log's pages through the real handler (in process, with the
// session cookie) for a consumer with 10,000,000 recorded calls over 30 days: the first page of each
// filter, an older page, a request-id prefix search and a call's page. Each is a sub-benchmark, so
// ns/op is per page. It runs only when PARTNER_BENCH_LOG10M names the store (sqlite or postgres):
//
//	PARTNER_BENCH_LOG10M=sqlite go test -run '^$' -bench 'BenchmarkLog10M' -benchtime 20x ./console/
//
// Seeding is one INSERT … SELECT per million rows, generated in the database (a recursive CTE on
// SQLite, generate_series on PostgreSQL), inside one transaction; four calls a second end a minute
// before now, so ten million span 29 days.
func BenchmarkLog10M(b *testing.B) {
	which := os.Getenv(logBenchEnv)
	open := map[string]func(testing.TB) *store.Store{"sqlite": storetest.SQLite, "postgres": storetest.Postgres}[which]
	if open == nil {
		b.Skipf("set %s=sqlite or %s=postgres to seed 10M calls and run it", logBenchEnv, logBenchEnv)
	}
	h := newHarness(b, withStore(open))
	cons := h.consumer("Heavy user")
	noise := h.consumer("Neighbour")
	var keyIDs []int
	for i := range 5 {
		keyIDs = append(keyIDs, h.key(cons.ID, fmt.Sprintf("key %d", i)).ID)
	}
	nk := h.key(noise.ID, "neighbour key")
	h.consumerUser(cons.ID, "heavy@example.com", password)
	calls := logBenchCalls
	if n, err := strconv.Atoi(os.Getenv(logBenchEnv + "_CALLS")); err == nil && n >= 100_000 {
		calls = n // a quicker run of the same benchmark
	}

	now := h.clock.Now().UTC().Truncate(time.Second)
	start := now.Add(-time.Duration(calls/4)*time.Second - time.Minute) // four a second, up to a minute ago
	t0 := time.Now()
	seedLog(b, h, cons.ID, keyIDs, start, calls)
	seedLog(b, h, noise.ID, []int{nk.ID}, start, 100_000)
	b.Logf("seeded %d calls for one consumer and 100,000 for a neighbour in %v (%s)", calls,
		time.Since(t0).Round(time.Millisecond), h.st.Dialect)

	session := benchSignIn(b, h, "heavy@example.com")
	get := func(target string) string {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.AddCookie(session)
		w := httptest.NewRecorder()
		h.handler.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s: %d %s", target, w.Code, w.Body.String())
		}
		return w.Body.String()
	}

	// A call in the middle of the window: its id, and a prefix of its first hex digits matching the
	// calls of about 65 seconds.
	mid := calls / 2
	midAt := start.Add(time.Duration(mid/4) * time.Second)
	midID := fmt.Sprintf("req_%012x%020x", midAt.UnixMilli(), mid)
	from := midAt.Truncate(time.Minute) // an hour from the middle of the window
	first := get("/console/log")
	older := pagerLink(first, "next")
	if older == "" {
		b.Fatal("no Older link on the first page")
	}
	for _, p := range []struct{ name, target string }{
		{"all", "/console/log"},
		{"older-page", older},
		{"key", "/console/log?key=" + fmt.Sprint(keyIDs[3])},
		{"operation", "/console/log?op=getPoolChart"},
		{"status-2xx", "/console/log?status=2xx"},
		{"status-4xx", "/console/log?status=4xx"},
		{"status-429", "/console/log?status=429"},
		{"status-5xx", "/console/log?status=5xx"},
		{"error-code", "/console/log?code=internal_error"},
		{"time-range", "/console/log?" + url.Values{"from": {from.Format("2006-01-02T15:04")}, "to": {from.Add(time.Hour).Format("2006-01-02T15:04")}}.Encode()},
		{"request-id-prefix", "/console/log?rid=" + midID[:4+8]},
		{"request-id-whole", "/console/log?rid=" + midID},
		{"call-detail", "/console/log/" + midID},
	} {
		body := get(p.target)
		if p.name == "call-detail" {
			if !strings.Contains(body, midID) {
				b.Fatalf("%s: the call's page lacks its id", p.target)
			}
		} else if n := len(pageIDs(body)); n == 0 || p.name != "request-id-whole" && n != logPageSize {
			b.Fatalf("%s: %d rows", p.target, n)
		}
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				get(p.target)
			}
		})
	}
}

// seedLog inserts n calls of the consumer, four a second from start (so four share each time), in
// one transaction: keys in turn; getPoolChart one call in 10; a 404 not_found one in 50, a 429 one
// in 100, a 500 internal_error one in 1,000; request ids as the API makes them.
func seedLog(b testing.TB, h *harness, consumerID int, keyIDs []int, start time.Time, n int) {
	b.Helper()
	ctx := context.Background()
	conn, err := h.st.DB.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	// The indexes are built once at the end (a sort each) rather than row by row; SQLite gets a
	// page cache big enough to hold what the transaction changes.
	indexes := usageIndexes(b, conn, h.st.Dialect)
	for name := range indexes {
		if _, err := conn.ExecContext(ctx, `DROP INDEX "`+name+`"`); err != nil {
			b.Fatal(err)
		}
	}
	if h.st.Dialect != "postgres" {
		if _, err := conn.ExecContext(ctx, "PRAGMA cache_size = -1000000"); err != nil {
			b.Fatal(err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	const chunk = 1_000_000
	for lo := 0; lo < n; lo += chunk {
		hi := min(n, lo+chunk)
		var q string
		if h.st.Dialect == "postgres" {
			q = fmt.Sprintf(`INSERT INTO usage_records (consumer_id, key_id, operation, status, cost, latency_us, chain, request_id, at,
				method, path, status_group, error_code, source, rate_remaining, replayed)
			SELECT %[1]d, %[2]s,
				CASE WHEN i %% 10 = 3 THEN 'getPoolChart' ELSE 'getTrending' END,
				CASE WHEN i %% 1000 = 7 THEN 500 WHEN i %% 100 = 5 THEN 429 WHEN i %% 50 = 1 THEN 404 ELSE 200 END,
				1, 200 + i %% 5000, 'base',
				'req_' || lpad(to_hex(%[4]d::bigint * 1000 + (i / 4) * 1000), 12, '0') || lpad(to_hex(i), 20, '0'),
				to_timestamp(%[4]d + i / 4),
				'GET', CASE WHEN i %% 10 = 3 THEN '/v1/pools/0xabc/chart' ELSE '/v1/markets/trending' END,
				CASE WHEN i %% 1000 = 7 THEN '5xx' WHEN i %% 100 = 5 THEN '429' WHEN i %% 50 = 1 THEN '4xx' ELSE '2xx' END,
				CASE WHEN i %% 1000 = 7 THEN 'internal_error' WHEN i %% 100 = 5 THEN 'rate_limited' WHEN i %% 50 = 1 THEN 'not_found' ELSE '' END,
				'203.0.113.7', i %% 100, false
			FROM generate_series(%[5]d::bigint, %[6]d::bigint) AS i`, consumerID, keyCase(keyIDs), 0, start.Unix(), lo, hi-1)
		} else {
			q = fmt.Sprintf(`WITH RECURSIVE s(i) AS (SELECT %[5]d UNION ALL SELECT i + 1 FROM s WHERE i < %[6]d)
			INSERT INTO usage_records (consumer_id, key_id, operation, status, cost, latency_us, chain, request_id, at,
				method, path, status_group, error_code, source, rate_remaining, replayed)
			SELECT %[1]d, %[2]s,
				CASE WHEN i %% 10 = 3 THEN 'getPoolChart' ELSE 'getTrending' END,
				CASE WHEN i %% 1000 = 7 THEN 500 WHEN i %% 100 = 5 THEN 429 WHEN i %% 50 = 1 THEN 404 ELSE 200 END,
				1, 200 + i %% 5000, 'base',
				'req_' || printf('%%012x', (%[4]d + i / 4) * 1000) || printf('%%020x', i),
				strftime('%%Y-%%m-%%d %%H:%%M:%%S', %[4]d + i / 4, 'unixepoch') || '+00:00',
				'GET', CASE WHEN i %% 10 = 3 THEN '/v1/pools/0xabc/chart' ELSE '/v1/markets/trending' END,
				CASE WHEN i %% 1000 = 7 THEN '5xx' WHEN i %% 100 = 5 THEN '429' WHEN i %% 50 = 1 THEN '4xx' ELSE '2xx' END,
				CASE WHEN i %% 1000 = 7 THEN 'internal_error' WHEN i %% 100 = 5 THEN 'rate_limited' WHEN i %% 50 = 1 THEN 'not_found' ELSE '' END,
				'203.0.113.7', i %% 100, 0
			FROM s`, consumerID, keyCase(keyIDs), 0, start.Unix(), lo, hi-1)
		}
		if _, err := tx.ExecContext(ctx, q); err != nil {
			_ = tx.Rollback()
			b.Fatalf("seed calls %d..%d: %v", lo, hi, err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for _, def := range indexes {
		if _, err := conn.ExecContext(ctx, def); err != nil {
			b.Fatalf("%s: %v", def, err)
		}
	}
	if h.st.Dialect == "postgres" {
		if _, err := conn.ExecContext(ctx, "ANALYZE usage_records"); err != nil {
			b.Fatal(err)
		}
	}
}

// usageIndexes are the secondary indexes of usage_records: name to CREATE statement.
func usageIndexes(b testing.TB, conn *sql.Conn, dialect string) map[string]string {
	b.Helper()
	q := `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_records' AND sql IS NOT NULL`
	if dialect == "postgres" {
		q = `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'usage_records' AND indexname <> 'usage_records_pkey'`
	}
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			b.Fatal(err)
		}
		out[name] = def
	}
	if err := rows.Err(); err != nil || len(out) < 6 {
		b.Fatalf("usage_records indexes %v: %v", out, err)
	}
	return out
}

// keyCase is the SQL choosing the keys in turn by the row number i.
func keyCase(ids []int) string {
	var q strings.Builder
	fmt.Fprintf(&q, "CASE i %% %d", len(ids))
	for n, id := range ids {
		fmt.Fprintf(&q, " WHEN %d THEN %d", n, id)
	}
	return q.String() + " END"
}

// benchSignIn signs in through the handler and returns the session cookie.
func benchSignIn(b *testing.B, h *harness, email string) *http.Cookie {
	b.Helper()
	login := httptest.NewRequest(http.MethodPost, "/console/login",
		strings.NewReader(url.Values{"email": {email}, "password": {password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h.handler.ServeHTTP(w, login)
	if w.Code != http.StatusSeeOther {
		b.Fatalf("sign in: %d", w.Code)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie {
			return c
		}
	}
	b.Fatal("no session cookie")
	return nil
}
