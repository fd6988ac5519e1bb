package metering

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/netip"
	"strings"
	"unsafe"
)

// The building blocks of a usage page's columns (usage_page.go): dictionaries, request ids split
// into their millisecond and their random part, and a reader that checks every count and length
// against the bytes left before it allocates.

// dict numbers the distinct values of a column in the order they first appear; idx holds each
// call's number as a uvarint.
type dict[T comparable] struct {
	index  map[T]uint64
	values []T
	idx    []byte
	// last is the value of the previous call: consecutive calls often share it.
	last    T
	lastIdx uint64
	used    bool
	// seen remembers values met by a word that identifies them (addWord), so a value met before
	// is numbered without hashing it or searching for it.
	seen [64]seenWord
}

// seenWord is a value's identifying word and byte length, and its number.
type seenWord struct {
	word, n uintptr
	idx     uint64
	set     bool
}

func (d *dict[T]) reset() {
	if d.index == nil {
		d.index = map[T]uint64{}
	}
	clear(d.index)
	clear(d.seen[:])
	d.values, d.idx, d.used = d.values[:0], d.idx[:0], false
}

func (d *dict[T]) add(v T) {
	if !d.used || v != d.last {
		d.last, d.lastIdx, d.used = v, d.number(v), true
	}
	d.idx = binary.AppendUvarint(d.idx, d.lastIdx)
}

// smallDict is the most values a dictionary searches in order: comparing a few values costs less
// than hashing one (a page's sources, chains and methods are often that few).
const smallDict = 8

// number returns v's number, numbering it when it is new.
func (d *dict[T]) number(v T) uint64 {
	if len(d.values) <= smallDict {
		for i, x := range d.values {
			if x == v {
				return uint64(i)
			}
		}
	} else if i, ok := d.index[v]; ok {
		return i
	}
	i := uint64(len(d.values))
	d.index[v] = i
	d.values = append(d.values, v)
	return i
}

// addWord adds v, which word and n identify among the page's values: no other value of the page
// has both. Most columns hold a few values in random order, where hashing each value and the
// branches of comparing it cost more than the rest of a call's encoding; a word picks its slot
// without a branch on the value.
func (d *dict[T]) addWord(v T, word, n uintptr) {
	s := &d.seen[(word*0x9e3779b97f4a7c15)>>58]
	if s.set && s.word == word && s.n == n {
		d.idx = binary.AppendUvarint(d.idx, s.idx)
		return
	}
	d.add(v)
	*s = seenWord{word, n, d.lastIdx, true}
}

// addString adds s to d, identified by its address and length. A string is never changed, and the
// page's calls hold every string of the page while it is encoded, so no two different strings
// of a page share both; the API records operations, chains, methods and error codes from
// constants, so each of those has one address.
func addString(d *dict[string], s string) {
	d.addWord(s, uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(len(s)))
}

// appendDict appends d's values, their count first, each written by put.
func appendDict[T comparable](b []byte, d *dict[T], put func([]byte, T) []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(d.values)))
	for _, v := range d.values {
		b = put(b, v)
	}
	return b
}

func putInt(b []byte, v int) []byte { return binary.AppendVarint(b, int64(v)) }

func putString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// putAddr appends a's binary form (0, 4, 16 or 16 and zone bytes), its length first.
func putAddr(b []byte, a netip.Addr) []byte {
	bin, _ := a.MarshalBinary() // never fails
	return append(binary.AppendUvarint(b, uint64(len(bin))), bin...)
}

// ridRandom is the random part of a request id, after its 6 bytes of millisecond.
const ridRandom = 10

// parseRequestID splits an id as the API makes it ("req_" and 32 lowercase hex digits, the first
// 12 its Unix millisecond) into its millisecond and its random part; false for any other string.
func parseRequestID(id string) (ms int64, rnd [ridRandom]byte, ok bool) {
	const n = len(requestIDHead) + 32
	if len(id) != n || id[:len(requestIDHead)] != requestIDHead {
		return 0, rnd, false
	}
	var raw [16]byte
	for i := range raw {
		hi, lo := hexDigit[id[len(requestIDHead)+2*i]], hexDigit[id[len(requestIDHead)+2*i+1]]
		if hi|lo > 0xf {
			return 0, rnd, false
		}
		raw[i] = hi<<4 | lo
	}
	for _, b := range raw[:6] {
		ms = ms<<8 | int64(b)
	}
	copy(rnd[:], raw[6:])
	return ms, rnd, true
}

