package metering

import (
	"math"
	"sort"
	"time"
)

// Latency histograms: the usage_latency_bands rollup counts each call in one of LatencyBuckets buckets
// whose bounds grow by latencyFactor from latencyFloor. Bucket 0 holds calls under 0.1 ms; bucket i
// (1..60) holds [0.1 ms x 1.25^(i-1), 0.1 ms x 1.25^i); the last bucket holds calls of 1.25^60 x
// 0.1 ms (about 65 s) or more. Sixty-two buckets cover 0.1 ms to a minute at a constant relative
// width, so a percentile read from the histogram (BucketEstimate: the bucket's geometric midpoint)
// is within +11.8% / -10.6% of the true latency for latencies between 0.1 ms and 65 s.
const (
	LatencyBuckets = 62
	latencyFactor  = 1.25
	latencyFloor   = 100 * time.Microsecond
)

// latencyBounds[i] is the lower bound of bucket i+1, a whole number of microseconds: bucket i holds
// latencies from latencyBounds[i-1] (0 for bucket 0) up to, not including, latencyBounds[i].
var latencyBounds = func() []time.Duration {
	b := make([]time.Duration, LatencyBuckets-1)
	for i := range b {
		us := math.Round(float64(latencyFloor.Microseconds()) * math.Pow(latencyFactor, float64(i)))
		b[i] = time.Duration(us) * time.Microsecond
	}
	return b
}()

// LatencyBucket returns the histogram bucket of a latency (0..LatencyBuckets-1).
func LatencyBucket(d time.Duration) int {
	// The first bound above d; bucket i ends at latencyBounds[i].
	return sort.Search(len(latencyBounds), func(i int) bool { return d < latencyBounds[i] })
}

// BucketRange returns the latencies bucket b holds: from lo up to, not including, hi (hi is 0 for
// the last, open-ended bucket).
func BucketRange(b int) (lo, hi time.Duration) {
	switch {
	case b <= 0:
		return 0, latencyFloor
	case b >= LatencyBuckets-1:
		return latencyBounds[len(latencyBounds)-1], 0
	}
	return latencyBounds[b-1], latencyBounds[b]
}

// BucketEstimate is the latency a percentile falling in bucket b is reported as: the geometric
// midpoint of the bucket's bounds (half the floor for bucket 0; the lower bound for the last).
func BucketEstimate(b int) time.Duration {
	lo, hi := BucketRange(b)
	switch {
	case b <= 0:
		return latencyFloor / 2
	case hi == 0:
		return lo
	}
	return time.Duration(math.Round(math.Sqrt(float64(lo) * float64(hi))))
}
