package metering

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// A usage page holds up to MaxPageCalls raw calls of one consumer in a columnar encoding
// compressed with S2 (DESIGN.md section 7): EncodePage and DecodePage.
//
// A page is a version byte (pageVersion), the length of an S2 block (uvarint), the block, which
// declares its decoded size, then the 10 random bytes of each API request id (parseRequestID),
// uncompressed (no compressor can shrink them, and mixed with the other columns they would only
// slow it down), and last the CRC-32C of every byte before it (4 bytes, little-endian). Pages of
// version pageVersionZstd, which earlier releases wrote, hold a zstd frame that declares its
// content size (and checksums it) in place of the block, and end with the random bytes. The
// content is the consumer id (varint) and the number of calls (uvarint), then each column below
// as its length in bytes (uvarint) and its bytes, in this order (usage_page_decode.go numbers
// them):
//
//	at          varint per call: its Unix microsecond less the previous call's (the first less 0)
//	flags       a byte per call: flagRated, flagReplayed, flagBody, flagRawRID
//	rid time    varint per API request id: the id's millisecond less the call's
//	rid raw     every other request id: its length (uvarint) and bytes
//	key, operation, chain, method, path, error code, source: each a dictionary (the count of
//	            values, each value: varint key id, or uvarint length and bytes), then a column
//	            of one uvarint index per call
//	status, cost, latency (microseconds): varint per call
//	rate        varint per call with flagRated
//	body length, body rid, body data: per call with flagBody, the error body's length with the
//	            request id cut out (uvarint), where the id was cut (uvarint: 0 none, else the
//	            offset plus 1), and those bytes
//
// Columns keep like values together, so the compressor finds the repeats.

// MaxPageCalls bounds the calls of a page.
const MaxPageCalls = 8192

// Page versions: a page's first byte, the format of what follows.
const (
	pageVersionZstd = 1 // the content in a zstd frame
	pageVersion     = 2 // the content in an S2 block
)

// maxPageBody bounds a page's content before compression, which DecodePage allocates whole.
const maxPageBody = 64 << 20

// zstdMaxBlock is the most a zstd block decodes to. A block takes at least 4 bytes of its frame
// (a 3-byte header and a byte), so no frame decodes to more than that for each 4 of its bytes.
const zstdMaxBlock = 128 << 10

// Bits of a call's flags column.
const (
	flagRated    = 1 << iota // RateRemaining is set: its value is in the rate column
	flagReplayed             // Replayed
	flagBody                 // ErrorBody is set: it is in the body columns
	flagRawRID               // the request id is not the API's: it is in the rid raw column

	flagsKnown = flagRated | flagReplayed | flagBody | flagRawRID
)

// ErrBadPage is DecodePage's answer to bytes EncodePage did not make.
var ErrBadPage = errors.New("metering: not a usage page")

// Pages are compressed with S2 (klauspost/compress, Snappy's format extended) at its default
// level. On a page of 4,096 realistic calls it makes the columns 11.6 bytes a call in 17 ns, where
// zstd's fastest level made 9.5 bytes in 88 ns (11.2 in 55 ns without entropy coding): the writer's
// CPU was the scarcer, and the page, request-id bytes included, stays under 22 bytes a call. The
// zstd decoder reads the pages of version pageVersionZstd; its options are constants, so its
// constructor does not fail, and the cap limit holds it to the content size the frame declares,
// which decodeZstd checks before allocating it.
var (
	castagnoli     = crc32.MakeTable(crc32.Castagnoli)
	pageDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxPageBody), zstd.WithDecodeAllCapLimit(true))
	// pageWriters keeps page encoders' column buffers between pages.
	pageWriters = sync.Pool{New: func() any { return new(pageWriter) }}
)

// EncodePage encodes calls, at most MaxPageCalls of one consumer, in any order, as a page.
// DecodePage returns them as a page keeps them: times in UTC and latencies to the microsecond,
// method, path, error code and error body clipped to their bounds (maxMethod, maxPath,
// maxErrorCode, MaxErrorBody), an empty error body as none. It is safe to call from several goroutines.
func EncodePage(calls []Call) ([]byte, error) {
	page, _, err := encodePage(callView{calls: calls})
	return page, err
}

