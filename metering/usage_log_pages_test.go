package metering_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestLogMatchesBruteForce: every read of the request log returns exactly the calls that a
// brute-force scan of the stored pages returns (each page decoded, every call filtered, then
// sorted), in the same order, for random filters, page sizes and cursors in both directions; so do
// the CSV export, the call lookup and the recent calls. The pages overlap in time as the pages of
// several replicas do, cross hours, share times, and sit beside another consumer's.
func TestLogMatchesBruteForce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newUsageEnv(t, st)
		a, b := e.consumer("a"), e.consumer("b")
		aKeys, bKeys := []int{e.key(a), e.key(a), e.key(a)}, []int{e.key(b)}
		rng := rand.New(rand.NewPCG(1, 2))
		calls := meteringtest.NewTraffic(3, a, aKeys, day0, 2*time.Second).Calls(6_000) // over three hours
		for i := range calls {
			if rng.IntN(20) == 0 && i > 0 { // calls that share a time
				calls[i].At = calls[i-1].At
			}
		}
		calls[100].RequestID = calls[99].RequestID // an id answered twice: the lookup returns the first written
		other := meteringtest.NewTraffic(4, b, bKeys, day0, 2*time.Second).Calls(1_000)
		// Eight writers' worth of batches: each call goes to one of them, so their pages overlap.
		batches := make([][]metering.Call, 8)
		for _, c := range calls {
			i := rng.IntN(len(batches))
			batches[i] = append(batches[i], c)
		}
		batches = append(batches, other)
		for _, batch := range batches {
			for len(batch) > 0 {
				n := min(len(batch), 1+rng.IntN(900))
				e.write(batch[:n]...)
				batch = batch[n:]
			}
		}
		stored := storedLog(t, st, a)
		if len(stored) != len(calls) {
			t.Fatalf("%d calls stored, want %d", len(stored), len(calls))
		}

		filters := []metering.LogFilter{{}, {StatusGroup: "429"}, {ErrorCode: "not_found"}, {KeyID: aKeys[0]},
			{RequestIDPrefix: "req_"}, {RequestIDPrefix: calls[3000].RequestID[:12]}, {RequestIDPrefix: calls[4000].RequestID},
			{From: calls[1000].At, To: calls[2500].At}, {StatusGroup: "3xx"}, {KeyID: bKeys[0]}}
		for range 30 {
			filters = append(filters, randomFilter(rng, calls, aKeys))
		}
		for _, f := range filters {
			want := bruteForce(stored, f)
			older := !f.From.IsZero() || rng.IntN(2) == 0 // vary which way the walk goes back
			got := walkLog(t, e.us, a, f, 1+rng.IntN(120), older)
			assertLog(t, fmt.Sprintf("walk of %+v", f), got, want)
			var exported []metering.LogCall
			if err := e.us.ExportLog(t.Context(), a, f, func(c metering.LogCall) error {
				exported = append(exported, c)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			assertLog(t, fmt.Sprintf("export of %+v", f), exported, want)
		}

		for _, i := range []int{0, 99, 100, 2999, 5999} {
			id := calls[i].RequestID
			got, err := e.us.LogCall(t.Context(), a, id)
			if err != nil {
				t.Fatalf("LogCall(%s): %v", id, err)
			}
			first := slices.IndexFunc(stored, func(c storedCall) bool { return c.call.RequestID == id }) // stored is in id order
			if w := stored[first]; got.ID != w.ID || got.At != w.call.At || string(got.ErrorBody) != string(w.call.ErrorBody) {
				t.Errorf("LogCall(%s) = id %d at %v body %q, want id %d at %v body %q", id, got.ID, got.At, got.ErrorBody, w.ID, w.call.At, w.call.ErrorBody)
			}
			if _, err := e.us.LogCall(t.Context(), b, id); !errors.Is(err, metering.ErrCallNotFound) {
				t.Errorf("LogCall(%s) of another consumer: %v, want ErrCallNotFound", id, err)
			}
		}
		recent, err := e.us.Recent(t.Context(), a, metering.RecentFilter{KeyID: aKeys[1]}, 25)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteForce(stored, metering.LogFilter{KeyID: aKeys[1]})[:25]
		for i, r := range recent {
			if r.RequestID != want[i].RequestID || !r.At.Equal(want[i].At) {
				t.Fatalf("Recent[%d] = %s at %v, want %s at %v", i, r.RequestID, r.At, want[i].RequestID, want[i].At)
			}
		}
	})
}

// storedCall is a call as the brute force sees it: decoded from its page, with the id the log gives it.
type storedCall struct {
	ID   int
	call metering.Call
}

