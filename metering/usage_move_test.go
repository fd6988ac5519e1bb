package metering_test

import (
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestMoveRawCalls: rows an earlier release wrote one per call move into pages, every field
// intact, the table is left empty, and two replicas moving at once page each row exactly once.
func TestMoveRawCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		calls := append(meteringtest.NewTraffic(1, a, []int{e.key(a), e.key(a)}, day0, time.Second).Calls(30_000),
			meteringtest.NewTraffic(2, b, []int{e.key(b)}, day0, time.Second).Calls(15_000)...)
		calls[7].RequestID = "not-an-api-id" // as tests and old clients made them
		insertRawRows(t, st.Client, calls)

		var wg sync.WaitGroup
		moved := make([]int, 2)
		for i := range moved {
			wg.Go(func() {
				n, err := metering.NewUsageStore(st.Client, st.Dialect).MoveRawCalls(t.Context())
				if err != nil {
					t.Errorf("MoveRawCalls: %v", err)
				}
				moved[i] = n
			})
		}
		wg.Wait()
		if moved[0]+moved[1] != len(calls) {
			t.Fatalf("moved %v, want %d in all", moved, len(calls))
		}
		if left, err := st.Client.UsageRecord.Query().Count(t.Context()); err != nil || left != 0 {
			t.Fatalf("%d raw rows left (%v)", left, err)
		}
		got := meteringtest.StoredCalls(t, st.DB)
		if len(got) != len(calls) {
			t.Fatalf("%d calls in pages, want %d", len(got), len(calls))
		}
		byID := map[string]metering.Call{}
		for _, c := range got {
			byID[c.RequestID] = c
		}
		for _, w := range calls {
			g, ok := byID[w.RequestID]
			if !ok {
				t.Fatalf("call %s not in pages", w.RequestID)
			}
			if g.ConsumerID != w.ConsumerID || g.KeyID != w.KeyID || g.Operation != w.Operation || g.Status != w.Status ||
				g.Cost != w.Cost || g.Latency != w.Latency || g.Chain != w.Chain || !g.At.Equal(w.At) || g.Method != w.Method ||
				g.Path != w.Path || g.ErrorCode != w.ErrorCode || g.Source != w.Source || g.Replayed != w.Replayed ||
				string(g.ErrorBody) != string(w.ErrorBody) || (g.RateRemaining == nil) != (w.RateRemaining == nil) ||
				g.RateRemaining != nil && *g.RateRemaining != *w.RateRemaining {
				t.Fatalf("moved call %+v, want %+v", g, w)
			}
		}
		if n, err := e.us.MoveRawCalls(t.Context()); n != 0 || err != nil {
			t.Fatalf("MoveRawCalls again: %d, %v", n, err)
		}
		if p, err := e.us.Log(t.Context(), b, metering.LogFilter{}, nil, nil, 10); err != nil || len(p.Calls) != 10 || p.Calls[0].RequestID != calls[len(calls)-1].RequestID {
			t.Fatalf("the moved log of b: %+v, %v", p.Calls, err)
		}
	})
}

// insertRawRows writes calls as releases before pages did: a usage_records row each.
func insertRawRows(t *testing.T, db *ent.Client, calls []metering.Call) {
	t.Helper()
	for len(calls) > 0 {
		n := min(len(calls), 2_000)
		var rows []*ent.UsageRecordCreate
		for _, c := range calls[:n] {
			r := db.UsageRecord.Create().SetConsumerID(c.ConsumerID).SetKeyID(c.KeyID).SetOperation(c.Operation).
				SetStatus(c.Status).SetCost(c.Cost).SetLatencyUs(c.Latency.Microseconds()).SetChain(c.Chain).
				SetRequestID(c.RequestID).SetAt(c.At).SetMethod(c.Method).SetPath(c.Path).SetStatusGroup(metering.StatusGroup(c.Status)).
				SetErrorCode(c.ErrorCode).SetReplayed(c.Replayed).SetNillableRateRemaining(c.RateRemaining)
			if c.Source.IsValid() {
				r.SetSource(c.Source.String())
			}
			if len(c.ErrorBody) > 0 {
				r.SetErrorBody(c.ErrorBody)
			}
			rows = append(rows, r)
		}
		if err := db.UsageRecord.CreateBulk(rows...).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		calls = calls[n:]
	}
}