// encodePage encodes a page and, in the same pass over its calls, makes the summary the store
// indexes it by.
func encodePage(v callView) ([]byte, PageSummary, error) {
	if v.len() > MaxPageCalls {
		return nil, PageSummary{}, fmt.Errorf("encode usage page: %d calls, at most %d", v.len(), MaxPageCalls)
	}
	w := pageWriters.Get().(*pageWriter)
	defer pageWriters.Put(w)
	body, sum, err := w.body(v)
	if err != nil {
		return nil, PageSummary{}, fmt.Errorf("encode usage page: %w", err)
	}
	if n := s2.MaxEncodedLen(len(body)); cap(w.frame) < n {
		w.frame = make([]byte, n)
	}
	w.frame = s2.Encode(w.frame[:cap(w.frame)], body)
	page := make([]byte, 0, 1+binary.MaxVarintLen64+len(w.frame)+len(w.ridRand)+4)
	page = binary.AppendUvarint(append(page, pageVersion), uint64(len(w.frame)))
	page = append(append(page, w.frame...), w.ridRand...)
	return binary.LittleEndian.AppendUint32(page, crc32.Checksum(page, castagnoli)), sum, nil
}

// callView is some of calls without copying them: those at idx, in its order, or every one when
// idx is nil.
type callView struct {
	calls []Call
	idx   []int32
}

func (v callView) len() int {
	if v.idx != nil {
		return len(v.idx)
	}
	return len(v.calls)
}

func (v callView) at(i int) *Call {
	if v.idx != nil {
		return &v.calls[v.idx[i]]
	}
	return &v.calls[i]
}

// pageWriter builds a page's columns.
type pageWriter struct {
	at, flags, ridTime, ridRand, ridRaw []byte
	status, cost, latency, rate         []byte
	bodyLen, bodyRID, bodyData          []byte
	keys                                dict[int]
	ops, chains, methods, paths, codes  dict[string]
	sources                             dict[netip.Addr]
	dictBuf, ridBuf, out, frame         []byte
}

func (w *pageWriter) reset() {
	for _, b := range []*[]byte{&w.at, &w.flags, &w.ridTime, &w.ridRand, &w.ridRaw, &w.status, &w.cost,
		&w.latency, &w.rate, &w.bodyLen, &w.bodyRID, &w.bodyData} {
		*b = (*b)[:0]
	}
	w.keys.reset()
	for _, d := range []*dict[string]{&w.ops, &w.chains, &w.methods, &w.paths, &w.codes} {
		d.reset()
	}
	w.sources.reset()
}

