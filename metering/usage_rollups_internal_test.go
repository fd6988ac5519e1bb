package metering

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestRollupsMergeEqualsAdd: merging the rollups of parts of a set of calls (as the Recorder does
// when a write fails and its increments are put back) gives the rollups of the whole set, in every
// table: daily, hourly by status group, minutes, latency histograms and keys' last use.
func TestRollupsMergeEqualsAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := time.Date(2030, 5, 10, 12, 0, 0, 0, time.UTC)
	statuses := []int{200, 201, 304, 400, 404, 429, 499, 500, 502}
	codes := map[int]string{429: "rate_limited", 404: "not_found"}
	calls := make([]Call, 5000)
	for i := range calls {
		st := statuses[rng.IntN(len(statuses))]
		cons := 1 + rng.IntN(3)
		calls[i] = Call{ConsumerID: cons, KeyID: cons*10 + rng.IntN(5), Operation: []string{"a", "b", "c"}[rng.IntN(3)],
			Status: st, ErrorCode: codes[st], Cost: rng.IntN(30), Latency: time.Duration(rng.Int64N(int64(2 * time.Second))),
			At: base.Add(time.Duration(rng.Int64N(int64(72 * time.Hour))))}
	}
	whole := RollupsOf(calls)
	merged := &Rollups{}
	for i := 0; i < len(calls); i += 700 {
		merged.Merge(RollupsOf(calls[i:min(i+700, len(calls))]))
	}
	merged.Merge(nil)
	merged.Merge(&Rollups{})
	if merged.Calls() != int64(len(calls)) || whole.Calls() != int64(len(calls)) {
		t.Fatalf("calls %d and %d, want %d", merged.Calls(), whole.Calls(), len(calls))
	}
	for name, pair := range map[string][2]any{
		"daily":     {whole.dailyRows(), merged.dailyRows()},
		"hourly":    {whole.hourlyRows(), merged.hourlyRows()},
		"minutes":   {whole.minuteRows(), merged.minuteRows()},
		"latencies": {whole.latencyRows(), merged.latencyRows()},
		"last use":  {whole.keyUses(), merged.keyUses()},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s rollups differ after merging", name)
		}
	}
	// Each hourly row's status groups add up to its calls, and 429s rate_limited are the minutes' limited.
	var limited, limitedMinutes int64
	for _, h := range whole.hourlyRows() {
		if h.groups.Calls() != h.Calls || h.groups.Errors() != h.Errors {
			t.Errorf("hour %v: groups %+v for %d calls, %d errors", h.hour, h.groups, h.Calls, h.Errors)
		}
		limited += h.groups.Limited
	}
	for _, m := range whole.minuteRows() {
		limitedMinutes += m.limited
	}
	if limited != limitedMinutes || limited == 0 {
		t.Errorf("%d 429s by hour, %d limited by minute", limited, limitedMinutes)
	}
}
