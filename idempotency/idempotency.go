// Package idempotency remembers builder calls under (API key, Idempotency-Key) so that a retried
// call with the same body replays the original result instead of building again.
package idempotency

import (
	"context"
	"errors"
	"time"

	"github.com/partner-platform/partnerd/ent"
)

// Window is how long a finished call is replayed.
const Window = 10 * time.Minute

// MaxKeyLen is the longest Idempotency-Key accepted.
const MaxKeyLen = 128

// State is what Begin found.
type State int

// States returned by Begin.
const (
	// Started: no live record existed (or an abandoned one was taken over); the caller runs the call and then Finishes or Releases it.
	Started State = iota
	// Replay: the same body finished within the window; Outcome holds its status and body.
	Replay
	// Pending: the same body is still in flight under this key.
	Pending
	// Conflict: the key was used with a different body within the window.
	Conflict
)

// Outcome is Begin's answer.
type Outcome struct {
	State    State
	Response Response // Replay only
}

// Response is a finished call's answer, kept for replay.
type Response struct {
	Status int
	Body   []byte
	// RequestID is the finished call's own request id: a replay is a new request with an id of its
	// own, and names the original one.
	RequestID string
}

// Request names one builder call.
type Request struct {
	KeyID    int      // the API key's id
	Key      string   // the Idempotency-Key header
	BodyHash [32]byte // SHA-256 of the request body bytes
}

// Write is what a call writes together with its response, on the client of Finish's transaction.
type Write func(ctx context.Context, db *ent.Client) error

// ErrNotOwned is returned by Finish and Release when the record is no longer held by this call
// (it expired, or its lease ran out and another call took it over).
var ErrNotOwned = errors.New("idempotency record not held")

// Store keeps idempotency records. Any error other than ErrNotOwned means the store failed; callers
// answer 503 and run nothing (fail closed).
type Store interface {
	// Begin claims the request's key, holding it until lease ends; a record still pending after its
	// lease was abandoned by a crashed call and is taken over.
	Begin(ctx context.Context, r Request, now time.Time, lease time.Duration) (Outcome, error)
	// Finish stores the call's final response for replay until the window ends. A non-nil with
	// runs in the same transaction, writing what the response hands out (a build's confirmation
	// token): the response and those writes are kept together or not at all.
	Finish(ctx context.Context, r Request, res Response, now time.Time, with Write) error
	// Release forgets a call that must not be replayed (it failed in a retryable way), so a retry runs again.
	Release(ctx context.Context, r Request) error
	// Sweep deletes records whose window ended before now and returns how many.
	Sweep(ctx context.Context, now time.Time) (int, error)
}
