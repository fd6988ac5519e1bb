package metering

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"time"
)

// PageQuery exposes the SQL that reads the request log's pages, for the tests that check its plans.
func (s *UsageStore) PageQuery(consumerID int, f LogFilter, cur *LogCursor, older bool) (string, []any) {
	return s.pageQuery(&logRead{consumerID: consumerID, f: f, cur: cur, older: older, chunk: 4}, nil)
}

// PageIndexBits exposes how a call's id holds its page's id and its place in the page.
const PageIndexBits = pageIndexBits

// NextPageQuery is PageQuery for the chunk after a page of that id and those bounds.
func (s *UsageStore) NextPageQuery(consumerID int, f LogFilter, older bool, id int, firstAt, lastAt time.Time, firstRID, lastRID string) (string, []any) {
	last := &storedPage{id: id, firstAt: firstAt, lastAt: lastAt, firstRequestID: firstRID, lastRequestID: lastRID}
	return s.pageQuery(&logRead{consumerID: consumerID, f: f, older: older, chunk: 4}, last)
}

// SummarizePage is the summary the writer stores with a page of calls (encodePage makes both).
func SummarizePage(calls []Call) PageSummary {
	_, sum, _ := encodePage(callView{calls: calls})
	return sum
}

// ResealPage returns a page of the current version with its checksum made right for its bytes, so
// a fuzzer's changes reach the decoder behind the checksum; other bytes are returned as they are.
func ResealPage(page []byte) []byte {
	if len(page) < 5 || page[0] != pageVersion {
		return page
	}
	n := len(page) - 4
	return binary.LittleEndian.AppendUint32(bytes.Clone(page[:n]), crc32.Checksum(page[:n], castagnoli))
}
