package metering

import "time"

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

// decodeBody reads a page's content and the random parts of its request ids. Every count and
// length is checked against the bytes left before anything is allocated for it.
func decodeBody(body, rnd []byte) ([]Call, error) {
	r := &pageReader{b: body}
	consumer := int(r.varint())
	n := r.uvarint()
	var cols [pageColumns]*pageReader
	for i := range colRIDRandom {
		cols[i] = r.section()
	}
	cols[colRIDRandom] = &pageReader{b: rnd}
	if err := r.done("page"); err != nil {
		return nil, err
	}
	if n > MaxPageCalls {
		r.fail("too many calls")
		return nil, r.err
	}
	flags := cols[colFlags].bytes(n) // a byte per call: n is bounded by the page's size too
	if err := cols[colFlags].done("flags"); err != nil {
		return nil, err
	}
	rated := 0
	for _, f := range flags {
		if f&^flagsKnown != 0 {
			r.fail("unknown flags")
			return nil, r.err
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
		return nil, err
	}
	// Every call has a value in every dictionary, so none is empty: a bad index reads as 0.
	if n > 0 && min(len(keys), len(ops), len(chains), len(methods), len(paths), len(codes), len(sources)) == 0 {
		r.fail("empty dictionary")
		return nil, r.err
	}

	calls := make([]Call, n)
	var us int64
	for i := range calls {
		c := &calls[i]
		f := flags[i]
		us += cols[colAt].varint()
		c.ConsumerID = consumer
		c.At = time.UnixMicro(us).UTC()
		if f&flagRawRID != 0 {
			rid := cols[colRIDRaw]
			c.RequestID = string(rid.bytes(rid.uvarint()))
		} else {
			ms := c.At.UnixMilli() + cols[colRIDTime].varint()
			rnd := cols[colRIDRandom].bytes(ridRandom)
			if ms < 0 || ms >= 1<<48 || rnd == nil {
				r.fail("bad request id")
				break
			}
			c.RequestID = requestID(ms, rnd)
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
		if f&flagBody != 0 {
			c.ErrorBody = readBody(cols[colBodyLen], cols[colBodyRID], cols[colBodyData], c.RequestID)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	for i, col := range cols {
		if err := col.done(columnNames[i]); err != nil {
			return nil, err
		}
	}
	if len(calls) == 0 {
		return nil, nil
	}
	return calls, nil
}

// readBody reads an error body, its request id put back where it was cut out.
func readBody(lens, rids, data *pageReader, rid string) []byte {
	b := data.bytes(lens.uvarint())
	at := rids.uvarint()
	switch {
	case at == 0:
		return b[:len(b):len(b)]
	case at-1 > uint64(len(b)):
		rids.fail("request id beyond its error body")
		return nil
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
