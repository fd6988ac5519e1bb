package metering

// PageQuery exposes the SQL that reads the request log's pages, for the tests that check its plans.
func (s *UsageStore) PageQuery(consumerID int, f LogFilter, cur *LogCursor, older bool) (string, []any) {
	return s.pageQuery(&logRead{consumerID: consumerID, f: f, cur: cur, older: older, chunk: 4}, nil)
}
