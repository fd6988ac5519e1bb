//go:build !race

package metering_test

// soakCalls is how many calls TestUsageSoak records: the default buffer, so producers may outrun the
// writer without a call shed.
const soakCalls = 100_000
