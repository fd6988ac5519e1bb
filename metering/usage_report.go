package metering

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagehourly"
)

// MaxReportDays is the longest window Report covers: the retention, in days.
const MaxReportDays = int(UsageRetention / (24 * time.Hour))

// ErrInvalidReport is returned, wrapped, by Report for a window outside 1..MaxReportDays days or a
// negative key id. Callers map it to a bad request.
var ErrInvalidReport = errors.New("invalid usage report")

// summaryBatch bounds the consumer ids of one Summaries query, keeping it under every backend's
// bound-parameter limit.
const summaryBatch = 500

// Totals are calls, cost and errors (calls answered with a status of 400 or more) summed over rollups.
type Totals struct{ Calls, Cost, Errors int64 }

func (t *Totals) add(o Totals) {
	t.Calls += o.Calls
	t.Cost += o.Cost
	t.Errors += o.Errors
}

// StatusCounts are calls by status group, as the hourly rollups count them: OK every answer below
// 400, Client the 4xx other than 429, Limited the 429s and Server the 5xx.
type StatusCounts struct{ OK, Client, Limited, Server int64 }

// statusCountsOf is one call of the status's group.
func statusCountsOf(status int) StatusCounts {
	switch StatusGroup(status) {
	case Group429:
		return StatusCounts{Limited: 1}
	case Group4xx:
		return StatusCounts{Client: 1}
	case Group5xx:
		return StatusCounts{Server: 1}
	}
	return StatusCounts{OK: 1}
}

func (c *StatusCounts) add(o StatusCounts) {
	c.OK += o.OK
	c.Client += o.Client
	c.Limited += o.Limited
	c.Server += o.Server
}

// Calls is the number of calls counted.
func (c StatusCounts) Calls() int64 { return c.OK + c.Client + c.Limited + c.Server }

// Errors is the number of calls answered with a status of 400 or more.
func (c StatusCounts) Errors() int64 { return c.Client + c.Limited + c.Server }

// DayTotals are the totals of one UTC day, named "YYYY-MM-DD" as Day names it.
type DayTotals struct {
	Day string
	Totals
}

// KeyTotals are the totals of one API key.
type KeyTotals struct {
	KeyID int
	Totals
}

// OperationTotals are the totals of one operation.
type OperationTotals struct {
	Operation string
	Totals
}

// Report is a consumer's usage over the last `days` UTC days ending today (inclusive), optionally
// for one key.
type Report struct {
	Days        []DayTotals       // exactly `days` entries, oldest first, zero-filled
	ByKey       []KeyTotals       // keys with calls, most calls first (ties by key id)
	ByOperation []OperationTotals // operations with calls, most calls first (ties by name)
	Total       Totals
}

