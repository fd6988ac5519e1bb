package solana

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
)

// placeholderEndpoint is the URL the JSON-RPC client addresses every request to. The failover
// transport replaces it with a configured URL, so that no configured URL (which may carry an API
// key in its path or query) ever appears in an error the client builds.
const placeholderEndpoint = "http://solana-rpc.invalid/"

// failover is the HTTP transport of the adapter. Every request goes to the URL that answered
// last; when that URL fails (no connection, a non-2xx status, an answer cut off, or no answer
// within attemptTimeout while another URL is left to try) the same request is sent to the next
// URL, each URL at most once, so a request fails only when every URL does. The last URL tried gets
// whatever remains of the call's deadline. A URL that timed out is skipped by the next request: a
// hung endpoint costs one attempt, not every request.
//
// The whole answer is read here, at most maxBody bytes (more is ErrResponseTooLarge, without
// failover: another URL would send the same answer), so that a URL that hangs mid-answer fails
// over like one that never answers.
//
// JSON-RPC reads, simulations and this adapter's other requests are safe to send twice (it never
// sends a transaction). A URL's user info is sent as basic auth to that URL only.
type failover struct {
	base           http.RoundTripper
	targets        []target
	current        atomic.Int64 // index of the preferred target
	attemptTimeout time.Duration
	maxBody        int64
}

// target is one RPC URL, split into the address requests go to and its basic-auth credentials.
type target struct {
	url  *url.URL // without user info
	user *url.Userinfo
}

// statusError is a non-2xx HTTP answer.
type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("HTTP status %d", e.code) }

func newFailover(base http.RoundTripper, urls []*url.URL, attemptTimeout time.Duration, maxBody int64) *failover {
	f := &failover{base: base, attemptTimeout: attemptTimeout, maxBody: maxBody}
	for _, u := range urls {
		bare := *u
		bare.User = nil
		f.targets = append(f.targets, target{url: &bare, user: u.User})
	}
	return f
}

// RoundTrip implements http.RoundTripper.
func (f *failover) RoundTrip(req *http.Request) (*http.Response, error) {
	start := int(f.current.Load())
	var lastErr error
	for i := range f.targets {
		n := (start + i) % len(f.targets)
		last := i == len(f.targets)-1
		resp, err := f.attempt(req, n, last)
		if err == nil {
			f.current.Store(int64(n))
			return resp, nil
		}
		lastErr = err
		if errors.Is(err, ErrResponseTooLarge) || req.Context().Err() != nil {
			break
		}
		if req.Body != nil && req.GetBody == nil {
			break // the body cannot be sent again
		}
	}
	if len(f.targets) > 1 {
		return nil, fmt.Errorf("every RPC URL failed (%d); last: %w", len(f.targets), lastErr)
	}
	return nil, lastErr
}

// attempt sends req to target n and reads the whole answer.
func (f *failover) attempt(req *http.Request, n int, last bool) (*http.Response, error) {
	ctx, cancel := req.Context(), context.CancelFunc(func() {})
	if !last && f.attemptTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, f.attemptTimeout)
	}
	defer cancel()
	a := req.Clone(ctx)
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		a.Body = body
	}
	f.targets[n].address(a)
	resp, err := f.base.RoundTrip(a)
	if err != nil {
		f.skipIfTimedOut(ctx, req, n)
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
		return nil, &statusError{code: resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBody+1))
	if err != nil {
		f.skipIfTimedOut(ctx, req, n)
		return nil, err
	}
	if int64(len(body)) > f.maxBody {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, f.maxBody)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Request = req
	return resp, nil
}

// skipIfTimedOut moves the preferred target past n when n's attempt ran out of time.
func (f *failover) skipIfTimedOut(attemptCtx context.Context, req *http.Request, n int) {
	if errors.Is(attemptCtx.Err(), context.DeadlineExceeded) || errors.Is(req.Context().Err(), context.DeadlineExceeded) {
		f.current.CompareAndSwap(int64(n), int64((n+1)%len(f.targets)))
	}
}

// CloseIdleConnections closes the idle connections of the transport under failover.
func (f *failover) CloseIdleConnections() {
	if t, ok := f.base.(interface{ CloseIdleConnections() }); ok {
		t.CloseIdleConnections()
	}
}

// address points req at t: its URL and its credentials, and nobody else's.
func (t target) address(req *http.Request) {
	u := *t.url
	req.URL, req.Host = &u, ""
	if t.user != nil {
		password, _ := t.user.Password()
		req.SetBasicAuth(t.user.Username(), password)
	}
}
