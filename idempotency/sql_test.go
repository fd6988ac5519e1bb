package idempotency_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/idempotencyrecord"
	"github.com/partner-platform/partnerd/idempotency"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// t0 is the suite's "now"; times are whole seconds so every backend stores them exactly.
var t0 = time.Date(2030, time.June, 1, 10, 0, 0, 0, time.UTC)

// lease is the builder lease the API uses (api.idempotencyLease).
const lease = 2 * time.Minute

func req(keyID int, key, body string) idempotency.Request {
	return idempotency.Request{KeyID: keyID, Key: key, BodyHash: sha256.Sum256([]byte(body))}
}

var stateNames = map[idempotency.State]string{
	idempotency.Started: "Started", idempotency.Replay: "Replay", idempotency.Pending: "Pending", idempotency.Conflict: "Conflict",
}

// idem wraps the store with assertions for one subtest.
type idem struct {
	t *testing.T
	s *idempotency.SQLStore
}

func (h idem) begin(r idempotency.Request, now time.Time, want idempotency.State) idempotency.Outcome {
	h.t.Helper()
	return h.beginLease(r, now, lease, want)
}

func (h idem) beginLease(r idempotency.Request, now time.Time, l time.Duration, want idempotency.State) idempotency.Outcome {
	h.t.Helper()
	out, err := h.s.Begin(h.t.Context(), r, now, l)
	if err != nil {
		h.t.Fatalf("Begin(%s) at %v: %v", r.Key, now.Sub(t0), err)
	}
	if out.State != want {
		h.t.Fatalf("Begin(%s) at t0+%v = %s, want %s", r.Key, now.Sub(t0), stateNames[out.State], stateNames[want])
	}
	if want != idempotency.Replay && (out.Response.Status != 0 || out.Response.Body != nil || out.Response.RequestID != "") {
		h.t.Fatalf("Begin(%s) = %s with response %+v: only Replay carries one", r.Key, stateNames[out.State], out.Response)
	}
	return out
}

func (h idem) replay(r idempotency.Request, now time.Time, status int, body []byte) {
	h.t.Helper()
	out := h.begin(r, now, idempotency.Replay).Response
	if out.Status != status || !bytes.Equal(out.Body, body) || out.RequestID != requestID(r) {
		h.t.Fatalf("Replay = %d %q (request %s), want %d %q (request %s)", out.Status, out.Body, out.RequestID, status, body, requestID(r))
	}
}

func (h idem) finish(r idempotency.Request, status int, body []byte, now time.Time, want error) {
	h.t.Helper()
	res := idempotency.Response{Status: status, Body: body, RequestID: requestID(r)}
	if err := h.s.Finish(h.t.Context(), r, res, now, nil); !errors.Is(err, want) || (want == nil && err != nil) {
		h.t.Fatalf("Finish(%s) = %v, want %v", r.Key, err, want)
	}
}

// requestID is the request id the tests finish r's call with.
func requestID(r idempotency.Request) string { return "req_" + r.Key }

func (h idem) release(r idempotency.Request, want error) {
	h.t.Helper()
	if err := h.s.Release(h.t.Context(), r); !errors.Is(err, want) || (want == nil && err != nil) {
		h.t.Fatalf("Release(%s) = %v, want %v", r.Key, err, want)
	}
}

