package metering

// PageQuery exposes the SQL that reads the request log's pages, for the tests that check its plans.
func (s *UsageStore) PageQuery(consumerID int, f LogFilter, cur *LogCursor, older bool) (string, []any) {
	return s.pageQuery(&logRead{consumerID: consumerID, f: f, cur: cur, older: older, chunk: 4}, nil)
}

// PageIndexBits exposes how a call's id holds its page's id and its place in the page.
const PageIndexBits = pageIndexBits
