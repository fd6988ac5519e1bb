//go:build race

package metering_test

// soakCalls is how many calls TestUsageSoak records: fewer under the race detector, which slows the
// pure-Go SQLite about tenfold.
const soakCalls = 10_000
