package metering_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestConsumerActivities checks the operators' list figures on both backends: the 24-hour window
// (this hour and the 23 before) with errors and 429s, the 30-day window, consumers apart, and
// hours outside both windows left out.
func TestConsumerActivities(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := t.Context()
		now := time.Date(2026, 3, 10, 14, 25, 0, 0, time.UTC)
		hour := metering.Hour(now)
		type row struct {
			consumer                      int
			at                            time.Time
			calls, cost, errs, c429, c5xx int64
		}
		for _, r := range []row{
			{1, hour, 10, 12, 3, 2, 1},                           // this hour
			{1, hour.Add(-23 * time.Hour), 5, 5, 1, 1, 0},        // the oldest hour of the 24
			{1, hour.Add(-24 * time.Hour), 100, 100, 50, 40, 10}, // older than 24 h
			{1, hour.Add(-29 * 24 * time.Hour), 7, 70, 0, 0, 0},  // older than 24 h
			{1, hour.Add(-31 * 24 * time.Hour), 9, 9, 9, 9, 0},   // older than 30 days
			{2, hour.Add(-time.Hour), 4, 40, 4, 4, 0},
		} {
			err := st.Client.UsageHourly.Create().SetConsumerID(r.consumer).SetHour(r.at).SetCalls(r.calls).SetCost(r.cost).
				SetErrors(r.errs).SetCalls429(r.c429).SetCalls5xx(r.c5xx).SetCalls2xx(r.calls - r.errs).Exec(ctx)
			if err != nil {
				t.Fatal(err)
			}
		}
		us := metering.NewUsageStore(st.Client, st.Dialect)
		got, err := us.ConsumerActivities(ctx, now)
		if err != nil {
			t.Fatalf("ConsumerActivities: %v", err)
		}
		want := map[int]metering.ConsumerActivity{
			1: {Last24h: tot(15, 17, 4), Refused24h: 3},
			2: {Last24h: tot(4, 40, 4), Refused24h: 4},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ConsumerActivities:\n got %+v\nwant %+v", got, want)
		}
		// The 24-hour figures agree with Summaries, which the consumer page shows.
		sums, err := us.Summaries(ctx, []int{1, 2}, now)
		if err != nil {
			t.Fatal(err)
		}
		for id, s := range sums {
			if s.Last24h != got[id].Last24h {
				t.Errorf("consumer %d: Summaries %+v, ConsumerActivities %+v", id, s, got[id])
			}
		}
	})
}

// TestConsumerActivitiesPlan: the consumer list's query reads the hour index alone (a covering
// index: SQLite's COVERING INDEX, PostgreSQL's Index Only Scan), never the table or a full scan.
func TestConsumerActivitiesPlan(t *testing.T) {
	const index = "usagehourly_hour_consumer_id_calls_cost_errors_calls_429"
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := t.Context()
		us := metering.NewUsageStore(st.Client, st.Dialect)
		q, args, err := us.ActivitiesQuery(time.Date(2026, 3, 10, 14, 25, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		conn, err := st.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		explain, want := "EXPLAIN QUERY PLAN ", "USING COVERING INDEX "+index
		if st.Dialect == "postgres" {
			explain, want = "EXPLAIN ", "Index Only Scan using "+index
			// An empty table is cheaper to scan whole: ask what the planner does with a big one.
			for _, set := range []string{"enable_seqscan", "enable_bitmapscan"} {
				if _, err := conn.ExecContext(ctx, "SET "+set+" = off"); err != nil {
					t.Fatal(err)
				}
				defer conn.ExecContext(context.WithoutCancel(ctx), "RESET "+set)
			}
		}
		if plan := queryPlan(t, conn, explain+q, args); !strings.Contains(plan, want) {
			t.Errorf("plan:\n%s\nwant %s", plan, want)
		}
	})
}
