package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
)

// failingWriter is a usage store that is down.
type failingWriter struct{}

func (failingWriter) WriteUsage(context.Context, metering.UsageBatch) error {
	return errors.New("store down")
}

// TestReportUsageShedding: once the usage recorder sheds raw rows (its store down, its buffer
// full), the periodic check warns operators with the counts; with nothing new, it reports no new shed rows.
func TestReportUsageShedding(t *testing.T) {
	var logs bytes.Buffer
	m := &Main{Log: slog.New(slog.NewJSONHandler(&logs, nil))}
	m.usage = metering.NewRecorder(failingWriter{}, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), time.Hour, 10)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = m.usage.Close(ctx)
	})
	check := m.reportUsageShedding()
	if err := check(t.Context()); err != nil || logs.Len() != 0 {
		t.Fatalf("nothing shed yet: %v %s", err, logs.String())
	}
	for range 25 {
		m.usage.Record(metering.Call{KeyID: 1, ConsumerID: 1, Operation: "getTokenPrice", Status: 200, Cost: 1, At: time.Now()})
	}
	if err := check(t.Context()); err != nil || !strings.Contains(logs.String(), `"level":"WARN"`) || !strings.Contains(logs.String(), `"shed":15`) {
		t.Fatalf("25 calls into a buffer of 10: %v %s", err, logs.String())
	}
	logs.Reset()
	if err := check(t.Context()); err != nil {
		t.Fatal(err)
	}
	// Nothing new shed: silent, or a warning about failed writes only (the recorder keeps retrying).
	var line struct{ Shed *int64 }
	if logs.Len() > 0 && (json.Unmarshal(logs.Bytes(), &line) != nil || line.Shed == nil || *line.Shed != 0) {
		t.Errorf("nothing new shed: %s", logs.String())
	}
}
