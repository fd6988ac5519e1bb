package metering_test

import (
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/store"
)

// benchPageCalls is the calls of a realistic full page (pageCalls).
const benchPageCalls = 4096

// reportPerCall reports the wall time and the CPU time (this process's, which holds on a machine
// busy with other work) of a call, for calls handled b.N times.
func reportPerCall(b *testing.B, cpu func() time.Duration, calls int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/call")
	b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N*calls), "cpu-ns/call")
}

// processCPU starts a clock of this process's CPU time (cpuClock without a database).
func processCPU(b *testing.B) func() time.Duration { return cpuClock(b, &store.Store{}) }

// BenchmarkEncodePage encodes a page of 4,096 realistic calls and reports the CPU and the bytes
// of a call.
func BenchmarkEncodePage(b *testing.B) {
	calls := pageCalls(1, benchPageCalls)
	var page []byte
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		var err error
		if page, err = metering.EncodePage(calls); err != nil {
			b.Fatal(err)
		}
	}
	reportPerCall(b, cpu, benchPageCalls)
	b.ReportMetric(float64(len(page))/benchPageCalls, "bytes/call")
}

// BenchmarkDecodePage decodes that page.
func BenchmarkDecodePage(b *testing.B) {
	page, err := metering.EncodePage(pageCalls(1, benchPageCalls))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := processCPU(b)
	for b.Loop() {
		if _, err := metering.DecodePage(page); err != nil {
			b.Fatal(err)
		}
	}
	reportPerCall(b, cpu, benchPageCalls)
}