// storedLog decodes every page of the consumer, in page order.
func storedLog(t *testing.T, st *store.Store, consumerID int) []storedCall {
	t.Helper()
	rows, err := st.DB.QueryContext(t.Context(), `SELECT id, data FROM usage_pages WHERE consumer_id = `+placeholder(st)+` ORDER BY id`, consumerID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []storedCall
	for rows.Next() {
		var id int
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			t.Fatal(err)
		}
		calls, err := metering.DecodePage(data)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range calls {
			out = append(out, storedCall{ID: id<<metering.PageIndexBits | i, call: c})
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func placeholder(st *store.Store) string {
	if st.Dialect == "postgres" {
		return "$1"
	}
	return "?"
}

// bruteForce filters every stored call by f and sorts them newest first, as the log orders them.
func bruteForce(stored []storedCall, f metering.LogFilter) []metering.LogCall {
	var out []metering.LogCall
	for _, s := range stored {
		c := s.call
		if !callMatches(c, f) {
			continue
		}
		out = append(out, metering.LogCall{ID: s.ID, At: c.At, KeyID: c.KeyID, Operation: c.Operation, Status: c.Status, RequestID: c.RequestID})
	}
	slices.SortFunc(out, func(x, y metering.LogCall) int {
		if f.RequestIDPrefix != "" {
			return -cmp.Or(strings.Compare(x.RequestID, y.RequestID), cmp.Compare(x.ID, y.ID))
		}
		return -cmp.Or(x.At.Compare(y.At), cmp.Compare(x.ID, y.ID))
	})
	return out
}

// callMatches is the request log's filter applied to one call.
func callMatches(c metering.Call, f metering.LogFilter) bool {
	return (f.From.IsZero() || !c.At.Before(f.From)) && (f.To.IsZero() || c.At.Before(f.To)) &&
		(f.KeyID == 0 || c.KeyID == f.KeyID) && (f.Operation == "" || c.Operation == f.Operation) &&
		(f.StatusGroup == "" || metering.StatusGroup(c.Status) == f.StatusGroup) &&
		(f.ErrorCode == "" || c.ErrorCode == f.ErrorCode) && strings.HasPrefix(c.RequestID, f.RequestIDPrefix)
}

// randomFilter is one or two random filters over the calls.
func randomFilter(rng *rand.Rand, calls []metering.Call, keys []int) metering.LogFilter {
	var f metering.LogFilter
	for range 1 + rng.IntN(2) {
		switch rng.IntN(6) {
		case 0:
			i := rng.IntN(len(calls))
			f.From, f.To = calls[i].At, calls[i].At.Add(time.Duration(rng.IntN(3*3600))*time.Second)
		case 1:
			f.KeyID = keys[rng.IntN(len(keys))]
		case 2:
			ops := meteringtest.TrafficOperations()
			f.Operation = ops[rng.IntN(len(ops))]
		case 3:
			f.StatusGroup = metering.StatusGroups[rng.IntN(len(metering.StatusGroups))]
		case 4:
			codes := meteringtest.TrafficErrorCodes()
			f.ErrorCode = codes[rng.IntN(len(codes))]
		case 5:
			id := calls[rng.IntN(len(calls))].RequestID
			f.RequestIDPrefix = id[:5+rng.IntN(len(id)-5)]
		}
	}
	return f
}

// walkLog reads the whole log matching f a page of limit at a time: from the newest page back
// through Older when older, else from the oldest end (found by walking back) forward through Newer;
// it returns the calls newest first either way, and checks that each page's cursors lead on.
func walkLog(t *testing.T, us *metering.UsageStore, consumerID int, f metering.LogFilter, limit int, older bool) []metering.LogCall {
	t.Helper()
	ctx := context.Background()
	var all []metering.LogCall
	var last metering.LogPage
	for page, cur := 0, (*metering.LogCursor)(nil); ; page++ {
		p, err := us.Log(ctx, consumerID, f, cur, nil, limit)
		if err != nil {
			t.Fatalf("Log(%+v): %v", f, err)
		}
		if len(p.Calls) > limit || p.Older != nil && len(p.Calls) != limit {
			t.Fatalf("Log(%+v) page %d: %d calls (limit %d), older %v", f, page, len(p.Calls), limit, p.Older != nil)
		}
		all, last = append(all, p.Calls...), p
		if p.Older == nil {
			break
		}
		cur = p.Older
	}
	if older || len(last.Calls) == 0 {
		return all
	}
	// Forward from the oldest call: every page newer than it, oldest page first.
	oldest := last.Calls[len(last.Calls)-1]
	fwd := []metering.LogCall{oldest}
	cur := oldest.Cursor(f)
	for {
		p, err := us.Log(ctx, consumerID, f, nil, &cur, limit)
		if err != nil {
			t.Fatalf("Log(%+v, after): %v", f, err)
		}
		slices.Reverse(p.Calls)
		fwd = append(fwd, p.Calls...)
		if p.Newer == nil {
			break
		}
		cur = *p.Newer
	}
	slices.Reverse(fwd)
	return fwd
}

func assertLog(t *testing.T, what string, got, want []metering.LogCall) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d calls, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || !g.At.Equal(w.At) || g.RequestID != w.RequestID || g.KeyID != w.KeyID || g.Operation != w.Operation || g.Status != w.Status {
			t.Fatalf("%s: call %d = %d %v %s, want %d %v %s", what, i, g.ID, g.At, g.RequestID, w.ID, w.At, w.RequestID)
		}
	}
}
