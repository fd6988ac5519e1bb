package metering

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent/usagehourly"
)

// ConsumerActivity is one consumer's last 24 hours (the current, partial UTC hour and the 23 before
// it, as Summaries counts them) as the operators' consumer list shows it: calls, units, errors and 429s.
type ConsumerActivity struct {
	Last24h Totals
	// Refused24h are the calls of the last 24 hours answered 429 (rate limited), part of Errors.
	Refused24h int64
}

// ConsumerActivities returns the activity of every consumer with calls in the last 24 hours at now,
// keyed by consumer id, in one query over the hourly rollups (one GROUP BY over the 24 hours, read
// from the hour index alone: it holds every column summed); a consumer without calls has no entry:
// its zero value. It reads 24 index entries a consumer at most, so the list stays fast with many
// consumers; 30-day figures are per consumer (Summaries).
func (s *UsageStore) ConsumerActivities(ctx context.Context, now time.Time) (map[int]ConsumerActivity, error) {
	query, args, err := s.activitiesQuery(now)
	if err != nil {
		return nil, fmt.Errorf("consumer activities: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("consumer activities: %w", err)
	}
	defer rows.Close()
	out := map[int]ConsumerActivity{}
	for rows.Next() {
		var id int
		var a ConsumerActivity
		if err := rows.Scan(&id, &a.Last24h.Calls, &a.Last24h.Cost, &a.Last24h.Errors, &a.Refused24h); err != nil {
			return nil, fmt.Errorf("consumer activities: %w", err)
		}
		out[id] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("consumer activities: %w", err)
	}
	return out, nil
}

// activitiesQuery is ConsumerActivities' query at now.
func (s *UsageStore) activitiesQuery(now time.Time) (string, []any, error) {
	hour := Hour(now)
	t := sql.Dialect(s.dialect).Table(usagehourly.Table)
	sel := sql.Dialect(s.dialect).Select().From(t)
	sel.AppendSelectExpr(sql.Raw(t.C(usagehourly.FieldConsumerID)))
	sel.AppendSelectExpr(sums(t.C(usagehourly.FieldCalls), t.C(usagehourly.FieldCost), t.C(usagehourly.FieldErrors), t.C(usagehourly.FieldCalls429))...)
	sel.Where(sql.And(
		sql.GTE(t.C(usagehourly.FieldHour), hour.Add(-23*time.Hour)),
		sql.LT(t.C(usagehourly.FieldHour), hour.Add(time.Hour)),
	)).GroupBy(t.C(usagehourly.FieldConsumerID))
	query, args := sel.Query()
	return query, args, sel.Err()
}
