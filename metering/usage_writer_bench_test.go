package metering_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Shape of the usage-writer load: calls spread over a few consumers, keys and operations, as many
// partners calling at once would make.
const (
	loadConsumers = 4
	loadKeys      = 5 // per consumer
	loadOps       = 12
)

// loadEnv is a store with consumers and keys to record calls for.
type loadEnv struct {
	st *store.Store
	// next, when set, makes the calls of benchBatches instead of call (the traffic sub-benchmark).
	next func(i int) metering.Call
	keys []loadKey
	ops  []string
	t0   time.Time
}

type loadKey struct{ consumer, key int }

func newLoadEnv(tb testing.TB, st *store.Store) *loadEnv {
	tb.Helper()
	ctx := context.Background()
	e := &loadEnv{st: st, t0: time.Now().UTC()}
	for c := range loadConsumers {
		con, err := st.Client.Consumer.Create().SetName("load" + strconv.Itoa(c)).SetCreatedAt(e.t0).SetUpdatedAt(e.t0).Save(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		for range loadKeys {
			h := make([]byte, 32)
			rand.Read(h)
			k, err := st.Client.APIKey.Create().SetConsumerID(con.ID).SetName("k").SetHash(h).
				SetPrefix("pk_live_load").SetCreatedAt(e.t0).Save(ctx)
			if err != nil {
				tb.Fatal(err)
			}
			e.keys = append(e.keys, loadKey{con.ID, k.ID})
		}
	}
	for i := range loadOps {
		e.ops = append(e.ops, "operation"+strconv.Itoa(i))
	}
	return e
}

// call is the i-th call of the load, 1 ms apart from t0, the same for the same i: keys and
// operations in turn, 1 in 20 answered 503 with the API's error envelope, request ids as the API
// makes them (their random part a hash of i), as the request log records them.
func (e *loadEnv) call(i int) metering.Call {
	k := e.keys[i%len(e.keys)]
	at := e.t0.Add(time.Duration(i) * time.Millisecond)
	h := uint64(i)*0x9e3779b97f4a7c15 ^ 0xbf58476d1ce4e5b9
	rid := fmt.Sprintf("req_%012x%016x%04x", at.UnixMilli(), h, h>>48)
	rate := 600 - i%600
	c := metering.Call{ConsumerID: k.consumer, KeyID: k.key, Operation: e.ops[i/len(e.keys)%len(e.ops)],
		Status: 200, Cost: 1, Latency: time.Duration(200+i%800) * time.Microsecond, Chain: "base",
		RequestID: rid, At: at, Method: "GET", Path: "/v1/" + e.ops[i/len(e.keys)%len(e.ops)],
		Source: loadSource, RateRemaining: &rate}
	if i%20 == 0 {
		c.Status, c.Cost, c.ErrorCode = 503, 0, "upstream_unavailable"
		c.ErrorBody = []byte(`{"ok":false,"error":"the price source did not answer in time","code":"upstream_unavailable","requestId":"` + rid + `"}`)
	}
	return c
}

var loadSource = netip.MustParseAddr("203.0.113.7")

// batch is the i-th batch of MaxBatch calls of the load, with its rollups.
func (e *loadEnv) batch(i int) metering.UsageBatch {
	calls := make([]metering.Call, metering.MaxBatch)
	for j := range calls {
		if e.next != nil {
			calls[j] = e.next(i*metering.MaxBatch + j)
		} else {
			calls[j] = e.call(i*metering.MaxBatch + j)
		}
	}
	return metering.UsageBatch{Calls: calls, Rollups: metering.RollupsOf(calls)}
}

// BenchmarkUsageWriter measures how many raw calls per second the usage writer stores, with their
// rollups, on each store: "batch" writes batches of MaxBatch calls (one transaction each, the unit
// of the recorder's writes) straight through WriteUsage; "traffic" does the same with
// meteringtest.Traffic's calls of four consumers (their mix of operations, paths, errors and
// request ids as the API makes them); "recorder" records calls as fast as one
// goroutine can into a Recorder that holds them all and times until Close has written every one.
// Without the pool (WithDB) writes go through the ent client ("batch-ent"). Run it with
//
//	go test ./metering/ -run '^$' -bench UsageWriter -benchtime 31x
//
// (31 batches of MaxBatch: 1,015,808 calls) and read the rows/s metric; disk-bytes/call is the database's growth
// (pages, their summaries and indexes, and the rollups) per call. rows/cpu-s divides the rows
// by the CPU time they took (this process's, plus on PostgreSQL the server processes serving this
// benchmark's database when they run on this machine): what one otherwise idle core sustains, a figure
// that holds on a machine busy with other work, where rows/s does not. Each batch is made just
// before its write, outside the timer and the CPU clock, so the writer runs beside one batch, as in
// the service (which holds at most DefaultBufferSize calls): with every batch made up front, the
// collections during the writes scanned a million calls, 100 to 170 ns a call of the benchmark's own.
func BenchmarkUsageWriter(b *testing.B) {
	for _, backend := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(backend.name+"/batch", func(b *testing.B) {
			st := backend.open(b)
			benchBatches(b, newLoadEnv(b, st), metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB)))
		})
		b.Run(backend.name+"/traffic", func(b *testing.B) {
			st := backend.open(b)
			e := newLoadEnv(b, st)
			var traffic []*meteringtest.Traffic // one a consumer, with its keys
			for c := range loadConsumers {
				var keys []int
				for _, k := range e.keys[c*loadKeys : (c+1)*loadKeys] {
					keys = append(keys, k.key)
				}
				traffic = append(traffic, meteringtest.NewTraffic(uint64(c), e.keys[c*loadKeys].consumer, keys, e.t0, 4*time.Millisecond))
			}
			e.next = func(i int) metering.Call { return traffic[i%len(traffic)].Next() }
			benchBatches(b, e, metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB)))
		})
		b.Run(backend.name+"/batch-ent", func(b *testing.B) {
			st := backend.open(b)
			benchBatches(b, newLoadEnv(b, st), metering.NewUsageStore(st.Client, st.Dialect))
		})
		b.Run(backend.name+"/recorder", func(b *testing.B) {
			st := backend.open(b)
			e := newLoadEnv(b, st)
			n := b.N * metering.MaxBatch
			r := metering.NewRecorder(metering.NewUsageStore(st.Client, st.Dialect, metering.WithDB(st.DB)), discard, 0, n)
			cpu := cpuClock(b, st)
			b.ResetTimer()
			for i := range n {
				r.Record(e.call(i))
			}
			if err := r.Close(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if s := r.Stats(); s.Written != int64(n) || s.Counted != int64(n) {
				b.Fatalf("stats %+v, want %d written and counted", s, n)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(n)/cpu().Seconds(), "rows/cpu-s")
		})
	}
}