func TestSQLStore(t *testing.T) {
	cases := []struct {
		name string
		run  func(h idem, keyID int)
	}{
		{"fresh key starts", func(h idem, k int) {
			h.begin(req(k, "a", "body"), t0, idempotency.Started)
		}},
		{"same body in flight is pending", func(h idem, k int) {
			r := req(k, "a", "body")
			h.begin(r, t0, idempotency.Started)
			h.begin(r, t0, idempotency.Pending)
			h.begin(r, t0.Add(lease-time.Second), idempotency.Pending)
		}},
		{"different body conflicts", func(h idem, k int) {
			a, b := req(k, "a", `{"amount":"1"}`), req(k, "a", `{"amount":"2"}`)
			h.begin(a, t0, idempotency.Started)
			h.begin(b, t0.Add(time.Second), idempotency.Conflict)       // in flight
			h.begin(b, t0.Add(lease+time.Second), idempotency.Conflict) // abandoned, but not by this body
			h.begin(a, t0.Add(lease+time.Second), idempotency.Started)  // taken over by its own body
			h.finish(a, 200, []byte(`{"ok":true}`), t0.Add(lease+2*time.Second), nil)
			h.begin(b, t0.Add(lease+3*time.Second), idempotency.Conflict) // finished
		}},
		{"finished call replays the exact status and bytes", func(h idem, k int) {
			r := req(k, "a", "body")
			body := []byte("{\"ok\":true,\"x\":\"\x00\xff\xfe\"}\n")
			h.begin(r, t0, idempotency.Started)
			done := t0.Add(30 * time.Second)
			h.finish(r, 201, body, done, nil)
			h.replay(r, done, 201, body)
			h.replay(r, done.Add(idempotency.Window-time.Second), 201, body) // the window runs from Finish
			h.replay(r, done.Add(lease*3), 201, body)                        // a finished record has no lease

			empty := req(k, "empty", "")
			h.begin(empty, t0, idempotency.Started)
			h.finish(empty, 422, nil, t0, nil)
			if out := h.begin(empty, t0.Add(time.Second), idempotency.Replay).Response; out.Status != 422 || len(out.Body) != 0 {
				h.t.Fatalf("replay of an empty body = %d %q", out.Status, out.Body)
			}
		}},
		{"release lets the next call start", func(h idem, k int) {
			r := req(k, "a", "body")
			h.begin(r, t0, idempotency.Started)
			h.release(r, nil)
			h.begin(r, t0.Add(time.Second), idempotency.Started)
			h.begin(r, t0.Add(2*time.Second), idempotency.Pending)
			h.release(r, nil)
			other := req(k, "a", "another body")
			h.begin(other, t0.Add(3*time.Second), idempotency.Started) // a released key is free for any body
			h.begin(r, t0.Add(4*time.Second), idempotency.Conflict)
		}},
		{"an abandoned call is taken over", func(h idem, k int) {
			r := req(k, "a", "body")
			h.begin(r, t0, idempotency.Started)
			h.begin(r, t0.Add(lease), idempotency.Started) // the lease ends at t0+lease
			h.begin(r, t0.Add(lease+time.Second), idempotency.Pending)
			h.begin(r, t0.Add(2*lease-time.Second), idempotency.Pending) // the taker's lease is live
			h.finish(r, 200, []byte("taker"), t0.Add(2*lease-time.Second), nil)
			h.replay(r, t0.Add(2*lease), 200, []byte("taker"))
		}},
		{"the window's end frees the key for any body", func(h idem, k int) {
			a, b, c := req(k, "a", "A"), req(k, "a", "B"), req(k, "a", "C")
			h.begin(a, t0, idempotency.Started)
			h.finish(a, 200, []byte("A"), t0, nil)
			h.begin(b, t0.Add(idempotency.Window-time.Second), idempotency.Conflict)
			h.begin(b, t0.Add(idempotency.Window), idempotency.Started)
			h.begin(a, t0.Add(idempotency.Window+time.Second), idempotency.Conflict) // the old result is gone
			// An unfinished call whose window ended loses the key, too.
			end := t0.Add(2 * idempotency.Window)
			h.begin(c, end, idempotency.Started)
			h.finish(b, 200, []byte("B late"), end, idempotency.ErrNotOwned)
			h.release(b, idempotency.ErrNotOwned)
			h.finish(c, 200, []byte("C"), end.Add(time.Second), nil)
			h.replay(c, end.Add(2*time.Second), 200, []byte("C"))
		}},
		{"finish and release need a held record", func(h idem, k int) {
			r := req(k, "a", "body")
			h.finish(r, 200, nil, t0, idempotency.ErrNotOwned) // never begun
			h.release(r, idempotency.ErrNotOwned)
			h.begin(r, t0, idempotency.Started)
			h.finish(req(k, "a", "other body"), 200, []byte("x"), t0, idempotency.ErrNotOwned)
			h.release(req(k, "a", "other body"), idempotency.ErrNotOwned)
			h.finish(r, 200, []byte("first"), t0, nil)
			h.finish(r, 500, []byte("second"), t0, idempotency.ErrNotOwned) // finished: the result stands
			h.release(r, idempotency.ErrNotOwned)
			h.replay(r, t0.Add(time.Second), 200, []byte("first"))

			q := req(k, "b", "body")
			h.begin(q, t0, idempotency.Started)
			h.release(q, nil)
			h.release(q, idempotency.ErrNotOwned)
			h.finish(q, 200, []byte("x"), t0, idempotency.ErrNotOwned)
			h.begin(q, t0.Add(time.Second), idempotency.Started) // nothing was stored
		}},
		{"after a takeover only one finish counts", func(h idem, k int) {
			r := req(k, "a", "body")
			h.begin(r, t0, idempotency.Started)                        // call 1, which stalls
			h.begin(r, t0.Add(lease+time.Second), idempotency.Started) // call 2 takes over
			// The store cannot tell the two calls apart (same key, same body): whichever finishes
			// first stores its result, the other gets ErrNotOwned, and nothing is overwritten.
			err1 := h.s.Finish(h.t.Context(), r, idempotency.Response{Status: 200, Body: []byte("one"), RequestID: requestID(r)}, t0.Add(lease+2*time.Second), nil)
			err2 := h.s.Finish(h.t.Context(), r, idempotency.Response{Status: 200, Body: []byte("two"), RequestID: requestID(r)}, t0.Add(lease+3*time.Second), nil)
			if err1 != nil || !errors.Is(err2, idempotency.ErrNotOwned) {
				h.t.Fatalf("Finish, Finish = %v, %v; want nil, ErrNotOwned", err1, err2)
			}
			h.replay(r, t0.Add(lease+4*time.Second), 200, []byte("one"))
		}},
		{"a live lease outlasts the window", func(h idem, k int) {
			long := idempotency.Window + 5*time.Minute
			r := req(k, "a", "slow body")
			h.beginLease(r, t0, long, idempotency.Started)
			h.beginLease(r, t0.Add(idempotency.Window+time.Minute), lease, idempotency.Pending) // still running
			h.beginLease(req(k, "a", "other"), t0.Add(idempotency.Window+time.Minute), lease, idempotency.Conflict)
			h.beginLease(req(k, "a", "other"), t0.Add(long), lease, idempotency.Started) // lease and window over
		}},
		{"keys of different API keys are independent", func(h idem, k int) {
			mine, theirs := req(k, "shared", "mine"), req(k+1000, "shared", "theirs")
			h.begin(mine, t0, idempotency.Started)
			h.begin(theirs, t0, idempotency.Started)
			h.finish(mine, 200, []byte("mine"), t0, nil)
			h.begin(theirs, t0.Add(time.Second), idempotency.Pending)
			h.begin(req(k+1000, "shared", "mine"), t0.Add(time.Second), idempotency.Conflict)
			h.release(theirs, nil)
			h.replay(mine, t0.Add(2*time.Second), 200, []byte("mine"))
			h.begin(req(k+1000, "shared", "mine"), t0.Add(3*time.Second), idempotency.Started)
		}},
		{"concurrent first calls: exactly one starts", func(h idem, k int) {
			got := beginTogether(h, req(k, "race", "body"), t0, 20)
			if got[idempotency.Started] != 1 || got[idempotency.Pending] != 19 {
				h.t.Fatalf("20 concurrent Begins: %v, want 1 Started and 19 Pending", named(got))
			}
		}},
		{"concurrent takeover: exactly one starts", func(h idem, k int) {
			r := req(k, "race", "body")
			h.begin(r, t0, idempotency.Started)
			got := beginTogether(h, r, t0.Add(lease+time.Second), 20)
			if got[idempotency.Started] != 1 || got[idempotency.Pending] != 19 {
				h.t.Fatalf("20 concurrent Begins after the lease: %v, want 1 Started and 19 Pending", named(got))
			}
		}},
	}
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := idempotency.NewSQLStore(st.Client)
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) { c.run(idem{t: t, s: s}, i+1) }) // one API key id per case
		}
	})
}

