package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/partner-platform/partnerd/idempotency"
)

// idempotencyLease is how long an in-flight builder call holds its key before a retry may take it
// over: longer than any handler deadline, so a live call is never taken over, and short enough that
// a crashed call does not lock its key for the whole window.
const idempotencyLease = 2 * time.Minute

// defaultPendingWait is how long a call whose key is in flight waits for the original to finish.
const defaultPendingWait = 5 * time.Second

// idempotent handles Idempotency-Key on builders (stage 6, DESIGN.md section 6): same key and
// identical body bytes within ten minutes replay the stored status and body; a different body is
// 409 idempotency_conflict; a store failure is 503. A call whose key is still in flight waits for
// the original (up to Deps.PendingWait, polling the store) and replays its answer, so concurrent
// duplicates all get the same bytes and the builder runs once; still in flight after that, it is
// 409 idempotency_pending.
func (s *Server) idempotent(ctx huma.Context, next func(huma.Context)) {
	c := callOf(ctx.Context())
	if c == nil || !c.spec.Builder {
		next(ctx)
		return
	}
	key := ctx.Header("Idempotency-Key")
	if e := checkIdempotencyKey(key); e != nil {
		s.writeError(ctx, e)
		return
	}
	body, e := readBody(ctx, s.deps.BodyUploadTimeout)
	if e != nil {
		s.writeError(ctx, e)
		return
	}
	req := idempotency.Request{KeyID: c.principal.KeyID, Key: key, BodyHash: sha256.Sum256(body)}
	out, err := s.begin(ctx.Context(), req)
	if err != nil {
		s.writeError(ctx, unexpected("the idempotency store", err))
		return
	}
	switch out.State {
	case idempotency.Pending:
		s.writeError(ctx, Errorf(CodeIdempotencyPending, "a call with this Idempotency-Key is still in flight"))
		return
	case idempotency.Conflict:
		s.writeError(ctx, Errorf(CodeIdempotencyConflict, "this Idempotency-Key was used with a different body"))
		return
	case idempotency.Replay:
		s.replay(ctx, out.Response)
		return
	}

	rec := &recordingContext{baseContext: ctx, request: body}
	next(rec)

	// Keep the result for replay unless a retry should run the call again: the caller cancelled, the
	// failure was on our side or upstream (5xx), or the answer is transient (a pending confirm). The
	// answer is held back until the record is stored, in one transaction with the confirmation token
	// it hands out: an answer the store did not keep would build anew on a retry, so it becomes a 503
	// instead and leaves no token behind.
	storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx.Context()), 5*time.Second)
	defer cancel()
	status := rec.Status()
	if status >= 500 || status == StatusClientClosedRequest || cancelled(ctx.Context()) || c.transient {
		if err := s.deps.Idempotency.Release(storeCtx, req); err != nil {
			s.releaseLater(req, requestIDOf(ctx), err)
		}
		rec.send()
		return
	}
	res := idempotency.Response{Status: status, Body: rec.response.Bytes(), RequestID: requestIDOf(ctx)}
	if err := s.deps.Idempotency.Finish(storeCtx, req, res, time.Now(), c.keep); err != nil {
		if err := s.deps.Idempotency.Release(storeCtx, req); err != nil {
			s.releaseLater(req, requestIDOf(ctx), err)
		}
		e := unexpected("the idempotency store", err)
		if e.Code == CodeUnavailable {
			e.Message += "; the answer was not kept: retry with the same Idempotency-Key"
		}
		s.writeError(ctx, e)
		return
	}
	rec.send()
}

// releaseRetry is how often releaseLater tries again.
const releaseRetry = 500 * time.Millisecond

// releaseLater keeps trying, in the background, to release a call's record that the store failed to
// release at the end of the call (err), so that a retry after the store is back runs the call
// instead of being refused as pending until the record's lease ends. It tries for half the lease
// at most: a takeover of the key can only come after the whole lease, so a late release never
// removes a newer call's record.
func (s *Server) releaseLater(req idempotency.Request, requestID string, err error) {
	s.log.Warn("release idempotency record; retrying in the background", "requestId", requestID, "err", err)
	go func() {
		for deadline := time.Now().Add(idempotencyLease / 2); time.Now().Before(deadline); {
			time.Sleep(releaseRetry)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := s.deps.Idempotency.Release(ctx, req)
			cancel()
			if err == nil || errors.Is(err, idempotency.ErrNotOwned) {
				return
			}
		}
		s.log.Warn("release idempotency record: gave up; the record's lease ends by itself", "requestId", requestID)
	}()
}

