package metering_test

import (
	"context"
	"flag"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

var (
	soakFor  = flag.Duration("soak", 0, "run TestUsageSoakPaced for this long on each store (0: skip it)")
	soakRate = flag.Int("soak-rate", 10_000, "calls per second TestUsageSoakPaced records")
)

// soakProducers is how many goroutines record at once, as concurrent requests do.
const soakProducers = 8

// storedUsage is what the store holds: raw calls, and the sums of the daily and hourly rollups.
type storedUsage struct {
	raw            int64
	daily, hourly  metering.Totals
	keysLastUsedAt int64
}

func readStoredUsage(t *testing.T, st *store.Store) storedUsage {
	t.Helper()
	var u storedUsage
	row := func(q string, dst ...any) {
		if err := st.DB.QueryRowContext(t.Context(), q).Scan(dst...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	row(`SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT) FROM usage_pages`, &u.raw)
	row(`SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT), CAST(COALESCE(SUM(cost), 0) AS BIGINT), CAST(COALESCE(SUM(errors), 0) AS BIGINT) FROM usage_dailies`,
		&u.daily.Calls, &u.daily.Cost, &u.daily.Errors)
	row(`SELECT CAST(COALESCE(SUM(calls), 0) AS BIGINT), CAST(COALESCE(SUM(cost), 0) AS BIGINT), CAST(COALESCE(SUM(errors), 0) AS BIGINT) FROM usage_hourlies`,
		&u.hourly.Calls, &u.hourly.Cost, &u.hourly.Errors)
	row(`SELECT COUNT(*) FROM api_keys WHERE last_used_at IS NOT NULL`, &u.keysLastUsedAt)
	return u
}

// wantTotals are the totals of the load's calls 0..n-1.
func (e *loadEnv) wantTotals(n int) metering.Totals {
	var t metering.Totals
	for i := range n {
		c := e.call(i)
		t.Calls++
		t.Cost += int64(c.Cost)
		if c.Status >= 400 {
			t.Errors++
		}
	}
	return t
}

// checkSoak checks that the store holds exactly n answered calls in its rollups, and every raw call
// the recorder did not shed.
func checkSoak(t *testing.T, st *store.Store, e *loadEnv, r *metering.Recorder, n int) {
	t.Helper()
	s := r.Stats()
	got := readStoredUsage(t, st)
	want := e.wantTotals(n)
	t.Logf("%d calls answered: stats %+v; store: %d raw calls, daily rollups %+v, hourly rollups %+v",
		n, s, got.raw, got.daily, got.hourly)
	if s.Recorded != int64(n) || s.Counted != int64(n) || s.Written+s.Shed != int64(n) || s.Pending != 0 {
		t.Errorf("stats %+v after Close, want %d recorded and counted, written + shed = %d, none pending", s, n, n)
	}
	if got.raw != s.Written {
		t.Errorf("store holds %d raw calls, the recorder wrote %d", got.raw, s.Written)
	}
	if got.daily != want || got.hourly != want {
		t.Errorf("rollups: daily %+v, hourly %+v; want %+v (every call counted once, shed or not)", got.daily, got.hourly, want)
	}
	if got.keysLastUsedAt != int64(len(e.keys)) {
		t.Errorf("%d keys have a last use, want %d", got.keysLastUsedAt, len(e.keys))
	}
}

// TestUsageSoak records calls as fast as soakProducers goroutines can into a Recorder on a real store
// and checks, after Close, that every answered call is counted exactly once in the daily and the
// hourly rollups and that every raw call not shed is stored once:
//
//   - "all": soakCalls calls (100,000; 10,000 under -race) with the default buffer, which holds them
//     all: nothing may be shed, so every call is stored raw too;
//   - "shedding": a buffer of 1,000 the producers overrun at once: raw calls are shed and counted in
//     Stats, while the rollups still count every call.
func TestUsageSoak(t *testing.T) {
	const n = soakCalls
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		for _, tc := range []struct {
			name   string
			buffer int
		}{{"all", metering.DefaultBufferSize}, {"shedding", 1_000}} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := st.DB.ExecContext(t.Context(), `DELETE FROM usage_pages`); err != nil {
					t.Fatal(err)
				}
				for _, tbl := range []string{"usage_dailies", "usage_hourlies"} {
					if _, err := st.DB.ExecContext(t.Context(), `DELETE FROM `+tbl); err != nil {
						t.Fatal(err)
					}
				}
				e := newLoadEnvOnce(t, st)
				r := metering.NewRecorder(metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB)), discard, 0, tc.buffer)
				start := time.Now()
				var wg sync.WaitGroup
				for p := range soakProducers {
					wg.Go(func() {
						for i := p; i < n; i += soakProducers {
							r.Record(e.call(i))
						}
					})
				}
				wg.Wait()
				recorded := time.Since(start)
				if err := closeRecorder(t, r); err != nil {
					t.Fatalf("Close: %v", err)
				}
				t.Logf("recorded in %v, all written %v after the first call", recorded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
				checkSoak(t, st, e, r, n)
				s := r.Stats()
				if tc.buffer >= n && s.Shed != 0 {
					t.Errorf("%d raw calls shed with a buffer of %d for %d calls", s.Shed, tc.buffer, n)
				}
				if tc.buffer < n && s.Shed == 0 {
					t.Errorf("nothing shed: the test did not overrun the buffer of %d", tc.buffer)
				}
			})
		}
	})
}