// beginTogether runs n Begins of r at now, released at once, and counts their states.
func beginTogether(h idem, r idempotency.Request, now time.Time, n int) map[idempotency.State]int {
	h.t.Helper()
	start := make(chan struct{})
	var mu sync.Mutex
	got := map[idempotency.State]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			<-start
			out, err := h.s.Begin(h.t.Context(), r, now, lease)
			if err != nil {
				h.t.Errorf("concurrent Begin: %v", err)
				return
			}
			mu.Lock()
			got[out.State]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return got
}

func named(m map[idempotency.State]int) map[string]int {
	out := map[string]int{}
	for s, n := range m {
		out[stateNames[s]] = n
	}
	return out
}

func TestSQLStoreSweep(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := idempotency.NewSQLStore(st.Client)
		h := idem{t: t, s: s}
		now := t0.Add(time.Hour)
		w := idempotency.Window

		finishedOld := req(1, "finished-window-ended", "b")
		h.begin(finishedOld, now.Add(-w-time.Minute), idempotency.Started)
		h.finish(finishedOld, 200, []byte("old"), now.Add(-w-time.Second), nil)

		finishedLive := req(1, "finished-window-live", "b")
		h.begin(finishedLive, now.Add(-w), idempotency.Started)
		h.finish(finishedLive, 200, []byte("live"), now.Add(-time.Minute), nil)

		abandonedOld := req(1, "abandoned-window-ended", "b")
		h.begin(abandonedOld, now.Add(-w-time.Second), idempotency.Started)

		abandonedLive := req(1, "abandoned-window-live", "b")
		h.begin(abandonedLive, now.Add(-w+time.Minute), idempotency.Started) // lease over, window not

		heldLong := req(1, "held-past-window", "b")
		h.beginLease(heldLong, now.Add(-w-time.Minute), w+5*time.Minute, idempotency.Started) // lease still live

		n, err := s.Sweep(t.Context(), now)
		if err != nil {
			t.Fatalf("Sweep: %v", err)
		}
		if n != 2 {
			t.Fatalf("Sweep deleted %d records, want 2", n)
		}
		if left, err := st.Client.IdempotencyRecord.Query().Count(t.Context()); err != nil || left != 3 {
			t.Fatalf("%d records left, %v; want 3", left, err)
		}
		h.replay(finishedLive, now, 200, []byte("live"))
		h.begin(heldLong, now, idempotency.Pending)
		h.begin(abandonedLive, now, idempotency.Started) // taken over
		h.finish(finishedOld, 200, nil, now, idempotency.ErrNotOwned)
		h.release(abandonedOld, idempotency.ErrNotOwned)

		if n, err := s.Sweep(t.Context(), now); err != nil || n != 0 {
			t.Fatalf("second Sweep = %d, %v; want 0", n, err)
		}
	})
}

