package evm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
)

// failover is the HTTP transport of a chain with several RPC URLs. Every request goes to the URL
// that answered last; when that URL fails (no connection, or any status but 2xx) the same request
// is sent to the next URL, each URL at most once, so a request fails only when every URL does. A
// request whose deadline passes while one URL keeps it waiting fails, and the next request starts
// at the next URL: a hung endpoint costs one request, not all of them.
//
// JSON-RPC reads are safe to send twice, and the Reader sends nothing else. The client is dialled
// with a URL without user info, so each URL's own user info, added here, is the only credential a
// request carries: the credentials of one URL are never sent to another.
type failover struct {
	base    http.RoundTripper
	targets []target
	current atomic.Int64 // index of the preferred target
}

// target is one RPC URL, split into the address requests go to and its basic-auth credentials.
type target struct {
	url  *url.URL // without user info
	user *url.Userinfo
}

// newFailover returns a transport over urls (absolute http(s) URLs) that starts with urls[first].
func newFailover(base http.RoundTripper, urls []*url.URL, first int) *failover {
	f := &failover{base: base}
	for _, u := range urls {
		bare := *u
		bare.User = nil
		f.targets = append(f.targets, target{url: &bare, user: u.User})
	}
	f.current.Store(int64(first))
	return f
}

// RoundTrip implements http.RoundTripper.
func (f *failover) RoundTrip(req *http.Request) (*http.Response, error) {
	start := int(f.current.Load())
	for i := 0; ; i++ {
		n := (start + i) % len(f.targets)
		attempt := req.Clone(req.Context())
		if i > 0 {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		f.targets[n].address(attempt)
		resp, err := f.base.RoundTrip(attempt)
		if err == nil && resp.StatusCode/100 == 2 {
			f.current.Store(int64(n))
			return resp, nil
		}
		if errors.Is(req.Context().Err(), context.DeadlineExceeded) {
			f.current.CompareAndSwap(int64(n), int64((n+1)%len(f.targets)))
		}
		if i == len(f.targets)-1 || req.Context().Err() != nil || req.GetBody == nil {
			return resp, err // the last URL, or the caller gave up, or the body cannot be sent again
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
			resp.Body.Close()
		}
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
