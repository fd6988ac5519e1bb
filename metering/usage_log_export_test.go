package metering

// LogQuery exposes the request log's SQL for the tests that check its plans.
func (s *UsageStore) LogQuery(consumerID int, f LogFilter, cur *LogCursor, older bool, limit int) (string, []any) {
	return s.logQuery(consumerID, f, cur, older, limit)
}
