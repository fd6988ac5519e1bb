package api

import "strconv"

// storeDownRetryAfter is the Retry-After, in seconds, of a call refused because the database is
// unreachable: the store health watcher probes several times a second, so a second is enough to
// see it back.
const storeDownRetryAfter = 1

// storeDown is the 503 unavailable of an authenticated call refused because the service's database
// is unreachable (Deps.StoreHealth reports err, the private cause). It carries Retry-After and
// retryAfterSec.
func storeDown(err error) *Error {
	secs := storeDownRetryAfter
	e := Errorf(CodeUnavailable, "the service's database is temporarily unreachable; retry shortly")
	e.RetryAfterSec = &secs
	return e.WithCause(err).WithHeader("Retry-After", strconv.Itoa(secs))
}
