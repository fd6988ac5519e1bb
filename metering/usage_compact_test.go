package metering_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestCompactPages: a quiet consumer's pages, a few calls each as the recorder writes them every
// second, merge into one page per hour and class; every call is kept once, in the log's order,
// even with two replicas compacting at once; recent pages and other consumers' are left alone.
func TestCompactPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		ka, kb := e.key(a), e.key(b)
		start := day0.Add(-40 * time.Minute) // the calls cross the hour at day0
		now := writeQuietly(e, a, ka, start)
		e.write(meteringtest.NewTraffic(6, b, []int{kb}, start, time.Minute).Calls(40)...)
		before, bPages := pageCount(t, st, a), pageCount(t, st, b)
		wantLog := bruteForce(storedLog(t, st, a), metering.LogFilter{})
		size := storetest.DiskBytes(t, st)

		var wg sync.WaitGroup
		removed := make([]int, 2)
		for i := range removed {
			wg.Go(func() {
				n, err := metering.NewUsageStore(st.Client, st.Dialect).CompactPages(t.Context(), now)
				if err != nil {
					t.Errorf("CompactPages: %v", err)
				}
				removed[i] = n
			})
		}
		wg.Wait()
		after := pageCount(t, st, a)
		if removed[0]+removed[1] != before-after || after >= before/10 {
			t.Fatalf("pages of a: %d before, %d after, %v removed", before, after, removed)
		}
		t.Logf("%d pages became %d; the database from %d to %d bytes for %d calls", before, after, size, storetest.DiskBytes(t, st), len(wantLog))
		if n := pageCount(t, st, b); n != bPages {
			t.Fatalf("b has %d pages, want its %d left alone (one write: a page per hour and class)", n, bPages)
		}
		stored := storedLog(t, st, a)
		got := bruteForce(stored, metering.LogFilter{})
		if len(got) != len(wantLog) {
			t.Fatalf("%d calls after compacting, want %d", len(got), len(wantLog))
		}
		for i := range got {
			if got[i].RequestID != wantLog[i].RequestID || !got[i].At.Equal(wantLog[i].At) {
				t.Fatalf("call %d after compacting: %s at %v, want %s at %v", i, got[i].RequestID, got[i].At, wantLog[i].RequestID, wantLog[i].At)
			}
		}
		assertLog(t, "the log after compacting", walkLog(t, e.us, a, metering.LogFilter{}, 100, true), got)
		recent := 0 // pages ending within compactAfter of now are left as written
		for _, c := range stored {
			if now.Sub(c.call.At) < 2*time.Minute {
				recent++
			}
		}
		if recent == 0 || slices.ContainsFunc(removed, func(n int) bool { return n < 0 }) {
			t.Fatalf("the fixture has no recent calls (%d) or a negative removal %v", recent, removed)
		}
		if n, err := e.us.CompactPages(t.Context(), now); err != nil || n != 0 {
			t.Fatalf("compacting again removed %d pages (%v), want 0", n, err)
		}
	})
}

// writeQuietly writes 1,500 calls of the consumer from start, about 2 s apart, a write a second
// as the recorder flushes them, and returns a time a minute after the last.
func writeQuietly(e *usageEnv, consumerID, keyID int, start time.Time) time.Time {
	calls := meteringtest.NewTraffic(5, consumerID, []int{keyID}, start, 2*time.Second).Calls(1_500)
	now := calls[len(calls)-1].At.Add(time.Minute)
	for len(calls) > 0 {
		n := 1
		for n < len(calls) && calls[n].At.Sub(calls[0].At) < time.Second {
			n++
		}
		e.write(calls[:n]...)
		calls = calls[n:]
	}
	return now
}

// TestExportDuringCompaction: a CSV export reads one snapshot: pages merged while it runs are
// neither missed nor repeated.
func TestExportDuringCompaction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a := e.consumer("a")
		now := writeQuietly(e, a, e.key(a), day0.Add(-40*time.Minute))
		want := bruteForce(storedLog(t, st, a), metering.LogFilter{})
		var got []metering.LogCall
		err := e.us.ExportLog(t.Context(), a, metering.LogFilter{}, func(c metering.LogCall) error {
			if len(got) == 0 { // the export has read its first pages: merge every page behind them
				if n, err := e.us.CompactPages(t.Context(), now); err != nil || n == 0 {
					t.Fatalf("CompactPages during the export: %d, %v", n, err)
				}
			}
			got = append(got, c)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		assertLog(t, "the export during a compaction", got, want)
	})
}

func pageCount(t *testing.T, st *store.Store, consumerID int) int {
	t.Helper()
	var n int
	if err := st.DB.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM usage_pages WHERE consumer_id = `+placeholder(st), consumerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