func benchBatches(b *testing.B, e *loadEnv, us *metering.UsageStore) {
	ctx := context.Background()
	size := storetest.DiskBytes(b, e.st)
	clock := cpuClock(b, e.st)
	var cpu time.Duration // the writes' alone
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		batch := e.batch(i)
		start := clock()
		b.StartTimer()
		if err := us.WriteUsage(ctx, batch); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += clock() - start
	}
	n := float64(b.N * metering.MaxBatch)
	b.ReportMetric(n/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(n/cpu.Seconds(), "rows/cpu-s")
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/call")
	b.ReportMetric(float64(storetest.DiskBytes(b, e.st)-size)/n, "disk-bytes/call")
}

// cpuClock starts a CPU clock: the returned function gives the CPU time used since, by this process
// and, on PostgreSQL, by the server processes connected to st's database (read from /proc, so only
// when the server runs on this machine).
func cpuClock(tb testing.TB, st *store.Store) func() time.Duration {
	read := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			tb.Fatal(err)
		}
		d := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		if st.Dialect != dialect.Postgres {
			return d
		}
		rows, err := st.DB.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
		if err != nil {
			tb.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var pid int
			if err := rows.Scan(&pid); err != nil {
				tb.Fatal(err)
			}
			stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if err != nil {
				continue // not on this machine, or gone
			}
			// Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			ut, _ := strconv.ParseInt(f[11], 10, 64)
			stm, _ := strconv.ParseInt(f[12], 10, 64)
			d += time.Duration(ut+stm) * (time.Second / 100) // USER_HZ
		}
		return d
	}
	start := read()
	return func() time.Duration { return read() - start }
}