// begin claims the request's key, waiting while the same call is in flight (see idempotent).
func (s *Server) begin(ctx context.Context, req idempotency.Request) (idempotency.Outcome, error) {
	wait := s.deps.PendingWait
	if wait == 0 {
		wait = defaultPendingWait
	}
	deadline := time.Now().Add(wait)
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		out, err := s.deps.Idempotency.Begin(ctx, req, time.Now(), idempotencyLease)
		if err != nil || out.State != idempotency.Pending || time.Now().Add(pause).After(deadline) {
			return out, err
		}
		select {
		case <-ctx.Done():
			return out, nil
		case <-time.After(pause):
		}
	}
}

// replay answers with a finished call's stored status and body. The replay is a request of its own:
// its X-Request-Id is new, an error body's requestId is rewritten to agree with it, and the original
// call's id is sent as Original-Request-Id.
func (s *Server) replay(ctx huma.Context, res idempotency.Response) {
	id := requestIDOf(ctx)
	body := res.Body
	if res.RequestID != "" {
		ctx.SetHeader("Original-Request-Id", res.RequestID)
		body = bytes.Replace(body, []byte(`"requestId":"`+res.RequestID+`"`), []byte(`"requestId":"`+id+`"`), 1)
	}
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetHeader("Idempotent-Replayed", "true")
	ctx.SetStatus(res.Status)
	if c := callOf(ctx.Context()); c != nil {
		c.replayed = true
		if res.Status >= 400 {
			var env struct{ Code string }
			_ = json.Unmarshal(body, &env) // the stored body is our own envelope
			c.answeredError(env.Code, body)
		}
	}
	_, _ = ctx.BodyWriter().Write(body)
}

// checkIdempotencyKey validates the header: 1..128 printable ASCII characters.
func checkIdempotencyKey(key string) *Error {
	if key == "" {
		return Errorf(CodeMissingIdempotencyKey, "builders require an Idempotency-Key header")
	}
	if len(key) > idempotency.MaxKeyLen {
		return Errorf(CodeInvalidIdempotencyKey, "Idempotency-Key must be at most %d characters", idempotency.MaxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return Errorf(CodeInvalidIdempotencyKey, "Idempotency-Key must be printable ASCII without spaces")
		}
	}
	return nil
}

// readBody reads the whole request body under the contract's size and upload-time limits.
func readBody(ctx huma.Context, timeout time.Duration) ([]byte, *Error) {
	if err := ctx.SetReadDeadline(time.Now().Add(timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return nil, internalError(err)
	}
	body, err := io.ReadAll(io.LimitReader(ctx.BodyReader(), maxBodyBytes+1))
	var netErr net.Error
	switch {
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, Errorf(CodeRequestTimeout, "request body was not uploaded within %s", timeout)
	case err != nil:
		return nil, Errorf(CodeInvalidRequest, "cannot read request body").WithCause(err)
	case len(body) > maxBodyBytes:
		return nil, Errorf(CodeBodyTooLarge, "request body is larger than %d bytes", maxBodyBytes)
	}
	return body, nil
}

// baseContext lets recordingContext embed a huma.Context without its field hiding the Context method.
type baseContext huma.Context

// recordingContext hands the handler the already-read body and holds back its status and response
// body until send.
type recordingContext struct {
	baseContext
	request  []byte
	status   int
	response bytes.Buffer
}

// Unwrap returns the wrapped context (humachi.Unwrap follows it).
func (r *recordingContext) Unwrap() huma.Context { return r.baseContext }

func (r *recordingContext) BodyReader() io.Reader { return bytes.NewReader(r.request) }

func (r *recordingContext) SetStatus(code int) { r.status = code }

func (r *recordingContext) Status() int { return r.status }

func (r *recordingContext) BodyWriter() io.Writer { return &r.response }

// send writes the held status and body.
func (r *recordingContext) send() {
	if r.status != 0 {
		r.baseContext.SetStatus(r.status)
	}
	_, _ = r.baseContext.BodyWriter().Write(r.response.Bytes())
}
