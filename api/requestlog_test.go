package api

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// logCall flushes usage until the call with the request id is in the consumer's request log.
func (e *env) logCall(consumerID int, requestID string) metering.LogCall {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := e.usage.Flush(context.Background()); err != nil {
			e.t.Fatal(err)
		}
		c, err := e.usageDB.LogCall(context.Background(), consumerID, requestID)
		if err == nil {
			return c
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("call %s not recorded for consumer %d", requestID, consumerID)
	return metering.LogCall{}
}

// TestRequestLogRecordsDetail checks what the request log keeps of each kind of answer: a success
// (its rate-limit state at admission), an error written by the pipeline (429), one returned by a
// handler (400, with its envelope), and an idempotent replay of that 400.
func TestRequestLogRecordsDetail(t *testing.T) {
	e := newEnv(t)
	id, key := e.newConsumer(access.ConsumerChange{Scopes: &access.Scopes, RatePerMinute: ptr(0), Burst: ptr(3)})

	ok := e.do(request{path: "/v1/pools/hot?chain=base", key: key})
	c := e.logCall(id, ok.header.Get("X-Request-Id"))
	if c.Method != http.MethodGet || c.Path != "/v1/pools/hot" || c.StatusGroup != metering.StatusGroup(ok.status) ||
		c.Source != "127.0.0.1" || c.RateRemaining == nil || *c.RateRemaining != 2 || c.Replayed {
		t.Fatalf("a %d recorded as %+v (remaining %v)", ok.status, c, c.RateRemaining)
	}
	if ok.status < 400 && (c.ErrorCode != "" || c.ErrorBody != nil) {
		t.Fatalf("a success recorded with an error: %q %s", c.ErrorCode, c.ErrorBody)
	}

	body := `{"chain":"base","user":"` + evmAddr + `","to":"` + evmAddr2 + `","token":"native","amount":"1.5"}`
	build := func() response {
		return e.do(request{method: http.MethodPost, path: "/v1/build/transfer", key: key, body: body, headers: map[string]string{"Idempotency-Key": "log-1"}})
	}
	first := build()
	if first.status != 400 {
		t.Fatalf("build: %d %s", first.status, first.rawBody)
	}
	c = e.logCall(id, first.header.Get("X-Request-Id"))
	if c.Method != http.MethodPost || c.Path != "/v1/build/transfer" || c.StatusGroup != "4xx" || c.ErrorCode != first.code() ||
		c.Replayed || !jsonEqual(t, c.ErrorBody, first.rawBody) {
		t.Fatalf("a 400 recorded as %+v, body %s; answered %s", c, c.ErrorBody, first.rawBody)
	}
	again := build()
	c = e.logCall(id, again.header.Get("X-Request-Id"))
	if !c.Replayed || c.ErrorCode != first.code() || !jsonEqual(t, c.ErrorBody, again.rawBody) {
		t.Fatalf("the replayed 400 recorded as %+v, body %s; answered %s", c, c.ErrorBody, again.rawBody)
	}

	// The bucket (burst 3, no refill) is empty now: a 429 from the pipeline.
	limited := e.do(request{path: "/v1/pools/hot?chain=base", key: key})
	if limited.status != http.StatusTooManyRequests {
		t.Fatalf("fourth call: %d %s", limited.status, limited.rawBody)
	}
	c = e.logCall(id, limited.header.Get("X-Request-Id"))
	if c.StatusGroup != "429" || c.ErrorCode != "rate_limited" || c.RateRemaining == nil || *c.RateRemaining != 0 ||
		!jsonEqual(t, c.ErrorBody, limited.rawBody) || c.Cost != 0 {
		t.Fatalf("a 429 recorded as %+v, body %s; answered %s", c, c.ErrorBody, limited.rawBody)
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, got []byte, want string) bool {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatalf("answered body is not JSON: %s", want)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
