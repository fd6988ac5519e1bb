package api

import (
	"context"
	"errors"
	"testing"
	"time"
)

type deadlineTestKey struct{}

func TestLazyDeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), deadlineTestKey{}, "v")

	t.Run("nothing waits", func(t *testing.T) {
		ctx := withLazyDeadline(parent, time.Hour)
		defer ctx.release()
		if at, ok := ctx.Deadline(); !ok || time.Until(at) < 59*time.Minute {
			t.Fatalf("Deadline() = %v, %v; want an hour from now", at, ok)
		}
		if ctx.Value(deadlineTestKey{}) != "v" {
			t.Fatal("the parent's value is lost")
		}
		if ctx.timed.Load() != nil {
			t.Fatal("a timer started though nothing waited")
		}
	})

	t.Run("the deadline passes", func(t *testing.T) {
		ctx := withLazyDeadline(parent, 20*time.Millisecond)
		defer ctx.release()
		child, cancel := context.WithCancel(ctx)
		defer cancel()
		select {
		case <-child.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the child was not cancelled at the deadline")
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Fatalf("Err() = %v, Cause = %v; want the deadline exceeded", ctx.Err(), context.Cause(ctx))
		}
		if ctx.Value(deadlineTestKey{}) != "v" {
			t.Fatal("the parent's value is lost once timed")
		}
	})

	t.Run("the parent ends first", func(t *testing.T) {
		p, cancelParent := context.WithTimeout(parent, 10*time.Millisecond)
		defer cancelParent()
		ctx := withLazyDeadline(p, time.Hour)
		defer ctx.release()
		if at, _ := ctx.Deadline(); time.Until(at) > time.Second {
			t.Fatalf("Deadline() = %v, want the parent's earlier one", at)
		}
		<-ctx.Done()
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err() = %v", ctx.Err())
		}
	})

	t.Run("release stops the timer", func(t *testing.T) {
		ctx := withLazyDeadline(parent, time.Hour)
		done := ctx.Done()
		ctx.release()
		select {
		case <-done:
		default:
			t.Fatal("release left the timed context running")
		}
	})
}