// TestSQLStoreFinishWith: what a call writes with its response (a build's confirmation token) is
// kept exactly when the response is. Here the write is another record, made on the transaction's
// client; a write that fails takes the response down with it, and a response that cannot be
// stored (the call no longer holds its key) takes the write down.
func TestSQLStoreFinishWith(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := idempotency.NewSQLStore(st.Client)
		h := idem{t: t, s: s}
		side := func(key string) idempotency.Write {
			return func(ctx context.Context, db *ent.Client) error {
				return db.IdempotencyRecord.Create().SetKeyID(99).SetIdempotencyKey(key).SetBodyHash(make([]byte, 32)).
					SetCreatedAt(t0).SetExpiresAt(t0.Add(time.Hour)).SetLeaseUntil(t0).Exec(ctx)
			}
		}
		failing := func(key string) idempotency.Write {
			return func(ctx context.Context, db *ent.Client) error {
				if err := side(key)(ctx, db); err != nil {
					return err
				}
				return errors.New("disk full")
			}
		}
		written := func(key string) bool {
			t.Helper()
			n, err := st.Client.IdempotencyRecord.Query().Where(idempotencyrecord.KeyID(99), idempotencyrecord.IdempotencyKey(key)).Count(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return n == 1
		}
		res := func(r idempotency.Request) idempotency.Response {
			return idempotency.Response{Status: 200, Body: []byte("ok"), RequestID: requestID(r)}
		}

		kept := req(1, "kept", "b")
		h.begin(kept, t0, idempotency.Started)
		if err := s.Finish(t.Context(), kept, res(kept), t0, side("kept")); err != nil {
			t.Fatalf("Finish with a write: %v", err)
		}
		h.replay(kept, t0, 200, []byte("ok"))
		if !written("kept") {
			t.Error("Finish kept the response but not its write")
		}

		failed := req(1, "failed", "b")
		h.begin(failed, t0, idempotency.Started)
		if err := s.Finish(t.Context(), failed, res(failed), t0, failing("failed")); err == nil {
			t.Fatal("Finish whose write failed succeeded")
		}
		if written("failed") {
			t.Error("Finish failed but its write was kept")
		}
		h.begin(failed, t0, idempotency.Pending) // still held, not finished
		h.release(failed, nil)

		lost := req(1, "lost", "b")
		if err := s.Finish(t.Context(), lost, res(lost), t0, side("lost")); !errors.Is(err, idempotency.ErrNotOwned) {
			t.Fatalf("Finish of a key not held = %v, want ErrNotOwned", err)
		}
		if written("lost") {
			t.Error("Finish of a key not held kept its write")
		}
	})
}
