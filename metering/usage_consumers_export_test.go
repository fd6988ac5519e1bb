package metering

import "time"

// ActivitiesQuery exposes ConsumerActivities' SQL for the test that checks its plan.
func (s *UsageStore) ActivitiesQuery(now time.Time) (string, []any, error) {
	return s.activitiesQuery(now)
}