// ridRange finds the least and the greatest of a page's request ids. An API id's order is that of
// its 16 bytes (fixed length, lowercase hex), compared here as two big-endian words instead of as
// a string; other ids are compared as strings.
type ridRange struct {
	parsed, raw        bool
	parsedLo, parsedHi ridWords
	rawLo, rawHi       string
}

// ridWords are an API id's 16 bytes as two big-endian words.
type ridWords [2]uint64

func (a ridWords) less(b ridWords) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }

func (r *ridRange) addParsed(ms int64, rnd [ridRandom]byte) {
	v := ridWords{uint64(ms)<<16 | uint64(rnd[0])<<8 | uint64(rnd[1]), binary.BigEndian.Uint64(rnd[2:])}
	if !r.parsed {
		r.parsed, r.parsedLo, r.parsedHi = true, v, v
		return
	}
	if v.less(r.parsedLo) {
		r.parsedLo = v
	}
	if r.parsedHi.less(v) {
		r.parsedHi = v
	}
}

func (r *ridRange) addRaw(id string) {
	if !r.raw {
		r.raw, r.rawLo, r.rawHi = true, id, id
		return
	}
	r.rawLo, r.rawHi = min(r.rawLo, id), max(r.rawHi, id)
}

// bounds returns the least and the greatest id added; "" for both when none was.
func (r *ridRange) bounds() (lo, hi string) {
	switch {
	case r.parsed && r.raw:
		return min(r.parsedLo.id(), r.rawLo), max(r.parsedHi.id(), r.rawHi)
	case r.parsed:
		return r.parsedLo.id(), r.parsedHi.id()
	default:
		return r.rawLo, r.rawHi
	}
}

// id is the API id of these words.
func (a ridWords) id() string {
	var rnd [ridRandom]byte
	rnd[0], rnd[1] = byte(a[0]>>8), byte(a[0])
	binary.BigEndian.PutUint64(rnd[2:], a[1])
	return requestID(int64(a[0]>>16), rnd[:])
}

// hexDigit is the value of each lowercase hex digit, 0xff for every other byte.
var hexDigit = func() (t [256]byte) {
	for c := range t {
		t[c] = 0xff
		if isHex(byte(c)) {
			t[c] = byte(strings.IndexByte("0123456789abcdef", byte(c)))
		}
	}
	return t
}()

// requestID is the id parseRequestID split; ms must be within 48 bits.
func requestID(ms int64, rnd []byte) string {
	var raw [16]byte
	for i := range 6 {
		raw[i] = byte(ms >> (8 * (5 - i)))
	}
	copy(raw[6:], rnd)
	var s [len(requestIDHead) + 32]byte
	copy(s[:], requestIDHead)
	hex.Encode(s[len(requestIDHead):], raw[:])
	return string(s[:])
}

// pageReader reads a page's body; its first error sticks and every later read returns zero values.
type pageReader struct {
	b   []byte
	err error
}

func (r *pageReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrBadPage, what)
	}
	r.b = nil
}

func (r *pageReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad uvarint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *pageReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes returns the next n bytes, a view of the body.
func (r *pageReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail("length beyond the page")
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// section reads a length-prefixed column.
func (r *pageReader) section() *pageReader {
	return &pageReader{b: r.bytes(r.uvarint()), err: r.err}
}

// count reads a count of items of at least size bytes each, bounded by the bytes left.
func (r *pageReader) count(size int) int {
	n := r.uvarint()
	if n > uint64(len(r.b)/size) {
		r.fail("count beyond the page")
		return 0
	}
	return int(n)
}

// index reads a dictionary index below n.
func (r *pageReader) index(n int) int {
	i := r.uvarint()
	if i >= uint64(n) {
		r.fail("index beyond its dictionary")
		return 0
	}
	return int(i)
}

// done reports r's error, or an error if r has bytes left.
func (r *pageReader) done(what string) error {
	if r.err == nil && len(r.b) > 0 {
		r.fail("trailing bytes in " + what)
	}
	return r.err
}

func (r *pageReader) ints() []int {
	out := make([]int, r.count(1))
	for i := range out {
		out[i] = int(r.varint())
	}
	return out
}

func (r *pageReader) strings() []string {
	out := make([]string, r.count(1))
	for i := range out {
		out[i] = string(r.bytes(r.uvarint()))
	}
	return out
}

func (r *pageReader) addrs() []netip.Addr {
	out := make([]netip.Addr, r.count(1))
	for i := range out {
		if err := out[i].UnmarshalBinary(r.bytes(r.uvarint())); err != nil {
			r.fail("bad address")
		}
	}
	return out
}
