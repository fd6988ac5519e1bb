package api

import (
	"testing"
	"time"
)

func TestLogSampler(t *testing.T) {
	var l logSampler
	t0 := time.Unix(1_800_000_000, 0)
	if held, ok := l.take(t0); !ok || held != 0 {
		t.Fatalf("first line: %d %v", held, ok)
	}
	for i := range 500 {
		if _, ok := l.take(t0.Add(time.Duration(i) * time.Millisecond)); ok {
			t.Fatalf("line %d within the second let through", i)
		}
	}
	if held, ok := l.take(t0.Add(time.Second)); !ok || held != 500 {
		t.Fatalf("a second later: %d %v, want 500 held back", held, ok)
	}
}
