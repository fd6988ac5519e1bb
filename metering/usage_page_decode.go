package metering

import (
	"bytes"
	"time"
)

// pageColumns is the number of columns of a page: those of its content, in the order
// usage_page.go lists them, and last the random parts of request ids, after the frame.
const pageColumns = 26

// Indexes of the columns in that order.
const (
	colAt = iota
	colFlags
	colRIDTime
	colRIDRaw
	colKeys // each dictionary, then its index column
	colKeyIdx
	colOps
	colOpIdx
	colChains
	colChainIdx
	colMethods
	colMethodIdx
	colPaths
	colPathIdx
	colCodes
	colCodeIdx
	colSources
	colSourceIdx
	colStatus
	colCost
	colLatency
	colRate
	colBodyLen
	colBodyRID
	colBodyData
	colRIDRandom
)

// decodeBody reads a page's content and the random parts of its request ids, keeping the calls
// filter keeps (decodePage). Every count and length is checked against the bytes left before
// anything is allocated for it.
func decodeBody(body, rnd []byte, filter pageFilter) ([]Call, []int32, error) {
	r := &pageReader{b: body}
	consumer := int(r.varint())
	n := r.uvarint()
	var cols [pageColumns]*pageReader
	for i := range colRIDRandom {
		cols[i] = r.section()
	}
	cols[colRIDRandom] = &pageReader{b: rnd}
	if err := r.done("page"); err != nil {
		return nil, nil, err
	}
	if n > MaxPageCalls {
		r.fail("too many calls")
		return nil, nil, r.err
	}
	flags := cols[colFlags].bytes(n) // a byte per call: n is bounded by the page's size too
	if err := cols[colFlags].done("flags"); err != nil {
		return nil, nil, err
	}
	rated := 0
	for _, f := range flags {
		if f&^flagsKnown != 0 {
			r.fail("unknown flags")
			return nil, nil, r.err
		}
		if f&flagRated != 0 {
			rated++
		}
	}
	rates := make([]int, rated)
	keys := cols[colKeys].ints()
	ops, chains, methods := cols[colOps].strings(), cols[colChains].strings(), cols[colMethods].strings()
	paths, codes := cols[colPaths].strings(), cols[colCodes].strings()
	sources := cols[colSources].addrs()
	if err := firstErr(cols[:]); err != nil {
		return nil, nil, err
	}
	// Every call has a value in every dictionary, so none is empty: a bad index reads as 0.
	if n > 0 && min(len(keys), len(ops), len(chains), len(methods), len(paths), len(codes), len(sources)) == 0 {
		r.fail("empty dictionary")
		return nil, nil, r.err
	}

	filters := filter.keep != nil || filter.requestID != ""
	capacity := 0
	if !filters || filter.most {
		capacity = int(n)
	}
	calls := make([]Call, 0, capacity)
	var places []int32 // for decodePage's callers that filter: DecodePage has no use for them
	if filters {
		places = make([]int32, 0, capacity)
	}
	wantMS, wantRnd, wantAPI := parseRequestID(filter.requestID)
	var us int64
	for i := range int(n) {
		var c Call
		f := flags[i]
		us += cols[colAt].varint()
		c.ConsumerID = consumer
		c.At = time.UnixMicro(us).UTC()
		// The request id's parts; the id itself is made once the call is kept.
		var rawRID, rnd []byte
		var ms int64
		if f&flagRawRID != 0 {
			rid := cols[colRIDRaw]
			rawRID = rid.bytes(rid.uvarint())
		} else {
			ms = c.At.UnixMilli() + cols[colRIDTime].varint()
			rnd = cols[colRIDRandom].bytes(ridRandom)
			if ms < 0 || ms >= 1<<48 || rnd == nil {
				r.fail("bad request id")
				break
			}
		}
		c.KeyID = keys[cols[colKeyIdx].index(len(keys))]
		c.Operation = ops[cols[colOpIdx].index(len(ops))]
		c.Chain = chains[cols[colChainIdx].index(len(chains))]
		c.Method = methods[cols[colMethodIdx].index(len(methods))]
		c.Path = paths[cols[colPathIdx].index(len(paths))]
		c.ErrorCode = codes[cols[colCodeIdx].index(len(codes))]
		c.Source = sources[cols[colSourceIdx].index(len(sources))]
		c.Status = int(cols[colStatus].varint())
		c.Cost = int(cols[colCost].varint())
		c.Latency = time.Duration(cols[colLatency].varint()) * time.Microsecond
		if f&flagRated != 0 {
			rates[0] = int(cols[colRate].varint())
			c.RateRemaining, rates = &rates[0], rates[1:]
		}
		c.Replayed = f&flagReplayed != 0
		var body []byte
		var ridAt uint64 // where the body's request id was cut out: 0 none, else the offset plus 1
		if f&flagBody != 0 {
			body, ridAt = cols[colBodyData].bytes(cols[colBodyLen].uvarint()), cols[colBodyRID].uvarint()
			if ridAt > 0 && ridAt-1 > uint64(len(body)) {
				cols[colBodyRID].fail("request id beyond its error body")
			}
		}
		if filter.keep != nil && !filter.keep(&c) {
			continue
		}
		if filter.requestID != "" {
			var same bool
			if rawRID != nil || rnd == nil {
				same = string(rawRID) == filter.requestID
			} else {
				same = wantAPI && ms == wantMS && string(rnd) == string(wantRnd[:])
			}
			if !same {
				continue
			}
		}
		if rawRID != nil || rnd == nil {
			c.RequestID = string(rawRID)
		} else {
			c.RequestID = requestID(ms, rnd)
		}
		if f&flagBody != 0 {
			c.ErrorBody = withRequestID(body, ridAt, c.RequestID)
		}
		calls = append(calls, c)
		if filters {
			places = append(places, int32(i))
		}
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	for i, col := range cols {
		if err := col.done(columnNames[i]); err != nil {
			return nil, nil, err
		}
	}
	if len(calls) == 0 {
		return nil, nil, nil
	}
	return calls, places, nil
}

// withRequestID is a copy of an error body with its request id put back where the page cut it
// out: at is 0 when none was, else the offset plus 1 (at most len(b)+1).
func withRequestID(b []byte, at uint64, rid string) []byte {
	if at == 0 || b == nil {
		return bytes.Clone(b)
	}
	out := make([]byte, 0, len(b)+len(rid))
	return append(append(append(out, b[:at-1]...), rid...), b[at-1:]...)
}

func firstErr(cols []*pageReader) error {
	for _, c := range cols {
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

// columnNames name the columns in errors.
var columnNames = [pageColumns]string{"at", "flags", "rid time", "rid raw", "keys", "key index",
	"operations", "operation index", "chains", "chain index", "methods", "method index", "paths", "path index",
	"error codes", "error code index", "sources", "source index", "status", "cost", "latency", "rate",
	"body length", "body rid", "body data", "rid random"}
