package metering_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/metering"
	"github.com/partner-platform/partnerd/metering/meteringtest"
)

// pageKeys are the keys of pageCalls's consumer.
var pageKeys = []int{101, 102, 103, 117}

// pageCalls makes n calls of one consumer (meteringtest.Traffic) about 5 ms apart.
func pageCalls(seed uint64, n int) []metering.Call {
	return meteringtest.NewTraffic(seed, 42, pageKeys, time.Date(2030, time.May, 10, 12, 0, 0, 0, time.UTC), 5*time.Millisecond).Calls(n)
}

func roundTrip(t *testing.T, calls []metering.Call) []metering.Call {
	t.Helper()
	page, err := metering.EncodePage(calls)
	if err != nil {
		t.Fatal(err)
	}
	got, err := metering.DecodePage(page)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func assertCalls(t *testing.T, got, want []metering.Call) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d calls, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("call %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestPageRoundTrip(t *testing.T) {
	for _, n := range []int{1, 2, 100, 4096, metering.MaxPageCalls} {
		calls := pageCalls(uint64(n), n)
		assertCalls(t, roundTrip(t, calls), calls)
	}
}

// TestPageConcurrent encodes and decodes pages from several goroutines at once: the zstd encoder
// and decoder and the column buffers are shared (run it with -race).
func TestPageConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 10 {
				calls := pageCalls(uint64(g*100+i), 50+g*30+i)
				page, err := metering.EncodePage(calls)
				if err != nil {
					t.Error(err)
					return
				}
				got, err := metering.DecodePage(page)
				if err != nil || !reflect.DeepEqual(got, calls) {
					t.Errorf("goroutine %d page %d: %v, or calls differ", g, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestPageEdgeCases(t *testing.T) {
	t0 := time.Date(2030, time.May, 10, 12, 0, 0, 0, time.UTC)
	rid := func(ms int64, tail string) string { return fmt.Sprintf("req_%012x%s", ms, tail) }
	one := metering.Call{ConsumerID: 7, KeyID: 1, Operation: "getTrending", Status: 200, Cost: 1,
		RequestID: rid(t0.UnixMilli(), "00112233445566778899"), At: t0}
	t.Run("empty", func(t *testing.T) {
		if got := roundTrip(t, nil); len(got) != 0 {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("one call, zero values", func(t *testing.T) {
		assertCalls(t, roundTrip(t, []metering.Call{one}), []metering.Call{one})
		assertCalls(t, roundTrip(t, []metering.Call{{}}), []metering.Call{{}})
	})
	t.Run("times equal, out of order, far apart", func(t *testing.T) {
		calls := []metering.Call{one, one, one, one, one}
		calls[2].At = t0.Add(-time.Hour)
		calls[3].At = t0.Add(10 * 365 * 24 * time.Hour)
		calls[4].At = time.Unix(0, 0).UTC()
		assertCalls(t, roundTrip(t, calls), calls)
	})
	t.Run("request ids the API did not make", func(t *testing.T) {
		var calls []metering.Call
		for _, id := range []string{"", "r1", "req_", rid(t0.UnixMilli(), "0011223344556677889"), // one digit short
			rid(t0.UnixMilli(), "00112233445566778899a"), rid(t0.UnixMilli(), "0011223344556677889A"), // long; upper case
			rid(t0.UnixMilli(), "0011223344556677889g"), "REQ_" + rid(t0.UnixMilli(), "00112233445566778899")[4:],
			rid(0, "00000000000000000000"), "req_ffffffffffffffffffffffffffffffff", // API-shaped, far from the call's time
			strings.Repeat("é", 40)} {
			c := one
			c.RequestID = id
			c.ErrorBody = []byte(`{"requestId":"` + id + `"}`)
			calls = append(calls, c)
		}
		assertCalls(t, roundTrip(t, calls), calls)
	})
	t.Run("strings sharing their bytes", func(t *testing.T) {
		// A page numbers a string it met before by its address and length: prefixes of one string
		// share its address, and equal strings may have different ones.
		const s = "/v1/tokens/0xabc/price"
		codes := []string{"", "not_found", strings.Clone("not_found"), "not_found"[:3]}
		var calls []metering.Call
		for i := range 4 * len(s) {
			c := one
			c.Path, c.Operation = s[:i%len(s)], strings.Clone(s[:i%7])
			c.Method, c.Chain, c.ErrorCode = s[1:1+i%3], "base"[:i%5%4], codes[i%len(codes)]
			calls = append(calls, c)
		}
		assertCalls(t, roundTrip(t, calls), calls)
	})
	t.Run("largest values", func(t *testing.T) {
		c := one
		c.Method, c.Path, c.ErrorCode = strings.Repeat("M", 8), "/"+strings.Repeat("p", 511), strings.Repeat("c", 64)
		c.Operation, c.Chain = strings.Repeat("o", 64), strings.Repeat("c", 32)
		c.ErrorBody = bytes.Repeat([]byte{0xff}, metering.MaxErrorBody)
		c.KeyID, c.Status, c.Cost, c.Latency = -1<<63, 1<<62, 1<<63-1, -time.Hour
		r := -1 << 63
		c.RateRemaining = &r
		c.Source = netip.MustParseAddr("fe80::1%" + strings.Repeat("z", 300))
		assertCalls(t, roundTrip(t, []metering.Call{c}), []metering.Call{c})
	})
	t.Run("kept as a raw row kept it", func(t *testing.T) {
		c := one
		c.At = t0.Add(1500 * time.Nanosecond).In(time.FixedZone("X", 3600))
		c.Latency = 2999 * time.Nanosecond
		c.Method, c.Path, c.ErrorCode = strings.Repeat("M", 9), "/"+strings.Repeat("p", 600), strings.Repeat("c", 70)
		c.ErrorBody = bytes.Repeat([]byte("x"), metering.MaxErrorBody+1)
		c.Source = netip.MustParseAddr("::ffff:10.0.0.1")
		empty := one
		empty.ErrorBody = []byte{}
		got := roundTrip(t, []metering.Call{c, empty})
		want := c
		want.At, want.Latency = t0.Add(time.Microsecond), 2*time.Microsecond
		want.Method, want.Path, want.ErrorCode = c.Method[:8], c.Path[:512], c.ErrorCode[:64]
		want.ErrorBody = want.ErrorBody[:metering.MaxErrorBody]
		assertCalls(t, got, []metering.Call{want, one})
		if got[0].At.Location() != time.UTC {
			t.Fatalf("location %v, want UTC", got[0].At.Location())
		}
	})
	t.Run("refused", func(t *testing.T) {
		other := one
		other.ConsumerID = 8
		if _, err := metering.EncodePage([]metering.Call{one, other}); err == nil {
			t.Fatal("two consumers encoded in one page")
		}
		if _, err := metering.EncodePage(make([]metering.Call, metering.MaxPageCalls+1)); err == nil {
			t.Fatal("too many calls encoded")
		}
	})
}

// TestPageErrorBodies checks that an error body quoting its call's request id is stored without
// it: the page grows by far less than the ids' digits.
func TestPageErrorBodies(t *testing.T) {
	calls := pageCalls(3, 2000)
	withBodies, _ := metering.EncodePage(calls)
	for i := range calls {
		calls[i].ErrorBody = nil
	}
	without, _ := metering.EncodePage(calls)
	bodies := 0
	for _, c := range pageCalls(3, 2000) {
		if c.ErrorBody != nil {
			bodies++
		}
	}
	if per := (len(withBodies) - len(without)) / bodies; per > 16 {
		t.Errorf("an error body costs %d bytes", per)
	}
}

func TestDecodePageRefuses(t *testing.T) {
	page, _ := metering.EncodePage(pageCalls(1, 50))
	bad := [][]byte{nil, {}, {0}, {2}, page[:1], page[:len(page)-1], append(bytes.Clone(page), 0)}
	for _, at := range []int{1 + 2, len(page) - 4 - 50*10 - 1, len(page) - 4 - 1, len(page) - 1} {
		// In the block, its last byte, the ids' random parts, the checksum: the checksum finds each.
		flipped := bytes.Clone(page)
		flipped[at] ^= 0x40
		bad = append(bad, flipped)
	}
	for _, b := range bad {
		if _, err := metering.DecodePage(b); !errors.Is(err, metering.ErrBadPage) {
			t.Errorf("DecodePage(%.20x) = %v, want ErrBadPage", b, err)
		}
	}

	// A zstd frame declaring 60 MiB in 12 bytes, and an S2 block declaring 65 MiB (more than a
	// page holds), are refused before anything is allocated for them.
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0, 0, 0xc0, 0x03, 0, 0, 0} // single segment, 4-byte size
	block := binary.AppendUvarint(nil, 65<<20)
	for _, huge := range [][]byte{append([]byte{1, byte(len(frame))}, frame...),
		metering.ResealPage(append(append([]byte{2, byte(len(block))}, block...), 0, 0, 0, 0))} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := metering.DecodePage(huge)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, metering.ErrBadPage) || after.TotalAlloc-before.TotalAlloc > 1<<20 {
			t.Errorf("DecodePage(%x): %v, %d bytes allocated", huge, err, after.TotalAlloc-before.TotalAlloc)
		}
	}
}

// TestDecodeZstdPage decodes a page an earlier release wrote (version 1, zstd; testdata made by
// EncodePage at 3edc9a0 from pageCalls(9, 300)).
func TestDecodeZstdPage(t *testing.T) {
	page, err := os.ReadFile("testdata/page_v1_zstd.bin")
	if err != nil {
		t.Fatal(err)
	}
	if page[0] != 1 {
		t.Fatalf("testdata page of version %d", page[0])
	}
	got, err := metering.DecodePage(page)
	if err != nil {
		t.Fatal(err)
	}
	assertCalls(t, got, roundTrip(t, pageCalls(9, 300)))
}

func FuzzDecodePage(f *testing.F) {
	for _, n := range []int{0, 1, 3, 40} {
		page, _ := metering.EncodePage(pageCalls(uint64(n), n))
		f.Add(page)
	}
	f.Add([]byte{1, 0x28, 0xb5, 0x2f, 0xfd})
	if zstdPage, err := os.ReadFile("testdata/page_v1_zstd.bin"); err == nil {
		f.Add(zstdPage)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// As given, and with the checksum made right, so that changes reach the decoder behind it.
		for _, page := range [][]byte{b, metering.ResealPage(b)} {
			calls, err := metering.DecodePage(page)
			if err != nil {
				continue
			}
			// What decodes encodes again; once encoded (and kept as a page keeps calls), it round-trips.
			kept := roundTrip(t, calls)
			assertCalls(t, roundTrip(t, kept), kept)
		}
	})
}

func TestSummarizePage(t *testing.T) {
	// The request-id range is found on the API's ids as two words and on other ids as strings. Each
	// case sets the ids of some calls: the least and greatest API ids alike in their first word;
	// other ids that sort before, between and after the API's; only other ids (the last case
	// keeps just the calls it sets).
	const lo, hi = "req_00000000000100000000000000000002", "req_ffffffffffff0000000000000000000a"
	cases := [][]string{nil, {lo, "req_00000000000100000000000000000001", hi, "req_ffffffffffff0000000000000000000b"},
		{"abc"}, {"zzz"}, {"req_01", "req_FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", ""}, {"x", "a"}}
	for n, ids := range cases {
		calls := pageCalls(5, 3000)
		calls[10].At, calls[20].At = calls[10].At.Add(time.Hour), calls[20].At.Add(-time.Hour) // out of order
		for i, id := range ids {
			calls[100+i].RequestID = id
		}
		if n == len(cases)-1 {
			calls = calls[100 : 100+len(ids)]
		}
		s := metering.SummarizePage(calls)

		want := metering.PageSummary{ConsumerID: 42, Calls: len(calls), First: calls[0].At, Last: calls[0].At,
			FirstRequestID: calls[0].RequestID, LastRequestID: calls[0].RequestID, Groups: map[string]int{}}
		keys, ops, codes := map[int]bool{}, map[string]bool{}, map[string]bool{}
		for _, c := range calls {
			want.First, want.Last = minTime(want.First, c.At), maxTime(want.Last, c.At)
			want.FirstRequestID, want.LastRequestID = min(want.FirstRequestID, c.RequestID), max(want.LastRequestID, c.RequestID)
			want.Groups[metering.StatusGroup(c.Status)]++
			keys[c.KeyID], ops[c.Operation] = true, true
			if c.ErrorCode != "" {
				codes[c.ErrorCode] = true
			}
		}
		want.KeyIDs, want.Operations, want.ErrorCodes = sortedKeys(keys), sortedKeys(ops), sortedKeys(codes)
		if len(codes) == 0 {
			want.ErrorCodes = nil
		}
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("ids %q: summary\n got %+v\nwant %+v", ids, s, want)
		}
		if len(calls) > 2 && (len(want.ErrorCodes) != len(meteringtest.TrafficErrorCodes()) || len(want.Groups) != 4) { // no 3xx in the mix
			t.Fatalf("the mix lacks errors: %+v", want)
		}
	}

	empty := metering.SummarizePage(nil)
	if empty.Calls != 0 || len(empty.Groups) != 0 {
		t.Fatalf("empty page summary %+v", empty)
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func sortedKeys[T int | string](m map[T]bool) []T {
	out := make([]T, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestDecodedCallsOwnTheirBytes: a page's content is decoded into a buffer the next page reuses, so
// the calls of one page keep nothing of it: decoding other pages leaves them as they were.
func TestDecodedCallsOwnTheirBytes(t *testing.T) {
	withBodies := func(word string) []metering.Call {
		calls := pageCalls(11, 500)
		for i := range calls {
			if i%3 == 0 { // bodies without the request id, which a page keeps as they are
				calls[i].ErrorBody = []byte(fmt.Sprintf(`{"ok":false,"error":"%s %d"}`, word, i))
			}
		}
		return calls
	}
	page, err := metering.EncodePage(withBodies("first"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := metering.DecodePage(page)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 { // pages laid out alike, of other bytes
		roundTrip(t, withBodies("other"))
	}
	assertCalls(t, got, roundTrip(t, withBodies("first")))
}