// Report returns the consumer's usage over the `days` (1..MaxReportDays) UTC days ending with now's
// UTC day, for all its keys (keyID 0) or only keyID. A key of another consumer yields an empty
// report: every row read is filtered by consumerID.
//
// It reads the daily rollups only, never raw calls: at most days x keys x operations rows (4,500 for
// 30 days, 5 keys and 30 operations), whatever the number of calls. One statement (so one snapshot)
// aggregates them twice, by day (in index order) and by key and operation (at most keys x operations
// sums, which give ByKey and ByOperation); a third GROUP BY would cost another pass and sort. It
// returns ErrInvalidReport, wrapped, for days out of range or a negative keyID.
func (s *UsageStore) Report(ctx context.Context, consumerID, keyID, days int, now time.Time) (Report, error) {
	if days < 1 || days > MaxReportDays || keyID < 0 {
		return Report{}, fmt.Errorf("usage report: %w: %d days (1..%d), key %d", ErrInvalidReport, days, MaxReportDays, keyID)
	}
	y, m, d := now.UTC().Date()
	first := time.Date(y, m, d-(days-1), 0, 0, 0, 0, time.UTC)
	dayNames := make([]string, days)
	for i := range dayNames {
		dayNames[i] = Day(first.AddDate(0, 0, i))
	}

	// (day, '', 0, sums) per day UNION ALL ('', operation, key_id, sums) per key and operation.
	t := sql.Dialect(s.dialect).Table(usagedaily.Table)
	dayCol, keyCol, opCol := t.C(usagedaily.FieldDay), t.C(usagedaily.FieldKeyID), t.C(usagedaily.FieldOperation)
	branch := func(day, op, key string, groupBy ...string) *sql.Selector {
		sel := sql.Dialect(s.dialect).Select().From(t)
		sel.AppendSelectExpr(sql.Raw(day), sql.Raw(op), sql.Raw(key))
		sel.AppendSelectExpr(sums(t.C(usagedaily.FieldCalls), t.C(usagedaily.FieldCost), t.C(usagedaily.FieldErrors))...)
		p := []*sql.Predicate{
			sql.EQ(t.C(usagedaily.FieldConsumerID), consumerID),
			sql.GTE(dayCol, dayNames[0]),
			sql.LTE(dayCol, dayNames[days-1]),
		}
		if keyID != 0 {
			p = append(p, sql.EQ(keyCol, keyID))
		}
		return sel.Where(sql.And(p...)).GroupBy(groupBy...)
	}
	q := branch(dayCol, "''", "0", dayCol).UnionAll(branch("''", opCol, keyCol, keyCol, opCol))
	query, args := q.Query()
	if err := q.Err(); err != nil {
		return Report{}, fmt.Errorf("usage report: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return Report{}, fmt.Errorf("usage report: %w", err)
	}
	defer rows.Close()

	byDay := make(map[string]Totals, days)
	byKey := map[int]*Totals{}
	byOp := map[string]*Totals{}
	for rows.Next() {
		var (
			day, op string
			key     int
			t       Totals
		)
		if err := rows.Scan(&day, &op, &key, &t.Calls, &t.Cost, &t.Errors); err != nil {
			return Report{}, fmt.Errorf("usage report: %w", err)
		}
		if day != "" {
			byDay[day] = t
			continue
		}
		if byKey[key] == nil {
			byKey[key] = &Totals{}
		}
		byKey[key].add(t)
		if byOp[op] == nil {
			byOp[op] = &Totals{}
		}
		byOp[op].add(t)
	}
	if err := rows.Err(); err != nil {
		return Report{}, fmt.Errorf("usage report: %w", err)
	}

	r := Report{Days: make([]DayTotals, days)}
	for i, name := range dayNames {
		r.Days[i] = DayTotals{Day: name, Totals: byDay[name]}
		r.Total.add(byDay[name])
	}
	for id, t := range byKey {
		r.ByKey = append(r.ByKey, KeyTotals{KeyID: id, Totals: *t})
	}
	for op, t := range byOp {
		r.ByOperation = append(r.ByOperation, OperationTotals{Operation: op, Totals: *t})
	}
	slices.SortFunc(r.ByKey, func(a, b KeyTotals) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.KeyID, b.KeyID))
	})
	slices.SortFunc(r.ByOperation, func(a, b OperationTotals) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Operation, b.Operation))
	})
	return r, nil
}

// Summary is a consumer's usage over the last 24 hours (the current, partial UTC hour and the 23
// before it) and the last 30 days (the 30 UTC days ending today: the window of a 30-day Report, whose
// Total it equals).
type Summary struct{ Last24h, Last30d Totals }

// Summary windows: which GROUP BY a row of the summaries query comes from.
const (
	window24h = iota
	window30d
)

