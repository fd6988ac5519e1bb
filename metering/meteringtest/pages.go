package meteringtest

import (
	"database/sql"
	"testing"

	"github.com/partner-platform/partnerd/metering"
)

// StoredCalls decodes every usage page in db (every consumer's), in the order the pages were
// written: what the store holds raw, for tests that count it.
func StoredCalls(t testing.TB, db *sql.DB) []metering.Call {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT "data" FROM "usage_pages" ORDER BY "id"`)
	if err != nil {
		t.Fatalf("read usage pages: %v", err)
	}
	defer rows.Close()
	var out []metering.Call
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			t.Fatalf("read usage pages: %v", err)
		}
		calls, err := metering.DecodePage(data)
		if err != nil {
			t.Fatalf("decode usage page: %v", err)
		}
		out = append(out, calls...)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("read usage pages: %v", err)
	}
	return out
}

// StoredCallCount is how many calls the usage pages in db hold, by their summaries.
func StoredCallCount(t testing.TB, db *sql.DB) int {
	t.Helper()
	var n int64
	if err := db.QueryRowContext(t.Context(), `SELECT CAST(COALESCE(SUM("calls"), 0) AS BIGINT) FROM "usage_pages"`).Scan(&n); err != nil {
		t.Fatalf("count stored calls: %v", err)
	}
	return int(n)
}

// StoredRequestIDs returns the request ids of every stored call.
func StoredRequestIDs(t testing.TB, db *sql.DB) []string {
	t.Helper()
	var ids []string
	for _, c := range StoredCalls(t, db) {
		ids = append(ids, c.RequestID)
	}
	return ids
}