// loadEnvs keeps one loadEnv per store, so subtests sharing a store share its consumers and keys.
var loadEnvs sync.Map

func newLoadEnvOnce(t *testing.T, st *store.Store) *loadEnv {
	if e, ok := loadEnvs.Load(st); ok {
		return e.(*loadEnv)
	}
	e := newLoadEnv(t, st)
	loadEnvs.Store(st, e)
	return e
}

// TestUsageSoakPaced is the load run of issue 12: calls at -soak-rate per second (default 10,000,
// the pipeline's pace) for -soak long into a Recorder with the default buffer and interval on a real
// store, checking that none is shed, every one is stored raw and counted in the rollups. It runs only
// with -soak, e.g.
//
//	go test ./metering/ -run UsageSoakPaced -soak 3m -timeout 15m -v
func TestUsageSoakPaced(t *testing.T) {
	if *soakFor <= 0 {
		t.Skip("a load run: give it a duration with -soak (e.g. -soak 3m)")
	}
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newLoadEnv(t, st)
		r := metering.NewRecorder(metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB)), discard, 0, 0)
		rate, dur := *soakRate, *soakFor
		n := int(int64(rate) * int64(dur) / int64(time.Second))
		// Every 10 ms each producer records what is due by then and not yet taken by another, as
		// concurrent requests would.
		const tick = 10 * time.Millisecond
		start := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		next := 0
		for range soakProducers {
			wg.Go(func() {
				tk := time.NewTicker(tick)
				defer tk.Stop()
				for range tk.C {
					mu.Lock()
					from := next
					to := min(n, max(from, int(float64(rate)*time.Since(start).Seconds())))
					next = to
					mu.Unlock()
					if from >= n {
						return
					}
					for i := from; i < to; i++ {
						r.Record(e.call(i))
					}
				}
			})
		}
		stop := make(chan struct{})
		var logger sync.WaitGroup
		logger.Go(func() {
			tk := time.NewTicker(10 * time.Second)
			defer tk.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tk.C:
					s := r.Stats()
					t.Logf("%v: %+v", time.Since(start).Round(time.Second), s)
				}
			}
		})
		wg.Wait()
		close(stop)
		logger.Wait()
		t.Logf("%d calls recorded in %v (%.0f/s)", n, time.Since(start).Round(time.Millisecond), float64(n)/time.Since(start).Seconds())
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		if err := r.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
		checkSoak(t, st, e, r, n)
		if s := r.Stats(); s.Shed != 0 {
			t.Errorf("%d raw calls shed at %d calls/s on a healthy store", s.Shed, rate)
		}
	})
}
