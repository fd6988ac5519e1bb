package metering

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent/usagehourly"
)

// ConsumerActivity is one consumer's usage as the operators' consumer list shows it: the last 24
// hours (the current, partial UTC hour and the 23 before it) with errors and 429s, and the last 30
// UTC days (as Summaries counts them), from the hourly rollups.
type ConsumerActivity struct {
	Last24h Totals
	// Refused24h are the calls of the last 24 hours answered 429 (rate limited), part of Errors.
	Refused24h int64
	Last30d    Totals
}

// ConsumerActivities returns the activity of every consumer with calls in the last 30 days at now,
// keyed by consumer id, in one query over the hourly rollups (one GROUP BY, the 24-hour figures
// summed conditionally beside the 30-day ones). A consumer without calls has no entry: its zero value.
func (s *UsageStore) ConsumerActivities(ctx context.Context, now time.Time) (map[int]ConsumerActivity, error) {
	hour := Hour(now)
	y, m, d := now.UTC().Date()
	from24, until24 := hour.Add(-23*time.Hour), hour.Add(time.Hour)
	from30, until30 := time.Date(y, m, d-(MaxReportDays-1), 0, 0, 0, 0, time.UTC), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)

	b := sql.Dialect(s.dialect)
	t := b.Table(usagehourly.Table)
	hourCol := t.C(usagehourly.FieldHour)
	in24 := func(col string) sql.Querier {
		// CASE WHEN hour >= ? AND hour < ? THEN col ELSE 0 END, summed.
		return sql.ExprFunc(func(x *sql.Builder) {
			x.WriteString("CAST(SUM(CASE WHEN ").Ident(hourCol).WriteString(" >= ").Arg(from24).
				WriteString(" AND ").Ident(hourCol).WriteString(" < ").Arg(until24).
				WriteString(" THEN ").Ident(col).WriteString(" ELSE 0 END) AS BIGINT)")
		})
	}
	sel := b.Select().From(t)
	sel.AppendSelectExpr(
		sql.Raw(t.C(usagehourly.FieldConsumerID)),
		in24(t.C(usagehourly.FieldCalls)), in24(t.C(usagehourly.FieldCost)),
		in24(t.C(usagehourly.FieldErrors)), in24(t.C(usagehourly.FieldCalls429)),
	)
	sel.AppendSelectExpr(sums(t.C(usagehourly.FieldCalls), t.C(usagehourly.FieldCost), t.C(usagehourly.FieldErrors))...)
	sel.Where(sql.And(sql.GTE(hourCol, from30), sql.LT(hourCol, until30))).GroupBy(t.C(usagehourly.FieldConsumerID))
	query, args := sel.Query()
	if err := sel.Err(); err != nil {
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
		if err := rows.Scan(&id, &a.Last24h.Calls, &a.Last24h.Cost, &a.Last24h.Errors, &a.Refused24h,
			&a.Last30d.Calls, &a.Last30d.Cost, &a.Last30d.Errors); err != nil {
			return nil, fmt.Errorf("consumer activities: %w", err)
		}
		out[id] = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("consumer activities: %w", err)
	}
	return out, nil
}