// body is the page's content before compression, valid until w's next use, and the page's
// summary; the random parts of request ids, which go after the frame, are left in w.ridRand.
func (w *pageWriter) body(calls callView) ([]byte, PageSummary, error) {
	w.reset()
	n := calls.len()
	sum := PageSummary{Calls: n, Groups: map[string]int{}}
	var consumer int
	var first, last int64
	if n > 0 {
		c0 := calls.at(0)
		consumer = c0.ConsumerID
		first, last = c0.At.UnixMicro(), c0.At.UnixMicro()
	}
	var ids ridRange
	group, run := "", 0 // calls in a row of one status group, counted once the row ends
	var prev int64
	for i := range n {
		c := calls.at(i)
		if c.ConsumerID != consumer {
			return nil, PageSummary{}, fmt.Errorf("consumers %d and %d in one page", consumer, c.ConsumerID)
		}
		// The time and the latency to the microsecond; method, path, error code and error body
		// clipped to their bounds.
		us := c.At.UnixMicro()
		w.at, prev = binary.AppendVarint(w.at, us-prev), us
		first, last = min(first, us), max(last, us)
		if g := StatusGroup(c.Status); g != group {
			if run > 0 {
				sum.Groups[group] += run
			}
			group, run = g, 0
		}
		run++
		var f byte
		if ms, rnd, ok := parseRequestID(c.RequestID); ok {
			w.ridTime = binary.AppendVarint(w.ridTime, ms-time.UnixMicro(us).UnixMilli())
			w.ridRand = append(w.ridRand, rnd[:]...)
			ids.addParsed(ms, rnd)
		} else {
			f |= flagRawRID
			w.ridRaw = putString(w.ridRaw, c.RequestID)
			ids.addRaw(c.RequestID)
		}
		w.keys.addWord(c.KeyID, uintptr(c.KeyID), 0)
		addString(&w.ops, c.Operation)
		addString(&w.chains, c.Chain)
		addString(&w.methods, clip(c.Method, maxMethod))
		addString(&w.paths, clip(c.Path, maxPath))
		addString(&w.codes, clip(c.ErrorCode, maxErrorCode))
		w.sources.add(c.Source)
		w.status = binary.AppendVarint(w.status, int64(c.Status))
		w.cost = binary.AppendVarint(w.cost, int64(c.Cost))
		w.latency = binary.AppendVarint(w.latency, c.Latency.Microseconds())
		if c.RateRemaining != nil {
			f |= flagRated
			w.rate = binary.AppendVarint(w.rate, int64(*c.RateRemaining))
		}
		if c.Replayed {
			f |= flagReplayed
		}
		if len(c.ErrorBody) > 0 { // an empty body is none, as in a row
			f |= flagBody
			w.addBody(c.ErrorBody[:min(len(c.ErrorBody), MaxErrorBody)], c.RequestID)
		}
		w.flags = append(w.flags, f)
	}
	if n > 0 {
		sum.Groups[group] += run
		sum.ConsumerID = consumer
		sum.First, sum.Last = time.UnixMicro(first).UTC(), time.UnixMicro(last).UTC()
		sum.FirstRequestID, sum.LastRequestID = ids.bounds()
	}
	sum.KeyIDs = slices.Sorted(slices.Values(w.keys.values))
	sum.Operations = slices.Sorted(slices.Values(w.ops.values))
	for _, code := range w.codes.values {
		if code != "" {
			sum.ErrorCodes = append(sum.ErrorCodes, code)
		}
	}
	slices.Sort(sum.ErrorCodes)

	b := binary.AppendVarint(w.out[:0], int64(consumer))
	b = binary.AppendUvarint(b, uint64(n))
	for _, col := range [][]byte{w.at, w.flags, w.ridTime, w.ridRaw} {
		b = appendColumn(b, col)
	}
	w.dictBuf = appendDict(w.dictBuf[:0], &w.keys, putInt)
	b = appendColumn(appendColumn(b, w.dictBuf), w.keys.idx)
	for _, d := range []*dict[string]{&w.ops, &w.chains, &w.methods, &w.paths, &w.codes} {
		w.dictBuf = appendDict(w.dictBuf[:0], d, putString)
		b = appendColumn(appendColumn(b, w.dictBuf), d.idx)
	}
	w.dictBuf = appendDict(w.dictBuf[:0], &w.sources, putAddr)
	b = appendColumn(appendColumn(b, w.dictBuf), w.sources.idx)
	for _, col := range [][]byte{w.status, w.cost, w.latency, w.rate, w.bodyLen, w.bodyRID, w.bodyData} {
		b = appendColumn(b, col)
	}
	w.out = b
	if len(b) > maxPageBody {
		return nil, PageSummary{}, fmt.Errorf("%d bytes before compression, at most %d", len(b), maxPageBody)
	}
	return b, sum, nil
}

// addBody adds an error body to the body columns, without the request id it quotes: the id is in
// its own column already, and its random digits would cost their size again.
func (w *pageWriter) addBody(body []byte, rid string) {
	at := -1
	if rid != "" {
		w.ridBuf = append(w.ridBuf[:0], rid...)
		at = bytes.Index(body, w.ridBuf)
	}
	w.bodyRID = binary.AppendUvarint(w.bodyRID, uint64(at+1))
	if at >= 0 {
		w.bodyData = append(append(w.bodyData, body[:at]...), body[at+len(rid):]...)
		w.bodyLen = binary.AppendUvarint(w.bodyLen, uint64(len(body)-len(rid)))
		return
	}
	w.bodyData = append(w.bodyData, body...)
	w.bodyLen = binary.AppendUvarint(w.bodyLen, uint64(len(body)))
}

func appendColumn(b, col []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(col))), col...)
}

