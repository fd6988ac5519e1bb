package console

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/metering"
)

// withUsageStats rebuilds h's console with Deps.UsageStats reading *stats, and serves that one
// instead (before any request, so the old one never served).
func withUsageStats(h *harness, stats *atomic.Pointer[metering.Stats]) {
	d := h.c.deps
	d.UsageStats = func() metering.Stats { return *stats.Load() }
	h.c = New(d)
	r := chi.NewRouter()
	h.c.Mount(r)
	h.handler = r
	h.ts = httptest.NewServer(r)
	h.t.Cleanup(h.ts.Close)
}

var reDefinition = regexp.MustCompile(`(?s)<dt>(.*?)</dt>\s*<dd>(.*?)</dd>`)

// recordingOf is the labelled values of the usage recording section, by label.
func recordingOf(t *testing.T, body string) map[string]string {
	t.Helper()
	sec := section(body, "Usage recording on this replica")
	if sec == "" {
		t.Fatalf("no usage recording section\n%s", snippet(body))
	}
	out := map[string]string{}
	for _, m := range reDefinition.FindAllStringSubmatch(sec, -1) {
		out[text(m[1])] = text(m[2])
	}
	return out
}

// TestOperatorSeesUsageRecording: the operators' consumer list shows this replica's usage
// recorder (recorded, written, pending with the shedding bound, shed, failed writes) and the bound
// in words; a warning appears once rows were shed or writes failed. Consumers never see it.
func TestOperatorSeesUsageRecording(t *testing.T) {
	h := newHarness(t)
	var stats atomic.Pointer[metering.Stats]
	stats.Store(&metering.Stats{Recorded: 1234567, Counted: 1234567, Written: 1200000, Pending: 34567})
	withUsageStats(h, &stats)
	h.operatorUser("ops@example.com", password)
	ops := h.signedIn("ops@example.com", password)

	page := ops.get("/console/operator/consumers")
	wantStatus(t, page, http.StatusOK)
	got := recordingOf(t, page.body)
	want := map[string]string{
		"Calls recorded":        "1,234,567",
		"Raw call rows written": "1,200,000",
		"Raw call rows pending": "34,567 (shedding starts beyond 100,000)",
		"Raw call rows shed":    "0",
		"Failed writes":         "0",
	}
	for label, v := range want {
		if got[label] != v {
			t.Errorf("%s: %q, want %q (section %q)", label, got[label], v, got)
		}
	}
	sec := text(section(page.body, "Usage recording on this replica"))
	wantContains(t, sec, "never shed", "more than 100,000 raw rows are pending", "their calls still count")
	wantNotContains(t, sec, "Since this replica started, ")

	stats.Store(&metering.Stats{Recorded: 2500000, Counted: 2500000, Written: 2300000, Shed: 100000, Pending: 100000, Failures: 1})
	page = ops.get("/console/operator/consumers")
	got = recordingOf(t, page.body)
	if got["Raw call rows shed"] != "100,000" || got["Failed writes"] != "1" || got["Raw call rows pending"] != "100,000 (shedding starts beyond 100,000)" {
		t.Errorf("after shedding: %q", got)
	}
	wantContains(t, text(section(page.body, "Usage recording on this replica")),
		"Since this replica started, 100,000 raw call rows were shed (their calls are still counted) and 1 write to the database failed (retried)")

	// A consumer's pages do not show it; their own usage page is theirs alone.
	cons := h.consumer("Acme")
	h.consumerUser(cons.ID, "dev@acme.example", password)
	dev := h.signedIn("dev@acme.example", password)
	for _, path := range []string{"/console/keys", "/console/usage", "/console/plan"} {
		wantNotContains(t, dev.get(path).body, "Usage recording on this replica")
	}
}

// TestUsageRecordingLeftOutWithoutStats: a console without UsageStats shows no section.
func TestUsageRecordingLeftOutWithoutStats(t *testing.T) {
	h := newHarness(t)
	h.operatorUser("ops@example.com", password)
	page := h.signedIn("ops@example.com", password).get("/console/operator/consumers")
	wantStatus(t, page, http.StatusOK)
	wantNotContains(t, page.body, "Usage recording on this replica")
}