// Summaries returns the Summary of each of consumerIDs at now, keyed by consumer id; a consumer
// without usage (or unknown) has zero totals. It reads the hourly rollups only, at most 24 + 720
// rows per consumer, in one statement per 500 consumers (one for a page of the consumer list) that
// sums each window per consumer.
func (s *UsageStore) Summaries(ctx context.Context, consumerIDs []int, now time.Time) (map[int]Summary, error) {
	out := make(map[int]Summary, len(consumerIDs))
	for _, id := range consumerIDs {
		out[id] = Summary{}
	}
	ids := slices.Sorted(maps.Keys(out))
	hour := Hour(now)
	y, m, d := now.UTC().Date()
	windows := [...]struct{ from, until time.Time }{
		window24h: {hour.Add(-23 * time.Hour), hour.Add(time.Hour)},
		// Up to the end of today, as the daily rollups of a Report count it.
		window30d: {time.Date(y, m, d-(MaxReportDays-1), 0, 0, 0, 0, time.UTC), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)},
	}
	for len(ids) > 0 {
		batch := ids[:min(len(ids), summaryBatch)]
		ids = ids[len(batch):]

		t := sql.Dialect(s.dialect).Table(usagehourly.Table)
		branch := func(w int) *sql.Selector {
			sel := sql.Dialect(s.dialect).Select().From(t)
			sel.AppendSelectExpr(sql.Raw(fmt.Sprint(w)), sql.Raw(t.C(usagehourly.FieldConsumerID)))
			sel.AppendSelectExpr(sums(t.C(usagehourly.FieldCalls), t.C(usagehourly.FieldCost), t.C(usagehourly.FieldErrors))...)
			return sel.Where(sql.And(
				sql.InInts(t.C(usagehourly.FieldConsumerID), batch...),
				sql.GTE(t.C(usagehourly.FieldHour), windows[w].from),
				sql.LT(t.C(usagehourly.FieldHour), windows[w].until),
			)).GroupBy(t.C(usagehourly.FieldConsumerID))
		}
		q := branch(window24h).UnionAll(branch(window30d))
		query, args := q.Query()
		if err := q.Err(); err != nil {
			return nil, fmt.Errorf("usage summaries: %w", err)
		}
		if err := s.scanSummaries(ctx, query, args, out); err != nil {
			return nil, fmt.Errorf("usage summaries: %w", err)
		}
	}
	return out, nil
}

func (s *UsageStore) scanSummaries(ctx context.Context, query string, args []any, out map[int]Summary) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var w, id int
		var t Totals
		if err := rows.Scan(&w, &id, &t.Calls, &t.Cost, &t.Errors); err != nil {
			return err
		}
		sum := out[id]
		if w == window24h {
			sum.Last24h = t
		} else {
			sum.Last30d = t
		}
		out[id] = sum
	}
	return rows.Err()
}

// sums selects CAST(SUM(col) AS BIGINT) of each (quoted) column: PostgreSQL sums bigints as numeric.
func sums(cols ...string) []sql.Querier {
	out := make([]sql.Querier, len(cols))
	for i, c := range cols {
		out[i] = sql.Raw("CAST(" + sql.Sum(c) + " AS BIGINT)")
	}
	return out
}

// EachDaily calls fn with each of the consumer's daily rollups (of one key, or all for keyID 0) of
// the days since `since` (inclusive), oldest first, by key and operation, as the rows arrive: an
// export streams them without holding them. It stops at fn's first error and returns it.
func (s *UsageStore) EachDaily(ctx context.Context, consumerID, keyID int, since time.Time, fn func(DailyUsage) error) error {
	t := sql.Dialect(s.dialect).Table(usagedaily.Table)
	p := []*sql.Predicate{sql.EQ(t.C(usagedaily.FieldConsumerID), consumerID), sql.GTE(t.C(usagedaily.FieldDay), Day(since))}
	if keyID != 0 {
		p = append(p, sql.EQ(t.C(usagedaily.FieldKeyID), keyID))
	}
	sel := sql.Dialect(s.dialect).Select(t.C(usagedaily.FieldDay), t.C(usagedaily.FieldKeyID), t.C(usagedaily.FieldOperation),
		t.C(usagedaily.FieldCalls), t.C(usagedaily.FieldCost), t.C(usagedaily.FieldErrors)).From(t).
		Where(sql.And(p...)).
		OrderBy(t.C(usagedaily.FieldDay), t.C(usagedaily.FieldKeyID), t.C(usagedaily.FieldOperation))
	query, args := sel.Query()
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("read daily usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d DailyUsage
		if err := rows.Scan(&d.Day, &d.KeyID, &d.Operation, &d.Calls, &d.Cost, &d.Errors); err != nil {
			return fmt.Errorf("read daily usage: %w", err)
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read daily usage: %w", err)
	}
	return nil
}