// DecodePage returns the calls of a page made by EncodePage, in the order they were encoded, or
// an error wrapping ErrBadPage. Whatever its input, it allocates for the page's content at most
// maxPageBody bytes, for a zstd frame no more than it could decode to (zstdMaxBlock bytes per 4),
// and for the calls no more than that content bounds. The calls hold no part of the page or of
// its content. It is safe to call from several goroutines.
func DecodePage(page []byte) ([]Call, error) {
	calls, _, err := decodePage(page, pageFilter{})
	return calls, err
}

// pageFilter selects the calls decodePage keeps; the zero value keeps every call.
type pageFilter struct {
	// keep, when set, keeps the calls for which it returns true. It sees each call before its
	// request id and error body are made (RequestID and ErrorBody are empty): those are made only
	// for the calls kept.
	keep func(*Call) bool
	// requestID, when set, keeps only the calls of that request id, compared before the call's id
	// is made.
	requestID string
	// most says the filter keeps most calls, so the results start with room for every call
	// instead of growing.
	most bool
}

// decodePage decodes a page as DecodePage does, keeping only the calls f keeps, and returns them
// with (when f filters) their places in the page.
func decodePage(page []byte, f pageFilter) ([]Call, []int32, error) {
	if len(page) == 0 || page[0] != pageVersion && page[0] != pageVersionZstd {
		return nil, nil, fmt.Errorf("%w: unknown version", ErrBadPage)
	}
	if page[0] == pageVersion {
		n := len(page) - 4
		if n < 1 || crc32.Checksum(page[:n], castagnoli) != binary.LittleEndian.Uint32(page[n:]) {
			return nil, nil, fmt.Errorf("%w: checksum mismatch", ErrBadPage)
		}
		page = page[:n]
	}
	size, n := binary.Uvarint(page[1:])
	if n <= 0 || size > uint64(len(page)-1-n) {
		return nil, nil, fmt.Errorf("%w: bad frame length", ErrBadPage)
	}
	frame, rnd := page[1+n:1+n+int(size)], page[1+n+int(size):]
	// The content is decoded into a buffer kept between pages: the calls copy what they keep of it.
	buf := pageBodies.Get().(*[]byte)
	var body []byte
	var err error
	if page[0] == pageVersionZstd {
		body, err = decodeZstd(frame, *buf)
	} else {
		body, err = decodeS2(frame, *buf)
	}
	if err != nil {
		return nil, nil, err
	}
	calls, places, err := decodeBody(body, rnd, f)
	if cap(body) <= maxPooledBody {
		*buf = body[:0]
		pageBodies.Put(buf)
	}
	return calls, places, err
}

// maxPooledBody bounds the buffers pageBodies keeps: a full page's content is a few hundred KB.
const maxPooledBody = 4 << 20

// pageBodies keeps buffers for decoded page content.
var pageBodies = sync.Pool{New: func() any { return new([]byte) }}

// decodeS2 decodes an S2 block of at most maxPageBody bytes into buf when it has room for it.
func decodeS2(block, buf []byte) ([]byte, error) {
	size, err := s2.DecodedLen(block)
	if err != nil || size > maxPageBody {
		return nil, fmt.Errorf("%w: not an S2 block of a size it can hold", ErrBadPage)
	}
	if cap(buf) < size {
		buf = make([]byte, size)
	}
	body, err := s2.Decode(buf[:size], block)
	if err != nil || len(body) != size {
		return nil, errors.Join(fmt.Errorf("%w: bad S2 block", ErrBadPage), err)
	}
	return body, nil
}

// decodeZstd decodes a zstd frame that declares a content size of at most maxPageBody bytes and
// of no more than the frame could decode to, into buf when it has room for it.
func decodeZstd(frame, buf []byte) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(frame); err != nil || !h.HasFCS || h.FrameContentSize > maxPageBody ||
		h.FrameContentSize > uint64(len(frame)/4)*zstdMaxBlock {
		return nil, fmt.Errorf("%w: not a zstd frame of a size it can hold", ErrBadPage)
	}
	if uint64(cap(buf)) < h.FrameContentSize {
		buf = make([]byte, 0, h.FrameContentSize)
	}
	body, err := pageDecoder.DecodeAll(frame, buf[:0])
	if err != nil || uint64(len(body)) != h.FrameContentSize {
		return nil, errors.Join(fmt.Errorf("%w: bad zstd frame", ErrBadPage), err)
	}
	return body, nil
}
